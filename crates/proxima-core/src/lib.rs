//! Proxima's pure core: the table model, hierarchies, sensitive-attribute
//! metrics, the partitioners ((ε,m), XColor, Mondrian), audits and utility.
//!
//! This crate does no I/O beyond parsing bytes it is handed, and depends on no
//! async runtime, database or HTTP crate: the service and the offline CLI map
//! [`error::CoreError`] into their own error shapes.

pub mod attacker;
pub mod audit;
mod columnar;
pub mod epsilon_m;
pub mod error;
pub mod generalize;
pub mod hierarchy;
pub mod ingest;
pub mod metric;
pub mod mondrian;
pub mod neighborhood;
pub mod parallel;
pub mod params;
pub mod partition;
pub mod population;
mod prefetch;
pub mod privacy;
pub mod progress;
pub mod risk;
pub mod run;
mod safe_split;
pub mod schema;
pub mod split;
pub mod stages;
pub mod table;
pub mod table_codec;
mod ticker;
pub mod utility;
pub mod xcolor;

/// The whole-table passes that are not otherwise public, for the tests
/// that count their checkpoints (tests/checkpoints.rs); test support behind
/// the `testing` feature, not an API.
#[cfg(feature = "testing")]
#[doc(hidden)]
pub mod passes {
    use crate::error::CoreResult;
    use crate::progress::Progress;

    /// A column's radix sort (row ids in `f64::total_cmp` order).
    pub fn radix_order(values: &[f64], progress: Progress) -> CoreResult<Vec<u32>> {
        crate::columnar::radix_order_checked(values, progress)
    }

    /// The (ε,m) whole-table window thinning (positions left out).
    pub fn window_thinning(
        sorted: &[f64],
        width: f64,
        m: usize,
        progress: Progress,
    ) -> CoreResult<Vec<usize>> {
        crate::epsilon_m::maxsize::window_thinning(sorted, width, m, progress)
    }
}

pub use error::{CoreError, Detail, ErrorKind, Field, FieldError};
pub use hierarchy::Hierarchy;
pub use partition::{Partition, Placement};
pub use progress::Progress;
pub use schema::Schema;
pub use table::Table;
