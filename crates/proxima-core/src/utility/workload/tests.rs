use std::sync::Arc;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::*;
use crate::error::ErrorKind;
use crate::generalize::generalize;
use crate::hierarchy::Hierarchy;
use crate::partition::Partition;
use crate::progress::Progress;
use crate::split::{recursive_split, QiSpace};

fn spec(q: usize, seed: u64) -> WorkloadSpec {
    WorkloadSpec {
        queries: 300,
        q,
        selectivity: 0.1,
        seed,
    }
}

/// `n` rows: two integer QIs, a categorical QI and a date QI, uniform and
/// independent, and an integer SA correlated with the first QI.
fn synthetic(n: usize, seed: u64) -> Table {
    let mut rng = StdRng::seed_from_u64(seed);
    let h = Arc::new(Hierarchy::flat((0..8).map(|i| format!("c{i}"))));
    let age: Vec<f64> = (0..n).map(|_| rng.gen_range(16..=93) as f64).collect();
    let place: Vec<f64> = (0..n).map(|_| rng.gen_range(1..=710) as f64).collect();
    let cat: Vec<u32> = (0..n).map(|_| rng.gen_range(0..8)).collect();
    let day: Vec<i32> = (0..n).map(|_| rng.gen_range(0..3650)).collect();
    let sa: Vec<f64> = age
        .iter()
        .map(|a| (a * 1000.0 + rng.gen_range(0.0..20_000.0_f64)).round())
        .collect();
    Table::from_columns(
        vec![
            ("age".into(), QiValues::Numeric(age)),
            ("place".into(), QiValues::Numeric(place)),
            (
                "cat".into(),
                QiValues::Categorical {
                    codes: cat,
                    hierarchy: h,
                },
            ),
            ("day".into(), QiValues::Date(day)),
        ],
        vec![("income".into(), SaValues::Numeric(sa))],
    )
}

/// A Mondrian-style k-anonymous release (median cuts on the widest QI).
fn mondrian(table: &Table, k: usize) -> Release {
    let space = QiSpace::new(table);
    let rows: Vec<u32> = (0..table.rows() as u32).collect();
    let groups = recursive_split(rows, Progress::none(), |part| {
        space.dims_by_width(part).into_iter().find_map(|d| {
            space
                .cut(part, d)
                .filter(|(l, r)| l.len() >= k && r.len() >= k)
        })
    })
    .unwrap();
    generalize(table, Partition::new(groups)).unwrap()
}

fn identity(table: &Table) -> Release {
    let groups = (0..table.rows() as u32).map(|r| vec![r]).collect();
    generalize(table, Partition::new(groups)).unwrap()
}

fn one_group(table: &Table) -> Release {
    generalize(
        table,
        Partition::new(vec![(0..table.rows() as u32).collect()]),
    )
    .unwrap()
}

#[test]
fn singleton_groups_answer_exactly() {
    let t = synthetic(2000, 1);
    let r = query_error(&t, &identity(&t), &spec(3, 7)).unwrap();
    assert!(r.queries_used > 250, "{r:?}");
    assert_eq!(r.mean_relative_error, Some(0.0));
    assert_eq!(r.median_relative_error, Some(0.0));
}

/// Two QIs and the SA all driven by one hidden variable: generalization
/// that hides the correlation distorts every count.
fn correlated(n: usize, seed: u64) -> Table {
    let mut rng = StdRng::seed_from_u64(seed);
    let z: Vec<f64> = (0..n).map(|_| rng.gen_range(0.0..1000.0_f64)).collect();
    let noisy = |rng: &mut StdRng, scale: f64| -> Vec<f64> {
        z.iter()
            .map(|v| ((v + rng.gen_range(0.0..50.0)) * scale).round())
            .collect()
    };
    let x = noisy(&mut rng, 1.0);
    let y = noisy(&mut rng, 2.0);
    let sa = noisy(&mut rng, 10.0);
    Table::from_columns(
        vec![
            ("x".into(), QiValues::Numeric(x)),
            ("y".into(), QiValues::Numeric(y)),
        ],
        vec![("income".into(), SaValues::Numeric(sa))],
    )
}

#[test]
fn one_group_errs_much_more_than_small_groups() {
    let t = correlated(20_000, 2);
    let coarse = query_error(&t, &one_group(&t), &spec(2, 3)).unwrap();
    let fine = query_error(&t, &mondrian(&t, 10), &spec(2, 3)).unwrap();
    let (c, f) = (
        coarse.mean_relative_error.unwrap(),
        fine.mean_relative_error.unwrap(),
    );
    // One box hides the correlation entirely.
    assert!(c > 0.5, "one group: {c}");
    assert!(f < c / 3.0, "k=10: {f}, one group: {c}");
}

#[test]
fn full_domain_predicates_are_answered_exactly_by_any_release() {
    // s = 1: every predicate spans its whole domain, so each group counts
    // fully in the estimate and the actual answer is the table size.
    let t = synthetic(3000, 8);
    for rel in [one_group(&t), mondrian(&t, 7)] {
        let mut s = spec(3, 1);
        s.selectivity = 1.0;
        let r = query_error(&t, &rel, &s).unwrap();
        assert_eq!(r.queries_used, 300);
        assert_eq!(r.mean_relative_error, Some(0.0));
    }
}

#[test]
fn deterministic_for_a_seed() {
    let t = synthetic(5000, 3);
    let rel = mondrian(&t, 5);
    let a = query_error(&t, &rel, &spec(3, 11)).unwrap();
    assert_eq!(a, query_error(&t, &rel, &spec(3, 11)).unwrap());
    assert_ne!(a, query_error(&t, &rel, &spec(3, 12)).unwrap());
}

#[test]
fn predicates_have_the_requested_selectivity() {
    // Uniform, independent attributes: the mean actual count over many
    // queries is close to s·n because each of the q+1 predicates covers
    // s^(1/(q+1)) of its domain.
    let t = synthetic(20_000, 4);
    let index = Index::new(&t, &identity(&t)).unwrap();
    let mut rng = StdRng::seed_from_u64(5);
    let (q, s) = (2usize, 0.1f64);
    let f = s.powf(1.0 / (q as f64 + 1.0));
    // QIs 1 (place) and 3 (day) are independent of the SA; age is not.
    let mut total = 0u64;
    for _ in 0..400 {
        let preds = [
            (1, index.qi_domains[1].draw(f, &mut rng)),
            (3, index.qi_domains[3].draw(f, &mut rng)),
        ];
        let (act, _) = index.answer(&preds, index.sa_domain.draw(f, &mut rng));
        total += act;
    }
    let mean = total as f64 / 400.0 / t.rows() as f64;
    assert!((0.07..0.13).contains(&mean), "mean selectivity {mean}");
}

#[test]
fn estimates_by_hand() {
    // Two groups: rows 0,1 (x 0 and 9, Masters/Bachelors, SA 1 and 5) and
    // rows 2,3 (x 10 and 19, Doctorate/HS-grad, SA 2 and 8).
    let paths: Vec<Vec<String>> = [
        ["Bachelors", "Undergraduate", "Higher", "*"],
        ["Masters", "Graduate", "Higher", "*"],
        ["Doctorate", "Graduate", "Higher", "*"],
        ["HS-grad", "High School", "Secondary", "*"],
    ]
    .iter()
    .map(|r| r.iter().map(|s| s.to_string()).collect())
    .collect();
    let h = Arc::new(Hierarchy::from_paths(&paths).unwrap());
    let c = |l: &str| h.leaf_code(l).unwrap();
    let t = Table::from_columns(
        vec![
            ("x".into(), QiValues::Numeric(vec![0.0, 9.0, 10.0, 19.0])),
            (
                "edu".into(),
                QiValues::Categorical {
                    codes: vec![c("Masters"), c("Bachelors"), c("Doctorate"), c("HS-grad")],
                    hierarchy: h.clone(),
                },
            ),
        ],
        vec![("s".into(), SaValues::Numeric(vec![1.0, 5.0, 2.0, 8.0]))],
    );
    let rel = generalize(&t, Partition::new(vec![vec![0, 1], vec![2, 3]])).unwrap();
    let index = Index::new(&t, &rel).unwrap();
    // x ∈ [0, 4] covers 5 of group 1's 10 integers, none of group 2's;
    // SA ∈ [1, 5] matches both rows of group 1: estimate 2 × 0.5 = 1,
    // actual 1 (row 0).
    assert_eq!(index.answer(&[(0, (0.0, 4.0))], (1.0, 5.0)), (1, 1.0));
    // edu ∈ {Masters} (rank 1 of the depth-first order Bachelors, Masters,
    // Doctorate, HS-grad): group 1's box is "Higher" (3 leaves) → 1/3;
    // group 2's box is "*" (4 leaves) → 1/4. SA ∈ [0, 10] matches all rows.
    let masters = h.leaf_rank(c("Masters")) as f64;
    let (act, est) = index.answer(&[(1, (masters, masters))], (0.0, 10.0));
    assert_eq!(act, 1);
    assert!((est - (2.0 / 3.0 + 2.0 / 4.0)).abs() < 1e-12, "{est}");
    // A box inside the predicate counts its SA matches exactly.
    assert_eq!(index.answer(&[(0, (0.0, 9.0))], (2.0, 8.0)), (1, 1.0));
}

#[test]
fn continuous_domains_use_lengths() {
    let t = Table::from_columns(
        vec![("x".into(), QiValues::Numeric(vec![0.5, 2.5, 3.0]))],
        vec![("s".into(), SaValues::Numeric(vec![0.0, 0.0, 1.0]))],
    );
    let rel = generalize(&t, Partition::new(vec![vec![0, 1], vec![2]])).unwrap();
    let index = Index::new(&t, &rel).unwrap();
    assert!(!index.qi_domains[0].discrete);
    // [1, 3] covers 1.5 of the box [0.5, 2.5]'s length 2, and the point 3:
    // 2 × 0.75 + 1; actual: rows 1 and 2.
    assert_eq!(index.answer(&[(0, (1.0, 3.0))], (0.0, 1.0)), (2, 2.5));
    // Only group 1's rows match SA = 0: 2 × 0.75; actual: row 1.
    assert_eq!(index.answer(&[(0, (1.0, 3.0))], (0.0, 0.0)), (1, 1.5));
    // A predicate touching the box's end covers none of its length, yet the
    // row sitting on that end is counted in the actual answer.
    assert_eq!(index.answer(&[(0, (2.5, 2.9))], (0.0, 1.0)), (1, 0.0));
}

#[test]
fn rejects_bad_specs() {
    let t = synthetic(100, 5);
    let rel = identity(&t);
    for (q, s, queries) in [
        (0, 0.1, 10),
        (5, 0.1, 10),
        (2, 0.0, 10),
        (2, 1.5, 10),
        (2, f64::NAN, 10),
        (2, 0.1, 0),
    ] {
        let err = query_error(
            &t,
            &rel,
            &WorkloadSpec {
                queries,
                q,
                selectivity: s,
                seed: 0,
            },
        )
        .unwrap_err();
        assert_eq!(err.kind, ErrorKind::InvalidParameters, "{q} {s} {queries}");
    }
    let no_sa = Table::from_columns(
        vec![("x".into(), QiValues::Numeric(vec![1.0, 2.0]))],
        vec![],
    );
    let err = query_error(&no_sa, &identity(&no_sa), &spec(1, 0)).unwrap_err();
    assert!(
        err.message.contains("sensitive attribute"),
        "{}",
        err.message
    );
}

#[test]
fn categorical_sa_uses_leaf_ranges() {
    let h = Arc::new(Hierarchy::flat(["a", "b", "c", "d"]));
    let t = Table::from_columns(
        vec![(
            "x".into(),
            QiValues::Numeric((0..40).map(f64::from).collect()),
        )],
        vec![(
            "s".into(),
            SaValues::Categorical {
                codes: (0..40).map(|i| i % 4).collect(),
                hierarchy: h,
                has_hierarchy: false,
            },
        )],
    );
    let r = query_error(&t, &identity(&t), &spec(1, 9)).unwrap();
    assert_eq!(r.mean_relative_error, Some(0.0));
    assert!(r.queries_used > 0);
    let coarse = query_error(&t, &one_group(&t), &spec(1, 9)).unwrap();
    assert!(coarse.queries_used > 0);
}

#[test]
#[ignore = "measurement: cargo test -p proxima-core --release workload_speed -- --ignored --nocapture"]
fn workload_speed_on_500k_rows() {
    let t = synthetic(500_000, 6);
    let rel = mondrian(&t, 10);
    for q in [2, 3] {
        let start = std::time::Instant::now();
        let r = query_error(
            &t,
            &rel,
            &WorkloadSpec {
                queries: 1000,
                q,
                selectivity: 0.1,
                seed: 42,
            },
        )
        .unwrap();
        println!(
            "q={q}: {:?} in {:?} over {} groups",
            r,
            start.elapsed(),
            rel.groups()
        );
    }
}

#[test]
fn one_index_for_several_specs_gives_each_spec_s_own_result() {
    let table = synthetic(2_000, 7);
    let release = mondrian(&table, 10);
    let specs = [spec(1, 3), spec(2, 4), spec(2, 5)];
    let together = query_errors(&table, &release, &specs).unwrap();
    assert_eq!(together.len(), specs.len());
    for (spec, got) in specs.iter().zip(&together) {
        let alone = query_error(&table, &release, spec).unwrap();
        assert_eq!(got.mean_relative_error, alone.mean_relative_error);
        assert_eq!(got.median_relative_error, alone.median_relative_error);
        assert_eq!(got.queries_used, alone.queries_used);
        assert!(alone.queries_used > 0);
    }
    // One bad spec refuses the lot, as it would alone.
    let bad = [spec(1, 3), spec(99, 3)];
    assert!(query_errors(&table, &release, &bad).is_err());
}
