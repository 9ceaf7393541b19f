//! Hand-computed cases on releases (victims at their original points).

use std::sync::Arc;

use super::*;
use crate::audit::{audit, AuditCheck};
use crate::error::ErrorKind;
use crate::generalize::{generalize, Release};
use crate::hierarchy::Hierarchy;
use crate::metric::MetricSpec;
use crate::params::{
    Dissimilarity, Epsilon, EpsilonM, Fraction, GroundDistance, LDiversityVariant, Neighborhood, K,
    M,
};
use crate::table::{QiValues, SaValues};

fn k(v: u64) -> K {
    K::new(v, "/k").unwrap()
}

fn em(eps: f64, m: u64, neighborhood: Neighborhood) -> AuditCheck {
    AuditCheck::EpsilonM(
        EpsilonM::new(
            Epsilon::new(eps, "/e").unwrap(),
            M::new(m, "/m").unwrap(),
            neighborhood,
            "/e",
        )
        .unwrap(),
    )
}

fn dissim(eps: f64, delta: f64, kk: u64) -> AuditCheck {
    AuditCheck::Dissimilarity {
        params: Dissimilarity {
            epsilon: Epsilon::new(eps, "/e").unwrap(),
            delta: Fraction::new(delta, "delta", "/d").unwrap(),
            k: k(kk),
        },
        metric: Some(MetricSpec::Absolute),
    }
}

/// One numeric QI per entry of `qis`, one numeric SA.
fn numeric(qis: Vec<Vec<f64>>, sa: Vec<f64>) -> Table {
    Table::from_columns(
        qis.into_iter()
            .enumerate()
            .map(|(i, v)| (format!("q{i}"), QiValues::Numeric(v)))
            .collect(),
        vec![("s".into(), SaValues::Numeric(sa))],
    )
}

fn release(t: &Table, groups: Vec<Vec<u32>>) -> Release {
    generalize(t, Partition::new(groups)).unwrap()
}

pub(super) fn run(t: &Table, r: &Release, checks: &[AuditCheck]) -> Vec<ViewCheck> {
    let boxes = GroupBoxes::from_release(t, r);
    evaluate(
        t,
        r.partition(),
        &boxes,
        Victims::OriginalPoints,
        checks,
        None,
        Progress::none(),
    )
    .unwrap()
}

pub(super) fn figures(t: &Table, r: &Release, check: &AuditCheck) -> Vec<f64> {
    victim_figures(t, r.partition(), &GroupBoxes::from_release(t, r), check).unwrap()
}

fn value(v: &ViewCheck, key: &str) -> Detail {
    v.value
        .iter()
        .find(|(k, _)| k == key)
        .unwrap_or_else(|| panic!("{} has no {key}", v.kind))
        .1
        .clone()
}

#[test]
fn disjoint_boxes_give_the_per_group_figures() {
    // Three groups on disjoint ages, several SA values each.
    let t = numeric(
        vec![vec![1., 2., 3., 10., 11., 12., 13., 20., 21., 22.]],
        vec![100., 103., 300., 100., 100., 104., 500., 7., 9., 2000.],
    );
    let r = release(&t, vec![vec![0, 1, 2], vec![3, 4, 5, 6], vec![7, 8, 9]]);
    let checks = vec![
        AuditCheck::KAnonymity { k: k(4) },
        AuditCheck::LDiversity {
            l: 3.0,
            variant: LDiversityVariant::Distinct,
        },
        AuditCheck::LDiversity {
            l: 2.0,
            variant: LDiversityVariant::Entropy,
        },
        AuditCheck::LDiversity {
            l: 2.0,
            variant: LDiversityVariant::Recursive { c: 2.0 },
        },
        AuditCheck::AlphaK {
            alpha: Fraction::new(0.5, "alpha", "/a").unwrap(),
            k: k(3),
        },
        AuditCheck::TCloseness {
            t: Fraction::new(0.3, "t", "/t").unwrap(),
            ground: GroundDistance::Ordered,
        },
        em(5.0, 2, Neighborhood::Absolute),
        em(0.05, 2, Neighborhood::Relative),
        dissim(5.0, 0.5, 3),
        AuditCheck::DeltaLDiversity { delta: 2.0, l: 2 },
    ];
    let view = run(&t, &r, &checks);
    let groups = audit(&t, r.partition(), None, &checks, Progress::none()).unwrap();
    for (v, g) in view.iter().zip(&groups.checks) {
        assert_eq!(v.kind, g.kind);
        assert_eq!(v.passed, g.passed, "{}", v.kind);
        assert_eq!(v.violating_rows, g.violating_rows, "{}", v.kind);
        assert_eq!(v.violating_groups, g.violating_groups, "{}", v.kind);
        assert_eq!(v.victims, 10);
        assert_eq!(v.candidate_groups, Spread { median: 1, max: 1 });
        // Every figure the audit reports, except the dissimilarity's
        // vulnerability (a share of groups there, of victims here).
        for (key, expected) in &g.value {
            if key != "vulnerability" {
                assert_eq!(&value(v, key), expected, "{} {key}", v.kind);
            }
        }
        assert_eq!(
            v.worst_groups[0].value, g.worst_groups[0].value,
            "{}",
            v.kind
        );
        assert_eq!(v.worst_groups.len(), 3);
    }
    // (ε,m) absolute by hand: group 2 has 100, 100, 104 within 5 of each
    // other: 3 of 4 rows → 0.75 for rows 3, 4, 5; group 1's 100 and 103 → 2/3.
    let f = figures(&t, &r, &checks[6]);
    let expect = [
        2. / 3.,
        2. / 3.,
        1. / 3.,
        0.75,
        0.75,
        0.75,
        0.25,
        2. / 3.,
        2. / 3.,
        1. / 3.,
    ];
    assert_eq!(f, expect);
    assert_eq!(view[6].over_bound, 7);
    assert_eq!(view[6].worst, 0.75);
}

/// Groups 0 and 1 publish the same point (age 30) — the (ε,m)
/// partitioner's round-robin buckets: each passes alone, the union of the
/// four candidates does not.
#[test]
fn identical_boxes_that_pass_alone_breach_together() {
    let t = numeric(
        vec![vec![30., 30., 30., 30., 50., 50.]],
        vec![96., 104., 100., 200., 100., 300.],
    );
    let r = release(&t, vec![vec![0, 1], vec![2, 3], vec![4, 5]]);
    let check = em(5.0, 2, Neighborhood::Absolute);
    let per_group = audit(
        &t,
        r.partition(),
        None,
        std::slice::from_ref(&check),
        Progress::none(),
    )
    .unwrap();
    assert!(per_group.passed, "every group passes alone");

    let v = &run(&t, &r, std::slice::from_ref(&check))[0];
    // Row 2 (100) has 96, 100 and 104 among its 4 candidates: 3/4 > 1/2.
    // Rows 0 and 1: 2/4; row 3: 1/4; group 2 is alone: 1/2 each.
    assert_eq!(
        figures(&t, &r, &check),
        vec![0.5, 0.5, 0.75, 0.25, 0.5, 0.5]
    );
    assert!(!v.passed);
    assert_eq!((v.victims, v.over_bound, v.violating_groups), (6, 1, 1));
    assert_eq!(v.worst, 0.75);
    assert_eq!(value(v, "max_breach_probability"), Detail::Num(0.75));
    assert_eq!(value(v, "achieved_m"), Detail::Int(1));
    assert_eq!(
        v.worst_victims[0],
        WorstVictim {
            row: 2,
            group: 1,
            value: 0.75,
            candidates: 4,
            candidate_groups: 2,
        }
    );
    // Ties at 0.5 by row: 0, 1, 4, 5.
    let next: Vec<u32> = v.worst_victims[1..5].iter().map(|w| w.row).collect();
    assert_eq!(next, vec![0, 1, 4, 5]);
    assert_eq!(v.worst_groups[0].group_id, "2");
    assert_eq!(v.worst_groups[0].value, 0.75);
    assert_eq!(v.candidate_groups, Spread { median: 2, max: 2 });
    // Buckets (0.2, 0.3], (0.4, 0.5] and (0.7, 0.8].
    let d: Vec<usize> = v.distribution.iter().map(|b| b.1).collect();
    assert_eq!(d, vec![0, 0, 1, 0, 4, 0, 0, 1, 0, 0]);
    assert_eq!(v.distribution[4].0, 0.5);
}

#[test]
fn nested_boxes_widen_the_inner_groups_candidates_only() {
    // A = rows 0..3 at ages 20, 30, 40 → [20-40]; B = rows 3, 4 at 25, 28.
    let t = numeric(
        vec![vec![20., 30., 40., 25., 28.]],
        vec![1., 2., 3., 4., 5.],
    );
    let r = release(&t, vec![vec![0, 1, 2], vec![3, 4]]);
    let check = AuditCheck::KAnonymity { k: k(3) };
    // A's victims see A only (B's [25-28] misses 20, 30 and 40); B's see both.
    assert_eq!(figures(&t, &r, &check), vec![3., 3., 3., 5., 5.]);
    let v = &run(&t, &r, &[check])[0];
    assert!(
        v.passed,
        "B alone has 2 rows, but nobody can tell B's rows from A's"
    );
    assert_eq!(value(v, "min_size"), Detail::Int(3));
    assert_eq!(v.candidate_groups, Spread { median: 1, max: 2 });
    // Distribution over [min, max] = [3, 5]: edges 3.2 … 5.
    assert_eq!(v.distribution.first(), Some(&(3.2, 3)));
    assert_eq!(v.distribution.last(), Some(&(5.0, 2)));
}

fn regions() -> Arc<Hierarchy> {
    let paths: Vec<Vec<String>> = [
        ["NY", "East", "*"],
        ["MA", "East", "*"],
        ["CA", "West", "*"],
        ["WA", "West", "*"],
    ]
    .iter()
    .map(|p| p.iter().map(|s| s.to_string()).collect())
    .collect();
    Arc::new(Hierarchy::from_paths(&paths).unwrap())
}

#[test]
fn a_categorical_ancestor_covers_its_leaves() {
    let h = regions();
    let code = |l: &str| h.leaf_code(l).unwrap();
    let diag = Arc::new(Hierarchy::flat(["flu", "cold"]));
    // Group 0 = {NY, MA} publishes East; group 1 = {NY, NY} publishes NY;
    // group 2 = {CA, WA} publishes West.
    let t = Table::from_columns(
        vec![(
            "state".into(),
            QiValues::Categorical {
                codes: ["NY", "MA", "NY", "NY", "CA", "WA"].map(code).to_vec(),
                hierarchy: h.clone(),
            },
        )],
        vec![(
            "d".into(),
            SaValues::Categorical {
                codes: vec![0, 1, 0, 0, 0, 1],
                hierarchy: diag,
                has_hierarchy: false,
            },
        )],
    );
    let r = release(&t, vec![vec![0, 1], vec![2, 3], vec![4, 5]]);
    let boxes = GroupBoxes::from_release(&t, &r);
    // Depth-first ranks NY 0, MA 1, CA 2, WA 3.
    assert_eq!(boxes.bounds(0, 0), (0.0, 1.0));
    assert_eq!(boxes.bounds(1, 0), (0.0, 0.0));
    assert_eq!(boxes.bounds(2, 0), (2.0, 3.0));
    let size = AuditCheck::KAnonymity { k: k(3) };
    // MA (row 1) is covered by East only; every NY by East and NY.
    assert_eq!(figures(&t, &r, &size), vec![4., 2., 4., 4., 2., 2.]);
    let distinct = AuditCheck::LDiversity {
        l: 2.0,
        variant: LDiversityVariant::Distinct,
    };
    // Group 1 alone is {flu, flu}; its victims see {flu, cold, flu, flu}.
    assert_eq!(figures(&t, &r, &distinct), vec![2.; 6]);
    let v = run(&t, &r, &[size, distinct.clone()]);
    assert_eq!((v[0].over_bound, v[0].violating_groups), (3, 2));
    assert!(v[1].passed);
    let alone = audit(&t, r.partition(), None, &[distinct], Progress::none()).unwrap();
    assert!(!alone.passed, "group 1 fails distinct 2-diversity alone");
}

#[test]
fn date_boxes_are_closed_and_meet_at_a_shared_day() {
    // Group 0 = days 100, 110; group 1 = days 110, 120: they share day 110.
    let t = Table::from_columns(
        vec![("since".into(), QiValues::Date(vec![100, 110, 110, 120]))],
        vec![("s".into(), SaValues::Numeric(vec![1., 2., 3., 4.]))],
    );
    let r = release(&t, vec![vec![0, 1], vec![2, 3]]);
    let boxes = GroupBoxes::from_release(&t, &r);
    assert_eq!(boxes.bounds(1, 0), (110.0, 120.0));
    let check = AuditCheck::KAnonymity { k: k(3) };
    assert_eq!(figures(&t, &r, &check), vec![2., 4., 4., 2.]);
    let v = &run(&t, &r, &[check])[0];
    assert_eq!((v.over_bound, v.violating_groups), (2, 2));
}

#[test]
fn neighbourhoods_are_closed_at_exactly_epsilon() {
    // Four groups at one QI point: one candidate set of every row.
    let t = numeric(vec![vec![7.; 4]], vec![100., 105., 95., 105.5]);
    let r = release(&t, vec![vec![0], vec![1], vec![2], vec![3]]);
    // 100: {95, 100, 105}; 105: {100, 105, 105.5}; 95: {95, 100};
    // 105.5: {105, 105.5} (100 is 5.5 away).
    let f = figures(&t, &r, &em(5.0, 2, Neighborhood::Absolute));
    assert_eq!(f, vec![0.75, 0.75, 0.5, 0.5]);
    let f = figures(&t, &r, &dissim(5.0, 0.5, 2));
    assert_eq!(f, vec![2. / 3., 2. / 3., 1. / 3., 1. / 3.]);
    // Relative, ε = 0.05 around 100: [95, 105], both ends in.
    let f = figures(&t, &r, &em(0.05, 2, Neighborhood::Relative));
    assert_eq!(f[0], 0.75);
    // (δ,l) with δ = 2.5: [97.5, 102.5] and [102.5, 107.5] touch.
    let f = figures(&t, &r, &AuditCheck::DeltaLDiversity { delta: 2.5, l: 2 });
    assert_eq!(f, vec![4. / 3., 4. / 3., 2., 2.]);
    let v = &run(&t, &r, &[AuditCheck::DeltaLDiversity { delta: 2.5, l: 2 }])[0];
    assert_eq!(v.over_bound, 2);
    assert_eq!(value(v, "l"), Detail::Num(4. / 3.));
}

#[test]
fn a_lone_candidate_has_risk_one_and_fails_when_delta_is_positive() {
    let t = numeric(vec![vec![1., 5., 5.]], vec![10., 20., 21.]);
    let r = release(&t, vec![vec![0], vec![1, 2]]);
    let f = figures(&t, &r, &dissim(5.0, 0.5, 1));
    assert_eq!(f, vec![1.0, 1.0, 1.0]);
    let v = run(
        &t,
        &r,
        &[
            dissim(5.0, 0.5, 1),
            dissim(5.0, 0.5, 2),
            dissim(0.5, 0.5, 1),
        ],
    );
    // k = 1: rows 1 and 2 are neighbours (1 > 0.5·1): over; row 0 alone has
    // risk 1 > 1 − δ (Definition 6, as the per-group audit): over too.
    assert_eq!(v[0].over_bound, 3);
    assert_eq!(value(&v[0], "max_risk"), Detail::Num(1.0));
    // k = 2: row 0's lone candidate set is also too small.
    assert_eq!(v[1].over_bound, 3);
    assert_eq!(value(&v[1], "vulnerability"), Detail::Num(1.0));
    // ε = 0.5: nobody has a neighbour; only the lone row breaches.
    assert_eq!(v[2].over_bound, 1);
    assert_eq!(v[2].worst, 1.0);
    // With δ = 0 a lone row passes (risk 1 ≤ 1 − 0).
    let v = run(&t, &r, &[dissim(0.5, 0.0, 1)]);
    assert!(v[0].passed);
}

#[test]
fn composite_and_categorical_metrics_count_over_candidate_sets() {
    let h = Arc::new(Hierarchy::flat(["a", "b"]));
    // Two groups at one point: one set of 4 rows.
    let t = Table::from_columns(
        vec![("q".into(), QiValues::Numeric(vec![1.0; 4]))],
        vec![
            ("x".into(), SaValues::Numeric(vec![0.0, 10.0, 1.0, 10.0])),
            (
                "c".into(),
                SaValues::Categorical {
                    codes: vec![0, 0, 0, 1],
                    hierarchy: h.clone(),
                    has_hierarchy: false,
                },
            ),
        ],
    );
    let r = release(&t, vec![vec![0, 1], vec![2, 3]]);
    // L1, equal weights: d(0, 2) = ½·0.1 = 0.05; d(1, 3) = ½·1 = 0.5.
    let lp = AuditCheck::Dissimilarity {
        params: Dissimilarity {
            epsilon: Epsilon::new(0.05, "/e").unwrap(),
            delta: Fraction::new(0.5, "delta", "/d").unwrap(),
            k: k(2),
        },
        metric: None,
    };
    assert_eq!(figures(&t, &r, &lp), vec![1. / 3., 0.0, 1. / 3., 0.0]);
    let t1 = Table::from_columns(
        vec![("q".into(), QiValues::Numeric(vec![1.0; 4]))],
        vec![(
            "c".into(),
            SaValues::Categorical {
                codes: vec![0, 1, 0, 0],
                hierarchy: h,
                has_hierarchy: false,
            },
        )],
    );
    let r1 = release(&t1, vec![vec![0, 1], vec![2, 3]]);
    let equal = AuditCheck::Dissimilarity {
        params: Dissimilarity {
            epsilon: Epsilon::new(0.5, "/e").unwrap(),
            delta: Fraction::new(0.5, "delta", "/d").unwrap(),
            k: k(2),
        },
        metric: Some(MetricSpec::Equal),
    };
    // The three a's see two other a's among 3 others; the b none.
    assert_eq!(
        figures(&t1, &r1, &equal),
        vec![2. / 3., 0.0, 2. / 3., 2. / 3.]
    );
}

#[test]
fn validation_errors_are_the_audits() {
    let h = Arc::new(Hierarchy::flat(["a", "b"]));
    let t = Table::from_columns(
        vec![("q".into(), QiValues::Numeric(vec![1.0, 2.0]))],
        vec![(
            "c".into(),
            SaValues::Categorical {
                codes: vec![0, 1],
                hierarchy: h,
                has_hierarchy: false,
            },
        )],
    );
    let r = release(&t, vec![vec![0, 1]]);
    let boxes = GroupBoxes::from_release(&t, &r);
    for checks in [
        vec![
            AuditCheck::KAnonymity { k: k(1) },
            em(1.0, 2, Neighborhood::Absolute),
        ],
        vec![AuditCheck::TCloseness {
            t: Fraction::new(0.2, "t", "/t").unwrap(),
            ground: GroundDistance::Hierarchical,
        }],
        vec![AuditCheck::LDiversity {
            l: 2.5,
            variant: LDiversityVariant::Distinct,
        }],
        vec![AuditCheck::DeltaLDiversity { delta: 1.0, l: 0 }],
        vec![dissim(1.0, 0.5, 2)],
    ] {
        let ours = evaluate(
            &t,
            r.partition(),
            &boxes,
            Victims::OriginalPoints,
            &checks,
            None,
            Progress::none(),
        )
        .unwrap_err();
        let theirs = audit(&t, r.partition(), None, &checks, Progress::none()).unwrap_err();
        assert_eq!(ours, theirs);
        assert_eq!(ours.kind, ErrorKind::InvalidParameters);
    }
}

#[test]
fn mismatched_inputs_and_cancellation_are_errors() {
    let t = numeric(vec![vec![1., 2., 3.]], vec![1., 2., 3.]);
    let r = release(&t, vec![vec![0, 1], vec![2]]);
    let boxes = GroupBoxes::from_release(&t, &r);
    let checks = [AuditCheck::KAnonymity { k: k(2) }];
    let other = Partition::new(vec![vec![0, 1, 2]]);
    let err = evaluate(
        &t,
        &other,
        &boxes,
        Victims::OriginalPoints,
        &checks,
        None,
        Progress::none(),
    )
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::Internal);
    let ids = vec!["x".to_string()];
    let err = evaluate(
        &t,
        r.partition(),
        &boxes,
        Victims::OriginalPoints,
        &checks,
        Some(&ids),
        Progress::none(),
    )
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::Internal);
    let stop = |_: f64| false;
    let err = evaluate(
        &t,
        r.partition(),
        &boxes,
        Victims::OriginalPoints,
        &checks,
        None,
        Progress::new(&stop),
    )
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::Cancelled);
    // Named groups appear under their ids.
    let ids = vec!["first".to_string(), "second".to_string()];
    let v = evaluate(
        &t,
        r.partition(),
        &boxes,
        Victims::OriginalPoints,
        &checks,
        Some(&ids),
        Progress::none(),
    )
    .unwrap();
    assert_eq!(v[0].worst_groups[0].group_id, "second");
}

#[test]
fn hundreds_of_identical_boxes_are_stabbed_through_the_hierarchy() {
    // 300 one-row groups at one point (beyond the scan limit) and 10 elsewhere.
    let n = 310;
    let qi: Vec<f64> = (0..n)
        .map(|i| if i < 300 { 1.0 } else { 2.0 + i as f64 })
        .collect();
    let sa: Vec<f64> = (0..n).map(|i| (i % 30) as f64).collect();
    let t = numeric(vec![qi], sa.clone());
    let r = release(&t, (0..n as u32).map(|i| vec![i]).collect());
    let f = figures(&t, &r, &em(1.0, 2, Neighborhood::Absolute));
    for (i, &x) in f.iter().enumerate() {
        let expected = if i < 300 {
            // Values i % 30 ± 1 among the 300: 10 rows per value.
            let v = (i % 30) as f64;
            let near = sa[..300].iter().filter(|&&y| (y - v).abs() <= 1.0).count();
            near as f64 / 300.0
        } else {
            1.0
        };
        assert_eq!(x, expected, "row {i}");
    }
    let v = &run(&t, &r, &[AuditCheck::KAnonymity { k: k(2) }])[0];
    assert_eq!(
        v.candidate_groups,
        Spread {
            median: 300,
            max: 300
        }
    );
    assert_eq!(v.over_bound, 10);
}

/// The creditcard example of docs/attackers-view.md, on the shared table: the 51 people with
/// QIs (SEX, EDUCATION, MARRIAGE, AGE) = (1, 1, 1, 49) dealt by BILL_AMT1
/// rank into 12 buckets that all publish that point; everyone else grouped
/// by their own QI point. The person on data line 8208 (BILL_AMT1 749)
/// has 19 of the 51 candidates within ε = 1000: over 1/4.
#[test]
fn the_creditcard_example_of_issue_10() {
    use crate::ingest::shared::{load_shared, SharedTable};
    let Some(loaded) = load_shared(SharedTable::CreditCard) else {
        return;
    };
    let t = loaded.unwrap();
    let qi = |r: usize| -> Vec<f64> {
        t.qis()
            .iter()
            .map(|c| match &c.values {
                QiValues::Numeric(v) => v[r],
                _ => unreachable!("creditcard's QIs are numeric"),
            })
            .collect()
    };
    let sa = t.single_numeric_sa().unwrap();
    let mut point: Vec<u32> = (0..t.rows() as u32)
        .filter(|&r| qi(r as usize) == [1.0, 1.0, 1.0, 49.0])
        .collect();
    assert_eq!(point.len(), 51);
    point.sort_by(|&a, &b| sa[a as usize].total_cmp(&sa[b as usize]).then(a.cmp(&b)));
    let mut groups: Vec<Vec<u32>> = vec![Vec::new(); 12];
    for (i, &r) in point.iter().enumerate() {
        groups[i % 12].push(r);
    }
    let mut by_point: std::collections::BTreeMap<Vec<u64>, Vec<u32>> = Default::default();
    for r in 0..t.rows() {
        let q = qi(r);
        if q != [1.0, 1.0, 1.0, 49.0] {
            let key = q.iter().map(|x| x.to_bits()).collect();
            by_point.entry(key).or_default().push(r as u32);
        }
    }
    groups.extend(by_point.into_values());
    let r = release(&t, groups);
    let check = em(1000.0, 4, Neighborhood::Absolute);
    let f = figures(&t, &r, &check);
    let row = t.source_lines().iter().position(|&l| l == 8208).unwrap();
    assert_eq!(sa[row], 749.0);
    assert_eq!(f[row], 19.0 / 51.0);
    // Each bucket alone holds 4 or 5 of the 51: the per-group view never
    // sees the 19.
    let bucket = r.partition().groups[..12]
        .iter()
        .find(|g| g.contains(&(row as u32)))
        .unwrap();
    assert!(bucket.len() <= 5);
}
