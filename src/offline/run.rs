//! Runs a validated job on a table: the partitioner its algorithm names,
//! then the generalization into a release.

use proxima_core::epsilon_m;
use proxima_core::error::CoreResult;
use proxima_core::generalize::{generalize, Release};
use proxima_core::metric::{MetricSpec, SensitiveSpace};
use proxima_core::mondrian;
use proxima_core::params::{Algorithm, PrivacyModel};
use proxima_core::xcolor::{self, InitialColoring, XColorOptions};
use proxima_core::{CoreError, Partition, Progress, Table};

use crate::spec::{InitialColoringDto, JobSpec};

/// The partition of `table` under the job, by its algorithm.
pub fn partition(table: &Table, job: &JobSpec, progress: Progress) -> CoreResult<Partition> {
    match (job.algorithm, &job.model) {
        (Algorithm::EpsilonM, PrivacyModel::EpsilonM(params)) => {
            epsilon_m::anonymize(table, params, progress)
        }
        (Algorithm::Mondrian, PrivacyModel::EpsilonM(params)) => {
            // Mondrian as the (ε,m) baseline: a cut is taken only when both
            // halves are (ε,m)-anonymous themselves, so every group is.
            let sa = table.single_numeric_sa().ok_or_else(|| {
                CoreError::invalid_parameters(
                    "/model",
                    "(epsilon, m)-anonymity needs exactly one numeric sensitive column",
                )
            })?;
            epsilon_m::check_feasible(sa, params)?;
            mondrian::anonymize_with(
                table,
                |rows: &[u32]| {
                    let values: Vec<f64> = rows.iter().map(|&r| sa[r as usize]).collect();
                    epsilon_m::group_satisfies(&values, params)
                },
                progress,
            )
        }
        (Algorithm::Mondrian, model) => mondrian::anonymize(table, model, progress),
        (Algorithm::XColor, PrivacyModel::Dissimilarity(params)) => {
            let spec = match &job.metric {
                Some(spec) => spec.clone(),
                None => MetricSpec::default_for(table)?,
            };
            let space = SensitiveSpace::new(table, &spec)?;
            let options = XColorOptions {
                initial: match job.xcolor_initial.unwrap_or_default() {
                    InitialColoringDto::QiAware => InitialColoring::QiAware,
                    InitialColoringDto::DegreeBalanced => InitialColoring::DegreeBalanced,
                },
            };
            xcolor::anonymize(table, &space, params, &options, progress)
        }
        (algorithm, model) => Err(CoreError::internal(format!(
            "algorithm {} was validated for model {} but cannot run it",
            algorithm.name(),
            model.kind_name()
        ))),
    }
}

/// Partitions and generalizes.
pub fn run_job(table: &Table, job: &JobSpec, progress: Progress) -> CoreResult<Release> {
    let partition = partition(table, job, progress)?;
    generalize(table, partition)
}
