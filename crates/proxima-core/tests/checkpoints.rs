//! How often the core asks whether to stop, measured in work and in
//! callbacks rather than in time (a timed assertion would depend on the
//! machine): a cancel must be honoured at the next checkpoint of whatever
//! phase it lands in, and no phase may do much work between two
//! checkpoints.
//!
//! * The attacker's view and the per-group audit count their work in units
//!   (one pairwise SA test, one row touched) and report every 2^20 units: a
//!   wide candidate set shared by thousands of victims, or one large group
//!   of an uploaded table, must be judged with a checkpoint every 2^20
//!   units, not once at its end.
//! * On the shared tables, a full run records the progress fraction of
//!   every callback; then runs are cancelled at random callbacks of each
//!   phase (partition, then the guard), and each must end `Cancelled` with
//!   only the concurrent branches' own next checkpoints after the stop.
//!   Skips (with a note) without shared/data.
//!
//! * The single passes over a whole table (a column's radix sort, the
//!   (ε,m) window thinning, the kept table, the release's boxes, the SA's
//!   codes) report at least once per block of
//!   [`ROWS_PER_CHECKPOINT`] rows, with fractions that never go back, give
//!   the results of an unwatched run, and end `Cancelled` when stopped
//!   inside.
//!
//! The wall-clock gaps between checkpoints are measured by
//! `tests/cancel.rs` (printed) and stated in docs/performance.md.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use proxima_core::attacker::{self, GroupBoxes, Victims};
use proxima_core::audit::{self, AuditCheck};
use proxima_core::error::CoreResult;
use proxima_core::generalize::generalize;
use proxima_core::ingest::shared::SharedTable;
use proxima_core::metric::{LpNorm, MetricSpec};
use proxima_core::params::*;
use proxima_core::privacy::SaCodes;
use proxima_core::progress::ROWS_PER_CHECKPOINT;
use proxima_core::run::{self, JobSpec};
use proxima_core::table::{QiValues, SaValues};
use proxima_core::xcolor::XColorOptions;
use proxima_core::{passes, ErrorKind, Partition, Progress, Table};
use proxima_test_support::shared::load_shared;

/// The work between two reports of the core's work counter.
const UNITS_PER_CHECKPOINT: usize = 1 << 20;

/// A table whose one QI runs 0..n and whose rows are dealt round-robin
/// into `groups` groups: every group's box spans almost the whole QI
/// range, so the victims in the middle all share one candidate set of
/// every group (|C| = n). Two numeric SA columns: the L1 metric's
/// pairwise test, one pass over the candidates per victim.
fn overlapping(n: usize, groups: usize) -> (Table, Partition) {
    let t = Table::from_columns(
        vec![(
            "q".into(),
            QiValues::Numeric((0..n).map(|i| i as f64).collect()),
        )],
        vec![
            (
                "s1".into(),
                SaValues::Numeric((0..n).map(|i| ((i * 7) % 100) as f64).collect()),
            ),
            (
                "s2".into(),
                SaValues::Numeric((0..n).map(|i| ((i * 13) % 50) as f64).collect()),
            ),
        ],
    );
    let mut rows = vec![Vec::new(); groups];
    for i in 0..n {
        rows[i % groups].push(i as u32);
    }
    (t, Partition::new(rows))
}

fn dissimilarity_l1() -> AuditCheck {
    AuditCheck::Dissimilarity {
        params: Dissimilarity {
            epsilon: Epsilon::new(0.02, "/e").unwrap(),
            delta: Fraction::new(0.5, "delta", "/d").unwrap(),
            k: K::new(10, "/k").unwrap(),
        },
        metric: Some(MetricSpec::Lp {
            p: LpNorm::L1,
            weights: vec![],
        }),
    }
}

#[test]
fn a_wide_candidate_set_is_judged_with_a_checkpoint_per_slice_of_work() {
    let (n, groups) = (4000, 400);
    let (t, partition) = overlapping(n, groups);
    let release = generalize(&t, partition).unwrap();
    let boxes = GroupBoxes::from_release(&t, &release);
    // The judging phase reports the fraction 0.2 at every checkpoint.
    let judging = AtomicUsize::new(0);
    let cb = |f: f64| {
        if f == 0.2 {
            judging.fetch_add(1, Ordering::Relaxed);
        }
        true
    };
    attacker::evaluate(
        &t,
        release.partition(),
        &boxes,
        Victims::OriginalPoints,
        &[dissimilarity_l1()],
        None,
        Progress::new(&cb),
    )
    .unwrap();
    // The victims strictly inside [groups, n - groups] each scan all n
    // candidates.
    let work = (n - 2 * groups) * n;
    let at_least = work / (2 * UNITS_PER_CHECKPOINT);
    let seen = judging.into_inner();
    assert!(
        seen >= at_least,
        "{seen} checkpoints while judging {work} pairwise tests; at least {at_least} expected"
    );
}

#[test]
fn a_large_group_is_audited_with_a_checkpoint_per_slice_of_work() {
    // One group of 3000 rows, as an uploaded table grouped by a column may
    // have: the composite SA's pairwise test is 9 million comparisons.
    let n = 3000;
    let (t, _) = overlapping(n, 1);
    let partition = Partition::new(vec![(0..n as u32).collect()]);
    let calls = AtomicUsize::new(0);
    let cb = |_: f64| {
        calls.fetch_add(1, Ordering::Relaxed);
        true
    };
    audit::audit(
        &t,
        &partition,
        None,
        &[dissimilarity_l1()],
        Progress::new(&cb),
    )
    .unwrap();
    let at_least = n * n / (2 * UNITS_PER_CHECKPOINT);
    let seen = calls.into_inner();
    assert!(
        seen >= at_least,
        "{seen} checkpoints while auditing {} pairwise tests; at least {at_least} expected",
        n * n
    );
}

/// A small deterministic generator (xorshift), so a failure names the
/// callback it cancelled at and can be replayed.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

/// The most callbacks after the first "stop": each branch running at once
/// (the guard's three parts, the checks judged side by side, the runs of
/// sets on every thread, every pending half of a recursive split on each
/// thread's stack) reaches its own next checkpoint once and returns; none
/// goes on to another phase (a phase makes a hundred callbacks or more on
/// these tables).
const AFTER_STOP: usize = 128;

/// Whether a progress fraction lies in a phase.
type InPhase = fn(f64) -> bool;

/// Runs `work` once to record the fraction of each callback, then cancels
/// it at `picks` random callbacks within each phase (partition below 0.8,
/// the guard from 0.8), asserting a `Cancelled` end each time.
fn cancels_in_every_phase(name: &str, work: &(dyn Fn(Progress) -> CoreResult<()> + Sync)) {
    let seen = Mutex::new(Vec::new());
    let record = |f: f64| {
        seen.lock().unwrap().push(f);
        true
    };
    work(Progress::new(&record)).unwrap_or_else(|e| panic!("{name}: the full run failed: {e}"));
    let fractions = seen.into_inner().unwrap();
    // The partition reports below 0.8, the guard from 0.8 on.
    let phases: [(&str, InPhase); 2] = [("partition", |f| f < 0.8), ("guard", |f| f >= 0.8)];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ name.len() as u64);
    for (phase, within) in &phases {
        let indices: Vec<usize> = (0..fractions.len())
            .filter(|&i| within(fractions[i]))
            .collect();
        assert!(
            !indices.is_empty(),
            "{name}: no checkpoint in the {phase} phase"
        );
        for _ in 0..3 {
            let at = indices[rng.below(indices.len())];
            let calls = AtomicUsize::new(0);
            let cb = |_: f64| calls.fetch_add(1, Ordering::SeqCst) < at;
            let result = work(Progress::new(&cb));
            let after = calls.load(Ordering::SeqCst).saturating_sub(at + 1);
            println!(
                "{name}: cancelled at callback {at} of {} ({phase}, progress {:.3}); {after} callbacks after",
                fractions.len(),
                fractions[at]
            );
            match result {
                Err(e) if e.kind == ErrorKind::Cancelled => {}
                // Concurrent branches call back in another order each run:
                // this one made fewer callbacks and never reached the stop.
                Ok(()) if calls.load(Ordering::SeqCst) <= at => {
                    println!("{name}: finished before callback {at}; not counted");
                    continue;
                }
                Err(e) => panic!("{name}: cancelled at callback {at} ({phase}) but failed: {e}"),
                Ok(()) => panic!("{name}: ran to completion though cancelled at callback {at}"),
            }
            assert!(
                after <= AFTER_STOP,
                "{name}: {after} callbacks after the stop at callback {at} ({phase})"
            );
        }
    }
}

fn table(which: SharedTable) -> Option<&'static Table> {
    static T: OnceLock<Mutex<Vec<(SharedTable, &'static Table)>>> = OnceLock::new();
    let cache = T.get_or_init(Mutex::default);
    let mut cache = cache.lock().unwrap();
    if let Some((_, t)) = cache.iter().find(|(w, _)| *w == which) {
        return Some(t);
    }
    let t: &'static Table = Box::leak(Box::new(load_shared(which)?.unwrap()));
    cache.push((which, t));
    Some(t)
}

fn spec(model: PrivacyModel, algorithm: Algorithm) -> JobSpec {
    JobSpec {
        model,
        algorithm,
        metric: None,
        xcolor: XColorOptions::default(),
        suppression_limit: Default::default(),
    }
}

fn run_job_cancels(name: &str, t: &Table, spec: JobSpec) {
    cancels_in_every_phase(name, &|p| run::run_job(t, &spec, p).map(|_| ()));
}

#[test]
fn xcolor_is_cancelled_at_random_checkpoints_of_every_phase() {
    let Some(t) = table(SharedTable::AdultFullComposite) else {
        return;
    };
    let model = PrivacyModel::Dissimilarity(Dissimilarity {
        epsilon: Epsilon::new(0.02, "/e").unwrap(),
        delta: Fraction::new(0.5, "delta", "/d").unwrap(),
        k: K::new(10, "/k").unwrap(),
    });
    run_job_cancels("xcolor adult_full", t, spec(model, Algorithm::XColor));
}

#[test]
fn epsilon_m_is_cancelled_at_random_checkpoints_of_every_phase() {
    let Some(t) = table(SharedTable::SalSynthetic) else {
        return;
    };
    let params = EpsilonM::new(
        Epsilon::new(4500.0, "/e").unwrap(),
        M::new(5, "/m").unwrap(),
        Neighborhood::Absolute,
        "/e",
    )
    .unwrap();
    for algorithm in [Algorithm::EpsilonM, Algorithm::Mondrian] {
        run_job_cancels(
            &format!("epsilon_m by {} on sal", algorithm.name()),
            t,
            JobSpec {
                suppression_limit: SuppressionLimit::new(0.3, "/s").unwrap(),
                ..spec(PrivacyModel::EpsilonM(params), algorithm)
            },
        );
    }
}

/// em-credit: a table small enough for (ε,m)'s look-ahead tree, which
/// judges each node's candidates between two of the engine's checkpoints.
#[test]
fn the_look_ahead_is_cancelled_at_random_checkpoints_of_every_phase() {
    let Some(t) = table(SharedTable::CreditCard) else {
        return;
    };
    let params = EpsilonM::new(
        Epsilon::new(1000.0, "/e").unwrap(),
        M::new(4, "/m").unwrap(),
        Neighborhood::Absolute,
        "/e",
    )
    .unwrap();
    run_job_cancels(
        "epsilon_m with look-ahead on creditcard",
        t,
        spec(PrivacyModel::EpsilonM(params), Algorithm::EpsilonM),
    );
}

#[test]
fn mondrian_is_cancelled_at_random_checkpoints_of_every_phase() {
    let Some(t) = table(SharedTable::AdultScaledSynthetic) else {
        return;
    };
    let k = K::new(10, "/k").unwrap();
    let models = [
        PrivacyModel::KAnonymity(k),
        PrivacyModel::LDiversity(
            LDiversity::new(2.0, LDiversityVariant::Distinct, k, "/model").unwrap(),
        ),
        PrivacyModel::TCloseness(TCloseness {
            t: Fraction::new(0.2, "t", "/t").unwrap(),
            k,
            ground: GroundDistance::Ordered,
        }),
    ];
    for model in models {
        let name = format!("mondrian {} on adult 600k", model.kind_name());
        run_job_cancels(&name, t, spec(model, Algorithm::Mondrian));
    }
}

/// Rows of the tables the single passes run on: several blocks, and a
/// partial one at the end.
const PASS_ROWS: usize = 5 * ROWS_PER_CHECKPOINT + 1234;

/// Blocks of `n` rows.
fn blocks(n: usize) -> usize {
    n.div_ceil(ROWS_PER_CHECKPOINT)
}

/// Runs `pass` once recording every fraction it reports (asserting they
/// never go back), then again stopped at its middle callback (asserting
/// it ends `Cancelled`); returns the number of callbacks and the result.
fn watched<T>(name: &str, pass: &dyn Fn(Progress) -> CoreResult<T>) -> (usize, T) {
    let seen = Mutex::new(Vec::new());
    let record = |f: f64| {
        seen.lock().unwrap().push(f);
        true
    };
    let out = pass(Progress::new(&record)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let seen = seen.into_inner().unwrap();
    assert!(
        seen.windows(2).all(|w| w[0] <= w[1]),
        "{name}: the progress fraction went back"
    );
    let stop_at = seen.len() / 2;
    let calls = AtomicUsize::new(0);
    let stop = |_: f64| calls.fetch_add(1, Ordering::Relaxed) < stop_at;
    match pass(Progress::new(&stop)) {
        Err(e) if e.kind == ErrorKind::Cancelled => {}
        Err(e) => panic!("{name}: stopped at callback {stop_at} but failed: {e}"),
        Ok(_) => panic!("{name}: ran to its end though stopped at callback {stop_at}"),
    }
    assert_eq!(
        calls.into_inner(),
        stop_at + 1,
        "{name}: went on after the stop"
    );
    (seen.len(), out)
}

/// Values with every radix digit in play (negative, fractional, wide).
fn spread(n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| {
            let x = ((i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 11) as f64;
            if i % 3 == 0 {
                -x / 7.0
            } else {
                x * 1e-3
            }
        })
        .collect()
}

#[test]
fn a_column_sort_reports_every_block_of_every_pass() {
    let values = spread(PASS_ROWS);
    let (calls, rows) = watched("radix sort", &|p| passes::radix_order(&values, p));
    let mut expected: Vec<u32> = (0..values.len() as u32).collect();
    expected.sort_by(|&a, &b| values[a as usize].total_cmp(&values[b as usize]));
    assert_eq!(rows, expected);
    // The keys, the histograms and at least one scatter: a report per
    // block of each.
    let at_least = 3 * blocks(PASS_ROWS);
    assert!(
        calls >= at_least,
        "{calls} checkpoints; at least {at_least}"
    );
}

#[test]
fn the_window_thinning_reports_every_block_of_every_pass() {
    // 60 % of the rows on one value, the rest far apart, windows of width
    // 10 and m = 5: the spike must be thinned to a tenth of the rows, found
    // by a binary search over caps, each a greedy pass over all rows.
    let spike = PASS_ROWS * 3 / 5;
    let sorted: Vec<f64> = (0..PASS_ROWS)
        .map(|i| i.saturating_sub(spike) as f64 * 100.0)
        .collect();
    let (calls, dropped) = watched("window thinning", &|p| {
        passes::window_thinning(&sorted, 10.0, 5, p)
    });
    assert_eq!(
        dropped,
        passes::window_thinning(&sorted, 10.0, 5, Progress::none()).unwrap()
    );
    assert!(!dropped.is_empty() && dropped.len() < PASS_ROWS);
    // At least two passes (the search's first probe and the last).
    let at_least = 2 * blocks(PASS_ROWS);
    assert!(
        calls >= at_least,
        "{calls} checkpoints; at least {at_least}"
    );
}

#[test]
fn the_kept_table_reports_every_block_of_every_column() {
    let (t, _) = overlapping(PASS_ROWS, 1);
    let keep: Vec<bool> = (0..PASS_ROWS).map(|i| i % 7 != 3).collect();
    let (calls, kept) = watched("kept table", &|p| t.retain_rows_checked(&keep, p));
    assert_eq!(kept, t.retain_rows(&keep));
    // The QI, two SA columns, their three text columns and the source
    // lines: a pass over the rows each.
    let at_least = 7 * blocks(PASS_ROWS);
    assert!(
        calls >= at_least,
        "{calls} checkpoints; at least {at_least}"
    );
}

#[test]
fn the_release_boxes_report_every_block_of_groups() {
    // Groups of two rows: PASS_ROWS / 2 boxes of one interval each.
    let (t, _) = overlapping(PASS_ROWS, 1);
    let pairs = (0..PASS_ROWS as u32 / 2).map(|g| vec![2 * g, 2 * g + 1]);
    let mut groups: Vec<Vec<u32>> = pairs.collect();
    if PASS_ROWS % 2 == 1 {
        groups.last_mut().unwrap().push(PASS_ROWS as u32 - 1);
    }
    let n_groups = groups.len();
    let release = generalize(&t, Partition::new(groups)).unwrap();
    let (calls, boxes) = watched("release boxes", &|p| {
        GroupBoxes::from_release_checked(&t, &release, p)
    });
    assert_eq!(boxes, GroupBoxes::from_release(&t, &release));
    let at_least = blocks(n_groups);
    assert!(
        calls >= at_least,
        "{calls} checkpoints; at least {at_least}"
    );
}

#[test]
fn the_sa_codes_report_every_block_of_every_pass() {
    let values = spread(PASS_ROWS);
    let t = Table::from_columns(
        vec![("q".into(), QiValues::Numeric(vec![0.0; PASS_ROWS]))],
        vec![("s".into(), SaValues::Numeric(values))],
    );
    let (calls, codes) = watched("SA codes", &|p| SaCodes::new_checked(&t, "/m", p));
    let plain = SaCodes::new(&t, "/m").unwrap();
    assert_eq!(codes.distinct_values(), plain.distinct_values());
    assert_eq!(format!("{codes:?}"), format!("{plain:?}"));
    // The sort (three passes at least), the sorted values, the codes and
    // the counts.
    let at_least = 6 * blocks(PASS_ROWS);
    assert!(
        calls >= at_least,
        "{calls} checkpoints; at least {at_least}"
    );
}
