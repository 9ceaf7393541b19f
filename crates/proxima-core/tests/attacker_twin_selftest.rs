//! The twin itself on hand-made releases whose attacker's-view figures are
//! worked out in the comments: negative numeric labels, date ranges, a
//! hierarchy label covering another group's leaves, and composite
//! distances under L1, L2 and L∞.

mod attacker_twin;
mod common;

use attacker_twin::checks::{evaluate, TwinCheck};
use attacker_twin::published::AttackerView;
use attacker_twin::sa::{Norm, TwinMetric};
use attacker_twin::tables::tree;
use proxima_core::generalize::generalize;
use proxima_core::table::{QiValues, SaValues, Table};
use proxima_core::Partition;

fn view(table: &Table, groups: Vec<Vec<u32>>) -> AttackerView {
    let release = generalize(table, Partition::new(groups)).unwrap();
    AttackerView::from_release(table, &release)
}

fn figures(view: &AttackerView, table: &Table, check: &TwinCheck) -> Vec<f64> {
    evaluate(view, table, check, 0..table.rows())
        .into_iter()
        .map(|f| f.figure)
        .collect()
}

#[test]
fn overlapping_negative_intervals_pool_their_rows() {
    // Groups {0,2} → [-5--1], {1,3} → [-3-2], {4} → 4. Rows 1 and 2 lie in
    // both intervals, so each sees 4 candidates; rows 0 and 3 see 2.
    let table = Table::from_columns(
        vec![(
            "q".into(),
            QiValues::Numeric(vec![-5.0, -3.0, -1.0, 2.0, 4.0]),
        )],
        vec![(
            "s".into(),
            SaValues::Numeric(vec![10.0, 11.0, 30.0, 12.0, 50.0]),
        )],
    );
    let v = view(&table, vec![vec![0, 2], vec![1, 3], vec![4]]);
    let labels: Vec<&str> = v.boxes.iter().map(|b| b.labels[0].as_str()).collect();
    assert_eq!(labels, ["[-5--1]", "[-3-2]", "4"]);
    assert_eq!(
        figures(&v, &table, &TwinCheck::KAnonymity { k: 2 }),
        [2.0, 4.0, 4.0, 2.0, 1.0]
    );
    // ε = 2: row 1 (SA 11) has 10, 11, 12 of {10, 30, 11, 12} inside.
    let em = TwinCheck::EpsilonM {
        epsilon: 2.0,
        m: 2,
        relative: false,
    };
    assert_eq!(figures(&v, &table, &em), [0.5, 0.75, 0.25, 1.0, 1.0]);
    let passed: Vec<bool> = evaluate(&v, &table, &em, 0..5)
        .iter()
        .map(|f| f.passed)
        .collect();
    assert_eq!(passed, [true, false, true, false, false]);
    // Relative ε = 0.1 around 11: [9.9, 12.1] holds 10, 11 and 12 too.
    let rel = TwinCheck::EpsilonM {
        epsilon: 0.1,
        m: 2,
        relative: true,
    };
    assert_eq!(figures(&v, &table, &rel)[1], 0.75);
}

#[test]
fn dates_and_ancestors_cover_across_groups() {
    // Group {0,1}: days 0–2, leaves l0 l1 → h0. Group {2,3,4}: days 1–5,
    // leaves l4 l5 l8 → `*`. Row 1 (day 2, l1) is covered by both; row 0
    // (day 0) only by its own; rows 2–4 lie outside h0.
    let table = Table::from_columns(
        vec![
            (
                "d".into(),
                QiValues::Date(vec![19_000, 19_002, 19_001, 19_005, 19_003]),
            ),
            (
                "c".into(),
                QiValues::Categorical {
                    codes: vec![0, 1, 4, 5, 8],
                    hierarchy: tree(),
                },
            ),
        ],
        vec![("s".into(), SaValues::Numeric(vec![1.0; 5]))],
    );
    let v = view(&table, vec![vec![0, 1], vec![2, 3, 4]]);
    assert_eq!(v.boxes[0].labels[1], "h0");
    assert_eq!(v.boxes[1].labels[1], "*");
    assert!(v.boxes[1].labels[0].starts_with('[') && v.boxes[1].labels[0].len() == 23);
    assert_eq!(
        figures(&v, &table, &TwinCheck::KAnonymity { k: 2 }),
        [2.0, 5.0, 3.0, 3.0, 3.0]
    );
}

#[test]
fn composite_distances_follow_the_norms() {
    // One group; SA numeric 0, 5, 10 (range 10) and leaves l0, l1, l4
    // (l0–l1 meet at level 1 of 2, l0–l4 at the root). Per component:
    // (0,1) = (0.5, 0.5), (0,2) = (1, 1), (1,2) = (0.5, 1).
    let table = Table::from_columns(
        vec![("q".into(), QiValues::Numeric(vec![1.0, 1.0, 1.0]))],
        vec![
            ("s".into(), SaValues::Numeric(vec![0.0, 5.0, 10.0])),
            (
                "t".into(),
                SaValues::Categorical {
                    codes: vec![0, 1, 4],
                    hierarchy: tree(),
                    has_hierarchy: true,
                },
            ),
        ],
    );
    let v = view(&table, vec![vec![0, 1, 2]]);
    let check = |norm, epsilon| TwinCheck::Dissimilarity {
        epsilon,
        delta: 0.5,
        k: 2,
        metric: TwinMetric::Lp {
            norm,
            weights: vec![0.5, 0.5],
        },
    };
    // L1: Δ = 0.5, 1, 0.75.
    assert_eq!(figures(&v, &table, &check(Norm::L1, 0.5)), [0.5, 0.5, 0.0]);
    assert_eq!(figures(&v, &table, &check(Norm::L1, 0.75)), [0.5, 1.0, 0.5]);
    // L2: Δ = 0.5, 1, √0.625 ≈ 0.79.
    assert_eq!(figures(&v, &table, &check(Norm::L2, 0.79)), [0.5, 0.5, 0.0]);
    assert_eq!(
        figures(&v, &table, &check(Norm::L2, 0.791)),
        [0.5, 1.0, 0.5]
    );
    // L∞: Δ = 0.5, 1, 1.
    assert_eq!(
        figures(&v, &table, &check(Norm::LInf, 0.99)),
        [0.5, 0.5, 0.0]
    );
    let passed: Vec<bool> = evaluate(&v, &table, &check(Norm::L1, 0.75), 0..3)
        .iter()
        .map(|f| f.passed)
        .collect();
    assert_eq!(passed, [true, false, true]);
}

#[test]
fn diversity_and_closeness_use_the_pooled_multiset() {
    // Two groups print `*` (flat QI) and pool into one candidate set of
    // SA {a, a, b, c}: 3 distinct values, entropy of (½, ¼, ¼).
    let flat = attacker_twin::tables::flat();
    let table = Table::from_columns(
        vec![(
            "q".into(),
            QiValues::Categorical {
                codes: vec![0, 1, 2, 3],
                hierarchy: flat.clone(),
            },
        )],
        vec![(
            "s".into(),
            SaValues::Categorical {
                codes: vec![0, 0, 1, 2],
                hierarchy: flat,
                has_hierarchy: false,
            },
        )],
    );
    let v = view(&table, vec![vec![0, 2], vec![1, 3]]);
    assert_eq!(
        figures(&v, &table, &TwinCheck::DistinctL { l: 3 }),
        [3.0; 4]
    );
    let h: f64 = -(0.5f64 * 0.5f64.ln() + 2.0 * 0.25 * 0.25f64.ln());
    let entropy = figures(&v, &table, &TwinCheck::EntropyL { l: 2.0 });
    assert!(entropy.iter().all(|e| (e - h.exp()).abs() < 1e-12));
    // The pool is the whole table: EMD 0.
    let t = TwinCheck::TCloseness {
        t: 0.0,
        ground: attacker_twin::checks::Ground::Equal,
    };
    assert_eq!(figures(&v, &table, &t), [0.0; 4]);
}
