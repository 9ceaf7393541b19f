use super::text;
use crate::audit::group_by_published_qis;
use crate::ingest::shared::{load_shared, SharedTable};
use crate::partition::Partition;
use crate::risk::warnings::{fine_grained_column, fine_grained_columns, BelowK};

#[test]
fn fine_grained_by_hand() {
    // Groups {0,1,2}, {3,4,5}, {6}; the column reads x x y | z z z | w.
    // Without it: row 6 is alone (1 unique); with k = 3, its group of 1
    // is below k (1 record).
    // With it: group 1 splits into x×2, y×1; group 2 stays z×3; group 3
    // is w×1. Unique: y and w (2). Below 3: x×2 + y + w = 4 records.
    // Newly unique: 2 − 1 = 1 of 7 records (14% ≥ 1%) → warns.
    let p = Partition::new(vec![vec![0, 1, 2], vec![3, 4, 5], vec![6]]);
    let col = text(&["x", "x", "y", "z", "z", "z", "w"]);
    let f = fine_grained_column("col", &col, &p, Some(3));
    assert_eq!((f.records, f.distinct_values), (7, 4));
    assert_eq!((f.unique_before, f.unique_after), (1, 2));
    assert_eq!(
        f.below_k,
        Some(BelowK {
            k: 3,
            before: 1,
            after: 4
        })
    );
    assert_eq!(f.newly_unique(), 1);
    assert!(f.fires());
    let f = fine_grained_column("col", &col, &p, None);
    assert_eq!((f.newly_unique(), f.below_k), (1, None));
    assert!(f.fires());
}

#[test]
fn a_constant_column_changes_nothing() {
    let p = Partition::new(vec![vec![0, 1, 2], vec![3, 4]]);
    let col = text(&["c"; 5]);
    let f = fine_grained_column("col", &col, &p, Some(2));
    assert_eq!(
        (f.unique_before, f.unique_after, f.newly_unique()),
        (0, 0, 0)
    );
    assert!(!f.fires());
}

#[test]
fn one_coincidence_in_a_large_release_does_not_warn() {
    // 500 groups of 4 identical values, one group holding a second value:
    // 1 record newly unique of 2000 (0.05% < 1%).
    let groups: Vec<Vec<u32>> = (0..500u32).map(|g| (4 * g..4 * g + 4).collect()).collect();
    let mut cells = vec!["a"; 2000];
    cells[0] = "b";
    let f = fine_grained_column("col", &text(&cells), &Partition::new(groups), None);
    assert_eq!(f.newly_unique(), 1);
    assert!(!f.fires());
}

#[test]
fn a_binary_column_pushes_records_below_k_without_warning() {
    // 100 groups of 10; in each, one record reads "yes" and nine "no":
    // 100 records (10%) newly unique → warns. With the "yes" records
    // paired (two per group, 50 groups), none is unique, but all 100
    // are below k = 10: reported, not a warning.
    let groups: Vec<Vec<u32>> = (0..100u32)
        .map(|g| (10 * g..10 * g + 10).collect())
        .collect();
    let p = Partition::new(groups);
    let single: Vec<&str> = (0..1000)
        .map(|r| if r % 10 == 0 { "yes" } else { "no" })
        .collect();
    let f = fine_grained_column("flag", &text(&single), &p, Some(10));
    assert_eq!(f.newly_unique(), 100);
    assert!(f.fires());
    let paired: Vec<&str> = (0..1000)
        .map(|r| if r % 10 < 2 && r < 500 { "yes" } else { "no" })
        .collect();
    let f = fine_grained_column("flag", &text(&paired), &p, Some(10));
    assert_eq!(f.newly_unique(), 0);
    assert_eq!(f.below_k.unwrap().after, 50 * 2 + 50 * 8);
    assert!(!f.fires());
}

#[test]
fn creditcard_bill_amounts_act_as_quasi_identifiers() {
    // Grouped by its raw QIs (SEX, EDUCATION, MARRIAGE, AGE), creditcard
    // has 254 sample uniques; adding BILL_AMT2 (nearly one value per
    // client) makes most records unique.
    let Some(t) = load_shared(SharedTable::CreditCard) else {
        return;
    };
    let t = t.unwrap();
    let (p, _) = group_by_published_qis(&t);
    let all = fine_grained_columns(&t, &p, Some(5));
    let bill = all.iter().find(|f| f.column == "BILL_AMT2").unwrap();
    assert_eq!(bill.unique_before, 254);
    assert!(bill.unique_after > 20_000, "{bill:?}");
    assert!(bill.fires());
    eprintln!("{}", bill.message());
}
