//! Audit checks on the papers' examples, and the fast per-group paths
//! against brute force on random small tables.

mod common;

use std::sync::Arc;

use proptest::prelude::*;
use proxima_core::audit::{audit, AuditCheck, AuditReport, CheckReport};
use proxima_core::error::{Detail, Field};
use proxima_core::metric::MetricSpec;
use proxima_core::params::{
    Dissimilarity, Epsilon, EpsilonM, Fraction, GroundDistance, LDiversityVariant, Neighborhood, K,
    M,
};
use proxima_core::table::{QiValues, SaValues};
use proxima_core::{Hierarchy, Partition, Progress, Table};

fn numeric_table(sa: &[f64]) -> Table {
    Table::from_columns(
        vec![(
            "q".into(),
            QiValues::Numeric((0..sa.len()).map(|i| i as f64).collect()),
        )],
        vec![("s".into(), SaValues::Numeric(sa.to_vec()))],
    )
}

fn run(table: &Table, groups: Vec<Vec<u32>>, checks: &[AuditCheck]) -> AuditReport {
    audit(
        table,
        &Partition::new(groups),
        None,
        checks,
        Progress::none(),
    )
    .unwrap()
}

fn value(c: &CheckReport, key: &str) -> f64 {
    match c.value.iter().find(|(k, _)| k == key).map(|(_, v)| v) {
        Some(Detail::Num(x)) => *x,
        Some(Detail::Int(x)) => *x as f64,
        other => panic!("no numeric value {key}: {other:?}"),
    }
}

fn eps_m(eps: f64, m: u64, nb: Neighborhood) -> AuditCheck {
    AuditCheck::EpsilonM(
        EpsilonM::new(
            Epsilon::new(eps, "/e").unwrap(),
            M::new(m, "/m").unwrap(),
            nb,
            "/e",
        )
        .unwrap(),
    )
}

#[test]
fn epsilon_m_lemma_4_is_not_monotone() {
    // (ε,m) paper / (δ,l) paper §3.2: {40,60} and {50,80} are (15,2)-
    // anonymous, their union is not (Pbrh(50) = 3/4).
    let t = numeric_table(&[40.0, 60.0, 50.0, 80.0]);
    let check = [eps_m(15.0, 2, Neighborhood::Absolute)];
    let split = run(&t, vec![vec![0, 1], vec![2, 3]], &check);
    assert!(split.passed);
    assert_eq!(value(&split.checks[0], "max_breach_probability"), 0.5);
    assert_eq!(value(&split.checks[0], "achieved_m"), 2.0);
    let union = run(&t, vec![vec![0, 1, 2, 3]], &check);
    let c = &union.checks[0];
    assert!(!union.passed && !c.passed);
    assert_eq!(value(c, "max_breach_probability"), 0.75);
    assert_eq!(value(c, "achieved_m"), 1.0);
    assert_eq!((c.violating_groups, c.violating_rows), (1, 1));
}

#[test]
fn andys_breach_probability_is_three_quarters() {
    // (ε,m) paper, Table 1b: I(Andy) = [900, 1100] holds 3 of 4 salaries.
    let t = numeric_table(&[
        1000.0, 1010.0, 1020.0, 50000.0, 16000.0, 24000.0, 33000.0, 31000.0,
    ]);
    let groups = vec![vec![0, 1, 2, 3], vec![4, 5], vec![6, 7]];
    // Absolute ε = 100 gives Andy the same neighbourhood.
    let r = run(
        &t,
        groups.clone(),
        &[eps_m(100.0, 2, Neighborhood::Absolute)],
    );
    let c = &r.checks[0];
    assert_eq!(value(c, "max_breach_probability"), 0.75);
    assert_eq!(
        (c.worst_groups[0].group_id.as_str(), c.worst_groups[0].value),
        ("1", 0.75)
    );
    // Andy, 1010 and 1020 are breached; 50000 is alone in its range.
    assert_eq!((c.violating_groups, c.violating_rows), (1, 3));
    // Relative ε = 0.1: also 31000 ∈ [29700, 36300], so group 3 has Pbrh 1.
    let r = run(&t, groups, &[eps_m(0.1, 2, Neighborhood::Relative)]);
    let c = &r.checks[0];
    assert_eq!(value(c, "max_breach_probability"), 1.0);
    assert_eq!(value(c, "achieved_m"), 1.0);
    let andy = c.worst_groups.iter().find(|g| g.group_id == "1").unwrap();
    assert_eq!((andy.size, andy.value), (4, 0.75));
    assert_eq!((c.violating_groups, c.violating_rows), (2, 5));
}

#[test]
fn delta_l_diversity_on_figure_2() {
    // (δ,l) paper, Figure 2: G1 = {40, 60}, G2 = {40, 50, 60}.
    let t = numeric_table(&[40.0, 60.0, 40.0, 50.0, 60.0]);
    let groups = vec![vec![0, 1], vec![2, 3, 4]];
    let check = |delta: f64, l: usize| AuditCheck::DeltaLDiversity { delta, l };
    // δ = 15 (Example 3): 40 and 60 are δ-similar, so G1 has l = 2/2 = 1.
    let r = run(&t, groups.clone(), &[check(15.0, 2)]);
    assert_eq!(
        r.checks[0]
            .worst_groups
            .iter()
            .map(|g| g.value)
            .collect::<Vec<_>>(),
        vec![1.0, 1.0]
    );
    assert_eq!(r.checks[0].violating_groups, 2);
    // δ = 5: [35,45] and [45,55] touch, so 40 ~ 50 ~ 60 in G2 (l = 1) while
    // G1's 40 and 60 are apart (l = 2).
    let r = run(&t, groups.clone(), &[check(5.0, 2)]);
    let c = &r.checks[0];
    assert_eq!(value(c, "l"), 1.0);
    assert_eq!((c.violating_groups, c.worst_groups[1].value), (1, 2.0));
    // δ = 4.9: every value stands alone.
    let r = run(&t, groups, &[check(4.9, 2)]);
    assert!(r.passed);
    assert_eq!(value(&r.checks[0], "l"), 2.0);
}

#[test]
fn xcolor_running_example_risk() {
    // XColor Fig. 1 / Examples 3–4: in a group of five, v3's ε-neighbourhood
    // is {v1, v2, v3, v4}, v1, v2, v4 are pairwise apart and v5 is far:
    // risk = (4 − 1)/(5 − 1). Distributions under the variational distance.
    let probs = [
        [0.7, 0.1, 0.2],
        [0.6, 0.3, 0.1],
        [0.6, 0.2, 0.2],
        [0.5, 0.2, 0.3],
        [0.1, 0.1, 0.8],
    ];
    let col = |d: usize| SaValues::Numeric(probs.iter().map(|p| p[d]).collect());
    let t = Table::from_columns(
        vec![(
            "age".into(),
            QiValues::Numeric(vec![20.0, 21.0, 22.0, 23.0, 24.0]),
        )],
        vec![
            ("a".into(), col(0)),
            ("b".into(), col(1)),
            ("c".into(), col(2)),
        ],
    );
    let check = |delta: f64, k: u64| AuditCheck::Dissimilarity {
        params: Dissimilarity {
            epsilon: Epsilon::new(0.1, "/e").unwrap(),
            delta: Fraction::new(delta, "delta", "/d").unwrap(),
            k: K::new(k, "/k").unwrap(),
        },
        metric: Some(MetricSpec::Variational),
    };
    let r = run(
        &t,
        vec![vec![0, 1, 2, 3, 4]],
        &[check(0.5, 5), check(0.2, 5), check(0.2, 6)],
    );
    let [breached, safe, small] = &r.checks[..] else {
        panic!()
    };
    assert_eq!(value(breached, "max_risk"), 0.75);
    assert_eq!(value(breached, "vulnerability"), 1.0);
    assert!(!breached.passed);
    assert_eq!(
        breached.violating_rows, 1,
        "only v3 has too many neighbours"
    );
    assert!(safe.passed);
    assert_eq!(value(safe, "vulnerability"), 0.0);
    assert!(!small.passed, "a group smaller than k fails");
    assert_eq!(value(small, "vulnerability"), 0.0);
}

#[test]
fn t_closeness_salary_example_and_report_summary() {
    let t = numeric_table(&(3..=11).map(|k| k as f64 * 1000.0).collect::<Vec<_>>());
    // {3k,4k,5k}, {6k,8k,11k}, {7k,9k,10k}.
    let groups = vec![vec![0, 1, 2], vec![3, 5, 8], vec![4, 6, 7]];
    let check = AuditCheck::TCloseness {
        t: Fraction::new(0.25, "t", "/t").unwrap(),
        ground: GroundDistance::Ordered,
    };
    let kcheck = AuditCheck::KAnonymity {
        k: K::new(3, "/k").unwrap(),
    };
    let r = run(&t, groups, &[check, kcheck]);
    let c = &r.checks[0];
    assert!((value(c, "max_emd") - 0.375).abs() < 1e-12);
    assert_eq!(c.worst_groups[0].group_id, "1");
    // {7k,9k,10k}: cumulative differences −1,−2,−3,−4,−2,−3,−1,1,0 (/9).
    assert_eq!(c.worst_groups[1].group_id, "3");
    assert!((c.worst_groups[1].value - 17.0 / 72.0).abs() < 1e-12);
    assert!((c.worst_groups[2].value - 1.0 / 6.0).abs() < 1e-12);
    assert_eq!((c.violating_groups, c.violating_rows), (1, 3));
    assert!(r.checks[1].passed);
    assert!(!r.passed);
    assert_eq!((r.rows, r.groups), (9, 3));
    assert_eq!(r.risk.max, 1.0 / 3.0);
    assert_eq!(r.risk.records_at_max, 9);
    assert_eq!(r.group_sizes.len(), 1);
    assert_eq!(
        (
            r.group_sizes[0].min_size,
            r.group_sizes[0].groups,
            r.group_sizes[0].rows
        ),
        (3, 3, 9)
    );
}

#[test]
fn checks_that_do_not_fit_the_table_name_the_check() {
    let t = numeric_table(&[1.0, -2.0]);
    let err = audit(
        &t,
        &Partition::new(vec![vec![0, 1]]),
        None,
        &[
            AuditCheck::KAnonymity {
                k: K::new(1, "/k").unwrap(),
            },
            eps_m(0.1, 1, Neighborhood::Relative),
        ],
        Progress::none(),
    )
    .unwrap_err();
    assert_eq!(err.kind, proxima_core::ErrorKind::InvalidParameters);
    assert_eq!(err.errors[0].field, Field::CheckParam(1, "neighborhood"));
    assert!(err.message.contains("-2"), "{}", err.message);
    let err = audit(
        &t,
        &Partition::new(vec![vec![0, 1]]),
        None,
        &[AuditCheck::Dissimilarity {
            params: Dissimilarity {
                epsilon: Epsilon::new(0.1, "/e").unwrap(),
                delta: Fraction::new(0.5, "d", "/d").unwrap(),
                k: K::new(1, "/k").unwrap(),
            },
            metric: Some(MetricSpec::Equal),
        }],
        Progress::none(),
    )
    .unwrap_err();
    assert_eq!(
        err.errors[0].field,
        Field::Within(Box::new(Field::Check(0)), Box::new(Field::SensitiveMetric))
    );
    let err = audit(
        &t,
        &Partition::new(vec![vec![0, 1]]),
        None,
        &[AuditCheck::LDiversity {
            l: 2.0,
            variant: LDiversityVariant::Recursive { c: 0.0 },
        }],
        Progress::none(),
    )
    .unwrap_err();
    assert_eq!(err.errors[0].field, Field::CheckParam(0, "c"));
    // A partition that misses rows is a bug, never a report.
    let err = audit(
        &t,
        &Partition::new(vec![vec![0]]),
        None,
        &[],
        Progress::none(),
    )
    .unwrap_err();
    assert_eq!(err.kind, proxima_core::ErrorKind::Internal);
}

fn two_level() -> Arc<Hierarchy> {
    let paths: Vec<Vec<String>> = [
        ["a1", "A", "AB", "*"],
        ["a2", "A", "AB", "*"],
        ["b1", "B", "AB", "*"],
        ["c1", "C", "CD", "*"],
        ["c2", "C", "CD", "*"],
        ["d1", "D", "CD", "*"],
    ]
    .iter()
    .map(|p| p.iter().map(|s| s.to_string()).collect())
    .collect();
    Arc::new(Hierarchy::from_paths(&paths).unwrap())
}

/// Random groups: `assign[i]` is row i's group (ids compacted).
fn groups_of(assign: &[usize]) -> Vec<Vec<u32>> {
    let mut groups: Vec<Vec<u32>> = Vec::new();
    let mut index = std::collections::HashMap::new();
    for (row, &g) in assign.iter().enumerate() {
        let gi = *index.entry(g).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[gi].push(row as u32);
    }
    groups
}

fn per_group(c: &CheckReport, groups: usize) -> Vec<f64> {
    // worst_groups holds every group when there are ≤ 20.
    assert_eq!(c.worst_groups.len(), groups.min(20));
    let mut v = vec![f64::NAN; groups];
    for w in &c.worst_groups {
        v[w.group_id.parse::<usize>().unwrap() - 1] = w.value;
    }
    v
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn numeric_checks_match_brute_force(
        sa in prop::collection::vec(1u32..20, 2..40),
        seed in prop::collection::vec(0usize..6, 40),
        eps in 0u32..6,
        m in 1u64..4,
    ) {
        let n = sa.len();
        let values: Vec<f64> = sa.iter().map(|&x| x as f64).collect();
        let t = numeric_table(&values);
        let groups = groups_of(&seed[..n]);
        let g = groups.len();
        let e = eps as f64;
        let rel = e / 10.0;
        let checks = [
            eps_m(e, m, Neighborhood::Absolute),
            eps_m(rel, m, Neighborhood::Relative),
            AuditCheck::Dissimilarity {
                params: Dissimilarity {
                    epsilon: Epsilon::new(e, "/e").unwrap(),
                    delta: Fraction::new(0.5, "d", "/d").unwrap(),
                    k: K::new(1, "/k").unwrap(),
                },
                metric: Some(MetricSpec::Absolute),
            },
            AuditCheck::DeltaLDiversity { delta: e / 2.0, l: m as usize },
            AuditCheck::TCloseness { t: Fraction::new(0.3, "t", "/t").unwrap(), ground: GroundDistance::Ordered },
            AuditCheck::TCloseness { t: Fraction::new(0.3, "t", "/t").unwrap(), ground: GroundDistance::Equal },
            AuditCheck::LDiversity { l: 2.0, variant: LDiversityVariant::Distinct },
            AuditCheck::LDiversity { l: 2.0, variant: LDiversityVariant::Entropy },
            AuditCheck::LDiversity { l: 2.0, variant: LDiversityVariant::Recursive { c: 2.0 } },
            AuditCheck::AlphaK { alpha: Fraction::new(0.5, "a", "/a").unwrap(), k: K::new(2, "/k").unwrap() },
        ];
        let r = run(&t, groups.clone(), &checks);
        let vals = |gi: usize| -> Vec<f64> { groups[gi].iter().map(|&r| values[r as usize]).collect() };
        for (ci, c) in r.checks.iter().enumerate() {
            let got = per_group(c, g);
            // Groups whose brute-force figure sits within rounding of the
            // threshold may go either way.
            let (mut failed, mut ambiguous) = (0, 0);
            for (gi, &got) in got.iter().enumerate() {
                let v = vals(gi);
                let (expect, fails, threshold) = match ci {
                    0 | 1 => {
                        let p = common::pbrh(&v, if ci == 0 { e } else { rel }, ci == 1);
                        let max = p.iter().copied().fold(0.0, f64::max);
                        (max, max > 1.0 / m as f64, 1.0 / m as f64)
                    }
                    2 => {
                        let risk = common::risk(v.len(), |i, j| (v[i] - v[j]).abs() <= e);
                        (risk, risk > 0.5, 0.5)
                    }
                    3 => {
                        let l = common::delta_l(&v, e / 2.0);
                        (l, l < m as f64, m as f64)
                    }
                    4 => { let x = common::emd_ordered(&v, &values); (x, x > 0.3, 0.3) }
                    5 => { let x = common::emd_equal(&v, &values); (x, x > 0.3, 0.3) }
                    6 => { let d = common::distinct(&v) as f64; (d, d < 2.0, 2.0) }
                    7 => { let h = common::entropy(&v); (h.exp(), h < 2f64.ln(), 2.0) }
                    8 => {
                        let l = (1..=v.len()).rev().find(|&l| common::recursive_ok(&v, 2.0, l)).unwrap_or(0);
                        (l as f64, l < 2, 2.0)
                    }
                    _ => { let f = common::max_frequency(&v); (f, f > 0.5 || v.len() < 2, 0.5) }
                };
                prop_assert!(close(got, expect), "check {} group {}: {} vs {}", c.kind, gi, got, expect);
                if close(expect, threshold) && !(ci == 9 && v.len() < 2) {
                    ambiguous += 1;
                } else {
                    failed += usize::from(fails);
                }
            }
            prop_assert!(
                (failed..=failed + ambiguous).contains(&c.violating_groups),
                "check {}: {} violating, brute force {} (+{} at the threshold)", c.kind, c.violating_groups, failed, ambiguous
            );
        }
        // Prosecutor risk by hand.
        let min = groups.iter().map(Vec::len).min().unwrap();
        prop_assert_eq!(r.risk.max, 1.0 / min as f64);
        prop_assert!(close(r.risk.average, groups.iter().map(|g| g.len() as f64 * (1.0 / g.len() as f64)).sum::<f64>() / n as f64));
    }

    #[test]
    fn categorical_checks_match_brute_force(
        leaves in prop::collection::vec(0usize..6, 2..40),
        seed in prop::collection::vec(0usize..5, 40),
        eps_level in 0usize..4,
    ) {
        let h = two_level();
        let labels = ["a1", "a2", "b1", "c1", "c2", "d1"];
        let codes: Vec<u32> = leaves.iter().map(|&i| h.leaf_code(labels[i]).unwrap()).collect();
        let n = codes.len();
        let t = Table::from_columns(
            vec![("q".into(), QiValues::Numeric((0..n).map(|i| i as f64).collect()))],
            vec![("d".into(), SaValues::Categorical { codes: codes.clone(), hierarchy: h.clone(), has_hierarchy: true })],
        );
        let groups = groups_of(&seed[..n]);
        let g = groups.len();
        let eps = eps_level as f64 / 3.0;
        let checks = [
            AuditCheck::TCloseness { t: Fraction::new(0.3, "t", "/t").unwrap(), ground: GroundDistance::Hierarchical },
            AuditCheck::Dissimilarity {
                params: Dissimilarity {
                    epsilon: Epsilon::new(eps, "/e").unwrap(),
                    delta: Fraction::new(0.5, "d", "/d").unwrap(),
                    k: K::new(1, "/k").unwrap(),
                },
                metric: Some(MetricSpec::Hierarchical),
            },
            AuditCheck::Dissimilarity {
                params: Dissimilarity {
                    epsilon: Epsilon::new(eps, "/e").unwrap(),
                    delta: Fraction::new(0.5, "d", "/d").unwrap(),
                    k: K::new(1, "/k").unwrap(),
                },
                metric: Some(MetricSpec::Equal),
            },
        ];
        let r = run(&t, groups.clone(), &checks);
        let height = h.height() as f64;
        for (gi, group) in groups.iter().enumerate() {
            let gc: Vec<u32> = group.iter().map(|&r| codes[r as usize]).collect();
            let emd = common::emd_hierarchical(&gc, &codes, &h);
            prop_assert!(close(per_group(&r.checks[0], g)[gi], emd), "emd {} vs {}", per_group(&r.checks[0], g)[gi], emd);
            let hier = common::risk(gc.len(), |i, j| h.lca_level(gc[i], gc[j]) as f64 / height <= eps);
            prop_assert!(close(per_group(&r.checks[1], g)[gi], hier));
            let equal = common::risk(gc.len(), |i, j| (if gc[i] == gc[j] { 0.0 } else { 1.0 }) <= eps);
            prop_assert!(close(per_group(&r.checks[2], g)[gi], equal));
        }
    }
}

#[test]
fn reports_name_groups_by_the_grouping_column() {
    // Group by the SA column itself: ids are its values; a singleton group
    // has risk 1 (XColor) and prosecutor risk 1.
    let t = numeric_table(&[7.0, 7.0, 9.0, 7.0]);
    let (p, ids) = proxima_core::audit::group_by_column(&t, 1).unwrap();
    assert_eq!(ids, vec!["7", "9"]);
    let checks = [
        AuditCheck::KAnonymity {
            k: K::new(2, "/k").unwrap(),
        },
        AuditCheck::Dissimilarity {
            params: Dissimilarity {
                epsilon: Epsilon::new(0.5, "/e").unwrap(),
                delta: Fraction::new(0.5, "d", "/d").unwrap(),
                k: K::new(1, "/k").unwrap(),
            },
            metric: None,
        },
    ];
    let r = audit(&t, &p, Some(&ids), &checks, Progress::none()).unwrap();
    let k = &r.checks[0];
    assert_eq!(
        (k.worst_groups[0].group_id.as_str(), k.worst_groups[0].size),
        ("9", 1)
    );
    assert_eq!((k.violating_groups, k.violating_rows), (1, 1));
    assert_eq!(value(k, "min_size"), 1.0);
    // {7,7,7}: every value is everyone's neighbour (risk 1); {9}: risk 1.
    let d = &r.checks[1];
    assert_eq!(value(d, "max_risk"), 1.0);
    assert_eq!(value(d, "vulnerability"), 1.0);
    assert_eq!(r.risk.max, 1.0);
    assert_eq!(r.risk.records_at_max, 1);
    assert_eq!(r.risk.average, 2.0 / 4.0);
    // By published QIs every row is alone (QI = row index).
    let (p, ids) = proxima_core::audit::group_by_published_qis(&t);
    assert_eq!((p.len(), ids[3].as_str()), (4, "4"));
}
