//! The core's single entry point for a job: check a request against the
//! table before queueing, run the partitioner the request names, and build
//! the release and its audit. The service's worker and the offline CLI both
//! call these, so they give the same answers and the same errors.

use crate::audit::{self, AuditCheck, AuditReport};
use crate::epsilon_m;
use crate::error::{CoreError, CoreResult};
use crate::generalize::{self, Release};
use crate::metric::{MetricSpec, SensitiveSpace};
use crate::mondrian;
use crate::params::{
    Algorithm, Epsilon, Fraction, LDiversityVariant, Neighborhood, PrivacyModel, M,
};
use crate::progress::Progress;
use crate::table::Table;
use crate::xcolor::{self, XColorOptions};

/// A parsed job request.
#[derive(Debug, Clone)]
pub struct JobSpec {
    pub model: PrivacyModel,
    pub algorithm: Algorithm,
    /// The metric the request named; `None` = the SA's default.
    pub metric: Option<MetricSpec>,
    pub xcolor: XColorOptions,
}

impl JobSpec {
    /// The metric in force: the requested one or the SA's default.
    pub fn resolved_metric(&self, table: &Table) -> CoreResult<MetricSpec> {
        match &self.metric {
            Some(m) => Ok(m.clone()),
            None => MetricSpec::default_for(table),
        }
    }
}

/// Rejects model/algorithm pairs no partitioner implements.
pub fn check_algorithm(model: &PrivacyModel, algorithm: Algorithm) -> CoreResult<()> {
    let ok = matches!(
        (model, algorithm),
        (
            PrivacyModel::EpsilonM(_),
            Algorithm::EpsilonM | Algorithm::Mondrian
        ) | (PrivacyModel::Dissimilarity(_), Algorithm::XColor)
            | (
                PrivacyModel::KAnonymity(_)
                    | PrivacyModel::LDiversity(_)
                    | PrivacyModel::TCloseness(_),
                Algorithm::Mondrian
            )
    );
    if ok {
        Ok(())
    } else {
        let supported = match model {
            PrivacyModel::EpsilonM(_) => "epsilon_m or mondrian",
            PrivacyModel::Dissimilarity(_) => "xcolor",
            _ => "mondrian",
        };
        Err(CoreError::invalid_parameters(
            "/algorithm",
            format!(
                "algorithm '{}' does not implement the '{}' model; use {}",
                algorithm.name(),
                model.kind_name(),
                supported
            ),
        ))
    }
}

/// The numeric values of the table's single numeric SA column, or the
/// error (ε,m) gives when the SA is anything else.
fn numeric_sa(table: &Table) -> CoreResult<&[f64]> {
    table.single_numeric_sa().ok_or_else(|| {
        CoreError::invalid_parameters(
            "/model",
            "(epsilon, m)-anonymity needs exactly one numeric sensitive column",
        )
    })
}

/// Checks a request against the table before it is queued: the model fits
/// the algorithm and the SA, and the parameters are reachable on this data
/// (Theorem 1 for (ε,m); k ≤ rows; the whole table satisfies a Mondrian
/// constraint). Errors carry the reachable values in their details.
pub fn validate(table: &Table, spec: &JobSpec) -> CoreResult<()> {
    check_algorithm(&spec.model, spec.algorithm)?;
    match &spec.model {
        PrivacyModel::EpsilonM(params) => {
            if spec.metric.is_some() {
                return Err(CoreError::invalid_parameters(
                    "/sensitive_metric",
                    "(epsilon, m)-anonymity takes its neighbourhood from the model's 'neighborhood'; omit sensitive_metric",
                ));
            }
            numeric_sa(table)?;
            epsilon_m::check_feasible_in(table, params)?;
        }
        PrivacyModel::Dissimilarity(params) => {
            let space = SensitiveSpace::new(table, &spec.resolved_metric(table)?)?;
            if matches!(space.kind(), crate::metric::SpaceKind::Relative { .. }) {
                return Err(CoreError::invalid_parameters(
                    "/sensitive_metric",
                    "dissimilarity needs a symmetric metric; 'relative' neighbourhoods are not symmetric (use absolute or lp)",
                ));
            }
            if params.k.get() > table.rows() {
                return Err(CoreError::new(
                    crate::error::ErrorKind::InfeasibleParameters,
                    format!(
                        "k = {} exceeds the {} rows of the dataset",
                        params.k.get(),
                        table.rows()
                    ),
                )
                .with_error("/model/k", format!("at most {}", table.rows()))
                .with_detail("max_k", table.rows()));
            }
        }
        _ => {
            if spec.metric.is_some() {
                return Err(CoreError::invalid_parameters(
                    "/sensitive_metric",
                    "sensitive_metric applies to the dissimilarity model only",
                ));
            }
            let constraint = mondrian::Constraint::for_model(table, &spec.model)?;
            let all: Vec<u32> = (0..table.rows() as u32).collect();
            if !constraint.allows(&all) {
                return Err(CoreError::new(
                    crate::error::ErrorKind::InfeasibleParameters,
                    "the whole table does not satisfy the model, so no partition can",
                ));
            }
        }
    }
    Ok(())
}

/// Runs the partitioner a request names and generalizes its partition.
pub fn anonymize(table: &Table, spec: &JobSpec, progress: Progress) -> CoreResult<Release> {
    validate(table, spec)?;
    progress.report(0.0)?;
    let partition = match (&spec.model, spec.algorithm) {
        (PrivacyModel::EpsilonM(params), Algorithm::EpsilonM) => {
            epsilon_m::anonymize(table, params, progress)?
        }
        (PrivacyModel::EpsilonM(params), Algorithm::Mondrian) => {
            let values = numeric_sa(table)?;
            mondrian::anonymize_with(
                table,
                |rows: &[u32]| {
                    let group: Vec<f64> = rows.iter().map(|&r| values[r as usize]).collect();
                    epsilon_m::group_satisfies(&group, params)
                },
                progress,
            )?
        }
        (PrivacyModel::Dissimilarity(params), Algorithm::XColor) => {
            let space = SensitiveSpace::new(table, &spec.resolved_metric(table)?)?;
            xcolor::anonymize(table, &space, params, &spec.xcolor, progress)?
        }
        (model, Algorithm::Mondrian) => mondrian::anonymize(table, model, progress)?,
        (model, algorithm) => {
            // validate() rejects these; reaching here is a bug.
            return Err(CoreError::internal(format!(
                "no partitioner for {} with {}",
                model.kind_name(),
                algorithm.name()
            )));
        }
    };
    // The partitioners report up to 1.0 of `progress`; ordering and
    // generalizing the groups only checks for cancellation there.
    generalize::generalize_with_progress(table, partition, progress.sub(1.0, 1.0))
}

/// The checks of a job's audit (API.md: the job's model, plus k-anonymity,
/// distinct l-diversity and — always in the report — prosecutor risk).
/// The first check is the model's own.
pub fn job_audit_checks(table: &Table, spec: &JobSpec) -> CoreResult<Vec<AuditCheck>> {
    let mut checks = Vec::new();
    let k = match &spec.model {
        PrivacyModel::EpsilonM(p) => {
            checks.push(AuditCheck::EpsilonM(*p));
            // A group of fewer than m rows cannot be (ε,m)-anonymous.
            crate::params::K::new(p.m.get() as u64, "/model/m")?
        }
        PrivacyModel::Dissimilarity(p) => {
            checks.push(AuditCheck::Dissimilarity {
                params: *p,
                metric: Some(spec.resolved_metric(table)?),
            });
            p.k
        }
        PrivacyModel::KAnonymity(k) => *k,
        PrivacyModel::LDiversity(p) => {
            checks.push(AuditCheck::LDiversity {
                l: p.l,
                variant: p.variant,
            });
            p.k
        }
        PrivacyModel::TCloseness(p) => {
            checks.push(AuditCheck::TCloseness {
                t: p.t,
                ground: p.ground,
            });
            p.k
        }
    };
    checks.insert(
        if matches!(spec.model, PrivacyModel::KAnonymity(_)) {
            0
        } else {
            1
        },
        AuditCheck::KAnonymity { k },
    );
    // Distinct l-diversity reports the achieved l; it needs one SA column.
    if table.sensitive().len() == 1 && !matches!(spec.model, PrivacyModel::LDiversity(_)) {
        checks.push(AuditCheck::LDiversity {
            l: 1.0,
            variant: LDiversityVariant::Distinct,
        });
    }
    Ok(checks)
}

/// Everything a finished job stores: the release, its summary and its audit.
#[derive(Debug, Clone)]
pub struct JobOutcome {
    pub release: Release,
    pub summary: generalize::Summary,
    pub audit: AuditReport,
}

/// Runs a job end to end: partition (progress 0–0.9), generalize, audit
/// (0.9–1.0). Defence in depth: a release whose audit fails the job's own
/// model is never returned — `model_not_satisfied` instead.
pub fn run_job(table: &Table, spec: &JobSpec, progress: Progress) -> CoreResult<JobOutcome> {
    let release = anonymize(table, spec, progress.sub(0.0, 0.9))?;
    let checks = job_audit_checks(table, spec)?;
    let report = audit::audit(
        table,
        release.partition(),
        None,
        &checks,
        progress.sub(0.9, 1.0),
    )?;
    if let Some(failed) = report.checks.iter().take(2).find(|c| !c.passed) {
        return Err(CoreError::new(
            crate::error::ErrorKind::ModelNotSatisfied,
            format!(
                "the partition failed its own {} check ({} violating groups); nothing was published",
                failed.kind, failed.violating_groups
            ),
        )
        .with_detail("check", failed.kind)
        .with_detail("violating_groups", failed.violating_groups));
    }
    let summary = generalize::summary(table, &release);
    Ok(JobOutcome {
        release,
        summary,
        audit: report,
    })
}

/// A feasibility question (API.md §Feasibility).
#[derive(Debug, Clone)]
pub enum FeasibilityRequest {
    /// Theorem 1: the largest m for ε.
    MaxM {
        epsilon: Epsilon,
        neighborhood: Neighborhood,
    },
    /// Theorem 2 (`find-e-max`): the supremum of ε for m.
    MaxEpsilon { m: M, neighborhood: Neighborhood },
    /// XColor's Inequality 4 on Ψ^ε.
    Dissimilarity {
        epsilon: Epsilon,
        metric: Option<MetricSpec>,
    },
}

#[derive(Debug, Clone)]
pub enum FeasibilityAnswer {
    MaxM(epsilon_m::MaxM),
    /// The supremum of ε (exclusive); infinite when m = 1.
    MaxEpsilon(f64),
    Dissimilarity(xcolor::DissimilarityFeasibility),
}

pub fn feasibility(table: &Table, request: &FeasibilityRequest) -> CoreResult<FeasibilityAnswer> {
    feasibility_with_progress(table, request, Progress::none())
}

/// [`feasibility`], cancellable through `progress` (the dissimilarity
/// question's degree index is the costly part).
pub fn feasibility_with_progress(
    table: &Table,
    request: &FeasibilityRequest,
    progress: Progress<'_>,
) -> CoreResult<FeasibilityAnswer> {
    Ok(match request {
        FeasibilityRequest::MaxM {
            epsilon,
            neighborhood,
        } => FeasibilityAnswer::MaxM(epsilon_m::max_m(
            numeric_sa(table)?,
            *epsilon,
            *neighborhood,
        )?),
        FeasibilityRequest::MaxEpsilon { m, neighborhood } => FeasibilityAnswer::MaxEpsilon(
            epsilon_m::max_epsilon(numeric_sa(table)?, *m, *neighborhood)?,
        ),
        FeasibilityRequest::Dissimilarity { epsilon, metric } => {
            let metric = match metric {
                Some(m) => m.clone(),
                None => MetricSpec::default_for(table)?,
            };
            let space = SensitiveSpace::new(table, &metric)?;
            FeasibilityAnswer::Dissimilarity(xcolor::feasibility_with_progress(
                &space,
                epsilon.get(),
                progress,
            )?)
        }
    })
}

/// A (δ) value is a fraction; re-exported for callers building specs.
pub type Delta = Fraction;
