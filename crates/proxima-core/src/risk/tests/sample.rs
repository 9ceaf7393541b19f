use super::table;
use crate::risk::reidentification;

#[test]
fn sample_risks_by_hand() {
    // Classes of sizes 1, 1, 2, 3, 3: n = 10 records, u = 5 classes.
    // Prosecutor: max = 1/1; average = u/n = 5/10 = 0.5; records at max
    // = the two singletons. Journalist = prosecutor (upper bound);
    // marketer = u/n = 0.5. Sample uniques f₁ = 2, share 2/10. Lowest
    // risk 1/3.
    let r = reidentification(&table(&[(1, 2), (2, 1), (3, 2)]));
    assert_eq!((r.records, r.classes), (10, 5));
    assert_eq!(r.prosecutor.max, 1.0);
    assert_eq!(r.prosecutor.average, 0.5);
    assert_eq!(r.prosecutor.records_at_max, 2);
    assert_eq!(r.journalist, r.prosecutor);
    assert_eq!(r.marketer, 0.5);
    assert_eq!((r.sample_uniques, r.sample_uniques_fraction), (2, 0.2));
    assert!((r.lowest_risk - 1.0 / 3.0).abs() < 1e-15);
}

#[test]
fn k_anonymous_table_has_no_uniques() {
    // Two classes of 5 and one of 8: max 1/5, average 3/18, 10 records at
    // the max (both classes of 5), no sample uniques.
    let r = reidentification(&table(&[(5, 2), (8, 1)]));
    assert_eq!(r.prosecutor.max, 0.2);
    assert!((r.prosecutor.average - 3.0 / 18.0).abs() < 1e-15);
    assert_eq!(r.prosecutor.records_at_max, 10);
    assert_eq!((r.sample_uniques, r.sample_uniques_fraction), (0, 0.0));
}

#[test]
fn empty_table_has_no_risk() {
    let r = reidentification(&table(&[]));
    assert_eq!(r.prosecutor.max, 0.0);
    assert_eq!(r.marketer, 0.0);
    assert_eq!(r.sample_uniques_fraction, 0.0);
    assert_eq!(r.lowest_risk, 0.0);
}

#[test]
fn agrees_with_the_audit_on_a_partition() {
    // The same definition as the audit's `risk` (one figure, not two).
    let p = crate::partition::Partition::new(vec![vec![0], vec![1, 2], vec![3, 4, 5]]);
    let r = reidentification(&crate::risk::ClassSizes::from_partition(&p));
    assert_eq!(r.prosecutor, crate::audit::summary::prosecutor(&p));
}
