use crate::risk::warnings::{suppression_concentration, suppression_in_bins, Bins};
use crate::table::{QiColumn, QiValues};

fn rows(spec: &[(&'static str, usize, usize)]) -> Vec<(&'static str, bool)> {
    // (value, rows kept, rows suppressed)
    spec.iter()
        .flat_map(|&(v, kept, gone)| {
            std::iter::repeat_n((v, false), kept).chain(std::iter::repeat_n((v, true), gone))
        })
        .collect()
}

#[test]
fn concentrated_suppression_by_hand() {
    // 100 rows: A 80 (2 suppressed), B 20 (10 suppressed); S = 12.
    // Shares among suppressed: A 2/12, B 10/12; in the table: A 0.8, B 0.2.
    // Excess: A 0.167 − 0.8 < 0, B 0.833 − 0.2 = 0.633 ≥ 0.25.
    // Rates: B 10/20 = 0.5 against 12/100 = 0.12 overall (4.2× ≥ 2×).
    let c = suppression_concentration("race", rows(&[("A", 78, 2), ("B", 10, 10)])).unwrap();
    assert_eq!(c.value, "B");
    assert_eq!((c.suppressed_with_value, c.suppressed), (10, 12));
    assert_eq!((c.rows_with_value, c.rows), (20, 100));
    assert!((c.share_of_suppressed() - 10.0 / 12.0).abs() < 1e-15);
    assert_eq!((c.value_rate(), c.overall_rate()), (0.5, 0.12));
    assert!(c.fires());
    assert!(c
        .message()
        .starts_with("10 of the 12 suppressed rows (83%) have race = B"));
}

#[test]
fn the_external_message_names_the_qi_but_not_its_value() {
    // A value that also appears as a word elsewhere must still not leak.
    let c =
        suppression_concentration("city", rows(&[("Oslo", 78, 2), ("Bergen", 10, 10)])).unwrap();
    assert_eq!(c.value, "Bergen");
    let external = c.message_without_value();
    assert!(!external.contains("Bergen"), "{external}");
    assert!(external.starts_with("10 of the 12 suppressed rows (83%) have one value of city"));
    // The same figures as the officer's message, the value aside.
    assert_eq!(
        external.replace("one value of city", "city = Bergen"),
        c.message()
    );
}

#[test]
fn proportional_or_scarce_suppression_does_not_warn() {
    // Suppressed in proportion to the table: no excess.
    let c = suppression_concentration("race", rows(&[("A", 72, 8), ("B", 18, 2)])).unwrap();
    assert!(!c.fires());
    // All suppression in B, but only 5 rows: below MIN_SUPPRESSED.
    let c = suppression_concentration("race", rows(&[("A", 80, 0), ("B", 15, 5)])).unwrap();
    assert_eq!(c.value, "B");
    assert!(!c.fires());
    // A value that is most of the table: excess 1 − 0.9 = 0.1 < 0.25.
    let c = suppression_concentration("race", rows(&[("A", 78, 12), ("B", 10, 0)])).unwrap();
    assert_eq!(c.value, "A");
    assert!(!c.fires());
    // Nothing suppressed: nothing to say.
    assert_eq!(
        suppression_concentration("race", rows(&[("A", 10, 0)])),
        None
    );
}

#[test]
fn numeric_qis_are_judged_by_decile() {
    // Ages 1..=100; the 12 suppressed rows are ages 89..=100, which fall
    // in the top deciles: 91–100 holds 10 of the 12.
    let ages: Vec<f64> = (1..=100).map(f64::from).collect();
    let qi = QiColumn {
        name: "age".into(),
        schema_index: 0,
        values: QiValues::Numeric(ages.clone()),
    };
    let bins = Bins::of_qi(&qi, 10);
    assert_eq!(bins.len(), 10);
    let c = suppression_concentration(
        "age",
        ages.iter()
            .enumerate()
            .map(|(r, &a)| (bins.labels[bins.codes[r] as usize].as_str(), a >= 89.0)),
    )
    .unwrap();
    assert_eq!(c.value, "91 – 100");
    assert_eq!((c.suppressed_with_value, c.rows_with_value), (10, 10));
    assert!(c.fires());
    // A suppressed row outside the table (missing-value suppression) is
    // placed by its text.
    assert_eq!(bins.code_of_text("95"), Some(9));

    // Counting by category gives the same, and rows outside the table
    // add to their category: two more suppressed rows aged 95 make 12 of
    // 14 in 91–100 (of its 12 rows).
    let suppressed: Vec<bool> = ages.iter().map(|&a| a >= 89.0).collect();
    assert_eq!(suppression_in_bins("age", &bins, &suppressed, &[]), Some(c));
    let with_missing = suppression_in_bins("age", &bins, &suppressed, &[9, 9]).unwrap();
    assert_eq!(
        (with_missing.suppressed_with_value, with_missing.suppressed),
        (12, 14)
    );
    assert_eq!((with_missing.rows_with_value, with_missing.rows), (12, 102));
}
