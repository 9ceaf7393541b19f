//! Utility of the release: GCP per QI, the count-query workload and the
//! suppressed rows by reason. Every figure is the core's own
//! (`proxima_core::utility`), so the report agrees with the job summary and
//! `proxima bench`.

use proxima_core::error::CoreResult;
use proxima_core::generalize::Release;
use proxima_core::utility::{attribute_ncp, query_error, WorkloadSpec};
use proxima_core::CoreError;
use proxima_core::Table;

use super::content::{QiLoss, QueryError, Suppressed, Utility};

/// The workload's parameters: the papers' s = 0.1, 1,000 queries, a fixed
/// seed (the report is reproducible), q = 2 and 3.
pub const SELECTIVITY: f64 = 0.1;
pub const QUERIES: usize = 1000;
pub const SEED: u64 = 0;
pub const QS: [usize; 2] = [2, 3];

/// `table` is the release's (the kept rows); `suppressed_by_model` rows
/// count at loss 1 in GCP, as in the job summary.
pub fn utility(
    table: &Table,
    release: &Release,
    missing_values: u64,
    suppressed_by_model: u64,
) -> CoreResult<Utility> {
    let published = release.partition().rows() as f64;
    let gone = suppressed_by_model as f64;
    let per_qi: Vec<QiLoss> = attribute_ncp(table, release)
        .into_iter()
        .zip(table.qis())
        .map(|(ncp, qi)| QiLoss {
            column: qi.name.clone(),
            ncp: if published + gone > 0.0 {
                (ncp * published + gone) / (published + gone)
            } else {
                0.0
            },
        })
        .collect();
    let gcp = if per_qi.is_empty() {
        0.0
    } else {
        per_qi.iter().map(|q| q.ncp).sum::<f64>() / per_qi.len() as f64
    };
    // The workloads are the report's costliest part (1,000 queries over
    // every group each): one thread per q.
    let errors = std::thread::scope(|s| {
        let handles: Vec<_> = QS
            .iter()
            .map(|&q| s.spawn(move || workload(table, release, q)))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .map_err(|_| CoreError::internal("the query workload panicked"))?
            })
            .collect::<CoreResult<Vec<QueryError>>>()
    })?;
    Ok(Utility {
        gcp,
        per_qi,
        query_error: errors,
        suppressed: Suppressed {
            missing_values,
            model: suppressed_by_model,
        },
    })
}

/// The workload for one q (no figure when the table has fewer QIs than q
/// or no SA).
fn workload(table: &Table, release: &Release, q: usize) -> CoreResult<QueryError> {
    let base = QueryError {
        q: q as u64,
        selectivity: SELECTIVITY,
        queries: QUERIES as u64,
        queries_used: 0,
        mean: None,
        median: None,
        seed: SEED,
    };
    if q > table.qis().len() || table.sensitive().is_empty() {
        return Ok(base);
    }
    let spec = WorkloadSpec {
        queries: QUERIES,
        q,
        selectivity: SELECTIVITY,
        seed: SEED,
    };
    let r = query_error(table, release, &spec)?;
    Ok(QueryError {
        queries_used: r.queries_used as u64,
        mean: r.mean_relative_error,
        median: r.median_relative_error,
        ..base
    })
}
