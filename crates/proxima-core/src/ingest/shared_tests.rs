//! Every shared table loads with its standard schema, with the row counts
//! and distinct counts the data README states.

use super::column_stats;
use super::shared::{load_shared, SharedTable};
use crate::schema::Role;
use crate::table::{QiValues, SaValues, Table};

fn load(t: SharedTable) -> Option<Table> {
    let started = std::time::Instant::now();
    let table = load_shared(t)?.unwrap_or_else(|e| panic!("{}: {e}", t.name()));
    // Printed for whoever runs with --nocapture; no timing assertion.
    eprintln!("{} loaded in {:?}", t.name(), started.elapsed());
    assert_eq!(table.rows(), t.expected_rows(), "{}", t.name());
    Some(table)
}

fn distinct(table: &Table) -> Vec<(String, usize)> {
    column_stats(table)
        .into_iter()
        .map(|s| (s.name, s.distinct))
        .collect()
}

fn expect_distinct(table: &Table, expected: &[(&str, usize)]) {
    let got = distinct(table);
    for (name, n) in expected {
        let d = got.iter().find(|(c, _)| c == name).map(|(_, d)| *d);
        assert_eq!(d, Some(*n), "distinct values of {name}");
    }
}

#[test]
fn adult_loads_with_all_hierarchies() {
    let Some(t) = load(SharedTable::Adult) else {
        return;
    };
    assert_eq!(t.suppressed_rows(), 0);
    assert_eq!(t.qis().len(), 8);
    expect_distinct(
        &t,
        &[
            ("sex", 2),
            ("age", 72),
            ("race", 5),
            ("marital-status", 7),
            ("education", 16),
            ("native-country", 41),
            ("workclass", 7),
            ("occupation", 14),
            ("salary-class", 2),
        ],
    );
    // Levels in the README count the leaf column: height = levels − 1.
    let stats = column_stats(&t);
    let height = |n: &str| stats.iter().find(|s| s.name == n).unwrap().hierarchy_height;
    assert_eq!(height("education"), Some(3));
    assert_eq!(height("sex"), Some(1));
    assert_eq!(height("age"), None);
    let age = stats.iter().find(|s| s.name == "age").unwrap();
    assert_eq!((age.min, age.max), (Some(17.0), Some(90.0)));
    // The SA came without a hierarchy: flat, and flagged as such.
    match &t.sensitive()[0].values {
        SaValues::Categorical {
            hierarchy,
            has_hierarchy,
            ..
        } => {
            assert!(!has_hierarchy);
            assert_eq!(hierarchy.leaf_count(), 2);
        }
        other => panic!("salary-class should be categorical: {other:?}"),
    }
    // CRLF: no '\r' survives in the last column's text.
    assert_eq!(t.text(8, 0), Some("<=50K"));
    assert_eq!(t.text(0, 0), Some("Male"));
    assert_eq!(t.source_lines()[0], 1);
    assert_eq!(*t.source_lines().last().unwrap(), 30_162);
}

#[test]
fn adult_full_composite_suppresses_question_marks() {
    let Some(t) = load(SharedTable::AdultFullComposite) else {
        return;
    };
    // 2,392 rows have a '?' in a QI (workclass, native-country); 7 more have
    // one only in the insensitive occupation and are kept.
    assert_eq!(t.suppressed_rows(), 2_392);
    let question_marks = (0..t.rows()).filter(|&r| t.text(6, r) == Some("?")).count();
    assert_eq!(question_marks, 7);
    assert_eq!(t.sensitive().len(), 3);
    // fnlwgt is an identifier: no text, no stats.
    assert_eq!(t.text(2, 0), None);
    let stats = column_stats(&t);
    let s = |n: &str| stats.iter().find(|s| s.name == n).unwrap().clone();
    assert_eq!(s("fnlwgt").distinct, 0);
    assert_eq!(s("hours-per-week").distinct, 94);
    assert_eq!(
        (s("hours-per-week").min, s("hours-per-week").max),
        (Some(1.0), Some(99.0))
    );
    // 119 over all 32,561 rows (README); one value occurs only in suppressed rows.
    assert_eq!(s("capital-gain").distinct, 118);
    assert_eq!(s("education-num").distinct, 16);
    // The insensitive occupation: 14 labels plus the kept '?'.
    assert_eq!(s("occupation").distinct, 15);
    // adult's 7 workclasses plus "Never-worked" (the 7 kept rows).
    assert_eq!(s("workclass").distinct, 8);
    assert_eq!(s("native-country").distinct, 41);
    // Source lines skip the suppressed rows and stay increasing.
    let lines = t.source_lines();
    assert!(lines.windows(2).all(|w| w[0] < w[1]));
    assert!(*lines.last().unwrap() <= 32_561);
    assert!(lines.len() < *lines.last().unwrap() as usize);
}

#[test]
fn creditcard_loads_with_a_signed_numeric_sa() {
    let Some(t) = load(SharedTable::CreditCard) else {
        return;
    };
    let bill = t.single_numeric_sa().expect("BILL_AMT1 is one numeric SA");
    assert!(bill.iter().any(|&x| x < 0.0), "BILL_AMT1 can be negative");
    assert_eq!(t.text(0, 0), None, "ID is an identifier");
    let stats = column_stats(&t);
    let limit = stats.iter().find(|s| s.name == "LIMIT_BAL").unwrap();
    assert_eq!((limit.role, limit.distinct), (Role::Insensitive, 81));
}

#[test]
fn cup_loads_with_numeric_zip() {
    let Some(t) = load(SharedTable::Cup) else {
        return;
    };
    expect_distinct(
        &t,
        &[("ZIP", 13_294), ("AGE", 94), ("GENDER", 6), ("STATE", 53)],
    );
    expect_distinct(&t, &[("RAMNTALL", 814), ("NGIFTALL", 81), ("MINRAMNT", 58)]);
    assert!(matches!(t.qis()[0].values, QiValues::Numeric(_)));
    assert_eq!(t.qis()[0].name, "ZIP");
}

#[test]
fn fars_loads_with_interval_hierarchies() {
    let Some(t) = load(SharedTable::Fars) else {
        return;
    };
    assert_eq!(t.qis().len(), 7);
    expect_distinct(
        &t,
        &[
            ("iage", 99),
            ("irace", 20),
            ("ideathmon", 14),
            ("ideathday", 33),
            ("isex", 3),
            ("ihispanic", 10),
            ("istatenum", 51),
            ("iinjury", 8),
        ],
    );
    assert!(matches!(
        t.sensitive()[0].values,
        SaValues::Categorical {
            has_hierarchy: true,
            ..
        }
    ));
}

#[test]
fn sal_synthetic_500k_loads_from_gzip() {
    let Some(t) = load(SharedTable::SalSynthetic) else {
        return;
    };
    let stats = column_stats(&t);
    let s = |n: &str| stats.iter().find(|s| s.name == n).unwrap().clone();
    // The paper's domains (data README).
    assert!(s("Age").min.unwrap() >= 16.0 && s("Age").max.unwrap() <= 93.0);
    assert!(s("Birthplace").min.unwrap() >= 1.0 && s("Birthplace").max.unwrap() <= 710.0);
    assert!(s("Occupation").min.unwrap() >= 1.0 && s("Occupation").max.unwrap() <= 983.0);
    assert_eq!(s("Income").max, Some(100_000.0));
    assert!(s("Income").min.unwrap() >= 1000.0);
    assert_eq!(t.single_numeric_sa().map(<[f64]>::len), Some(500_000));
}

#[test]
fn adult_scaled_synthetic_600k_loads_from_gzip() {
    let Some(t) = load(SharedTable::AdultScaledSynthetic) else {
        return;
    };
    assert_eq!(t.qis().len(), 8);
    let stats = column_stats(&t);
    let s = |n: &str| stats.iter().find(|s| s.name == n).unwrap().clone();
    // Age was jittered and clamped to [17, 90].
    assert_eq!((s("age").min, s("age").max), (Some(17.0), Some(90.0)));
    assert!(s("education").distinct <= 16 && s("native-country").distinct <= 41);
    assert_eq!(s("hours-per-week").distinct, 94);
    assert_eq!(t.text(14, 599_999).map(|v| v.contains("50K")), Some(true));
}
