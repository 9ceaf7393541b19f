use crate::generalize::Release;
use crate::risk::warnings::ungeneralized_qis;
use crate::table::{QiValues, SaValues, Table};

#[test]
fn an_exact_qi_beside_a_generalized_one_warns() {
    // a is the same inside every group (published exactly: NCP 0, all
    // records exact); b spans 10…90 (extent 80) and its groups cover
    // [10,50], [20,60], [30,90]: NCPs 40/80, 40/80, 60/80, two records
    // each → (0.5 + 0.5 + 0.75)/3 = 0.5833 ≥ 0.2 → a warns, b does not.
    let t = Table::from_columns(
        vec![
            (
                "a".into(),
                QiValues::Numeric(vec![1.0, 1.0, 2.0, 2.0, 3.0, 3.0]),
            ),
            (
                "b".into(),
                QiValues::Numeric(vec![10.0, 50.0, 20.0, 60.0, 30.0, 90.0]),
            ),
        ],
        vec![("s".into(), SaValues::Numeric(vec![1.0; 6]))],
    );
    let r = Release::from_assignment(&t, &[0, 0, 1, 1, 2, 2]).unwrap();
    let qis = ungeneralized_qis(&t, &r);
    assert_eq!(qis[0].qi, "a");
    assert_eq!((qis[0].ncp, qis[0].exact_share), (0.0, 1.0));
    let (other, ncp) = qis[0].most_generalized_other.clone().unwrap();
    assert_eq!(other, "b");
    assert!((ncp - 1.75 / 3.0).abs() < 1e-12);
    assert!(qis[0].fires());
    assert!(!qis[1].fires());
    assert_eq!(qis[1].exact_share, 0.0);
}

#[test]
fn no_warning_without_generalization_elsewhere_or_variation() {
    // Both QIs barely generalized: nothing was bought elsewhere.
    let t = Table::from_columns(
        vec![
            ("a".into(), QiValues::Numeric(vec![1.0, 1.0, 2.0, 2.0])),
            ("b".into(), QiValues::Numeric(vec![5.0, 5.0, 6.0, 6.0])),
        ],
        vec![("s".into(), SaValues::Numeric(vec![1.0; 4]))],
    );
    let r = Release::from_assignment(&t, &[0, 0, 1, 1]).unwrap();
    assert!(ungeneralized_qis(&t, &r).iter().all(|q| !q.fires()));

    // A constant QI gives nothing away, however generalized the others.
    let t = Table::from_columns(
        vec![
            ("a".into(), QiValues::Numeric(vec![7.0; 4])),
            ("b".into(), QiValues::Numeric(vec![0.0, 10.0, 0.0, 10.0])),
        ],
        vec![("s".into(), SaValues::Numeric(vec![1.0; 4]))],
    );
    let r = Release::from_assignment(&t, &[0, 0, 1, 1]).unwrap();
    let qis = ungeneralized_qis(&t, &r);
    assert!(!qis[0].varies && !qis[0].fires());
}
