//! A job's result does not depend on the number of threads
//! (`proxima_core::parallel`): every partitioner, run end to end by
//! `run::run_job` — partition, suppression, generalization, the guard in the
//! attacker's view — gives the same groups, labels, suppressed rows, summary
//! and audit on one thread as on several. Tables are large enough that the
//! split forks many times (nodes of 16k rows and more are cut and their
//! halves run concurrently) and that the attacker's view splits its passes.

mod attacker_twin;
mod common;

use std::sync::Arc;

use attacker_twin::checks::{breaches, evaluate};
use attacker_twin::jobs::twin_checks;
use attacker_twin::published::AttackerView;
use proxima_core::error::CoreResult;
use proxima_core::hierarchy::Hierarchy;
use proxima_core::ingest::shared::SharedTable;
use proxima_core::parallel::{with_threads, Threads};
use proxima_core::params::*;
use proxima_core::run::{run_job, JobOutcome, JobSpec};
use proxima_core::table::{QiValues, SaValues, Table};
use proxima_core::xcolor::XColorOptions;
use proxima_core::Progress;
use proxima_test_support::shared::load_shared;
use rand::rngs::StdRng;
use rand::seq::index::sample;
use rand::{Rng, SeedableRng};

fn spec(model: PrivacyModel, algorithm: Algorithm, limit: f64) -> JobSpec {
    JobSpec {
        model,
        algorithm,
        metric: None,
        xcolor: XColorOptions::default(),
        suppression_limit: SuppressionLimit::new(limit, "/suppression_limit").unwrap(),
    }
}

fn k(v: u64) -> K {
    K::new(v, "/k").unwrap()
}

fn epsilon_m(e: f64, m: u64) -> PrivacyModel {
    PrivacyModel::EpsilonM(
        EpsilonM::new(
            Epsilon::new(e, "/e").unwrap(),
            M::new(m, "/m").unwrap(),
            Neighborhood::Absolute,
            "/e",
        )
        .unwrap(),
    )
}

fn dissimilarity(e: f64, delta: f64, kk: u64) -> PrivacyModel {
    PrivacyModel::Dissimilarity(Dissimilarity {
        epsilon: Epsilon::new(e, "/e").unwrap(),
        delta: Fraction::new(delta, "delta", "/d").unwrap(),
        k: k(kk),
    })
}

/// `rows` random rows: two numeric QIs with many ties, a categorical QI
/// with a two-level hierarchy, a numeric SA that depends on the QIs (so
/// neighbouring groups have similar values and (ε,m) and XColor have work).
fn random_table(rows: usize, seed: u64) -> Table {
    let mut rng = StdRng::seed_from_u64(seed);
    let paths: Vec<Vec<String>> = (0..12)
        .map(|i| vec![format!("c{i}"), format!("p{}", i / 4), "*".to_string()])
        .collect();
    let h = Arc::new(Hierarchy::from_paths(&paths).unwrap());
    let mut age = Vec::with_capacity(rows);
    let mut zip = Vec::with_capacity(rows);
    let mut cat = Vec::with_capacity(rows);
    let mut sa = Vec::with_capacity(rows);
    for _ in 0..rows {
        let a = rng.gen_range(16..94) as f64;
        let z = rng.gen_range(0..700) as f64;
        let c = rng.gen_range(0..12u32);
        age.push(a);
        zip.push(z);
        cat.push(c);
        let level = 20_000.0 + 300.0 * a + 2_000.0 * c as f64;
        sa.push((level * rng.gen_range(0.5..1.5f64)).round());
    }
    Table::from_columns(
        vec![
            ("age".into(), QiValues::Numeric(age)),
            ("zip".into(), QiValues::Numeric(zip)),
            (
                "kind".into(),
                QiValues::Categorical {
                    codes: cat,
                    hierarchy: h,
                },
            ),
        ],
        vec![("income".into(), SaValues::Numeric(sa))],
    )
}

fn run_on(threads: usize, table: &Table, job: &JobSpec) -> CoreResult<JobOutcome> {
    let threads = Threads::new(threads, "/threads").unwrap();
    with_threads(threads, || run_job(table, job, Progress::none()))
}

/// The brute-force twin (`attacker_twin`, which shares no code with the
/// guard) on 1,500 sampled victims of a release made on several threads:
/// no victim over the bound in the attacker's view.
fn safe_for_the_twin(table: &Table, job: &JobSpec, outcome: &JobOutcome, what: &str) {
    // The release's groups index the kept rows: suppressed rows are not
    // published, so they are not victims.
    let table = outcome.anonymized.table(table);
    let view = AttackerView::from_release(table, &outcome.anonymized.release);
    let mut rng = StdRng::seed_from_u64(15);
    let victims = sample(&mut rng, table.rows(), 1500.min(table.rows())).into_vec();
    for check in twin_checks(table, job) {
        let figures = evaluate(&view, table, &check, victims.iter().copied());
        let bad = breaches(&check, &figures);
        assert!(
            bad.is_empty(),
            "{what}: {} of {} sampled victims breach ({check:?})",
            bad.len(),
            figures.len()
        );
    }
}

/// Runs `job` on 1, 2 and 5 threads and requires the same outcome.
fn same_on_any_threads(table: &Table, job: &JobSpec, what: &str) {
    let one = run_on(1, table, job);
    match &one {
        Ok(o) => eprintln!("{what}: {} groups", o.summary.groups),
        Err(e) => eprintln!("{what}: {:?} {}", e.kind, e.message),
    }
    for threads in [2, 5] {
        let many = run_on(threads, table, job);
        match (&one, &many) {
            (Ok(a), Ok(b)) => {
                let (ra, rb) = (&a.anonymized.release, &b.anonymized.release);
                assert_eq!(
                    ra.partition().groups,
                    rb.partition().groups,
                    "{what}: groups on {threads} threads"
                );
                assert_eq!(ra.generalized(), rb.generalized(), "{what}: labels");
                assert_eq!(
                    a.anonymized.kept.as_ref().map(|k| &k.original_rows),
                    b.anonymized.kept.as_ref().map(|k| &k.original_rows),
                    "{what}: suppressed rows"
                );
                assert_eq!(a.summary, b.summary, "{what}: summary");
                assert_eq!(a.audit, b.audit, "{what}: audit");
                assert_eq!(a.view, b.view, "{what}: attacker's view");
                safe_for_the_twin(table, job, b, &format!("{what} on {threads} threads"));
            }
            (Err(a), Err(b)) => {
                assert_eq!((a.kind, &a.message), (b.kind, &b.message), "{what}: error")
            }
            (a, b) => panic!(
                "{what}: one thread gave {:?}, {threads} gave {:?}",
                a.as_ref().map(|o| o.summary.groups),
                b.as_ref().map(|o| o.summary.groups)
            ),
        }
    }
}

#[test]
fn every_partitioner_gives_the_same_release_on_any_number_of_threads() {
    for seed in [1, 2] {
        let t = random_table(90_000, seed);
        let jobs = [
            (
                "mondrian k",
                spec(PrivacyModel::KAnonymity(k(8)), Algorithm::Mondrian, 0.0),
            ),
            (
                "mondrian l",
                spec(
                    PrivacyModel::LDiversity(
                        LDiversity::new(3.0, LDiversityVariant::Distinct, k(5), "/l").unwrap(),
                    ),
                    Algorithm::Mondrian,
                    0.0,
                ),
            ),
            (
                "(ε,m)",
                spec(epsilon_m(3000.0, 4), Algorithm::EpsilonM, 0.3),
            ),
            (
                "(ε,m) by mondrian",
                spec(epsilon_m(3000.0, 4), Algorithm::Mondrian, 0.3),
            ),
            (
                "xcolor",
                spec(dissimilarity(500.0, 0.6, 6), Algorithm::XColor, 0.3),
            ),
        ];
        // XColor's metric: the default for one numeric SA (absolute).
        for (what, job) in &jobs {
            same_on_any_threads(&t, job, &format!("{what}, seed {seed}"));
        }
    }
}

/// em-credit (creditcard, (1000, 4)): a table small enough for the
/// (ε,m) look-ahead tree, whose candidates are judged on both threads of a
/// pool — the release must not depend on how they were shared out.
#[test]
fn the_look_ahead_gives_the_same_release_on_any_number_of_threads() {
    let Some(t) = load_shared(SharedTable::CreditCard) else {
        return;
    };
    let t = t.unwrap();
    same_on_any_threads(
        &t,
        &spec(epsilon_m(1000.0, 4), Algorithm::EpsilonM, 0.0),
        "em-credit",
    );
}

/// The benchmark's 500k-row cases (em-sal with suppression, xc-sal,
/// Mondrian k = 10) on the shared sal table.
#[test]
fn the_sal_cases_give_the_same_release_on_any_number_of_threads() {
    let Some(t) = load_shared(SharedTable::SalSynthetic) else {
        return;
    };
    let t = t.unwrap();
    let xc = spec(dissimilarity(0.01, 0.8, 10), Algorithm::XColor, 0.0);
    same_on_any_threads(
        &t,
        &spec(epsilon_m(4500.0, 5), Algorithm::EpsilonM, 0.25),
        "em-sal-s25",
    );
    same_on_any_threads(&t, &xc, "xc-sal");
    same_on_any_threads(
        &t,
        &spec(PrivacyModel::KAnonymity(k(10)), Algorithm::Mondrian, 0.0),
        "mo-sal",
    );
}

/// cup at (5, 8) with a limit of 0.03: the thinned table wins, and the
/// thinnings with headroom (tried one after the other, each forking inside)
/// must give the same release on any number of threads — and a safe one.
#[test]
fn the_thinnings_with_headroom_give_the_same_release_on_any_number_of_threads() {
    let Some(t) = load_shared(SharedTable::Cup) else {
        return;
    };
    let t = t.unwrap();
    same_on_any_threads(
        &t,
        &spec(epsilon_m(5.0, 8), Algorithm::EpsilonM, 0.03),
        "em-cup, limit 0.03",
    );
}
