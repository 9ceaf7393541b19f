//! Running one case in this process: load (untimed), check the stated
//! figures (untimed), a warm-up, then the timed runs; quality figures come
//! from the last run's release.

use std::time::Instant;

use proxima_core::attacker::{self, GroupBoxes, Victims};
use proxima_core::audit::{self, AuditReport};
use proxima_core::epsilon_m;
use proxima_core::error::ErrorKind;
use proxima_core::params::{Algorithm, PrivacyModel};
use proxima_core::risk::suda::{key_columns, suda, DisFraction, KeyScope, MaxSize, PublishedQis};
use proxima_core::run::{self, Anonymized, FeasibilityAnswer, FeasibilityRequest, JobSpec};
use proxima_core::utility::{self, Published, WorkloadSpec};
use proxima_core::xcolor::{inequality4_bound, XColorOptions};
use proxima_core::{Progress, Table};

use super::cases::{Case, Stated, Work};
use super::data;
use super::results::{CaseResult, CheckOutcome, StatedFigure};
use super::stats::Stats;

/// How many runs and warm-ups.
#[derive(Debug, Clone, Copy)]
pub struct Plan {
    pub warmup: usize,
    pub runs: usize,
}

/// The fields every result starts from.
pub fn blank(case: &Case, plan: Plan) -> CaseResult {
    CaseResult {
        case: case.name.to_string(),
        group: serde_json::to_value(case.group)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default(),
        about: case.about.to_string(),
        data: case.source.name().to_string(),
        warmup: plan.warmup,
        runs: plan.runs,
        target_s: case.target_seconds,
        target_rss_mib: case.target_rss_mib,
        ..CaseResult::default()
    }
}

/// Times `f` over the plan; returns the timed seconds and the last value.
/// The previous value is dropped before each run, so at most one result is
/// alive at a time (the peak RSS is that of one run).
fn timed<T>(plan: Plan, mut f: impl FnMut() -> T) -> (Vec<f64>, Option<T>) {
    let mut seconds = Vec::with_capacity(plan.runs);
    let mut last = None;
    for i in 0..plan.warmup + plan.runs {
        drop(last.take());
        let t = Instant::now();
        let value = f();
        let dt = t.elapsed().as_secs_f64();
        if i >= plan.warmup {
            seconds.push(dt);
        }
        last = Some(value);
    }
    (seconds, last)
}

fn set_times(r: &mut CaseResult, seconds: Vec<f64>) {
    if let Some(s) = Stats::of(&seconds) {
        r.median_s = Some(s.median);
        r.min_s = Some(s.min);
        r.max_s = Some(s.max);
    }
    r.seconds = seconds;
}

/// Mean and median relative error of the standard workload (s = 0.1)
/// with q QIs and the SA, true counts on the original table (rows the job
/// left out included); a note instead when the table has fewer QIs or no
/// query counted.
fn query_error(
    published: &Published,
    q: usize,
    notes: &mut Vec<String>,
) -> (Option<f64>, Option<f64>) {
    let table = published.original;
    if q > table.qis().len() {
        notes.push(format!(
            "query error q={q} not applicable: the table has {} QIs",
            table.qis().len()
        ));
        return (None, None);
    }
    let spec = WorkloadSpec::standard(q);
    match utility::query_error(published, &spec) {
        Ok(w) => (w.mean_relative_error, w.median_relative_error),
        Err(e) => {
            notes.push(format!("query error q={q}: {e}"));
            (None, None)
        }
    }
}

/// Group counts, GCP, suppression and query errors of a release of
/// `original`: GCP counts the rows the job left out at loss 1 (as the job
/// summary), the query errors count them in the true answers.
fn quality(r: &mut CaseResult, original: &Table, anonymized: &Anonymized) {
    let release = &anonymized.release;
    r.groups = Some(release.groups());
    r.min_group_size = Some(release.partition().min_group_size());
    let published = release.partition().rows() as f64;
    let gone = anonymized.suppressed_by_model();
    let kept_gcp = utility::gcp(anonymized.table(original), release);
    r.gcp = Some(if gone == 0 {
        kept_gcp
    } else {
        (kept_gcp * published + gone as f64) / (published + gone as f64)
    });
    r.suppressed_by_model = Some(gone);
    let published = anonymized.published(original);
    (r.query_error_q2, r.query_error_q2_median) = query_error(&published, 2, &mut r.notes);
    (r.query_error_q3, r.query_error_q3_median) = query_error(&published, 3, &mut r.notes);
}

fn checks_of(report: &AuditReport) -> Vec<CheckOutcome> {
    report
        .checks
        .iter()
        .map(|c| CheckOutcome {
            kind: c.kind.to_string(),
            passed: c.passed,
        })
        .collect()
}

fn stated(figure: &str, stated: f64, computed: f64, exact: bool) -> StatedFigure {
    // BENCHMARKS.md rounds the bound to an integer.
    let matches = if exact {
        stated == computed
    } else {
        (stated - computed).abs() < 1.0
    };
    StatedFigure {
        figure: figure.to_string(),
        stated,
        computed,
        matches,
    }
}

/// Compares the figures BENCHMARKS.md states with what the core computes
/// on this table (Theorem 1's m, Θ and Inequality 4's bound, the rows).
pub fn check_stated(table: &Table, spec: Option<&JobSpec>, s: &Stated, r: &mut CaseResult) {
    if let Some(rows) = s.rows {
        r.stated
            .push(stated("rows", rows as f64, table.rows() as f64, true));
    }
    let Some(spec) = spec else { return };
    match &spec.model {
        PrivacyModel::EpsilonM(p) => {
            let req = FeasibilityRequest::MaxM {
                epsilon: p.epsilon,
                neighborhood: p.neighborhood,
            };
            match run::feasibility(table, &req) {
                Ok(FeasibilityAnswer::MaxM(m)) => {
                    if let Some(max_m) = s.max_m {
                        r.stated
                            .push(stated("max_m", max_m as f64, m.max_m as f64, true));
                    } else {
                        r.notes.push(format!("Theorem 1 allows m ≤ {}", m.max_m));
                    }
                }
                Ok(_) => {}
                Err(e) => r.notes.push(format!("max m: {e}")),
            }
            // What the data forces out, whatever the engine.
            let least = table
                .single_numeric_sa()
                .map(|sa| epsilon_m::minimum_suppression(sa, p.epsilon, p.m, p.neighborhood));
            match least {
                Some(Ok(b)) => r.notes.push(format!(
                    "any release at (ε, m) leaves out at least {} rows ({:.2} %): a lower bound",
                    b.suppressed_rows(),
                    100.0 * b.share()
                )),
                Some(Err(e)) => r.notes.push(format!("minimum suppression: {e}")),
                None => {}
            }
        }
        PrivacyModel::Dissimilarity(p) => {
            let req = FeasibilityRequest::Dissimilarity {
                epsilon: p.epsilon,
                metric: spec.metric.clone(),
            };
            match run::feasibility(table, &req) {
                Ok(FeasibilityAnswer::Dissimilarity(f)) => {
                    let bound = inequality4_bound(table.rows(), p.k.get(), p.delta.get());
                    let theta = f.max_degree as f64;
                    match (s.theta, s.bound) {
                        (Some(t), Some(b)) => {
                            r.stated.push(stated("theta", t as f64, theta, true));
                            r.stated.push(stated("bound", b, bound, false));
                        }
                        _ => r.notes.push(format!(
                            "Θ = {} vs Inequality 4 bound {bound:.0}: {}",
                            f.max_degree,
                            if theta <= bound {
                                "guaranteed"
                            } else {
                                "beyond Theorem 3"
                            }
                        )),
                    }
                }
                Ok(_) => {}
                Err(e) => r.notes.push(format!("Θ: {e}")),
            }
        }
        _ => {}
    }
}

/// A job: `run::run_job` (partition, generalize, self-audit) timed.
fn job(case: &Case, spec: &JobSpec, table: &Table, plan: Plan, r: &mut CaseResult) {
    check_stated(table, Some(spec), &case.stated, r);
    let (seconds, last) = timed(plan, || run::run_job(table, spec, Progress::none()));
    set_times(r, seconds);
    match last.expect("at least one run") {
        Ok(outcome) => {
            quality(r, table, &outcome.anonymized);
            // GCP over every row, rows the model suppressed at loss 1: the
            // job summary's figure (the same number).
            r.gcp = Some(outcome.summary.information_loss);
            r.checks = checks_of(&outcome.audit);
            // The job's own model check and k-anonymity come first, judged
            // in the attacker's view (the job already refuses a breach).
            let view = &outcome.view;
            r.model_satisfied = Some(view.iter().take(2).all(|c| c.passed));
            if let Some(model) = view.first() {
                r.attacker_over_bound = Some(model.over_bound);
                r.attacker_worst = Some(model.worst);
            }
        }
        Err(e) => {
            if e.kind == ErrorKind::ModelNotSatisfied {
                r.model_satisfied = Some(false);
            }
            r.error = Some(format!("{} ({:?})", e.message, e.kind));
        }
    }
}

/// An audit: Mondrian k-anonymity partition (untimed), `audit::audit`
/// with the case's checks timed.
fn audit_case(
    k: proxima_core::params::K,
    checks: &[audit::AuditCheck],
    table: &Table,
    plan: Plan,
    r: &mut CaseResult,
) {
    let spec = JobSpec {
        model: PrivacyModel::KAnonymity(k),
        algorithm: Algorithm::Mondrian,
        metric: None,
        xcolor: XColorOptions::default(),
        suppression_limit: Default::default(),
    };
    let anonymized = match run::anonymize(table, &spec, Progress::none()) {
        Ok(anonymized) => anonymized,
        Err(e) => {
            r.error = Some(format!("the Mondrian grouping failed: {}", e.message));
            return;
        }
    };
    let release = &anonymized.release;
    let (seconds, last) = timed(plan, || {
        audit::audit(table, release.partition(), None, checks, Progress::none())
    });
    set_times(r, seconds);
    quality(r, table, &anonymized);
    match last.expect("at least one run") {
        Ok(report) => {
            r.checks = checks_of(&report);
            // The grouping's own model is the first check.
            r.model_satisfied = report.checks.first().map(|c| c.passed);
        }
        Err(e) => r.error = Some(format!("{} ({:?})", e.message, e.kind)),
    }
}

/// SUDA2 on the table as uploaded: key columns and search timed together.
/// What it must satisfy: every record with an MSU is unique over all the
/// columns scanned (an MSU's superset is unique too).
fn suda_case(scope: KeyScope, max_size: u64, table: &Table, plan: Plan, r: &mut CaseResult) {
    let max = match MaxSize::new(max_size, "/max_size") {
        Ok(m) => m,
        Err(e) => {
            r.error = Some(e.message);
            return;
        }
    };
    let (seconds, last) = timed(plan, || {
        let keys = key_columns(table, scope, PublishedQis::AsStored)?;
        suda(&keys, max, DisFraction::default(), Progress::none())
    });
    set_times(r, seconds);
    match last.expect("at least one run") {
        Ok(s) => {
            r.model_satisfied = Some(s.records_with_msu() <= s.sample_uniques);
            r.notes.push(format!(
                "{} columns, MSUs up to {}: {} records with an MSU ({} sample uniques), \
                 MSUs by size {:?}, max SUDA score {}, max DIS-SUDA {:.4}",
                s.columns.len(),
                s.max_size,
                s.records_with_msu(),
                s.sample_uniques,
                s.msus_by_size,
                s.max_score(),
                s.max_dis()
            ));
        }
        Err(e) => r.error = Some(format!("{} ({:?})", e.message, e.kind)),
    }
}

/// The attacker's view: the job's release (untimed), then its audit checks
/// judged over every victim's candidates (timed, boxes included). The
/// notes give each check's victims over the bound, worst figure and
/// candidate groups per victim.
fn attacker_view_case(spec: &JobSpec, table: &Table, plan: Plan, r: &mut CaseResult) {
    let anonymized = match run::anonymize(table, spec, Progress::none()) {
        Ok(a) => a,
        Err(e) => {
            r.error = Some(format!("the release failed: {} ({:?})", e.message, e.kind));
            return;
        }
    };
    // Rows the job suppressed are not in its release.
    let original = table;
    let table = anonymized.table(original);
    let release = &anonymized.release;
    let checks = match run::job_audit_checks(table, spec) {
        Ok(c) => c,
        Err(e) => {
            r.error = Some(format!("the checks failed: {} ({:?})", e.message, e.kind));
            return;
        }
    };
    let (seconds, last) = timed(plan, || {
        let boxes = GroupBoxes::from_release(table, release);
        attacker::evaluate(
            table,
            release.partition(),
            &boxes,
            Victims::OriginalPoints,
            &checks,
            None,
            Progress::none(),
        )
    });
    set_times(r, seconds);
    quality(r, original, &anonymized);
    match last.expect("at least one run") {
        Ok(view) => {
            for c in &view {
                r.notes.push(format!(
                    "attacker's view {}: {} of {} victims over the bound, worst {:.4}, \
                     candidate groups per victim median {} max {}",
                    c.kind,
                    c.over_bound,
                    c.victims,
                    c.worst,
                    c.candidate_groups.median,
                    c.candidate_groups.max
                ));
            }
            r.checks = view
                .iter()
                .map(|c| CheckOutcome {
                    kind: c.kind.to_string(),
                    passed: c.passed,
                })
                .collect();
            // The job's own model and k-anonymity come first.
            r.model_satisfied = Some(view.iter().take(2).all(|c| c.passed));
        }
        Err(e) => r.error = Some(format!("{} ({:?})", e.message, e.kind)),
    }
}

/// A population model's job: the population (untimed, [`data::population_of`]),
/// then its index — every record mapped into the release's key space and
/// counted by cell — and the job itself (timed together).
fn population_job(spec: &JobSpec, copies: usize, table: &Table, plan: Plan, r: &mut CaseResult) {
    let population = data::population_of(table, copies);
    r.notes
        .push(format!("population: {} rows", population.rows()));
    let (seconds, last) = timed(plan, || {
        let index = proxima_core::population::PopulationIndex::for_release(
            table,
            &population,
            "/dataset_id",
            Progress::none(),
        )?;
        let cells = index.cells();
        run::run_job_with(table, spec, Some(&index), Progress::none()).map(|o| (o, cells))
    });
    set_times(r, seconds);
    match last.expect("at least one run") {
        Ok((outcome, cells)) => {
            quality(r, table, &outcome.anonymized);
            r.gcp = Some(outcome.summary.information_loss);
            r.checks = checks_of(&outcome.audit);
            if let Some(check) = &outcome.population {
                r.checks.insert(
                    0,
                    CheckOutcome {
                        kind: check.kind.to_string(),
                        passed: check.passed,
                    },
                );
                r.notes.push(format!(
                    "{}: {:?}; {cells} population cells",
                    check.kind, check.value
                ));
            }
            r.model_satisfied = outcome.population.as_ref().map(|c| c.passed);
        }
        Err(e) => r.error = Some(format!("{} ({:?})", e.message, e.kind)),
    }
}

/// The stored form of the case's table, written as an upload writes it
/// (untimed), then decoded as a job decodes it after its SELECT (timed).
/// The notes split one decode into its LZ4 and decoding halves.
fn stored_load(case: &Case, loaded_table: &Table, plan: Plan, r: &mut CaseResult) {
    use proxima::store::table_frames;
    let outcome = (|| -> anyhow::Result<()> {
        let up = data::upload(case.source)?;
        let (loaded, stored) = table_frames::write_stored(
            &up.schema,
            up.csv.as_slice(),
            &Default::default(),
            Vec::new(),
            |_| {},
        )
        .map_err(|e| anyhow::anyhow!("{e}"))?;
        let (seconds, last) = timed(plan, || table_frames::decode(up.schema.clone(), &stored));
        set_times(r, seconds);
        let table = last
            .expect("at least one run")
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        check_stated(&table, None, &case.stated, r);
        // What this case must satisfy: the decoded table is the CSV's.
        r.model_satisfied = Some(table == *loaded_table);
        if table != *loaded_table {
            r.error = Some("the decoded table is not the CSV's".to_string());
        }
        let t = Instant::now();
        let raw = table_frames::decompress_only(&stored).map_err(|e| anyhow::anyhow!("{e}"))?;
        let lz4 = t.elapsed().as_secs_f64();
        let t = Instant::now();
        drop(table_frames::decode(up.schema.clone(), &stored));
        let both = t.elapsed().as_secs_f64();
        r.notes.push(format!(
            "stored {} bytes in {} rows' blocks ({} decompressed); one load: LZ4 {:.1} ms, \
             decoding {:.1} ms",
            stored.len(),
            loaded.rows,
            raw,
            lz4 * 1e3,
            (both - lz4).max(0.0) * 1e3
        ));
        Ok(())
    })();
    if let Err(e) = outcome {
        r.error = Some(format!("{e:#}"));
    }
}

/// Runs an in-process case (a `Job`, an `Audit`, an `AttackerView` or a
/// `StoredLoad`).
pub fn run_in_process(case: &Case, plan: Plan) -> CaseResult {
    let mut r = blank(case, plan);
    let table = match data::load(case.source) {
        Ok(t) => t,
        Err(e) => {
            r.error = Some(format!("loading the data: {e:#}"));
            r.settle();
            return r;
        }
    };
    r.rows = Some(table.rows());
    match &case.work {
        Work::Job(spec) => job(case, spec, &table, plan, &mut r),
        Work::Audit { k, checks } => audit_case(*k, checks, &table, plan, &mut r),
        Work::AttackerView(spec) => attacker_view_case(spec, &table, plan, &mut r),
        Work::StoredLoad => stored_load(case, &table, plan, &mut r),
        Work::Suda { scope, max_size } => suda_case(*scope, *max_size, &table, plan, &mut r),
        Work::PopulationJob { spec, copies } => population_job(spec, *copies, &table, plan, &mut r),
        Work::Http { .. } | Work::Offline { .. } | Work::Arx(_) => {
            r.error = Some("an HTTP, offline or peer case does not run in-process".to_string());
        }
    }
    r.settle();
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::cases;

    #[test]
    fn the_mini_case_runs_and_computes_its_figures() {
        let case = cases::select(&["mini-em".to_string()]).unwrap().remove(0);
        let r = run_in_process(&case, Plan { warmup: 0, runs: 2 });
        assert_eq!(r.error, None);
        assert_eq!(r.rows, Some(data::MINI_ROWS));
        assert_eq!(r.seconds.len(), 2);
        assert!(r.median_s.is_some());
        assert!(r.groups.is_some_and(|g| g > 1));
        assert!(r.min_group_size.is_some_and(|m| m >= 3));
        assert!(r.gcp.is_some_and(|g| (0.0..=1.0).contains(&g)));
        assert!(r.query_error_q2.is_some());
        assert!(r.query_error_q2_median.is_some());
        // Two QIs only: q = 3 is not applicable, and says so.
        assert_eq!((r.query_error_q3, r.query_error_q3_median), (None, None));
        assert!(r.notes.iter().any(|n| n.contains("q=3")));
        // The satisfied flag is the audit's: the (ε,m) check is reported.
        assert!(r.checks.iter().any(|c| c.kind == "epsilon_m"));
        assert_eq!(
            r.model_satisfied,
            Some(r.checks[0].passed && r.checks[1].passed)
        );
        assert!(r.passed);
    }

    #[test]
    fn the_attacker_view_case_times_the_evaluation_of_the_jobs_checks() {
        let case = cases::select(&["mini-av".to_string()]).unwrap().remove(0);
        let r = run_in_process(&case, Plan { warmup: 0, runs: 2 });
        assert_eq!(r.error, None);
        assert_eq!(r.seconds.len(), 2);
        assert!(r.groups.is_some_and(|g| g > 1));
        // The job's checks: (ε,m), k-anonymity, distinct l-diversity.
        let kinds: Vec<&str> = r.checks.iter().map(|c| c.kind.as_str()).collect();
        assert_eq!(kinds, ["epsilon_m", "k_anonymity", "l_diversity"]);
        assert_eq!(
            r.model_satisfied,
            Some(r.checks[0].passed && r.checks[1].passed)
        );
        let note = r
            .notes
            .iter()
            .find(|n| n.starts_with("attacker's view epsilon_m"))
            .expect("a note per check");
        assert!(
            note.contains(&format!("of {} victims", data::MINI_ROWS)),
            "{note}"
        );
    }

    #[test]
    fn the_suda_case_times_the_scan_and_checks_its_figures() {
        let case = cases::select(&["mini-sd".to_string()]).unwrap().remove(0);
        let r = run_in_process(&case, Plan { warmup: 0, runs: 2 });
        assert_eq!(r.error, None);
        assert_eq!(r.seconds.len(), 2);
        assert_eq!(r.model_satisfied, Some(true));
        let note = r.notes.first().expect("the scan's figures");
        assert!(note.contains("records with an MSU"), "{note}");
    }

    #[test]
    fn the_population_case_runs_k_map_against_a_built_population() {
        let case = cases::select(&["mini-kmap".to_string()]).unwrap().remove(0);
        let r = run_in_process(&case, Plan { warmup: 0, runs: 1 });
        assert_eq!(r.error, None);
        assert_eq!(r.checks[0].kind, "k_map");
        assert_eq!(r.model_satisfied, Some(true));
        assert!(r.groups.is_some_and(|g| g > 1));
        let rows = format!("population: {} rows", 3 * data::MINI_ROWS);
        assert!(r.notes.iter().any(|n| n == &rows), "{:?}", r.notes);
    }

    #[test]
    fn timed_keeps_only_the_timed_runs() {
        let mut calls = 0;
        let (seconds, last) = timed(Plan { warmup: 2, runs: 3 }, || {
            calls += 1;
            calls
        });
        assert_eq!(seconds.len(), 3);
        assert_eq!(last, Some(5));
    }
}
