//! The core's single entry point for a job: check a request against the
//! table before queueing, run the partitioner the request names, and build
//! the release and its audit. The service's worker and the offline CLI both
//! call these, so they give the same answers and the same errors.

use crate::attacker::{self, GroupBoxes, Victims, ViewCheck};
use crate::audit::{self, AuditCheck, AuditReport};
use crate::epsilon_m;
use crate::error::{CoreError, CoreResult, Field};
use crate::generalize::{self, Release};
use crate::metric::{MetricSpec, SensitiveSpace};
use crate::mondrian;
use crate::params::{
    Algorithm, Epsilon, Fraction, LDiversityVariant, Neighborhood, PrivacyModel, SuppressionLimit,
    M,
};
use crate::partition::Placement;
use crate::population::PopulationIndex;
use crate::progress::{Progress, ROWS_PER_CHECKPOINT};
use crate::stages::{Stage, Stopwatch};
use crate::table::Table;
use crate::utility::gcp;
use crate::xcolor::{self, XColorOptions};

/// A parsed job request.
#[derive(Debug, Clone)]
pub struct JobSpec {
    pub model: PrivacyModel,
    pub algorithm: Algorithm,
    /// The metric the request named; `None` = the SA's default.
    pub metric: Option<MetricSpec>,
    pub xcolor: XColorOptions,
    /// The share of rows the job may leave out to satisfy its model in the
    /// attacker's view (default 0).
    pub suppression_limit: SuppressionLimit,
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
                    | PrivacyModel::TCloseness(_)
                    | PrivacyModel::Population(_),
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
            Field::Algorithm,
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
            Field::Model,
            "(epsilon, m)-anonymity needs exactly one numeric sensitive column",
        )
    })
}

/// Checks a request against the table before it is queued: the model fits
/// the algorithm and the SA, and the parameters are reachable on this data
/// (Theorem 1 for (ε,m); k ≤ rows; the whole table satisfies a Mondrian
/// constraint). Errors carry the reachable values in their details.
pub fn validate(table: &Table, spec: &JobSpec) -> CoreResult<()> {
    validate_with(table, spec, None)
}

/// The error of a population model (k-map, δ-presence) without a
/// population table.
fn no_population(model: &PrivacyModel) -> CoreError {
    CoreError::invalid_parameters(
        Field::Model,
        format!(
            "the {} model counts classes in a population table: the dataset's schema must name \
             one (\"population\": {{\"dataset_id\": …}})",
            model.kind_name()
        ),
    )
}

/// [`validate`] with the dataset's population table, when it has one
/// (in the key space of `table`'s release, [`PopulationIndex::for_release`]):
/// a population model needs it (`invalid_parameters` at `/model`
/// otherwise), is feasible on the whole table, and δ-presence needs the
/// table to be a subset of it (`population_mismatch`).
pub fn validate_with(
    table: &Table,
    spec: &JobSpec,
    population: Option<&PopulationIndex>,
) -> CoreResult<()> {
    check_algorithm(&spec.model, spec.algorithm)?;
    if let PrivacyModel::Population(model) = &spec.model {
        if spec.metric.is_some() {
            return Err(CoreError::invalid_parameters(
                Field::SensitiveMetric,
                "sensitive_metric applies to the dissimilarity model only",
            ));
        }
        let index = population.ok_or_else(|| no_population(&spec.model))?;
        return crate::population::check_feasible(table, index, model);
    }
    match &spec.model {
        PrivacyModel::EpsilonM(params) => {
            if spec.metric.is_some() {
                return Err(CoreError::invalid_parameters(
                    Field::SensitiveMetric,
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
                    Field::SensitiveMetric,
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
                .with_error(Field::ModelParam("k"), format!("at most {}", table.rows()))
                .with_detail("max_k", table.rows()));
            }
        }
        _ => {
            if spec.metric.is_some() {
                return Err(CoreError::invalid_parameters(
                    Field::SensitiveMetric,
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

/// Runs the partitioner a request names: its groups, and the rows it could
/// not place in any group that satisfies the model in the attacker's view.
pub fn place(table: &Table, spec: &JobSpec, progress: Progress) -> CoreResult<Placement> {
    place_with(table, spec, None, progress)
}

/// [`place`] with the dataset's population table (see [`validate_with`]).
pub fn place_with(
    table: &Table,
    spec: &JobSpec,
    population: Option<&PopulationIndex>,
    progress: Progress,
) -> CoreResult<Placement> {
    // Checkpoints around the validation (a pass or a sort over the whole
    // table): a cancel that comes before or during it is honoured before
    // the partitioner starts.
    progress.report(0.0)?;
    validate_with(table, spec, population)?;
    progress.report(0.0)?;
    match (&spec.model, spec.algorithm) {
        (PrivacyModel::Population(model), Algorithm::Mondrian) => {
            let index = population.ok_or_else(|| no_population(&spec.model))?;
            crate::population::anonymize(table, index, model, progress).map(Placement::complete)
        }
        (PrivacyModel::EpsilonM(params), Algorithm::EpsilonM) => {
            let allowed = spec.suppression_limit.max_rows(table.rows());
            epsilon_m::place_within(table, params, allowed, progress)
        }
        (PrivacyModel::EpsilonM(params), Algorithm::Mondrian) => {
            epsilon_m::place_by_mondrian(table, params, progress)
        }
        (PrivacyModel::Dissimilarity(params), Algorithm::XColor) => {
            let space = SensitiveSpace::new(table, &spec.resolved_metric(table)?)?;
            xcolor::place(table, &space, params, &spec.xcolor, progress)
        }
        // k, l and t survive unions of groups (docs/design.md §4): Mondrian's
        // releases for them are safe in the attacker's view as they are.
        (model, Algorithm::Mondrian) => {
            mondrian::anonymize(table, model, progress).map(Placement::complete)
        }
        (model, algorithm) => {
            // validate() rejects these; reaching here is a bug.
            Err(CoreError::internal(format!(
                "no partitioner for {} with {}",
                model.kind_name(),
                algorithm.name()
            )))
        }
    }
}

/// The rows a job left out to satisfy its model, and the table of the
/// rows it kept.
#[derive(Debug, Clone)]
pub struct Kept {
    /// The table without the suppressed rows.
    pub table: Table,
    /// For each row of `table`, its index in the original table.
    pub original_rows: Vec<u32>,
    /// How many rows were left out.
    pub suppressed: usize,
}

impl Kept {
    /// The rows of `table` whose `keep` flag is set, as their own table;
    /// checkpoints by blocks of rows through `progress`.
    fn new(table: &Table, keep: &[bool], progress: Progress) -> CoreResult<Kept> {
        let mut original_rows: Vec<u32> = Vec::new();
        for (b, block) in keep.chunks(ROWS_PER_CHECKPOINT).enumerate() {
            progress.report(0.0)?;
            let start = (b * ROWS_PER_CHECKPOINT) as u32;
            original_rows.extend(
                (start..start + block.len() as u32).filter(|&r| block[(r - start) as usize]),
            );
        }
        Ok(Kept {
            table: table.retain_rows_checked(keep, progress)?,
            suppressed: table.rows() - original_rows.len(),
            original_rows,
        })
    }
}

/// A generalized release, over the original table or, when the job
/// suppressed rows, over the table of the rows it kept.
#[derive(Debug, Clone)]
pub struct Anonymized {
    pub release: Release,
    pub kept: Option<Kept>,
}

/// Marks a row the job suppressed in [`Anonymized::assignment`].
pub const SUPPRESSED: u32 = u32::MAX;

impl Anonymized {
    /// The table the release's row indices refer to.
    pub fn table<'t>(&'t self, original: &'t Table) -> &'t Table {
        self.kept.as_ref().map_or(original, |k| &k.table)
    }

    /// Rows left out by the model (0 when none).
    pub fn suppressed_by_model(&self) -> usize {
        self.kept.as_ref().map_or(0, |k| k.suppressed)
    }

    /// The release with its original table, for utility measured against
    /// the original (the count-query workload: rows left out still count
    /// in the true answers).
    pub fn published<'t>(&'t self, original: &'t Table) -> crate::utility::Published<'t> {
        crate::utility::Published {
            original,
            release: &self.release,
            original_rows: self.kept.as_ref().map(|k| k.original_rows.as_slice()),
        }
    }

    /// `assignment[row]` = the row's 0-based group, [`SUPPRESSED`] for a
    /// row left out: the compact form a result is stored in.
    pub fn assignment(&self, original_rows: usize) -> Vec<u32> {
        match &self.kept {
            None => self.release.partition().group_of_rows(original_rows),
            Some(kept) => {
                let mut out = vec![SUPPRESSED; original_rows];
                for (g, rows) in self.release.partition().groups.iter().enumerate() {
                    for &r in rows {
                        out[kept.original_rows[r as usize] as usize] = g as u32;
                    }
                }
                out
            }
        }
    }

    /// Rebuilds a stored release from its assignment (rows marked
    /// [`SUPPRESSED`] left out); errors as [`Release::from_assignment`].
    pub fn from_assignment(table: &Table, assignment: &[u32]) -> CoreResult<Anonymized> {
        if assignment.len() != table.rows() {
            return Err(CoreError::internal(format!(
                "the stored group assignment has {} rows, the table has {}",
                assignment.len(),
                table.rows()
            )));
        }
        let keep: Vec<bool> = assignment.iter().map(|&g| g != SUPPRESSED).collect();
        if keep.iter().all(|&k| k) {
            return Ok(Anonymized {
                release: Release::from_assignment(table, assignment)?,
                kept: None,
            });
        }
        let kept = Kept::new(table, &keep, Progress::none())?;
        let compact: Vec<u32> = assignment
            .iter()
            .copied()
            .filter(|&g| g != SUPPRESSED)
            .collect();
        Ok(Anonymized {
            release: Release::from_assignment(&kept.table, &compact)?,
            kept: Some(kept),
        })
    }
}

/// `model_not_satisfied` for a placement that leaves out more rows than the
/// job's limit allows: how many rows stand in the way, as a count, a share
/// and the limit that would publish. When the partitioner also found a
/// coarser way that leaves out fewer rows, the figures are that way's (a
/// job with that limit publishes), and the message gives both limits.
fn too_many_left_out(placement: &Placement, n: usize, limit: SuppressionLimit) -> CoreError {
    let unplaced = placement.unplaced.len();
    let needed = placement.rows_needed();
    let share = |rows: usize| rows as f64 / n.max(1) as f64;
    let allowed = limit.max_rows(n);
    let message = if needed < unplaced {
        format!(
            "{unplaced} of {n} rows ({:.2} %) would have to be left out for the release with the \
             least information loss, and {needed} ({:.2} %) for the coarsest the engine found; the \
             suppression limit allows {allowed}: {} (coarser groups; {} for the finer), or relax \
             the parameters; nothing was published",
            100.0 * share(unplaced),
            100.0 * share(needed),
            limit_advice(needed, n),
            SuppressionLimit::least_allowing(unplaced, n)
                .map_or("none".to_string(), |l| format!("{:.4}", l.get())),
        )
    } else {
        format!(
            "{unplaced} of {n} rows ({:.2} %) cannot be placed in any group that satisfies the \
             model in the attacker's view; the suppression limit allows {allowed}: {}, or relax \
             the parameters; nothing was published",
            100.0 * share(unplaced),
            limit_advice(unplaced, n),
        )
    };
    let mut error = CoreError::new(crate::error::ErrorKind::ModelNotSatisfied, message)
        .with_detail("rows_needing_suppression", needed)
        .with_detail("share_needing_suppression", share(needed))
        .with_detail("suppression_limit", limit.get());
    if needed < unplaced {
        error = error.with_detail("rows_for_least_loss", unplaced);
    }
    error
}

/// "set suppression_limit to at least L" for `rows` of `n`, or that no
/// limit does.
fn limit_advice(rows: usize, n: usize) -> String {
    match SuppressionLimit::least_allowing(rows, n) {
        Some(limit) => format!("set suppression_limit to at least {:.4}", limit.get()),
        None => "no suppression_limit below 1 allows that many".to_string(),
    }
}

/// Runs the partitioner a request names, suppresses the rows it could not
/// place (within the request's suppression limit, else
/// `model_not_satisfied` saying how many rows would have to go) and
/// generalizes the groups.
pub fn anonymize(table: &Table, spec: &JobSpec, progress: Progress) -> CoreResult<Anonymized> {
    anonymize_with(table, spec, None, progress)
}

/// [`anonymize`] with the dataset's population table (see [`validate_with`]).
pub fn anonymize_with(
    table: &Table,
    spec: &JobSpec,
    population: Option<&PopulationIndex>,
    progress: Progress,
) -> CoreResult<Anonymized> {
    anonymize_timed(table, spec, population, progress, &mut Stopwatch::start())
}

/// [`anonymize_with`], lapping `clock` at the end of the partition and of
/// generalization.
fn anonymize_timed(
    table: &Table,
    spec: &JobSpec,
    population: Option<&PopulationIndex>,
    progress: Progress,
    clock: &mut Stopwatch,
) -> CoreResult<Anonymized> {
    let placement = place_with(table, spec, population, progress.sub(0.0, 1.0))?;
    clock.lap(Stage::Partition);
    let n = table.rows();
    let unplaced = placement.unplaced.len();
    let allowed = spec.suppression_limit.max_rows(n);
    if unplaced > allowed {
        return Err(too_many_left_out(&placement, n, spec.suppression_limit));
    }
    if unplaced == 0 {
        let release = generalize::generalize_with_progress(
            table,
            placement.partition,
            progress.sub(1.0, 1.0),
        )?;
        clock.lap(Stage::Generalize);
        return Ok(Anonymized {
            release,
            kept: None,
        });
    }
    let mut keep = vec![true; n];
    for &r in &placement.unplaced {
        keep[r as usize] = false;
    }
    progress.report(1.0)?;
    // The set-up after the partition reports its end.
    let kept = Kept::new(table, &keep, progress.sub(1.0, 1.0))?;
    progress.report(1.0)?;
    let mut new_index = vec![u32::MAX; n];
    for (i, &r) in kept.original_rows.iter().enumerate() {
        new_index[r as usize] = i as u32;
    }
    let mut partition = placement.partition;
    for g in &mut partition.groups {
        g.iter_mut().for_each(|r| *r = new_index[*r as usize]);
    }
    let release =
        generalize::generalize_with_progress(&kept.table, partition, progress.sub(1.0, 1.0))?;
    clock.lap(Stage::Generalize);
    Ok(Anonymized {
        release,
        kept: Some(kept),
    })
}

/// The checks of a job's audit (docs/api.md: the job's model, plus k-anonymity,
/// distinct l-diversity and — always in the report — prosecutor risk).
/// The first check is the model's own.
pub fn job_audit_checks(table: &Table, spec: &JobSpec) -> CoreResult<Vec<AuditCheck>> {
    let mut checks = Vec::new();
    let k = match &spec.model {
        PrivacyModel::EpsilonM(p) => {
            checks.push(AuditCheck::EpsilonM(*p));
            // A group of fewer than m rows cannot be (ε,m)-anonymous.
            crate::params::K::new(p.m.get() as u64, Field::ModelParam("m"))?
        }
        PrivacyModel::Dissimilarity(p) => {
            checks.push(AuditCheck::Dissimilarity {
                params: *p,
                metric: Some(spec.resolved_metric(table)?),
            });
            p.k
        }
        PrivacyModel::KAnonymity(k) => *k,
        // The model's own check is the population one (JobOutcome's
        // `population`); k-anonymity at 1 keeps the usual figures.
        PrivacyModel::Population(_) => crate::params::K::new(1, Field::Model)?,
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
        if matches!(
            spec.model,
            PrivacyModel::KAnonymity(_) | PrivacyModel::Population(_)
        ) {
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

/// Everything a finished job stores: the release, its summary and its
/// audit (per group) with every check also judged in the attacker's view.
#[derive(Debug, Clone)]
pub struct JobOutcome {
    pub anonymized: Anonymized,
    pub summary: Summary,
    pub audit: AuditReport,
    /// `audit.checks[i]` judged in the attacker's view, same order.
    pub view: Vec<ViewCheck>,
    /// A population model's own check (k-map, δ-presence), per class over
    /// every population record its labels cover — the attacker's view.
    pub population: Option<audit::CheckReport>,
    /// Wall-clock time of the partition, generalization and the guard
    /// (for profiles and logs; nothing depends on it).
    pub stages: Stopwatch,
}

/// Runs a job end to end: partition and suppress (progress 0–0.8),
/// generalize, then the guard (0.8–1.0): every audit check judged in the
/// attacker's view (docs/design.md §4) and per group. A release that fails the
/// job's own model (or its k) in the attacker's view is never returned —
/// `model_not_satisfied` with the view's figures instead.
pub fn run_job(table: &Table, spec: &JobSpec, progress: Progress) -> CoreResult<JobOutcome> {
    run_job_with(table, spec, None, progress)
}

/// [`run_job`] with the dataset's population table (see [`validate_with`]):
/// a population model's release is judged class by class against it, and
/// one that fails is `model_not_satisfied`.
pub fn run_job_with(
    table: &Table,
    spec: &JobSpec,
    population: Option<&PopulationIndex>,
    progress: Progress,
) -> CoreResult<JobOutcome> {
    let mut clock = Stopwatch::start();
    let anonymized = anonymize_timed(table, spec, population, progress.sub(0.0, 0.8), &mut clock)?;
    let kept = anonymized.table(table);
    let release = &anonymized.release;
    let checks = job_audit_checks(kept, spec)?;
    progress.report(0.8)?;
    let boxes = GroupBoxes::from_release_checked(kept, release, progress.sub(0.8, 0.8))?;
    progress.report(0.8)?;
    // The SA's codes, read by the view and the audit alike: built once
    // here (on the pool) rather than once by each.
    let sa = audit::sa_codes_for(kept, &checks, progress.sub(0.8, 0.8))?;
    // The attacker's view, the per-group audit and the summary read the
    // release only: they run at once on the job's pool (crate::parallel),
    // and their results are taken in the sequential order (the view's
    // error first, then its verdict, then the audit's error).
    let branches = crate::progress::Branches::new(progress.sub(0.8, 1.0));
    let report_progress = |f: f64| branches.report(f);
    let ((view, report), summary) = crate::parallel::join(
        || {
            crate::parallel::join(
                || {
                    attacker::evaluate_within(
                        kept,
                        release.partition(),
                        &boxes,
                        Victims::OriginalPoints,
                        &checks,
                        None,
                        attacker::DEFAULT_VIEW_BUDGET_BYTES,
                        sa.as_ref(),
                        Progress::new(&report_progress),
                    )
                },
                || {
                    audit::audit_published(
                        kept,
                        release.partition(),
                        None,
                        &checks,
                        crate::risk::suda::PublishedQis::AsStored,
                        sa.as_ref(),
                        Progress::new(&report_progress),
                    )
                },
            )
        },
        || summary(kept, release),
    );
    let view = view?;
    if let Some(failed) = view.iter().take(2).find(|c| !c.passed) {
        return Err(CoreError::new(
            crate::error::ErrorKind::ModelNotSatisfied,
            format!(
                "the release failed its own {} check in the attacker's view: {} of {} victims over the bound \
                 (worst {:.4}); nothing was published",
                failed.kind, failed.over_bound, failed.victims, failed.worst
            ),
        )
        .with_detail("check", failed.kind)
        .with_detail("victims_over_bound", failed.over_bound)
        .with_detail("worst", failed.worst)
        .with_detail("violating_groups", failed.violating_groups));
    }
    let report = report?;
    let population = match (&spec.model, population) {
        (PrivacyModel::Population(model), Some(index)) => {
            let counts = crate::population::class_counts(index, &boxes);
            let check = crate::population::judge(model, release.partition(), &counts, None);
            if !check.passed {
                return Err(CoreError::new(
                    crate::error::ErrorKind::ModelNotSatisfied,
                    format!(
                        "the release failed its own {} check against the population table: {} \
                         classes ({} rows) outside the bound; nothing was published",
                        check.kind, check.violating_groups, check.violating_rows
                    ),
                )
                .with_detail("check", check.kind)
                .with_detail("violating_groups", check.violating_groups));
            }
            Some(check)
        }
        _ => None,
    };
    let mut summary = summary;
    summary.set_suppressed_by_model(anonymized.suppressed_by_model());
    summary.attacker_view = view.first().map(attacker::ViewSummary::from);
    // The last checkpoint: the guard's three parts end at different times,
    // and a cancel that came after the last of their own checkpoints is
    // honoured here rather than ignored.
    progress.report(1.0)?;
    clock.lap(Stage::Guard);
    Ok(JobOutcome {
        anonymized,
        summary,
        audit: report,
        view,
        population,
        stages: clock,
    })
}

/// A feasibility question (docs/api.md §Feasibility).
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

/// The job summary (docs/api.md §Jobs, `summary`).
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// Data rows of the upload, suppressed ones included.
    pub rows: usize,
    pub published_rows: usize,
    /// Rows left out for missing values.
    pub suppressed_rows: usize,
    pub groups: usize,
    pub min_group_size: usize,
    /// Global certainty penalty (GCP, in [0, 1]); see [`crate::utility`].
    /// Rows suppressed by the model count as fully generalized (loss 1),
    /// as ARX counts suppressed records.
    pub information_loss: f64,
    /// Rows left out to satisfy the model in the attacker's view.
    pub suppressed_by_model: usize,
    /// The model's own check in the attacker's view (set by the job).
    pub attacker_view: Option<attacker::ViewSummary>,
}

impl Summary {
    /// Accounts for `rows` more rows of the upload that the model left out:
    /// counted in `rows` and `suppressed_by_model`, at loss 1 in GCP.
    pub fn set_suppressed_by_model(&mut self, rows: usize) {
        if rows == 0 {
            return;
        }
        let published = self.published_rows as f64;
        self.information_loss =
            (self.information_loss * published + rows as f64) / (published + rows as f64);
        self.rows += rows;
        self.suppressed_by_model = rows;
    }
}

pub fn summary(table: &Table, release: &Release) -> Summary {
    Summary {
        rows: table.rows() + table.suppressed_rows(),
        published_rows: release.partition().rows(),
        suppressed_rows: table.suppressed_rows(),
        groups: release.groups(),
        min_group_size: release.partition().min_group_size(),
        information_loss: gcp(table, release),
        suppressed_by_model: 0,
        attacker_view: None,
    }
}
