use std::sync::Arc;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use super::{close, text};
use crate::hierarchy::Hierarchy;
use crate::ingest::shared::{load_shared, SharedTable};
use crate::risk::warnings::{sa_association, sa_associations, AssociationFigures};
use crate::table::{format_number, SaColumn, SaValues, TextColumn};

fn numeric_sa(values: &[f64]) -> SaColumn {
    SaColumn {
        name: "sa".into(),
        schema_index: 1,
        values: SaValues::Numeric(values.to_vec()),
    }
}

#[test]
fn numeric_sa_by_hand() {
    // SA 1, 2, 3 where the column reads "a", 10, 11, 12 where it reads "b".
    // Mean 6.5; category means 2 and 11.
    // Between: 3·(2 − 6.5)² + 3·(11 − 6.5)² = 60.75 + 60.75 = 121.5.
    // Total: 5.5² + 4.5² + 3.5² + 3.5² + 4.5² + 5.5² = 125.5.
    // η² = 121.5 / 125.5, η ≈ 0.984 → warns.
    // Central 90% (type 7 quantiles): overall q₀.₀₅ = 1 + 0.25·1 = 1.25,
    // q₀.₉₅ = 11 + 0.75·1 = 11.75 (width 10.5); within each category
    // 1.1 … 2.9 and 10.1 … 11.9 (width 1.8): 1 − 1.8/10.5 narrower.
    let sa = numeric_sa(&[1.0, 2.0, 3.0, 10.0, 11.0, 12.0]);
    let col = text(&["a", "a", "a", "b", "b", "b"]);
    let a = sa_association("col", &col, &sa);
    assert!(!a.column_numeric);
    assert_eq!(a.column_bins, 2);
    let AssociationFigures::NumericSa {
        variance_explained,
        spearman,
        sa_range,
        typical_range_width,
        range_narrowing,
    } = a.figures
    else {
        panic!("a numeric SA")
    };
    assert!(close(variance_explained, 121.5 / 125.5));
    assert!(close(a.strength, (121.5f64 / 125.5).sqrt()));
    assert_eq!(spearman, None);
    assert!(close(sa_range.0, 1.25) && close(sa_range.1, 11.75));
    assert!(close(typical_range_width, 1.8));
    assert!(close(range_narrowing, 1.0 - 1.8 / 10.5));
    assert!(a.fires());
    assert!(a.message().contains("explains 97% of the variance"));
}

#[test]
fn categorical_sa_by_hand() {
    // SA value by column value:    SA 0  SA 1
    //                        a       3     1
    //                        b       1     3
    // Expected counts 2 each: χ² = 4·(1²/2) = 2, V = √(2/(8·1)) = 0.5,
    // exactly the threshold → warns. Guessing the commonest SA value:
    // 4/8 without the column, (3 + 3)/8 with it. Entropy: H(SA) = ln 2,
    // H(SA | column) = −(¾ ln ¾ + ¼ ln ¼) ≈ 0.5623, U = 1 − 0.5623/0.6931.
    let h = Arc::new(Hierarchy::flat(["no", "yes"]));
    let sa = SaColumn {
        name: "sa".into(),
        schema_index: 1,
        values: SaValues::Categorical {
            codes: vec![0, 0, 0, 1, 0, 1, 1, 1],
            hierarchy: h,
            has_hierarchy: false,
        },
    };
    let col = text(&["a", "a", "a", "a", "b", "b", "b", "b"]);
    let a = sa_association("col", &col, &sa);
    let AssociationFigures::CategoricalSa {
        cramers_v,
        uncertainty_coefficient,
        guess_before,
        guess_after,
    } = a.figures
    else {
        panic!("a categorical SA")
    };
    assert!(close(cramers_v, 0.5) && close(a.strength, 0.5));
    assert!(a.fires());
    assert_eq!((guess_before, guess_after), (0.5, 0.75));
    let h_given = -(0.75f64 * 0.75f64.ln() + 0.25 * 0.25f64.ln());
    assert!(close(uncertainty_coefficient, 1.0 - h_given / 2f64.ln()));
}

#[test]
fn creditcard_bill_amt2_gives_the_sa_away() {
    // The worked case: BILL_AMT2 (last month's bill) is published raw
    // beside BILL_AMT1 (this month's) as the SA.
    let Some(t) = load_shared(SharedTable::CreditCard) else {
        return;
    };
    let t = t.unwrap();
    let all = sa_associations(&t);
    let bill = all.iter().find(|a| a.column == "BILL_AMT2").unwrap();
    assert!(bill.fires(), "{bill:?}");
    let AssociationFigures::NumericSa {
        variance_explained,
        spearman,
        range_narrowing,
        ..
    } = bill.figures
    else {
        panic!("BILL_AMT1 is numeric")
    };
    // Measured: η² ≈ 0.84, ρ ≈ 0.91, the SA's central-90% range ~84%
    // narrower for the median record.
    assert!(variance_explained > 0.8, "{variance_explained}");
    assert!(spearman.unwrap() > 0.9);
    assert!(range_narrowing > 0.75, "{range_narrowing}");
    eprintln!("{}", bill.message());

    // A column unrelated to the bill: whether the client defaults next
    // month (η ≈ 0.02).
    let default = all
        .iter()
        .find(|a| a.column == "default-payment-next-month")
        .unwrap();
    assert!(!default.fires() && default.strength < 0.1, "{default:?}");

    // BILL_AMT2 itself, shuffled: the same values, independent of the SA
    // by construction.
    let index = t.schema().column("BILL_AMT2").unwrap().0;
    let original = t.text_column(index).unwrap();
    let mut rows: Vec<usize> = (0..original.len()).collect();
    rows.shuffle(&mut StdRng::seed_from_u64(3));
    let mut shuffled = TextColumn::new();
    for r in rows {
        shuffled.push(original.get(r)).unwrap();
    }
    let sa = &t.sensitive()[0];
    let independent = sa_association("BILL_AMT2 shuffled", &shuffled, sa);
    assert!(
        !independent.fires() && independent.strength < 0.1,
        "{independent:?}"
    );
}

#[test]
fn a_small_independent_column_does_not_warn() {
    // 200 records, SA = i, column = i mod 2 (alternating, so its two
    // categories have nearly the same SA distribution): η ≈ 0.
    let y: Vec<f64> = (0..200).map(f64::from).collect();
    let cells: Vec<String> = (0..200).map(|i| format_number((i % 2) as f64)).collect();
    let col = text(&cells.iter().map(String::as_str).collect::<Vec<_>>());
    let a = sa_association("parity", &col, &numeric_sa(&y));
    assert!(a.column_numeric);
    assert!(!a.fires() && a.strength < 0.1, "{a:?}");
}
