//! The count-query workload against the independent Python reference
//! (`scripts/qe_reference.py`) on the releases of five bench cases (one
//! with rows left out by the job, em-sal-s25): the
//! fixture holds, per case and q, the reference's actual and estimated
//! counts of the first 50 queries Proxima draws with the bench's seed, and
//! its mean and median over all 1,000 (regenerate with
//! `scripts/qe_reference_check.sh --fixture` after a deliberate change to
//! the workload). No Python is needed here; the shared data is (skipped
//! without it).

use proxima_core::utility::{query_answers, query_error, WorkloadSpec};
use proxima_test_support::qe_cases::{run_case, BENCH_SEED};

const FIXTURE: &str = include_str!("fixtures/qe_reference.csv");

/// What the reference computed for one (case, q).
#[derive(Default)]
struct Expected {
    answers: Vec<(u64, f64)>,
    used: usize,
    mean: f64,
    median: f64,
}

fn expected(case: &str, q: usize) -> Expected {
    let mut e = Expected::default();
    for line in FIXTURE.lines().skip(1) {
        let cells: Vec<&str> = line.split(',').collect();
        let [c, lq, item, a, b] = cells[..] else {
            panic!("fixture line {line:?}");
        };
        if c != case || lq.parse::<usize>().unwrap() != q {
            continue;
        }
        match item {
            "used" => e.used = a.parse().unwrap(),
            "mean_median" => (e.mean, e.median) = (a.parse().unwrap(), b.parse().unwrap()),
            i => {
                assert_eq!(i.parse::<usize>().unwrap(), e.answers.len(), "{line}");
                e.answers.push((a.parse().unwrap(), b.parse().unwrap()));
            }
        }
    }
    assert!(!e.answers.is_empty(), "no fixture for {case} q={q}");
    e
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

fn agrees_with_the_reference(case: &str) {
    let Some((table, outcome)) = run_case(case) else {
        return;
    };
    let published = outcome.anonymized.published(&table);
    for q in [2, 3] {
        let spec = WorkloadSpec {
            queries: 1000,
            q,
            selectivity: 0.1,
            seed: BENCH_SEED,
        };
        let want = expected(case, q);
        let got = query_answers(&published, &spec).unwrap();
        for (i, (a, &(act, est))) in got.iter().zip(&want.answers).enumerate() {
            assert_eq!(a.actual, act, "{case} q={q} query {i}: {a:?}");
            assert!(
                close(a.estimate, est),
                "{case} q={q} query {i}: {a:?}, reference {est}"
            );
        }
        let r = query_error(&published, &spec).unwrap();
        assert_eq!(r.queries_used, want.used, "{case} q={q}");
        let (mean, median) = (
            r.mean_relative_error.unwrap(),
            r.median_relative_error.unwrap(),
        );
        assert!(
            close(mean, want.mean),
            "{case} q={q}: mean {mean} vs {}",
            want.mean
        );
        assert!(
            close(median, want.median),
            "{case} q={q}: median {median} vs {}",
            want.median
        );
    }
}

#[test]
fn xc_credit_agrees_with_the_reference() {
    agrees_with_the_reference("xc-credit");
}

#[test]
fn em_credit_agrees_with_the_reference() {
    agrees_with_the_reference("em-credit");
}

#[test]
fn mo_adult_agrees_with_the_reference() {
    agrees_with_the_reference("mo-adult");
}

#[test]
fn xc_adult_with_a_composite_sa_agrees_with_the_reference() {
    agrees_with_the_reference("xc-adult");
}

/// em-sal with suppression_limit 0.25: the true answers count the rows
/// the job left out, in both implementations.
#[test]
fn em_sal_s25_with_rows_left_out_agrees_with_the_reference() {
    agrees_with_the_reference("em-sal-s25");
}
