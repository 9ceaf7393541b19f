//! Risk–utility sweeps (docs/api.md §Sweeps, docs/sweeps.md): one request, a
//! grid of ordinary jobs spread over every worker and replica, and the R-U
//! map of their releases.
//!
//! * [`grid`]: the request's lists → one job request per point;
//! * [`frontier`]: the Pareto front (pure, unit-tested);
//! * [`resource`]: a stored sweep and its jobs → the `Sweep` resource;
//! * [`report`]: the HTML and JSON report;
//! * [`openapi`]: the request's schema type (its model is derived from the
//!   job's in `http::openapi::sweep`).

pub mod frontier;
pub mod grid;
pub mod openapi;
pub mod resource;
pub mod ru_map;

use proxima_core::utility::{self, Published, WorkloadSpec};

/// The count-query workload of a sweep point: the standard one with q = 2
/// QIs and the SA (`WorkloadSpec::standard`), the same queries as the q = 2
/// row of the point's release report and the bench, so the figures agree.
pub fn workload() -> WorkloadSpec {
    WorkloadSpec::standard(2)
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
