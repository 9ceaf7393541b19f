//! Utility of a release (docs/design.md §4 "Utility", docs/benchmarks.md §Utility).
//!
//! * [`ncp`]: the normalized certainty penalty per attribute, its table
//!   average (GCP), the papers' per-group loss(G), discernibility and the
//!   average group size.
//! * [`workload`]: the papers' count-query workload and its mean and median relative
//!   error.

pub mod ncp;
pub mod workload;

pub use ncp::{
    attribute_ncp, discernibility, gcp, group_loss, metrics, qi_ncp, QiExtents, UtilityMetrics,
};
pub use workload::{
    query_answers, query_error, query_errors, sa_predicates, Published, QueryAnswer,
    WorkloadResult, WorkloadSpec, STANDARD_QUERIES, STANDARD_SEED, STANDARD_SELECTIVITY,
};
