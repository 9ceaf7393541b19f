//! Runs one case of BENCHMARKS.md's suite on an already-loaded shared table,
//! several times, and prints per-run wall and CPU time: a small target for
//! `valgrind --tool=callgrind` and for before/after comparisons.
//!
//! ```text
//! cargo run --release -p proxima-core --example profile_case -- <case> [runs] [mode]
//! ```
//!
//! `mode` is what a run times (loading the CSV never counts):
//! * `anonymize` (default): `run::anonymize` — validate, partition, generalize;
//! * `job`: `run::run_job` — the above plus the self-audit and the summary;
//! * `partition`: the partitioner alone (no validation, no release).
//!
//! The `au-600k` case always times the audit of a Mondrian k = 10 partition
//! (built once, untimed) with every audit check.
//!
//! CPU time is the process's user + system time from `/proc/self/stat`
//! (Linux, 10 ms ticks; all threads): on a shared machine it says more than
//! wall time. Set `PROFILE_CASE_QUIET=1` to print only the summary line.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use proxima_core::audit::{audit, AuditCheck};
use proxima_core::ingest::shared::SharedTable;
use proxima_core::metric::{LpNorm, MetricSpec, SensitiveSpace};
use proxima_core::params::{
    Algorithm, Dissimilarity, Epsilon, EpsilonM, Fraction, Neighborhood, PrivacyModel,
    SuppressionLimit, K, M,
};
use proxima_core::run::{anonymize, run_job, JobSpec};
use proxima_core::utility::ncp::gcp;
use proxima_core::xcolor::XColorOptions;
use proxima_core::{epsilon_m, mondrian, xcolor, Partition, Progress, Table};
use proxima_test_support::shared::load_shared;

const CASES: &str =
    "em-sal em-sal-s25 em-sal-m3 em-sal-rel em-credit em-cup mo-adult mo-600k au-600k \
                     xc-credit xc-credit-hard xc-adult xc-sal";

fn epsilon_m(e: f64, m: u64, nb: Neighborhood) -> PrivacyModel {
    PrivacyModel::EpsilonM(
        EpsilonM::new(
            Epsilon::new(e, "/e").unwrap(),
            M::new(m, "/m").unwrap(),
            nb,
            "/e",
        )
        .unwrap(),
    )
}

fn dissimilarity(e: f64, delta: f64, k: u64) -> PrivacyModel {
    PrivacyModel::Dissimilarity(Dissimilarity {
        epsilon: Epsilon::new(e, "/e").unwrap(),
        delta: Fraction::new(delta, "delta", "/d").unwrap(),
        k: K::new(k, "/k").unwrap(),
    })
}

fn k10() -> PrivacyModel {
    PrivacyModel::KAnonymity(K::new(10, "/k").unwrap())
}

/// The table and job of a case.
fn case(name: &str) -> Option<(SharedTable, PrivacyModel, Option<MetricSpec>)> {
    let lp = || {
        Some(MetricSpec::Lp {
            p: LpNorm::L1,
            weights: vec![],
        })
    };
    use Neighborhood::{Absolute, Relative};
    Some(match name {
        "em-sal" | "em-sal-s25" => (
            SharedTable::SalSynthetic,
            epsilon_m(4500.0, 5, Absolute),
            None,
        ),
        "em-sal-m3" => (
            SharedTable::SalSynthetic,
            epsilon_m(4500.0, 3, Absolute),
            None,
        ),
        "em-sal-rel" => (
            SharedTable::SalSynthetic,
            epsilon_m(0.125, 5, Relative),
            None,
        ),
        "em-credit" => (
            SharedTable::CreditCard,
            epsilon_m(1000.0, 4, Absolute),
            None,
        ),
        "em-cup" => (SharedTable::Cup, epsilon_m(5.0, 8, Absolute), None),
        "mo-adult" => (SharedTable::Adult, k10(), None),
        "mo-600k" | "au-600k" => (SharedTable::AdultScaledSynthetic, k10(), None),
        "xc-credit" => (SharedTable::CreditCard, dissimilarity(0.001, 0.5, 10), lp()),
        "xc-credit-hard" => (SharedTable::CreditCard, dissimilarity(0.001, 0.8, 10), lp()),
        "xc-adult" => (
            SharedTable::AdultFullComposite,
            dissimilarity(0.02, 0.5, 10),
            lp(),
        ),
        "xc-sal" => (
            SharedTable::SalSynthetic,
            dissimilarity(0.01, 0.8, 10),
            lp(),
        ),
        _ => return None,
    })
}

/// Every audit check, as the 600k Mondrian test runs them (the same list).
fn all_checks() -> Vec<AuditCheck> {
    proxima_test_support::checks::every_check(K::new(10, "/k").unwrap())
}

/// User + system CPU time of the process (all threads, 10 ms ticks).
fn cpu_time() -> Duration {
    let read = || -> Option<Duration> {
        let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
        let rest = &stat[stat.rfind(')')? + 2..];
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let ticks: u64 =
            fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
        Some(Duration::from_millis(ticks * 10))
    };
    read().unwrap_or_default()
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// What one run produced: a line describing the output. Never inlined, so
/// `valgrind --tool=callgrind --toggle-collect=*run_once*` counts only it.
#[inline(never)]
fn run_once(name: &str, table: &Table, spec: &JobSpec, mode: &str, audited: &Partition) -> String {
    if name == "au-600k" {
        let report = audit(table, audited, None, &all_checks(), Progress::none()).unwrap();
        let passed: Vec<&str> = report
            .checks
            .iter()
            .map(|c| if c.passed { "pass" } else { "fail" })
            .collect();
        return format!("{} groups, checks {passed:?}", report.groups);
    }
    match mode {
        "partition" => {
            let p = match (&spec.model, spec.algorithm) {
                (PrivacyModel::EpsilonM(p), _) => epsilon_m::anonymize(table, p, Progress::none()),
                (PrivacyModel::Dissimilarity(p), _) => {
                    let metric = spec.resolved_metric(table).unwrap();
                    let space = SensitiveSpace::new(table, &metric).unwrap();
                    xcolor::anonymize(table, &space, p, &spec.xcolor, Progress::none())
                }
                (model, _) => mondrian::anonymize(table, model, Progress::none()),
            }
            .unwrap();
            format!("{} groups, min size {}", p.len(), p.min_group_size())
        }
        "job" => match run_job(table, spec, Progress::none()) {
            Ok(out) => format!(
                "{} groups, min size {}, GCP {:.6}, self-audit passed {}",
                out.anonymized.release.groups(),
                out.anonymized.release.partition().min_group_size(),
                out.summary.information_loss,
                out.audit.passed
            ),
            Err(e) => format!("error: {e}"),
        },
        _ => match anonymize(table, spec, Progress::none()) {
            Ok(r) => format!(
                "{} groups, min size {}, GCP {:.6}",
                r.release.groups(),
                r.release.partition().min_group_size(),
                gcp(r.table(table), &r.release)
            ),
            Err(e) => format!("error: {e}"),
        },
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(name) = args.first() else {
        eprintln!("usage: profile_case <case> [runs] [anonymize|job|partition]\ncases: {CASES}");
        return ExitCode::FAILURE;
    };
    let runs: usize = args.get(1).and_then(|r| r.parse().ok()).unwrap_or(5);
    let mode = args.get(2).map(String::as_str).unwrap_or("anonymize");
    if !["anonymize", "job", "partition"].contains(&mode) {
        eprintln!("unknown mode '{mode}': anonymize, job or partition");
        return ExitCode::FAILURE;
    }
    let Some((shared, model, metric)) = case(name) else {
        eprintln!("unknown case '{name}'; cases: {CASES}");
        return ExitCode::FAILURE;
    };
    let quiet = std::env::var_os("PROFILE_CASE_QUIET").is_some();
    let load_start = Instant::now();
    let Some(table) = load_shared(shared) else {
        return ExitCode::FAILURE;
    };
    let table = table.expect("the shared table loads");
    let spec = JobSpec {
        algorithm: match model {
            PrivacyModel::EpsilonM(_) => Algorithm::EpsilonM,
            PrivacyModel::Dissimilarity(_) => Algorithm::XColor,
            _ => Algorithm::Mondrian,
        },
        model,
        metric,
        xcolor: XColorOptions::default(),
        // em-sal leaves rows out: its bench case allows a quarter (the
        // partition mode has no limit and refuses it).
        suppression_limit: match name.as_str() {
            "em-sal-s25" => SuppressionLimit::new(0.25, "/suppression_limit").unwrap(),
            _ => Default::default(),
        },
    };
    let audited = if name == "au-600k" {
        mondrian::anonymize(&table, &spec.model, Progress::none()).unwrap()
    } else {
        Partition::default()
    };
    if !quiet {
        println!(
            "{name}: {} rows loaded in {:.2} s; {runs} runs of {}",
            table.rows(),
            load_start.elapsed().as_secs_f64(),
            if name == "au-600k" { "audit" } else { mode }
        );
    }
    let (mut walls, mut cpus) = (Vec::new(), Vec::new());
    let mut outcome = String::new();
    let total_cpu = cpu_time();
    for i in 0..runs {
        let (start, cpu) = (Instant::now(), cpu_time());
        outcome = run_once(name, &table, &spec, mode, &audited);
        let (wall, cpu) = (
            start.elapsed().as_secs_f64(),
            (cpu_time() - cpu).as_secs_f64(),
        );
        if !quiet {
            println!("  run {}: wall {wall:.3} s, cpu {cpu:.2} s", i + 1);
        }
        walls.push(wall);
        cpus.push(cpu);
    }
    let mean_cpu = (cpu_time() - total_cpu).as_secs_f64() / runs.max(1) as f64;
    println!(
        "{name} [{}]: median wall {:.3} s, median cpu {:.2} s, mean cpu {:.3} s — {outcome}",
        if name == "au-600k" { "audit" } else { mode },
        median(&mut walls),
        median(&mut cpus),
        mean_cpu
    );
    ExitCode::SUCCESS
}
