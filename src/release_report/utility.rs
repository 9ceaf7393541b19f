//! Utility of the release: GCP per QI, the count-query workload and the
//! suppressed rows by reason. Every figure is the core's own
//! (`proxima_core::utility`), so the report agrees with the job summary and
//! `proxima bench`.

use proxima_core::epsilon_m::minimum_suppression;
use proxima_core::error::CoreResult;
use proxima_core::run::Anonymized;
use proxima_core::utility::{attribute_ncp, query_errors, Published, WorkloadSpec};
use proxima_core::Table;

use super::content::{QiLoss, QueryError, Suppressed, Utility};
use crate::api::model::epsilon_m_params;
use crate::api::ModelDto;

/// The workload's parameters: the core's standard workload (the papers'
/// s = 0.1, 1,000 queries, the one fixed seed the sweeps and the bench use
/// too, so the same release shows the same figure everywhere), for q = 2
/// and 3 QIs (plus the SA; docs/benchmarks.md §"Query error workload").
pub const SELECTIVITY: f64 = proxima_core::utility::STANDARD_SELECTIVITY;
pub const QUERIES: usize = proxima_core::utility::STANDARD_QUERIES;
pub const SEED: u64 = proxima_core::utility::STANDARD_SEED;
pub const QS: [usize; 2] = [2, 3];

/// `original` is the table the job ran on, `model` the job's. Rows the
/// model left out count at loss 1 in GCP, as in the job summary, and in
/// the true answers of the count queries (their estimates miss them).
pub fn utility(
    original: &Table,
    anonymized: &Anonymized,
    missing_values: u64,
    model: &ModelDto,
) -> CoreResult<Utility> {
    let table = anonymized.table(original);
    let release = &anonymized.release;
    let suppressed_by_model = anonymized.suppressed_by_model() as u64;
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
    let query_error = workloads(&anonymized.published(original))?;
    Ok(Utility {
        gcp,
        per_qi,
        query_error,
        suppressed: Suppressed {
            missing_values,
            model: suppressed_by_model,
            model_share: if published + gone > 0.0 {
                gone / (published + gone)
            } else {
                0.0
            },
            model_minimum_share: least_share(original, model)?,
        },
    })
}

/// For (ε,m): the lower bound on the share of rows any release at the
/// job's parameters leaves out (`epsilon_m::minimum_suppression`).
fn least_share(original: &Table, model: &ModelDto) -> CoreResult<Option<f64>> {
    let ModelDto::EpsilonM {
        epsilon,
        m,
        neighborhood,
    } = model
    else {
        return Ok(None);
    };
    let Some(sa) = original.single_numeric_sa() else {
        return Ok(None);
    };
    if sa.is_empty() {
        return Ok(None);
    }
    let p = epsilon_m_params(epsilon, m, *neighborhood, "/model")?;
    Ok(Some(
        minimum_suppression(sa, p.epsilon, p.m, p.neighborhood)?.share(),
    ))
}

/// The workloads for q = 2 and 3 over one index of the release (the
/// index holds a copy of the published keys per row; one serves both, each
/// q on its own thread). A q above the table's QIs, or a table without SA,
/// has no figure.
fn workloads(published: &Published) -> CoreResult<Vec<QueryError>> {
    let table = published.original;
    let base = |q: usize| QueryError {
        q: q as u64,
        sa_predicates: 0,
        selectivity: SELECTIVITY,
        queries: QUERIES as u64,
        queries_used: 0,
        mean: None,
        median: None,
        seed: SEED,
    };
    let measurable = |q: usize| q <= table.qis().len() && !table.sensitive().is_empty();
    let specs: Vec<WorkloadSpec> = QS
        .iter()
        .filter(|&&q| measurable(q))
        .map(|&q| WorkloadSpec::standard(q))
        .collect();
    let mut measured = query_errors(published, &specs)?.into_iter();
    Ok(QS
        .iter()
        .map(
            |&q| match measurable(q).then(|| measured.next()).flatten() {
                Some(r) => QueryError {
                    queries_used: r.queries_used as u64,
                    sa_predicates: r.sa_predicates as u64,
                    mean: r.mean_relative_error,
                    median: r.median_relative_error,
                    ..base(q)
                },
                None => base(q),
            },
        )
        .collect())
}
