//! Preparing jobs before they are queued: parsed requests (`JobRequest`)
//! checked against their dataset's table — the pair of model and
//! algorithm, the SA's type, feasibility (Theorem 1, k ≤ rows …, with the
//! reachable values in the error's details) — and resolved into the
//! `JobParams` each job is stored and run with, with what is known before
//! queueing that may make it fail. `POST /v1/jobs` prepares one request,
//! a sweep all its points on one load of the table.
//!
//! Reading is async ([`read_inputs`]), checking is blocking ([`check`]):
//! the caller runs the check where its computations run (the HTTP adapter
//! under its computation caps), and takes its slot before reading, since
//! the load is most of a check's memory.

use proxima_core::error::CoreResult;
use proxima_core::population::PopulationIndex;
use proxima_core::{CoreError, Progress, Table};

use super::tables::{load_stored_with_progress, Stored};
use crate::api::{JobParams, JobRequest, JobWarningDto, MetricDto};
use crate::store::datasets::DatasetRow;
use crate::store::Store;

/// A request checked against its table: what the job runs with, and what
/// is known before queueing that may make it fail.
#[derive(Debug, Clone)]
pub struct Checked {
    pub params: JobParams,
    pub warnings: Vec<JobWarningDto>,
}

/// What checking requests on one dataset reads: the dataset and its
/// stored files (with its population table's when a requested model needs
/// it).
pub struct Inputs {
    dataset: DatasetRow,
    stored: Stored,
}

/// Reads what [`check`] needs for `requests` on `dataset`.
pub async fn read_inputs(
    store: &Store,
    dataset: DatasetRow,
    requests: &[JobRequest],
) -> anyhow::Result<Inputs> {
    let with_population = requests.iter().any(|r| r.model.needs_population());
    let stored = super::tables::read(store, &dataset, with_population).await?;
    Ok(Inputs { dataset, stored })
}

/// Checks several requests on one dataset, loading the table once
/// (blocking): one answer per request, in order. The error of the whole
/// call is what every request shares (the load).
pub fn check(
    inputs: &Inputs,
    requests: &[JobRequest],
    progress: Progress,
) -> CoreResult<Vec<CoreResult<Checked>>> {
    let table = load_stored_with_progress(&inputs.dataset.schema, &inputs.stored.files, progress)?;
    let index = match &inputs.stored.population {
        Some((row, files)) => {
            let population = load_stored_with_progress(&row.schema, files, progress)?;
            Some(PopulationIndex::for_release(
                &table,
                &population,
                "/dataset_id",
                progress,
            )?)
        }
        None => None,
    };
    Ok(requests
        .iter()
        .map(|r| check_one(&table, index.as_ref(), r))
        .collect())
}

/// One request against the loaded table (see [`check`]). For the
/// dissimilarity model (the one model that takes a metric) the metric in
/// force — the requested one or the SA's default — is resolved, so the job
/// shows what is applied.
fn check_one(
    table: &Table,
    population: Option<&PopulationIndex>,
    request: &JobRequest,
) -> CoreResult<Checked> {
    let spec = request.to_spec(table.schema())?;
    proxima_core::run::validate_with(table, &spec, population)?;
    let metric = match spec.model {
        proxima_core::params::PrivacyModel::Dissimilarity(_) => {
            Some(MetricDto::from_spec(&spec.resolved_metric(table)?))
        }
        _ => None,
    };
    let warnings = warnings_of(table, &spec)?;
    Ok(Checked {
        params: request.clone().resolved(&spec, metric),
        warnings,
    })
}

/// What can be known before queueing without running the job. For (ε,m):
/// an m that Theorem 1 allows (else `validate` refused it) but above the m
/// the service delivers for sure on this table (the whole table as one
/// group passes; `epsilon_m::deliverable_max_m`, the feasibility answer's
/// `deliverable.max_m`) may fail with `model_not_satisfied` — not must:
/// the engine's groups may still pass, or the suppression limit absorb the
/// rest. Cheap: one sort of the SA.
fn warnings_of(
    table: &Table,
    spec: &proxima_core::run::JobSpec,
) -> Result<Vec<JobWarningDto>, CoreError> {
    let proxima_core::params::PrivacyModel::EpsilonM(p) = &spec.model else {
        return Ok(Vec::new());
    };
    let Some(sa) = table.single_numeric_sa().filter(|sa| !sa.is_empty()) else {
        return Ok(Vec::new());
    };
    let deliverable = proxima_core::epsilon_m::deliverable_max_m(sa, p.epsilon, p.neighborhood)?;
    let m = p.m.get();
    if m <= deliverable {
        return Ok(Vec::new());
    }
    let limit = spec.suppression_limit.get();
    let remedy = if limit > 0.0 {
        format!(
            "the job leaves rows out within its suppression_limit ({limit}) and fails with \
             model_not_satisfied if that is not enough"
        )
    } else {
        "the job may fail with model_not_satisfied; a suppression_limit lets it leave rows \
         out instead"
            .to_string()
    };
    Ok(vec![JobWarningDto {
        code: "beyond_deliverable".into(),
        message: format!(
            "m = {m} is within Theorem 1's bound for this table, but above what the service \
             delivers for sure (m ≤ {deliverable} without leaving rows out, the feasibility \
             answer's deliverable.max_m): {remedy}"
        ),
        details: crate::api::job_resource::JobWarningDetailsDto {
            m: m as u64,
            deliverable_max_m: deliverable as u64,
            suppression_limit: limit,
        },
    }])
}
