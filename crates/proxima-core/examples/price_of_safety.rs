//! What safety costs on the shared tables: for each proximity case, the
//! safe release's groups, suppressed share, GCP (suppressed rows as fully
//! generalized), count-query error and the attacker's-view verdict, with
//! the job's time — one line per case, for comparing partitioners quickly.
//! The benchmark harness (`proxima-tools bench`) is the reference for the
//! published figures; this is a fast loop while working on the engine.
//!
//! ```text
//! cargo run --release -p proxima-core --example price_of_safety -- [case ...]
//! ```
//!
//! `PRICE_OF_SAFETY_DIMS=1` adds, per numeric QI, the rows' mean normalized
//! width and how many rows sit in groups of each width quartile: where the
//! loss comes from.

use std::time::Instant;

use proxima_core::attacker::{evaluate, GroupBoxes, Victims};
use proxima_core::generalize::{generalize, Release};
use proxima_core::ingest::shared::SharedTable;
use proxima_core::metric::{LpNorm, MetricSpec};
use proxima_core::params::{
    Algorithm, Dissimilarity, Epsilon, EpsilonM, Fraction, Neighborhood, PrivacyModel,
    SuppressionLimit, K, M,
};
use proxima_core::run::{anonymize, job_audit_checks, run_job, JobSpec};
use proxima_core::utility::{gcp, query_error, Published, WorkloadSpec};
use proxima_core::xcolor::{InitialColoring, XColorOptions};
use proxima_core::{epsilon_m, Progress, Table};

const CASES: &[&str] = &[
    "em-credit",
    "em-sal-s15",
    "em-sal-s25",
    "em-sal-m3",
    "em-sal-rel",
    "em-cup-s02",
    "em-cup-s03",
    "em-cup-s05",
    "xc-credit",
    "xc-credit-hard",
    "xc-adult",
    "xc-sal",
];

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

/// The table, model and suppression limit of a case.
fn case(name: &str) -> Option<(SharedTable, PrivacyModel, f64)> {
    use Neighborhood::{Absolute, Relative};
    use SharedTable::{AdultFullComposite, CreditCard, Cup, SalSynthetic};
    Some(match name {
        "em-credit" => (CreditCard, epsilon_m(1000.0, 4, Absolute), 0.0),
        "em-sal" => (SalSynthetic, epsilon_m(4500.0, 5, Absolute), 0.0),
        "em-sal-s15" => (SalSynthetic, epsilon_m(4500.0, 5, Absolute), 0.15),
        "em-sal-s17" => (SalSynthetic, epsilon_m(4500.0, 5, Absolute), 0.17),
        "em-sal-s25" => (SalSynthetic, epsilon_m(4500.0, 5, Absolute), 0.25),
        "em-sal-m3" => (SalSynthetic, epsilon_m(4500.0, 3, Absolute), 0.0),
        "em-sal-rel" => (SalSynthetic, epsilon_m(0.125, 5, Relative), 0.0),
        "em-cup" => (Cup, epsilon_m(5.0, 8, Absolute), 0.0),
        "em-cup-s02" => (Cup, epsilon_m(5.0, 8, Absolute), 0.02),
        "em-cup-s03" => (Cup, epsilon_m(5.0, 8, Absolute), 0.03),
        "em-cup-s05" => (Cup, epsilon_m(5.0, 8, Absolute), 0.05),
        "xc-credit" => (CreditCard, dissimilarity(0.001, 0.5, 10), 0.0),
        "xc-credit-hard" => (CreditCard, dissimilarity(0.001, 0.8, 10), 0.0),
        "xc-adult" => (AdultFullComposite, dissimilarity(0.02, 0.5, 10), 0.0),
        "xc-sal" => (SalSynthetic, dissimilarity(0.01, 0.8, 10), 0.0),
        _ => return None,
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let names: Vec<&str> = if args.is_empty() {
        CASES.to_vec()
    } else {
        args.iter().map(String::as_str).collect()
    };
    for name in names {
        let Some((table, model, limit)) = case(name) else {
            eprintln!("unknown case '{name}'; cases: {CASES:?}");
            continue;
        };
        let Some(loaded) = proxima_test_support::shared::load_shared(table) else {
            return;
        };
        let table = loaded.expect("the shared table loads");
        let (algorithm, metric) = match model {
            PrivacyModel::EpsilonM(_) => (Algorithm::EpsilonM, None),
            _ => (
                Algorithm::XColor,
                Some(MetricSpec::Lp {
                    p: LpNorm::L1,
                    weights: vec![],
                }),
            ),
        };
        let spec = JobSpec {
            model,
            algorithm,
            metric,
            xcolor: XColorOptions::default(),
            suppression_limit: SuppressionLimit::new(limit, "/s").unwrap(),
        };
        let start = Instant::now();
        let out = match run_job(&table, &spec, Progress::none()) {
            Ok(out) => out,
            Err(e) => {
                println!(
                    "{name}: error after {:.3} s: {e}",
                    start.elapsed().as_secs_f64()
                );
                continue;
            }
        };
        let seconds = start.elapsed().as_secs_f64();
        let s = &out.summary;
        let kept = out.anonymized.table(&table);
        let qe = query_error(&out.anonymized.published(&table), &workload()).ok();
        if std::env::var_os("PRICE_OF_SAFETY_DIMS").is_some() {
            let release = &out.anonymized.release;
            for (d, qi) in kept.qis().iter().enumerate() {
                if let proxima_core::table::QiValues::Numeric(v) = &qi.values {
                    let (lo, hi) = v
                        .iter()
                        .fold((f64::MAX, f64::MIN), |a, &x| (a.0.min(x), a.1.max(x)));
                    let mut acc = 0.0;
                    let mut hist = [0usize; 5];
                    for g in &release.partition().groups {
                        let (a, b) = g.iter().fold((f64::MAX, f64::MIN), |a, &r| {
                            (a.0.min(v[r as usize]), a.1.max(v[r as usize]))
                        });
                        let w = if hi > lo { (b - a) / (hi - lo) } else { 0.0 };
                        acc += w * g.len() as f64;
                        hist[((w * 4.0).floor() as usize).min(4)] += g.len();
                    }
                    println!(
                        "  dim {d} {}: weighted width {:.4}, rows by width quartile {hist:?}",
                        qi.name,
                        acc / kept.rows() as f64
                    );
                }
            }
        }
        let view = s.attacker_view.as_ref();
        println!(
            "{name}: {:.3} s, {} groups (min {}), suppressed {:.2} %, GCP {:.4}, QE q=2 median/mean {}, view over bound {}",
            seconds,
            s.groups,
            s.min_group_size,
            100.0 * s.suppressed_by_model as f64 / s.rows.max(1) as f64,
            s.information_loss,
            qe.map_or("-".into(), |w| format!(
                "{:.1} % / {:.1} %",
                100.0 * w.median_relative_error.unwrap_or(f64::NAN),
                100.0 * w.mean_relative_error.unwrap_or(f64::NAN)
            )),
            view.map_or("-".into(), |v| format!("{} of {}", v.over_bound, v.victims)),
        );
        if std::env::var_os("PRICE_OF_SAFETY_PAPER").is_some() {
            paper_line(name, &table, &spec);
        }
    }
}

/// The standard count-query workload (q = 2, s = 0.1, the standard seed).
fn workload() -> WorkloadSpec {
    WorkloadSpec::standard(2)
}

/// The paper's own release of the case (the (ε,m) paper's round-robin
/// buckets, XColor's Algorithm 1 colouring): its GCP, query error and how
/// many victims it breaches in the attacker's view.
fn paper_line(name: &str, table: &Table, spec: &JobSpec) {
    let release: Result<Release, String> = match &spec.model {
        PrivacyModel::EpsilonM(p) => epsilon_m::paper_partition(table, p, Progress::none())
            .and_then(|part| generalize(table, part))
            .map_err(|e| e.to_string()),
        _ => {
            let paper = JobSpec {
                xcolor: XColorOptions {
                    initial: InitialColoring::DegreeBalanced,
                },
                ..spec.clone()
            };
            anonymize(table, &paper, Progress::none())
                .map(|a| a.release)
                .map_err(|e| e.to_string())
        }
    };
    let release = match release {
        Ok(r) => r,
        Err(e) => {
            println!("  paper's release: {e}");
            return;
        }
    };
    let checks = job_audit_checks(table, spec).expect("the job's checks");
    let boxes = GroupBoxes::from_release(table, &release);
    let view = match evaluate(
        table,
        release.partition(),
        &boxes,
        Victims::OriginalPoints,
        &checks,
        None,
        Progress::none(),
    ) {
        Ok(view) => format!(
            "view over bound {} of {} (worst {:.3})",
            view[0].over_bound, view[0].victims, view[0].worst
        ),
        // Boxes that overlap too much to judge: the guard refuses them.
        Err(e) => format!("view not judged: {e}"),
    };
    let qe = query_error(&Published::whole(table, &release), &workload()).ok();
    println!(
        "  {name} paper's release (unsafe): {} groups, GCP {:.4}, QE q=2 median/mean {}, {view}",
        release.groups(),
        gcp(table, &release),
        qe.map_or("-".into(), |w| format!(
            "{:.1} % / {:.1} %",
            100.0 * w.median_relative_error.unwrap_or(f64::NAN),
            100.0 * w.mean_relative_error.unwrap_or(f64::NAN)
        )),
    );
}
