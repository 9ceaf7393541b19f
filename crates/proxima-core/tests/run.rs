//! The job dispatch (`proxima_core::run`) end to end on small tables and on
//! the shared data: every model/algorithm pair, the validation errors a
//! request gets before queueing, and the job audit's verdict.

use std::sync::Arc;

use proxima_core::audit::AuditCheck;
use proxima_core::hierarchy::Hierarchy;
use proxima_core::ingest::shared::SharedTable;
use proxima_core::metric::{LpNorm, MetricSpec};
use proxima_core::params::*;
use proxima_core::run::{self, FeasibilityAnswer, FeasibilityRequest, JobSpec};
use proxima_core::table::{QiValues, SaValues, Table};
use proxima_core::xcolor::XColorOptions;
use proxima_core::{Detail, ErrorKind, Progress};
use proxima_test_support::shared::load_shared;

fn spec(model: PrivacyModel, algorithm: Algorithm, metric: Option<MetricSpec>) -> JobSpec {
    JobSpec {
        model,
        algorithm,
        metric,
        xcolor: XColorOptions::default(),
        suppression_limit: Default::default(),
    }
}

/// 200 rows: two numeric QIs, a numeric SA spread over 0..1000 and a
/// categorical SA with 4 values, so every model has room.
fn table(categorical_sa: bool) -> Table {
    let n = 200;
    let age: Vec<f64> = (0..n).map(|i| 20.0 + (i * 7 % 50) as f64).collect();
    let zip: Vec<f64> = (0..n).map(|i| 1000.0 + (i * 13 % 97) as f64).collect();
    let sa = if categorical_sa {
        let h = Arc::new(Hierarchy::flat(["a", "b", "c", "d"]));
        SaValues::Categorical {
            codes: (0..n).map(|i| (i * 3 % 4) as u32).collect(),
            hierarchy: h,
            has_hierarchy: false,
        }
    } else {
        SaValues::Numeric((0..n).map(|i| ((i * 37) % 1000) as f64 + 1.0).collect())
    };
    Table::from_columns(
        vec![
            ("age".into(), QiValues::Numeric(age)),
            ("zip".into(), QiValues::Numeric(zip)),
        ],
        vec![("s".into(), sa)],
    )
}

fn k(v: u64) -> K {
    K::new(v, "/k").unwrap()
}

#[test]
fn every_model_and_algorithm_pair_runs_and_passes_its_own_audit() {
    let numeric = table(false);
    let categorical = table(true);
    let em = EpsilonM::new(
        Epsilon::new(50.0, "/e").unwrap(),
        M::new(3, "/m").unwrap(),
        Neighborhood::Absolute,
        "/e",
    )
    .unwrap();
    let cases: Vec<(&Table, JobSpec)> = vec![
        (
            &numeric,
            spec(PrivacyModel::EpsilonM(em), Algorithm::EpsilonM, None),
        ),
        (
            &numeric,
            spec(PrivacyModel::EpsilonM(em), Algorithm::Mondrian, None),
        ),
        (
            &numeric,
            spec(
                PrivacyModel::Dissimilarity(Dissimilarity {
                    epsilon: Epsilon::new(0.01, "/e").unwrap(),
                    delta: Fraction::new(0.5, "d", "/d").unwrap(),
                    k: k(5),
                }),
                Algorithm::XColor,
                Some(MetricSpec::Lp {
                    p: LpNorm::L1,
                    weights: vec![],
                }),
            ),
        ),
        (
            &numeric,
            spec(PrivacyModel::KAnonymity(k(7)), Algorithm::Mondrian, None),
        ),
        (
            &categorical,
            spec(
                PrivacyModel::LDiversity(
                    LDiversity::new(3.0, LDiversityVariant::Distinct, k(4), "/model").unwrap(),
                ),
                Algorithm::Mondrian,
                None,
            ),
        ),
        (
            &categorical,
            spec(
                PrivacyModel::TCloseness(TCloseness {
                    t: Fraction::new(0.3, "t", "/t").unwrap(),
                    k: k(4),
                    ground: GroundDistance::Equal,
                }),
                Algorithm::Mondrian,
                None,
            ),
        ),
    ];
    for (t, s) in cases {
        let outcome = run::run_job(t, &s, Progress::none())
            .unwrap_or_else(|e| panic!("{} / {}: {e}", s.model.kind_name(), s.algorithm.name()));
        outcome
            .anonymized
            .release
            .partition()
            .check_covers(t.rows())
            .unwrap();
        assert!(
            outcome.audit.checks.iter().take(2).all(|c| c.passed),
            "{}: {:?}",
            s.model.kind_name(),
            outcome.audit.checks
        );
        assert_eq!(outcome.summary.published_rows, t.rows());
        assert_eq!(outcome.summary.groups, outcome.anonymized.release.groups());
        // The model's own check comes first, k-anonymity right after (or
        // first, for the k-anonymity model).
        let first = outcome.audit.checks[0].kind;
        let expected = match s.model {
            PrivacyModel::KAnonymity(_) => "k_anonymity",
            _ => s.model.kind_name(),
        };
        assert_eq!(first, expected);
    }
}

#[test]
fn unsupported_pairs_and_misplaced_metrics_are_rejected_before_queueing() {
    let t = table(false);
    let err = run::validate(
        &t,
        &spec(PrivacyModel::KAnonymity(k(5)), Algorithm::XColor, None),
    )
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidParameters);
    assert_eq!(err.errors[0].field, proxima_core::Field::Algorithm);
    assert!(err.message.contains("mondrian"), "{}", err.message);

    let err = run::validate(
        &t,
        &spec(
            PrivacyModel::KAnonymity(k(5)),
            Algorithm::Mondrian,
            Some(MetricSpec::Absolute),
        ),
    )
    .unwrap_err();
    assert_eq!(err.errors[0].field, proxima_core::Field::SensitiveMetric);

    let diss = PrivacyModel::Dissimilarity(Dissimilarity {
        epsilon: Epsilon::new(0.1, "/e").unwrap(),
        delta: Fraction::new(0.5, "d", "/d").unwrap(),
        k: k(500),
    });
    let err = run::validate(&t, &spec(diss, Algorithm::XColor, None)).unwrap_err();
    assert_eq!(err.kind, ErrorKind::InfeasibleParameters);
    assert_eq!(err.detail("max_k"), Some(&Detail::Int(200)));

    let err = run::validate(
        &t,
        &spec(diss, Algorithm::XColor, Some(MetricSpec::Relative)),
    )
    .unwrap_err();
    assert!(err.message.contains("symmetric"), "{}", err.message);

    let err = run::validate(
        &t,
        &spec(PrivacyModel::KAnonymity(k(201)), Algorithm::Mondrian, None),
    )
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::InfeasibleParameters);
}

#[test]
fn job_audit_includes_k_anonymity_and_distinct_l_diversity() {
    let t = table(false);
    let em = EpsilonM::new(
        Epsilon::new(10.0, "/e").unwrap(),
        M::new(2, "/m").unwrap(),
        Neighborhood::Absolute,
        "/e",
    )
    .unwrap();
    let checks = run::job_audit_checks(
        &t,
        &spec(PrivacyModel::EpsilonM(em), Algorithm::EpsilonM, None),
    )
    .unwrap();
    assert!(matches!(checks[0], AuditCheck::EpsilonM(_)));
    assert!(matches!(checks[1], AuditCheck::KAnonymity { k } if k.get() == 2));
    assert!(matches!(
        checks[2],
        AuditCheck::LDiversity {
            variant: LDiversityVariant::Distinct,
            ..
        }
    ));
}

#[test]
fn feasibility_on_creditcard_matches_the_benchmark_figures() {
    let Some(t) = load_shared(SharedTable::CreditCard) else {
        eprintln!("skipped: ../shared/data is absent");
        return;
    };
    let t = t.unwrap();
    let answer = run::feasibility(
        &t,
        &FeasibilityRequest::MaxM {
            epsilon: Epsilon::new(1000.0, "/e").unwrap(),
            neighborhood: Neighborhood::Absolute,
        },
    )
    .unwrap();
    let FeasibilityAnswer::MaxM(max) = answer else {
        panic!("wrong answer kind")
    };
    assert_eq!(max.max_m, 6, "BENCHMARKS.md: em-credit allows m ≤ 6");

    // m = 7 is refused before queueing and names the bound.
    let em = EpsilonM::new(
        Epsilon::new(1000.0, "/e").unwrap(),
        M::new(7, "/m").unwrap(),
        Neighborhood::Absolute,
        "/e",
    )
    .unwrap();
    let err = run::validate(
        &t,
        &spec(PrivacyModel::EpsilonM(em), Algorithm::EpsilonM, None),
    )
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::InfeasibleParameters);
    assert_eq!(err.detail("max_m"), Some(&Detail::Int(6)));

    let answer = run::feasibility(
        &t,
        &FeasibilityRequest::Dissimilarity {
            epsilon: Epsilon::new(0.001, "/e").unwrap(),
            metric: Some(MetricSpec::Lp {
                p: LpNorm::L1,
                weights: vec![],
            }),
        },
    )
    .unwrap();
    let FeasibilityAnswer::Dissimilarity(f) = answer else {
        panic!("wrong answer kind")
    };
    assert_eq!(f.max_degree, 5984, "BENCHMARKS.md: Θ = 5984 for xc-credit");
    assert_eq!(f.rows, 30_000);
    assert!(f.guaranteed.iter().any(|g| g.k == 10 && g.max_delta >= 0.5));
}
