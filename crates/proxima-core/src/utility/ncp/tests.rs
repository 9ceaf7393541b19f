use std::sync::Arc;

use super::*;
use crate::generalize::generalize;
use crate::hierarchy::Hierarchy;
use crate::partition::Partition;
use crate::table::SaValues;

fn education() -> Arc<Hierarchy> {
    let paths: Vec<Vec<String>> = [
        ["Bachelors", "Undergraduate", "Higher", "*"],
        ["Masters", "Graduate", "Higher", "*"],
        ["Doctorate", "Graduate", "Higher", "*"],
        ["HS-grad", "High School", "Secondary", "*"],
    ]
    .iter()
    .map(|r| r.iter().map(|s| s.to_string()).collect())
    .collect();
    Arc::new(Hierarchy::from_paths(&paths).unwrap())
}

/// age 20, 30, 40, 60 (range 40); edu Masters, Doctorate, Bachelors,
/// HS-grad (4 leaves); a constant QI; groups {0,1} and {2,3}.
fn small() -> (Table, Release) {
    let h = education();
    let c = |l: &str| h.leaf_code(l).unwrap();
    let t = Table::from_columns(
        vec![
            (
                "age".into(),
                QiValues::Numeric(vec![20.0, 30.0, 40.0, 60.0]),
            ),
            (
                "edu".into(),
                QiValues::Categorical {
                    codes: vec![c("Masters"), c("Doctorate"), c("Bachelors"), c("HS-grad")],
                    hierarchy: h.clone(),
                },
            ),
            ("day".into(), QiValues::Date(vec![7, 7, 7, 7])),
        ],
        vec![("s".into(), SaValues::Numeric(vec![1.0, 2.0, 3.0, 4.0]))],
    );
    let r = generalize(&t, Partition::new(vec![vec![0, 1], vec![2, 3]])).unwrap();
    (t, r)
}

#[test]
fn ncp_by_hand() {
    let (t, r) = small();
    let e = QiExtents::new(&t);
    let g = r.generalized();
    // Group 1: age [20-30] → 10/40; edu Graduate (2 leaves) → 1/3.
    assert_eq!(qi_ncp(&t, &e, 0, &g[0][0]), 0.25);
    assert!((qi_ncp(&t, &e, 1, &g[0][1]) - 1.0 / 3.0).abs() < 1e-12);
    // Group 2: age [40-60] → 0.5; edu * → 1.
    assert_eq!(qi_ncp(&t, &e, 0, &g[1][0]), 0.5);
    assert_eq!(qi_ncp(&t, &e, 1, &g[1][1]), 1.0);
    // A single-value domain costs nothing.
    assert_eq!(qi_ncp(&t, &e, 2, &g[1][2]), 0.0);

    let per = attribute_ncp(&t, &r);
    assert_eq!(per[0], 0.375);
    assert!((per[1] - 2.0 / 3.0).abs() < 1e-12);
    assert_eq!(per[2], 0.0);
    let expected_gcp = (0.375 + 2.0 / 3.0) / 3.0;
    assert!((gcp(&t, &r) - expected_gcp).abs() < 1e-12);

    assert!((group_loss(&t, &e, &r, 0) - (0.25 + 1.0 / 3.0)).abs() < 1e-12);
    assert_eq!(group_loss(&t, &e, &r, 1), 1.5);
}

#[test]
fn gcp_is_zero_for_singletons_and_one_for_a_single_group() {
    let (t, _) = small();
    let singletons = generalize(&t, Partition::new((0..4).map(|r| vec![r]).collect())).unwrap();
    assert_eq!(gcp(&t, &singletons), 0.0);
    let all = generalize(&t, Partition::new(vec![vec![0, 1, 2, 3]])).unwrap();
    // Two of three QIs fully generalized, the constant one free.
    assert!((gcp(&t, &all) - 2.0 / 3.0).abs() < 1e-12);
}

#[test]
fn discernibility_and_group_sizes() {
    let (t, r) = small();
    assert_eq!(discernibility(&r), 8);
    let uneven = generalize(&t, Partition::new(vec![vec![0], vec![1, 2, 3]])).unwrap();
    assert_eq!(discernibility(&uneven), 10);
    let m = metrics(&t, &r, Some(2));
    assert_eq!(m.discernibility, 8);
    assert_eq!(m.average_group_size, 2.0);
    assert_eq!(m.normalized_average_group_size, Some(1.0));
    assert_eq!(metrics(&t, &r, None).normalized_average_group_size, None);
    assert_eq!(m.attribute_ncp[0], ("age".to_string(), 0.375));
    assert!((m.mean_group_loss - (0.25 + 1.0 / 3.0 + 1.5) / 2.0).abs() < 1e-12);
    assert!((m.gcp - gcp(&t, &r)).abs() < 1e-15);
}
