//! Every partitioner × model of `run::run_job` on random small tables:
//! whenever a job publishes, the brute-force twin (tests/attacker_twin)
//! finds no victim over the model's bound in the attacker's view (docs/design.md
//! §4). Refusals are allowed and counted; a survey where everything is
//! refused fails (it would check nothing).

mod attacker_twin;
mod common;

use attacker_twin::jobs::{assert_safe, dissimilarity, epsilon_m, k, spec, survey};
use attacker_twin::tables::{table_case, SaKind};
use proptest::prelude::*;
use proxima_core::metric::{LpNorm, MetricSpec};
use proxima_core::params::*;

const CASES: u32 = 200;
const ROWS: std::ops::RangeInclusive<usize> = 5..=60;

fn em_survey(name: &str, algorithm: Algorithm, neighborhood: Neighborhood) {
    em_survey_within(name, algorithm, neighborhood, 0.0);
}

/// [`em_survey`] for jobs that may leave out up to `limit` of the rows;
/// returns the survey's tally.
fn em_survey_within(
    name: &str,
    algorithm: Algorithm,
    neighborhood: Neighborhood,
    limit: f64,
) -> attacker_twin::jobs::Tally {
    let eps: &[f64] = match neighborhood {
        Neighborhood::Absolute => &[0.0, 1.0, 2.0, 4.0, 8.0],
        Neighborhood::Relative => &[0.05, 0.1, 0.2, 0.4],
    };
    let strategy = (
        table_case(vec![SaKind::Numeric], ROWS),
        prop::sample::select(eps.to_vec()),
        2usize..=4,
    );
    let tally = survey(CASES, strategy, |(case, e, m)| {
        let mut job = spec(epsilon_m(*e, *m, neighborhood), algorithm, None);
        job.suppression_limit = SuppressionLimit::new(limit, "/suppression_limit").unwrap();
        (case.build(), job)
    });
    assert_safe(name, &tally);
    tally
}

/// Jobs allowed to leave rows out: where the whole table fails, the
/// release is the leaves' trimming or the whole table thinned (to the cap,
/// then cut by the model alone; or with headroom, cut by the paper's tree)
/// — each published release safe for the twin on the rows it kept.
#[test]
fn epsilon_m_partitioner_with_suppression_is_safe_in_the_attackers_view() {
    for neighborhood in [Neighborhood::Absolute, Neighborhood::Relative] {
        let name = format!("epsilon_m/{neighborhood:?} with suppression");
        let tally = em_survey_within(&name, Algorithm::EpsilonM, neighborhood, 0.5);
        assert!(
            tally.published_with_rows_left_out > 0,
            "{name}: no release left rows out; the test checks no suppression"
        );
    }
}

#[test]

fn epsilon_m_partitioner_absolute_is_safe_in_the_attackers_view() {
    em_survey(
        "epsilon_m/absolute",
        Algorithm::EpsilonM,
        Neighborhood::Absolute,
    );
}

#[test]

fn epsilon_m_partitioner_relative_is_safe_in_the_attackers_view() {
    em_survey(
        "epsilon_m/relative",
        Algorithm::EpsilonM,
        Neighborhood::Relative,
    );
}

#[test]

fn mondrian_epsilon_m_absolute_is_safe_in_the_attackers_view() {
    em_survey(
        "mondrian epsilon_m/absolute",
        Algorithm::Mondrian,
        Neighborhood::Absolute,
    );
}

#[test]

fn mondrian_epsilon_m_relative_is_safe_in_the_attackers_view() {
    em_survey(
        "mondrian epsilon_m/relative",
        Algorithm::Mondrian,
        Neighborhood::Relative,
    );
}

/// ε on the scale of each SA kind's default metric: absolute units for a
/// numeric SA (values 1–40), LCA level / 2 for the tree, 0/1 for flat,
/// normalised L1 for the composite.
fn default_epsilons(sa: SaKind) -> Vec<f64> {
    match sa {
        SaKind::Numeric => vec![0.0, 1.0, 3.0, 6.0],
        SaKind::Hierarchy => vec![0.0, 0.5],
        SaKind::Flat => vec![0.0, 0.5],
        SaKind::Composite => vec![0.05, 0.1, 0.2, 0.3],
    }
}

#[test]

fn xcolor_default_metric_is_safe_in_the_attackers_view() {
    let all = vec![
        SaKind::Numeric,
        SaKind::Hierarchy,
        SaKind::Flat,
        SaKind::Composite,
    ];
    let strategy = table_case(all, ROWS).prop_flat_map(|case| {
        let eps = default_epsilons(case.sa);
        (
            Just(case),
            prop::sample::select(eps),
            prop::sample::select(vec![0.2, 0.5, 0.85]),
            2usize..=4,
        )
    });
    let tally = survey(CASES, strategy, |(case, e, d, k)| {
        (
            case.build(),
            spec(dissimilarity(*e, *d, *k), Algorithm::XColor, None),
        )
    });
    assert_safe("xcolor/default metric", &tally);
}

#[test]

fn xcolor_lp_metrics_are_safe_in_the_attackers_view() {
    let strategy = (
        table_case(vec![SaKind::Numeric, SaKind::Composite], ROWS),
        prop::sample::select(vec![LpNorm::L1, LpNorm::L2, LpNorm::LInf]),
        prop::sample::select(vec![0.0, 0.25, 0.5, 0.8]),
        prop::sample::select(vec![0.05, 0.1, 0.2, 0.3]),
        prop::sample::select(vec![0.2, 0.5, 0.85]),
        2usize..=4,
    );
    let tally = survey(CASES, strategy, |(case, p, w, e, d, k)| {
        let table = case.build();
        // w = 0 asks for equal weights; otherwise w on the numeric column.
        let weights = if *w == 0.0 || case.sa != SaKind::Composite {
            vec![]
        } else {
            vec![("s".to_string(), *w), ("t".to_string(), 1.0 - *w)]
        };
        let metric = MetricSpec::Lp { p: *p, weights };
        (
            table,
            spec(dissimilarity(*e, *d, *k), Algorithm::XColor, Some(metric)),
        )
    });
    assert_safe("xcolor/lp", &tally);
}

#[test]
fn mondrian_k_anonymity_is_safe_in_the_attackers_view() {
    let all = vec![
        SaKind::Numeric,
        SaKind::Hierarchy,
        SaKind::Flat,
        SaKind::Composite,
    ];
    let strategy = (table_case(all, ROWS), 2usize..=6);
    let tally = survey(CASES, strategy, |(case, k_)| {
        (
            case.build(),
            spec(PrivacyModel::KAnonymity(k(*k_)), Algorithm::Mondrian, None),
        )
    });
    assert_safe("mondrian/k_anonymity", &tally);
}

#[test]
fn mondrian_l_diversity_is_safe_in_the_attackers_view() {
    let variants = vec![
        (LDiversityVariant::Distinct, 2.0),
        (LDiversityVariant::Distinct, 3.0),
        (LDiversityVariant::Entropy, 1.5),
        (LDiversityVariant::Entropy, 2.0),
        (LDiversityVariant::Recursive { c: 1.0 }, 2.0),
        (LDiversityVariant::Recursive { c: 3.0 }, 2.0),
        (LDiversityVariant::Recursive { c: 2.0 }, 3.0),
    ];
    let strategy = (
        table_case(vec![SaKind::Numeric, SaKind::Hierarchy, SaKind::Flat], ROWS),
        prop::sample::select(variants),
        2usize..=4,
    );
    let tally = survey(CASES, strategy, |(case, (variant, l), k_)| {
        let model = LDiversity::new(*l, *variant, k(*k_), "/model").unwrap();
        (
            case.build(),
            spec(PrivacyModel::LDiversity(model), Algorithm::Mondrian, None),
        )
    });
    assert_safe("mondrian/l_diversity", &tally);
}

#[test]
fn mondrian_t_closeness_is_safe_in_the_attackers_view() {
    let strategy = table_case(vec![SaKind::Numeric, SaKind::Hierarchy, SaKind::Flat], ROWS)
        .prop_flat_map(|case| {
            let mut grounds = vec![GroundDistance::Ordered, GroundDistance::Equal];
            if case.sa == SaKind::Hierarchy {
                grounds.push(GroundDistance::Hierarchical);
            }
            (
                Just(case),
                prop::sample::select(grounds),
                prop::sample::select(vec![0.2, 0.35, 0.5]),
                2usize..=4,
            )
        });
    let tally = survey(CASES, strategy, |(case, ground, t, k_)| {
        let model = TCloseness {
            t: Fraction::new(*t, "t", "/t").unwrap(),
            k: k(*k_),
            ground: *ground,
        };
        (
            case.build(),
            spec(PrivacyModel::TCloseness(model), Algorithm::Mondrian, None),
        )
    });
    assert_safe("mondrian/t_closeness", &tally);
}
