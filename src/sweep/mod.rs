//! Risk–utility sweeps (docs/api.md §Sweeps, docs/sweeps.md): one request, a
//! grid of ordinary jobs spread over every worker and replica, and the R-U
//! map of their releases.
//!
//! * [`grid`]: the request's lists → one job request per point;
//! * [`frontier`]: the Pareto front (pure, unit-tested);
//! * [`resource`]: a stored sweep and its jobs → the `Sweep` resource;
//! * [`report`]: the HTML and JSON report;
//! * [`openapi`]: the request's schema, derived from the job's.

pub mod frontier;
pub mod grid;
pub mod openapi;
pub mod report;
pub mod resource;

use proxima_core::utility::{self, Published, WorkloadSpec};

/// The seed of a sweep point's count-query workload: fixed, so every point
/// is measured on the same queries and the figures compare.
pub const WORKLOAD_SEED: u64 = 20_080_101;

/// The count-query workload of a sweep point: q = 2 QIs and the SA,
/// selectivity 0.1, 1,000 queries (the papers' defaults; docs/benchmarks.md
/// §"Query error workload").
pub fn workload() -> WorkloadSpec {
    WorkloadSpec {
        queries: 1000,
        q: 2,
        selectivity: 0.1,
        seed: WORKLOAD_SEED,
    }
}

/// The mean and median relative error of [`workload`] on a release, the
/// true counts taken on its original table (rows the job left out count
/// there and are missing from the estimates); both `None` when the table
/// has fewer than two QIs or no query had a non-zero count.
pub fn query_error(published: &Published) -> (Option<f64>, Option<f64>) {
    if published.original.qis().len() < 2 {
        return (None, None);
    }
    utility::query_error(published, &workload())
        .ok()
        .map_or((None, None), |w| {
            (w.mean_relative_error, w.median_relative_error)
        })
}
