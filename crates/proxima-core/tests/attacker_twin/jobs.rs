//! Job specs for the property tests and the twin checks each one promises,
//! plus a survey runner that counts outcomes over many random cases.

use std::cell::RefCell;

use proptest::strategy::Strategy;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use proxima_core::metric::{LpNorm, MetricSpec};
use proxima_core::params::*;
use proxima_core::run::{self, JobSpec};
use proxima_core::table::Table;
use proxima_core::xcolor::XColorOptions;
use proxima_core::{ErrorKind, Progress};

use super::checks::{breaches, evaluate, explain, Ground, TwinCheck};
use super::published::AttackerView;
use super::sa::{Norm, TwinMetric};

pub fn spec(model: PrivacyModel, algorithm: Algorithm, metric: Option<MetricSpec>) -> JobSpec {
    JobSpec {
        model,
        algorithm,
        metric,
        xcolor: XColorOptions::default(),
        suppression_limit: Default::default(),
    }
}

pub fn k(v: usize) -> K {
    K::new(v as u64, "/k").unwrap()
}

pub fn epsilon_m(epsilon: f64, m: usize, neighborhood: Neighborhood) -> PrivacyModel {
    PrivacyModel::EpsilonM(
        EpsilonM::new(
            Epsilon::new(epsilon, "/e").unwrap(),
            M::new(m as u64, "/m").unwrap(),
            neighborhood,
            "/e",
        )
        .unwrap(),
    )
}

pub fn dissimilarity(epsilon: f64, delta: f64, k_: usize) -> PrivacyModel {
    PrivacyModel::Dissimilarity(Dissimilarity {
        epsilon: Epsilon::new(epsilon, "/e").unwrap(),
        delta: Fraction::new(delta, "delta", "/d").unwrap(),
        k: k(k_),
    })
}

/// The twin's metric for what a job asks (`None`: the SA's default).
pub fn twin_metric(table: &Table, metric: Option<&MetricSpec>) -> TwinMetric {
    match metric {
        None => TwinMetric::default_for(table),
        Some(MetricSpec::Absolute) => TwinMetric::Absolute,
        Some(MetricSpec::Equal) => TwinMetric::Equal,
        Some(MetricSpec::Hierarchical) => TwinMetric::Hierarchical,
        Some(MetricSpec::Lp { p, weights }) => {
            let sa = table.sensitive();
            let w = if weights.is_empty() {
                vec![1.0 / sa.len() as f64; sa.len()]
            } else {
                sa.iter()
                    .map(|c| {
                        weights
                            .iter()
                            .find(|(n, _)| *n == c.name)
                            .map_or(0.0, |(_, w)| *w)
                    })
                    .collect()
            };
            let norm = match p {
                LpNorm::L1 => Norm::L1,
                LpNorm::L2 => Norm::L2,
                LpNorm::LInf => Norm::LInf,
            };
            TwinMetric::Lp { norm, weights: w }
        }
        Some(other) => panic!("no twin for the {} metric", other.kind_name()),
    }
}

/// What a job's release promises every victim, as twin checks.
pub fn twin_checks(table: &Table, job: &JobSpec) -> Vec<TwinCheck> {
    match &job.model {
        PrivacyModel::EpsilonM(p) => vec![TwinCheck::EpsilonM {
            epsilon: p.epsilon.get(),
            m: p.m.get(),
            relative: p.neighborhood == Neighborhood::Relative,
        }],
        PrivacyModel::Dissimilarity(p) => vec![TwinCheck::Dissimilarity {
            epsilon: p.epsilon.get(),
            delta: p.delta.get(),
            k: p.k.get(),
            metric: twin_metric(table, job.metric.as_ref()),
        }],
        PrivacyModel::KAnonymity(k) => vec![TwinCheck::KAnonymity { k: k.get() }],
        PrivacyModel::LDiversity(p) => vec![
            TwinCheck::KAnonymity { k: p.k.get() },
            match p.variant {
                LDiversityVariant::Distinct => TwinCheck::DistinctL { l: p.l as usize },
                LDiversityVariant::Entropy => TwinCheck::EntropyL { l: p.l },
                LDiversityVariant::Recursive { c } => TwinCheck::RecursiveL { c, l: p.l as usize },
            },
        ],
        PrivacyModel::TCloseness(p) => vec![
            TwinCheck::KAnonymity { k: p.k.get() },
            TwinCheck::TCloseness {
                t: p.t.get(),
                ground: match p.ground {
                    GroundDistance::Ordered => Ground::Ordered,
                    GroundDistance::Equal => Ground::Equal,
                    GroundDistance::Hierarchical => Ground::Hierarchical,
                },
            },
        ],
        // Judged against a population table, with its own brute-force
        // counter (src/population/tests.rs).
        PrivacyModel::Population(_) => panic!("no twin for population models"),
    }
}

/// A deterministic runner: the survey's counts are the same on every run.
pub fn runner(cases: u32) -> TestRunner {
    TestRunner::new_with_rng(
        Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        },
        TestRng::deterministic_rng(RngAlgorithm::ChaCha),
    )
}

/// Outcomes of a survey.
#[derive(Debug, Default)]
pub struct Tally {
    pub published: usize,
    /// Of those, releases that left rows out (a job with a suppression
    /// limit).
    pub published_with_rows_left_out: usize,
    pub refused: usize,
    /// Breaching releases: (rows of the table, account of the worst victim).
    pub breaches: Vec<(usize, String)>,
    pub victims_over: usize,
}

/// Runs `cases` random jobs; for every release `run_job` publishes, the
/// twin evaluates every victim. Refusals (`model_not_satisfied`,
/// `infeasible_parameters`) are counted; any other error fails at once.
pub fn survey<S: Strategy>(
    cases: u32,
    strategy: S,
    job: impl Fn(&S::Value) -> (Table, JobSpec),
) -> Tally {
    let tally = RefCell::new(Tally::default());
    runner(cases)
        .run(&strategy, |value| {
            let (table, spec) = job(&value);
            match run::run_job(&table, &spec, Progress::none()) {
                Ok(outcome) => {
                    // The release's groups index the rows it kept: rows
                    // left out are not published, so they are no victims.
                    let table = outcome.anonymized.table(&table);
                    let view = AttackerView::from_release(table, &outcome.anonymized.release);
                    let mut t = tally.borrow_mut();
                    t.published += 1;
                    if outcome.anonymized.suppressed_by_model() > 0 {
                        t.published_with_rows_left_out += 1;
                    }
                    for check in twin_checks(table, &spec) {
                        let figures = evaluate(&view, table, &check, 0..table.rows());
                        let bad = breaches(&check, &figures);
                        if let Some(worst) = bad.first() {
                            t.victims_over += bad.len();
                            t.breaches.push((
                                table.rows(),
                                format!(
                                    "{:?} on {} rows ({} of them over): {}",
                                    check,
                                    table.rows(),
                                    bad.len(),
                                    explain(&view, worst)
                                ),
                            ));
                            break;
                        }
                    }
                }
                Err(e)
                    if matches!(
                        e.kind,
                        ErrorKind::ModelNotSatisfied | ErrorKind::InfeasibleParameters
                    ) =>
                {
                    tally.borrow_mut().refused += 1
                }
                Err(e) => panic!(
                    "{} / {}: unexpected error {e}",
                    spec.model.kind_name(),
                    spec.algorithm.name()
                ),
            }
            Ok(())
        })
        .unwrap();
    tally.into_inner()
}

/// Asserts a survey published something and never a breaching release.
pub fn assert_safe(name: &str, tally: &Tally) {
    eprintln!(
        "{name}: {} published, {} refused, {} breaching releases ({} victims over)",
        tally.published,
        tally.refused,
        tally.breaches.len(),
        tally.victims_over
    );
    assert!(
        tally.published > 0,
        "{name}: every case was refused ({}); the test checks nothing",
        tally.refused
    );
    if let Some((_, smallest)) = tally.breaches.iter().min_by_key(|(n, _)| *n) {
        panic!(
            "{name}: {} of {} published releases breach in the attacker's view; smallest: {smallest}",
            tally.breaches.len(),
            tally.published
        );
    }
}
