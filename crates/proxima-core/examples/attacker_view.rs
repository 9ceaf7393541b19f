//! Times the attacker's-view evaluation (`attacker::evaluate`) of one
//! release several times and prints per-run wall and CPU time with the
//! figures of each check: a target for `perf record` and for comparing the
//! evaluation on releases that overlap little or much.
//!
//! ```text
//! cargo run --release -p proxima-core --example attacker_view -- <case> [runs]
//! ```
//!
//! Cases (the release is built once, untimed; the timed run is the
//! evaluation of the job's audit checks, boxes included):
//! * `em-sal`, `em-sal-rel`, `em-credit`, `em-cup`: the (ε,m) partitioner's
//!   releases of BENCHMARKS.md's cases (its buckets publish identical or
//!   nested boxes: the heavy-overlap case);
//! * `mo-sal`: Mondrian k = 10 on sal (boxes that overlap only where a
//!   categorical cut publishes a shared ancestor), judged with em-sal's
//!   checks;
//! * `xc-credit`: XColor's release of xc-credit.

use std::process::ExitCode;
use std::time::Instant;

use proxima_core::attacker::{evaluate, GroupBoxes, Victims};
use proxima_core::ingest::shared::SharedTable;
use proxima_core::metric::{LpNorm, MetricSpec};
use proxima_core::params::{
    Algorithm, Dissimilarity, Epsilon, EpsilonM, Fraction, Neighborhood, PrivacyModel,
    SuppressionLimit, K, M,
};
use proxima_core::run::{anonymize, job_audit_checks, JobSpec};
use proxima_core::xcolor::XColorOptions;
use proxima_core::Progress;
use proxima_test_support::shared::load_shared;

const CASES: &str = "em-sal em-sal-rel em-credit em-cup mo-sal xc-credit";

fn em(e: f64, m: u64, neighborhood: Neighborhood, algorithm: Algorithm) -> JobSpec {
    JobSpec {
        model: PrivacyModel::EpsilonM(
            EpsilonM::new(
                Epsilon::new(e, "/e").expect("epsilon"),
                M::new(m, "/m").expect("m"),
                neighborhood,
                "/e",
            )
            .expect("params"),
        ),
        algorithm,
        metric: None,
        xcolor: XColorOptions::default(),
        // em-sal at m = 5 needs suppression in the attacker's view.
        suppression_limit: SuppressionLimit::new(0.3, "/s").expect("limit"),
    }
}

fn case(name: &str) -> Option<(SharedTable, JobSpec)> {
    use Algorithm::{EpsilonM as Em, Mondrian};
    use Neighborhood::{Absolute, Relative};
    Some(match name {
        "em-sal" => (SharedTable::SalSynthetic, em(4500.0, 5, Absolute, Em)),
        "em-sal-rel" => (SharedTable::SalSynthetic, em(0.125, 5, Relative, Em)),
        "em-credit" => (SharedTable::CreditCard, em(1000.0, 4, Absolute, Em)),
        "em-cup" => (SharedTable::Cup, em(5.0, 8, Absolute, Em)),
        "mo-sal" => (SharedTable::SalSynthetic, em(4500.0, 5, Absolute, Mondrian)),
        "xc-credit" => (
            SharedTable::CreditCard,
            JobSpec {
                model: PrivacyModel::Dissimilarity(Dissimilarity {
                    epsilon: Epsilon::new(0.001, "/e").expect("epsilon"),
                    delta: Fraction::new(0.5, "delta", "/d").expect("delta"),
                    k: K::new(10, "/k").expect("k"),
                }),
                algorithm: Algorithm::XColor,
                metric: Some(MetricSpec::Lp {
                    p: LpNorm::L1,
                    weights: Vec::new(),
                }),
                xcolor: XColorOptions::default(),
                suppression_limit: SuppressionLimit::default(),
            },
        ),
        _ => return None,
    })
}

/// User + system CPU seconds of this process (Linux `/proc/self/stat`).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (ticks(11) + ticks(12)) / 100.0
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((table_name, spec)) = args.first().and_then(|n| case(n)) else {
        eprintln!("usage: attacker_view <case> [runs]; cases: {CASES}");
        return ExitCode::FAILURE;
    };
    let runs: usize = args.get(1).and_then(|r| r.parse().ok()).unwrap_or(5);
    let table = match load_shared(table_name) {
        Some(Ok(t)) => t,
        Some(Err(e)) => {
            eprintln!("loading {}: {e}", table_name.name());
            return ExitCode::FAILURE;
        }
        None => {
            eprintln!("the shared data directory was not found");
            return ExitCode::FAILURE;
        }
    };
    // mo-sal: Mondrian's k-anonymous release, judged with em-sal's checks.
    let release_spec = if args[0] == "mo-sal" {
        JobSpec {
            model: PrivacyModel::KAnonymity(K::new(10, "/k").expect("k")),
            ..spec.clone()
        }
    } else {
        spec.clone()
    };
    let anonymized = match anonymize(&table, &release_spec, Progress::none()) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("the release failed: {e}");
            return ExitCode::FAILURE;
        }
    };
    // Rows the job suppressed are not in its release.
    let table = anonymized.table(&table);
    let release = &anonymized.release;
    let checks = job_audit_checks(table, &spec).expect("the job's checks");
    let mut walls = Vec::new();
    for run in 0..runs {
        let (t, cpu) = (Instant::now(), cpu_seconds());
        let boxes = GroupBoxes::from_release(table, release);
        let view = evaluate(
            table,
            release.partition(),
            &boxes,
            Victims::OriginalPoints,
            &checks,
            None,
            Progress::none(),
        )
        .expect("the evaluation");
        let wall = t.elapsed().as_secs_f64();
        walls.push(wall);
        println!(
            "run {run}: wall {wall:.3} s, cpu {:.2} s",
            cpu_seconds() - cpu
        );
        if run == 0 {
            for c in &view {
                println!(
                    "  {}: {} of {} victims over, worst {:.4}, candidate groups median {} max {}",
                    c.kind,
                    c.over_bound,
                    c.victims,
                    c.worst,
                    c.candidate_groups.median,
                    c.candidate_groups.max
                );
            }
        }
    }
    walls.sort_by(f64::total_cmp);
    println!(
        "{}: {} rows, {} groups, median wall {:.3} s over {runs} runs",
        args[0],
        table.rows(),
        release.groups(),
        walls[walls.len() / 2]
    );
    ExitCode::SUCCESS
}
