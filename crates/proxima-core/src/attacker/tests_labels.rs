//! Uploaded generalized tables: boxes read from labels, victims anywhere
//! in their group's box (cells enumerated by hand in each test).

use std::sync::Arc;

use super::*;
use crate::audit::{group_by_column, group_by_published_qis};
use crate::error::ErrorKind;
use crate::ingest::load_table;
use crate::params::{Epsilon, EpsilonM, Neighborhood, K, M};
use crate::schema::{ColumnSpec, CsvOptions, MissingPolicy, Role, Schema, ValueType};

/// Loads `csv` as an upload: the listed QI columns are categorical without
/// a hierarchy (generalized labels), `s` the numeric SA, `gid` insensitive.
fn upload(csv: &str, qis: &[&str]) -> Table {
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let columns = header
        .iter()
        .map(|&name| {
            let (role, value_type) = if qis.contains(&name) {
                (Role::QuasiIdentifier, Some(ValueType::Categorical))
            } else if name == "s" {
                (Role::Sensitive, Some(ValueType::Numeric))
            } else if name == "day" {
                (Role::QuasiIdentifier, Some(ValueType::Date))
            } else {
                (Role::Insensitive, None)
            };
            ColumnSpec {
                name: name.to_string(),
                role,
                value_type,
                hierarchy: None,
            }
        })
        .collect();
    let schema = Schema::new(
        "upload".into(),
        CsvOptions::default(),
        MissingPolicy::Reject,
        columns,
    )
    .unwrap();
    load_table(Arc::new(schema), csv.as_bytes()).unwrap()
}

fn any_point(t: &Table, p: &Partition, checks: &[AuditCheck]) -> Vec<ViewCheck> {
    let boxes = GroupBoxes::from_labels(t, p).unwrap();
    evaluate(
        t,
        p,
        &boxes,
        Victims::AnyPointOfItsBox,
        checks,
        None,
        Progress::none(),
    )
    .unwrap()
}

fn k(v: u64) -> K {
    K::new(v, "/k").unwrap()
}

/// A: age [20-30], sex M (3 rows); B: [25-35], * (1 row); C: [30-45], F
/// (3 rows). Ranks on sex by first appearance: M 0, * 1, F 2; `*` spans
/// [0, 2].
///
/// Cells, by hand. A's box: age 20 and (20,25) hold A alone, 25 … 30 A and
/// B; on sex A is the point M, which B covers: {A}, {A,B}. B's box: age 25
/// and (25,30) meet A, 30 meets A and C, (30,35] C; on sex, A covers only
/// rank 0 and C only rank 2, rank 1 (a value no other label shows) B
/// alone: {A,B}, {B}, {B,C}. C's box: age 30 … 35 meets B, (35,45] C
/// alone; A's box meets C's only at age 30, and not on sex: {B,C}, {C}.
const OVERLAPPING: &str = "age,sex,s
[20-30],M,96
[20-30],M,104
[20-30],M,500
[25-35],*,100
[30-45],F,700
[30-45],F,900
[30-45],F,1100
";

#[test]
fn overlapping_interval_labels_by_hand() {
    let t = upload(OVERLAPPING, &["age", "sex"]);
    let (p, ids) = group_by_published_qis(&t);
    assert_eq!(p.groups, vec![vec![0, 1, 2], vec![3], vec![4, 5, 6]]);
    let boxes = GroupBoxes::from_labels(&t, &p).unwrap();
    assert_eq!(boxes.bounds(0, 0), (20.0, 30.0));
    assert_eq!(boxes.bounds(1, 0), (25.0, 35.0));
    assert_eq!(boxes.bounds(1, 1), (0.0, 2.0));
    assert_eq!(boxes.bounds(2, 1), (2.0, 2.0));

    let em = AuditCheck::EpsilonM(
        EpsilonM::new(
            Epsilon::new(5.0, "/e").unwrap(),
            M::new(2, "/m").unwrap(),
            Neighborhood::Absolute,
            "/e",
        )
        .unwrap(),
    );
    let checks = [AuditCheck::KAnonymity { k: k(3) }, em];
    let v = evaluate(
        &t,
        &p,
        &boxes,
        Victims::AnyPointOfItsBox,
        &checks,
        Some(&ids),
        Progress::none(),
    )
    .unwrap();
    // Sizes: A's sets 3 and 4; B's 4, 1, 4; C's 4 and 3.
    assert_eq!((v[0].over_bound, v[0].worst), (1, 1.0));
    assert_eq!(v[0].worst_victims[0].row, 3);
    assert_eq!(v[0].worst_groups[0].group_id, "2");
    // Each row's widest set has two groups.
    assert_eq!(v[0].candidate_groups, Spread { median: 2, max: 2 });
    // (ε,m), ε = 5, m = 2. A in {A,B}: 96 → {96, 100} 2/4, 104 → 2/4,
    // 500 → 1/4; alone 1/3 each. B: {A,B} 3/4 (96, 100, 104), {B} 1/1,
    // {B,C} 1/4. C: 1/4 in {B,C}, 1/3 alone.
    let e = &v[1];
    assert_eq!((e.over_bound, e.violating_groups, e.worst), (1, 1, 1.0));
    assert_eq!(e.value[1], ("achieved_m".to_string(), Detail::Int(1)));
    let w = &e.worst_victims;
    assert_eq!(
        (w[0].row, w[0].candidates, w[0].candidate_groups),
        (3, 1, 1)
    );
    assert_eq!((w[1].row, w[1].value, w[1].candidates), (0, 0.5, 4));
    assert_eq!((w[2].row, w[2].value), (1, 0.5));
    assert_eq!(w[3].value, 1.0 / 3.0);
    let d: Vec<usize> = e.distribution.iter().map(|b| b.1).collect();
    assert_eq!(d, vec![0, 0, 0, 4, 2, 0, 0, 0, 0, 1]);
}

#[test]
fn a_star_covers_every_opaque_label() {
    // Ranks a 0, b 1, * 2. {a}: the only point is a, which * covers:
    // {a,*}. {b}: {b,*}. {*}: a → {a,*}, b → {b,*}, the rank of * itself
    // (values no other label shows) → {*}; no integer between 0 and 1.
    let t = upload("zip,s\na,1\na,2\nb,3\n*,4\n*,5\n", &["zip"]);
    let (p, _) = group_by_published_qis(&t);
    let v = &any_point(&t, &p, &[AuditCheck::KAnonymity { k: k(3) }])[0];
    // {a,*} 4 rows, {b,*} 3, {*} 2: only the * rows can be alone.
    assert_eq!((v.over_bound, v.worst), (2, 2.0));
    let over: Vec<u32> = v.worst_victims[..2].iter().map(|w| w.row).collect();
    assert_eq!(over, vec![3, 4]);
    assert_eq!(v.worst_victims[2].value, 3.0);
    assert_eq!(v.candidate_groups, Spread { median: 2, max: 2 });

    // Without a star the labels are disjoint points: the per-group view.
    let t = upload("zip,s\na,1\na,2\nb,3\nc,4\nc,5\n", &["zip"]);
    let (p, _) = group_by_published_qis(&t);
    let v = &any_point(&t, &p, &[AuditCheck::KAnonymity { k: k(2) }])[0];
    assert_eq!((v.over_bound, v.worst), (1, 1.0));
    assert_eq!(v.candidate_groups, Spread { median: 1, max: 1 });
}

#[test]
fn date_labels_are_day_intervals_on_integer_days() {
    // G1 [01-01 … 01-10], G2 [01-11 … 01-20]: adjacent days, no overlap.
    // G3 = 01-10 exactly: inside G1 only.
    let t = upload(
        "d,s\n[2020-01-01-2020-01-10],1\n[2020-01-11-2020-01-20],2\n2020-01-10,3\n",
        &["d"],
    );
    let (p, _) = group_by_published_qis(&t);
    let boxes = GroupBoxes::from_labels(&t, &p).unwrap();
    let day = |s: &str| crate::table::parse_date(s).unwrap() as f64;
    assert_eq!(boxes.bounds(0, 0), (day("2020-01-01"), day("2020-01-10")));
    assert_eq!(boxes.bounds(2, 0), (day("2020-01-10"), day("2020-01-10")));
    let v = &any_point(&t, &p, &[AuditCheck::KAnonymity { k: k(2) }])[0];
    // G1's rows: {G1} on days 1–9, {G1,G3} on day 10; G2 alone; G3 with G1.
    assert_eq!(v.over_bound, 2);
    assert_eq!(v.worst_victims[0].row, 0);
    assert_eq!(v.worst_victims[1].row, 1);
    assert_eq!(v.worst_victims[2].value, 2.0);
}

#[test]
fn a_group_of_different_labels_gets_their_bounding_box() {
    let t = upload("age,gid,s\n[20-30],x,1\n[25-40],x,2\n17,y,3\n", &["age"]);
    let (p, ids) = group_by_column(&t, 1).unwrap();
    assert_eq!(ids, vec!["x", "y"]);
    let boxes = GroupBoxes::from_labels(&t, &p).unwrap();
    assert_eq!(boxes.bounds(0, 0), (20.0, 40.0));
    assert_eq!(boxes.bounds(1, 0), (17.0, 17.0));
    // Interval labels hold no original point.
    let err = evaluate(
        &t,
        &p,
        &boxes,
        Victims::OriginalPoints,
        &[AuditCheck::KAnonymity { k: k(1) }],
        None,
        Progress::none(),
    )
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::Internal);
}

#[test]
fn numeric_and_date_columns_of_an_upload_are_points() {
    let csv = "day,zip,s\n2020-01-01,a,1\n2020-01-03,a,2\n2020-01-02,b,3\n";
    let t = upload(csv, &["zip"]);
    let (p, _) = group_by_column(&t, 1).unwrap();
    let boxes = GroupBoxes::from_labels(&t, &p).unwrap();
    let day = |s: &str| crate::table::parse_date(s).unwrap() as f64;
    assert_eq!(boxes.bounds(0, 0), (day("2020-01-01"), day("2020-01-03")));
    // Group a spans days 1–3 on day; on zip a and b differ: disjoint.
    let v = &any_point(&t, &p, &[AuditCheck::KAnonymity { k: k(2) }])[0];
    assert_eq!(v.over_bound, 1);
    // The same table at its rows' own points agrees.
    let o = evaluate(
        &t,
        &p,
        &boxes,
        Victims::OriginalPoints,
        &[AuditCheck::KAnonymity { k: k(2) }],
        None,
        Progress::none(),
    )
    .unwrap();
    assert_eq!(o[0].over_bound, 1);
}
