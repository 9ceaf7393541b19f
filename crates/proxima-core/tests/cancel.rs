//! Cancellation latency on the large cases of BENCHMARKS.md: cancelling a
//! running job must take effect within one second.
//!
//! For each case a full run records the time between consecutive
//! cancellation checkpoints (the `Progress` callback calls): the largest
//! gap bounds how long a cancel can wait, wherever it lands. Then the same
//! run is started again and a second thread flips the cancel flag at 30 %
//! and at 70 % of the full run's duration; the call must return
//! `ErrorKind::Cancelled` within 1 s of the flip. The bound is generous on
//! purpose (the checkpoints are a few tens of ms apart): it guards the
//! documented guarantee, not performance.
//!
//! The core is built at opt-level 3 even in test builds, so the figures
//! are those of a release build. Skips (with a note) without shared/data.

mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use proxima_core::audit;
use proxima_core::error::CoreResult;
use proxima_core::ingest::load_table_with_progress;
use proxima_core::ingest::shared::SharedTable;
use proxima_core::metric::{LpNorm, MetricSpec};
use proxima_core::mondrian;
use proxima_core::params::*;
use proxima_core::run::{self, JobSpec};
use proxima_core::xcolor::XColorOptions;
use proxima_core::{ErrorKind, Progress, Table};
use proxima_test_support::shared::load_shared;
use proxima_testdata::SharedData;

/// The guarantee under test.
const CANCEL_WITHIN: Duration = Duration::from_secs(1);

/// One case at a time: each measures how soon a cancel is honoured while
/// its job uses every core, and a sibling case running at once would take
/// half of them (the test harness runs tests in parallel).
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn sal() -> Option<&'static Table> {
    static T: OnceLock<Option<Table>> = OnceLock::new();
    T.get_or_init(|| load_shared(SharedTable::SalSynthetic).map(|t| t.unwrap()))
        .as_ref()
}

fn adult600k() -> Option<&'static Table> {
    static T: OnceLock<Option<Table>> = OnceLock::new();
    T.get_or_init(|| load_shared(SharedTable::AdultScaledSynthetic).map(|t| t.unwrap()))
        .as_ref()
}

/// What one run saw: its duration, the longest time the work went without
/// asking whether to stop, and where (progress fractions at both ends).
struct Observed {
    elapsed: Duration,
    max_gap: Duration,
    gap_at: (f64, f64),
    checkpoints: usize,
}

/// Runs `work` with a progress callback that records checkpoint gaps and
/// answers "stop" once `cancel` is set.
fn observe(
    work: &(dyn Fn(Progress) -> CoreResult<()> + Sync),
    cancel: &AtomicBool,
) -> (CoreResult<()>, Observed) {
    let start = Instant::now();
    // (last checkpoint time, its fraction, max gap, gap ends, count)
    let state = Mutex::new((start, 0.0f64, Duration::ZERO, (0.0, 0.0), 0usize));
    let cb = |f: f64| {
        let now = Instant::now();
        let mut s = state.lock().unwrap();
        let gap = now - s.0;
        if gap > s.2 {
            s.2 = gap;
            s.3 = (s.1, f);
        }
        s.0 = now;
        s.1 = f;
        s.4 += 1;
        !cancel.load(Ordering::SeqCst)
    };
    let result = work(Progress::new(&cb));
    let elapsed = start.elapsed();
    let s = state.into_inner().unwrap();
    (
        result,
        Observed {
            elapsed,
            max_gap: s.2,
            gap_at: s.3,
            checkpoints: s.4,
        },
    )
}

/// The full run's gaps, then cancels at 30 % and 70 % of its duration.
fn check_case(name: &str, work: &(dyn Fn(Progress) -> CoreResult<()> + Sync)) {
    let never = AtomicBool::new(false);
    let (result, full) = observe(work, &never);
    result.unwrap_or_else(|e| panic!("{name}: the uncancelled run failed: {e}"));
    println!(
        "{name}: full run {:?}, {} checkpoints, longest gap {:?} (between progress {:.3} and {:.3})",
        full.elapsed, full.checkpoints, full.max_gap, full.gap_at.0, full.gap_at.1
    );
    assert!(
        full.max_gap < CANCEL_WITHIN,
        "{name}: {:?} without a cancellation checkpoint (between progress {:.3} and {:.3})",
        full.max_gap,
        full.gap_at.0,
        full.gap_at.1
    );
    for share in [0.3, 0.7] {
        let delay = full.elapsed.mul_f64(share);
        let cancel = Arc::new(AtomicBool::new(false));
        let flipped = Arc::new(Mutex::new(None::<Instant>));
        let flipper = {
            let (cancel, flipped) = (cancel.clone(), flipped.clone());
            std::thread::spawn(move || {
                std::thread::sleep(delay);
                *flipped.lock().unwrap() = Some(Instant::now());
                cancel.store(true, Ordering::SeqCst);
            })
        };
        let (result, _) = observe(work, &cancel);
        let returned = Instant::now();
        flipper.join().unwrap();
        let flipped_at = flipped.lock().unwrap().expect("the flipper ran");
        match result {
            Err(e) if e.kind == ErrorKind::Cancelled => {
                let latency = returned.saturating_duration_since(flipped_at);
                println!("{name}: cancelled at {delay:?}, returned {latency:?} after the flip");
                assert!(
                    latency < CANCEL_WITHIN,
                    "{name}: the cancel at {delay:?} took {latency:?}"
                );
            }
            Ok(()) if returned <= flipped_at => {
                // Faster this time than the full run: it finished before the
                // flip, which is no evidence either way.
                println!("{name}: finished before the flip at {delay:?}; not counted");
            }
            Ok(()) => panic!("{name}: ran to completion although cancelled at {delay:?}"),
            Err(e) => panic!("{name}: failed with {:?} instead of cancelled: {e}", e.kind),
        }
    }
}

fn job(model: PrivacyModel, algorithm: Algorithm, metric: Option<MetricSpec>) -> JobSpec {
    JobSpec {
        model,
        algorithm,
        metric,
        xcolor: XColorOptions::default(),
        suppression_limit: Default::default(),
    }
}

fn run_job_case(name: &str, table: &Table, spec: JobSpec) {
    check_case(name, &|p| run::run_job(table, &spec, p).map(|_| ()));
}

fn k10() -> K {
    K::new(10, "/model/k").unwrap()
}

#[test]
fn ingest_of_the_large_tables_is_cancellable() {
    let _serial = one_at_a_time();
    let Some(data) = SharedData::find_or_skip("the ingest cases") else {
        return;
    };
    for table in [SharedTable::SalSynthetic, SharedTable::AdultScaledSynthetic] {
        let schema = Arc::new(table.schema(|file| data.open(file)).unwrap());
        check_case(&format!("ingest {}", table.name()), &|p| {
            let reader = data
                .open(table.data_file())
                .map_err(|e| proxima_core::CoreError::new(ErrorKind::Internal, e.to_string()))?;
            let t = load_table_with_progress(schema.clone(), reader, p)?;
            assert_eq!(t.rows(), table.expected_rows());
            Ok(())
        });
    }
}

#[test]
fn epsilon_m_on_sal_500k_is_cancellable() {
    let _serial = one_at_a_time();
    let Some(t) = sal() else { return };
    for (nb, e) in [
        (Neighborhood::Absolute, 4500.0),
        (Neighborhood::Relative, 0.125),
    ] {
        let params = EpsilonM::new(
            Epsilon::new(e, "/e").unwrap(),
            M::new(5, "/m").unwrap(),
            nb,
            "/e",
        )
        .unwrap();
        run_job_case(
            &format!("em-sal {nb:?} ε={e} m=5, suppression ≤ 30 %"),
            t,
            JobSpec {
                // In the attacker's view m = 5 needs about a fifth of sal's
                // rows suppressed (its densest SA window holds 26 % of the
                // rows): the run exercises the suppression path too.
                suppression_limit: SuppressionLimit::new(0.3, "/suppression_limit").unwrap(),
                ..job(PrivacyModel::EpsilonM(params), Algorithm::EpsilonM, None)
            },
        );
    }
}

#[test]
fn xcolor_on_sal_500k_is_cancellable() {
    let _serial = one_at_a_time();
    let Some(t) = sal() else { return };
    let params = Dissimilarity {
        epsilon: Epsilon::new(0.01, "/e").unwrap(),
        delta: Fraction::new(0.8, "delta", "/d").unwrap(),
        k: k10(),
    };
    run_job_case(
        "xc-sal ε=0.01 δ=0.8 k=10 lp",
        t,
        job(
            PrivacyModel::Dissimilarity(params),
            Algorithm::XColor,
            Some(MetricSpec::Lp {
                p: LpNorm::L1,
                weights: vec![],
            }),
        ),
    );
}

#[test]
fn mondrian_on_adult_600k_is_cancellable() {
    let _serial = one_at_a_time();
    let Some(t) = adult600k() else { return };
    let models = [
        ("k=10", PrivacyModel::KAnonymity(k10())),
        (
            "distinct 2-diversity k=10",
            PrivacyModel::LDiversity(
                LDiversity::new(2.0, LDiversityVariant::Distinct, k10(), "/model").unwrap(),
            ),
        ),
        (
            "0.2-closeness k=10",
            PrivacyModel::TCloseness(TCloseness {
                t: Fraction::new(0.2, "t", "/t").unwrap(),
                k: k10(),
                ground: GroundDistance::Ordered,
            }),
        ),
    ];
    for (name, model) in models {
        run_job_case(
            &format!("mo-600k {name}"),
            t,
            job(model, Algorithm::Mondrian, None),
        );
    }
}

#[test]
fn audit_of_adult_600k_is_cancellable() {
    let _serial = one_at_a_time();
    let Some(t) = adult600k() else { return };
    let k = k10();
    let p = mondrian::anonymize(t, &PrivacyModel::KAnonymity(k), Progress::none()).unwrap();
    let checks = proxima_test_support::checks::every_check(k);
    check_case("au-600k all checks", &|prog| {
        audit::audit(t, &p, None, &checks, prog).map(|_| ())
    });
}

/// XColor on adult 600k with adult_full's composite SA (education-num,
/// hours-per-week, capital-gain; L1): the attacker's view judges wide
/// candidate sets here for about two minutes. Too long for the suite:
/// run it by hand (`cargo test -p proxima-core --release --test cancel --
/// --ignored --nocapture`) for the figures docs/performance.md quotes.
#[test]
#[ignore]
fn xcolor_on_adult_600k_composite_is_cancellable() {
    let _serial = one_at_a_time();
    let Some(data) = SharedData::find_or_skip("xc-600k composite") else {
        return;
    };
    let schema = Arc::new(
        SharedTable::AdultFullComposite
            .schema(|file| data.open(file))
            .unwrap(),
    );
    let reader = data
        .open(SharedTable::AdultScaledSynthetic.data_file())
        .unwrap();
    let t = load_table_with_progress(schema, reader, Progress::none()).unwrap();
    let params = Dissimilarity {
        epsilon: Epsilon::new(0.02, "/e").unwrap(),
        delta: Fraction::new(0.5, "delta", "/d").unwrap(),
        k: k10(),
    };
    run_job_case(
        "xc-600k composite ε=0.02 δ=0.5 k=10",
        &t,
        job(PrivacyModel::Dissimilarity(params), Algorithm::XColor, None),
    );
}

/// The 5M-row cases of BENCHMARKS.md (`generate.py 5000000 7`, its path
/// in `PROXIMA_SAL5M`): one full run each, printing the longest gap
/// between checkpoints in the partition (progress below 0.8) and in the
/// guard. Figures only, no assertion: run it by hand on a quiet machine
/// (`PROXIMA_SAL5M=… cargo test -p proxima-core --release --test cancel
/// -- --ignored --nocapture gaps_on_5m`).
#[test]
#[ignore]
fn gaps_on_5m_rows() {
    let _serial = one_at_a_time();
    let Ok(path) = std::env::var("PROXIMA_SAL5M") else {
        println!("PROXIMA_SAL5M not set; skipped");
        return;
    };
    let schema = Arc::new(
        SharedTable::SalSynthetic
            .schema(|file: &str| -> std::io::Result<std::io::Empty> {
                Err(std::io::Error::other(file.to_string()))
            })
            .unwrap(),
    );
    let reader = std::io::BufReader::new(std::fs::File::open(path).unwrap());
    let t = load_table_with_progress(schema, reader, Progress::none()).unwrap();
    let em = EpsilonM::new(
        Epsilon::new(4500.0, "/e").unwrap(),
        M::new(5, "/m").unwrap(),
        Neighborhood::Absolute,
        "/e",
    )
    .unwrap();
    let xc = Dissimilarity {
        epsilon: Epsilon::new(0.01, "/e").unwrap(),
        delta: Fraction::new(0.8, "delta", "/d").unwrap(),
        k: k10(),
    };
    let cases = [
        (
            "mo-5m",
            job(PrivacyModel::KAnonymity(k10()), Algorithm::Mondrian, None),
        ),
        (
            "em-5m",
            JobSpec {
                suppression_limit: SuppressionLimit::new(0.25, "/s").unwrap(),
                ..job(PrivacyModel::EpsilonM(em), Algorithm::EpsilonM, None)
            },
        ),
        (
            "xc-5m",
            job(PrivacyModel::Dissimilarity(xc), Algorithm::XColor, None),
        ),
    ];
    for (name, spec) in cases {
        let start = Instant::now();
        // (last checkpoint, its fraction, every gap with its ends, count)
        let state = Mutex::new((start, 0.0f64, Vec::new(), 0usize));
        let cb = |f: f64| {
            let now = Instant::now();
            let mut s = state.lock().unwrap();
            let gap = now - s.0;
            let from = s.1;
            s.2.push((gap, from, f));
            s.0 = now;
            s.1 = f;
            s.3 += 1;
            true
        };
        run::run_job(&t, &spec, Progress::new(&cb)).unwrap();
        let (_, _, mut gaps, count) = state.into_inner().unwrap();
        gaps.sort_by_key(|g| std::cmp::Reverse(g.0));
        let longest = |guard: bool| gaps.iter().find(|g| (g.1 >= 0.8) == guard).map(|g| g.0);
        println!(
            "{name}: {:?} in all, {count} checkpoints, longest gap {:?} in the partition, {:?} in the guard",
            start.elapsed(),
            longest(false),
            longest(true),
        );
        for (gap, from, to) in gaps.iter().take(5) {
            println!("  {gap:?} between progress {from:.4} and {to:.4}");
        }
    }
}
