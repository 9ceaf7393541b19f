use std::sync::Arc;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::*;
use crate::error::ErrorKind;
use crate::generalize::{generalize, GeneralizedQi};
use crate::hierarchy::Hierarchy;
use crate::partition::Partition;
use crate::progress::Progress;
use crate::split::{recursive_split, QiSpace};
use crate::table::{QiValues, SaValues};

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
    let r = query_error(&Published::whole(&t, &identity(&t)), &spec(3, 7)).unwrap();
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
    let coarse = query_error(&Published::whole(&t, &one_group(&t)), &spec(2, 3)).unwrap();
    let fine = query_error(&Published::whole(&t, &mondrian(&t, 10)), &spec(2, 3)).unwrap();
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
        let r = query_error(&Published::whole(&t, &rel), &s).unwrap();
        assert_eq!(r.queries_used, 300);
        assert_eq!(r.mean_relative_error, Some(0.0));
    }
}

#[test]
fn deterministic_for_a_seed() {
    let t = synthetic(5000, 3);
    let rel = mondrian(&t, 5);
    let a = query_error(&Published::whole(&t, &rel), &spec(3, 11)).unwrap();
    assert_eq!(
        a,
        query_error(&Published::whole(&t, &rel), &spec(3, 11)).unwrap()
    );
    assert_ne!(
        a,
        query_error(&Published::whole(&t, &rel), &spec(3, 12)).unwrap()
    );
}

/// The index is built on the job's pool (groups filled side by side):
/// the answers are the same on one thread and on several, with and
/// without rows left out.
#[test]
fn the_same_on_any_number_of_threads() {
    use crate::parallel::{with_threads, Threads};
    let t = synthetic(6000, 5);
    let full = mondrian(&t, 5);
    // Every seventh row left out: a release over the kept rows, mapped
    // back to the original table; the left-out rows count in the actual
    // answers only.
    let keep: Vec<bool> = (0..t.rows()).map(|r| r % 7 != 0).collect();
    let kept_rows: Vec<u32> = (0..t.rows() as u32).filter(|&r| keep[r as usize]).collect();
    let kept = t.retain_rows(&keep);
    let thinned = mondrian(&kept, 5);
    let whole = Published::whole(&t, &full);
    let left_out = Published {
        original: &t,
        release: &thinned,
        original_rows: Some(&kept_rows),
    };
    for published in [&whole, &left_out] {
        let on = |n: usize| {
            let threads = Threads::new(n, "/threads").unwrap();
            with_threads(threads, || query_error(published, &spec(3, 9)).unwrap())
        };
        assert_eq!(on(1), on(3));
    }
}

#[test]
fn predicates_have_the_requested_selectivity() {
    // Uniform, independent attributes: the mean actual count over many
    // queries is close to s·n because each of the q+1 predicates covers
    // s^(1/(q+1)) of its domain.
    let t = synthetic(20_000, 4);
    let index = Index::new(&Published::whole(&t, &identity(&t))).unwrap();
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
        let (act, _) = index.answer(&preds, &[(0, index.sa_domains[0].draw(f, &mut rng))]);
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
    let index = Index::new(&Published::whole(&t, &rel)).unwrap();
    // x ∈ [0, 4] covers 5 of group 1's 10 integers, none of group 2's;
    // SA ∈ [1, 5] matches both rows of group 1: estimate 2 × 0.5 = 1,
    // actual 1 (row 0).
    assert_eq!(
        index.answer(&[(0, (0.0, 4.0))], &[(0, (1.0, 5.0))]),
        (1, 1.0)
    );
    // edu ∈ {Masters} (rank 1 of the depth-first order Bachelors, Masters,
    // Doctorate, HS-grad): group 1's box is "Higher" (3 leaves) → 1/3;
    // group 2's box is "*" (4 leaves) → 1/4. SA ∈ [0, 10] matches all rows.
    let masters = h.leaf_rank(c("Masters")) as f64;
    let (act, est) = index.answer(&[(1, (masters, masters))], &[(0, (0.0, 10.0))]);
    assert_eq!(act, 1);
    assert!((est - (2.0 / 3.0 + 2.0 / 4.0)).abs() < 1e-12, "{est}");
    // A box inside the predicate counts its SA matches exactly.
    assert_eq!(
        index.answer(&[(0, (0.0, 9.0))], &[(0, (2.0, 8.0))]),
        (1, 1.0)
    );
}

#[test]
fn continuous_domains_use_lengths() {
    let t = Table::from_columns(
        vec![("x".into(), QiValues::Numeric(vec![0.5, 2.5, 3.0]))],
        vec![("s".into(), SaValues::Numeric(vec![0.0, 0.0, 1.0]))],
    );
    let rel = generalize(&t, Partition::new(vec![vec![0, 1], vec![2]])).unwrap();
    let index = Index::new(&Published::whole(&t, &rel)).unwrap();
    assert!(!index.qi_domains[0].discrete);
    // [1, 3] covers 1.5 of the box [0.5, 2.5]'s length 2, and the point 3:
    // 2 × 0.75 + 1; actual: rows 1 and 2.
    assert_eq!(
        index.answer(&[(0, (1.0, 3.0))], &[(0, (0.0, 1.0))]),
        (2, 2.5)
    );
    // Only group 1's rows match SA = 0: 2 × 0.75; actual: row 1.
    assert_eq!(
        index.answer(&[(0, (1.0, 3.0))], &[(0, (0.0, 0.0))]),
        (1, 1.5)
    );
    // A predicate touching the box's end covers none of its length, yet the
    // row sitting on that end is counted in the actual answer.
    assert_eq!(
        index.answer(&[(0, (2.5, 2.9))], &[(0, (0.0, 1.0))]),
        (1, 0.0)
    );
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
            &Published::whole(&t, &rel),
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
    let err = query_error(&Published::whole(&no_sa, &identity(&no_sa)), &spec(1, 0)).unwrap_err();
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
    let r = query_error(&Published::whole(&t, &identity(&t)), &spec(1, 9)).unwrap();
    assert_eq!(r.mean_relative_error, Some(0.0));
    assert!(r.queries_used > 0);
    let coarse = query_error(&Published::whole(&t, &one_group(&t)), &spec(1, 9)).unwrap();
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
            &Published::whole(&t, &rel),
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
    let together = query_errors(&Published::whole(&table, &release), &specs).unwrap();
    assert_eq!(together.len(), specs.len());
    for (spec, got) in specs.iter().zip(&together) {
        let alone = query_error(&Published::whole(&table, &release), spec).unwrap();
        assert_eq!(got.mean_relative_error, alone.mean_relative_error);
        assert_eq!(got.median_relative_error, alone.median_relative_error);
        assert_eq!(got.queries_used, alone.queries_used);
        assert!(alone.queries_used > 0);
    }
    // One bad spec refuses the lot, as it would alone.
    let bad = [spec(1, 3), spec(99, 3)];
    assert!(query_errors(&Published::whole(&table, &release), &bad).is_err());
}

/// Eight rows, two groups of four: sex (integers 1–2), age (20–27),
/// income (0–9). Group 1 = rows 0–3 (box sex [1-2], age [20-23]), group 2
/// = rows 4–7 (sex [1-2], age [24-27]).
///
/// | row | sex | age | income |   | row | sex | age | income |
/// |-----|-----|-----|--------|---|-----|-----|-----|--------|
/// | 0   | 1   | 20  | 1      |   | 4   | 2   | 24  | 0      |
/// | 1   | 1   | 21  | 4      |   | 5   | 2   | 25  | 5      |
/// | 2   | 2   | 22  | 6      |   | 6   | 1   | 26  | 3      |
/// | 3   | 1   | 23  | 9      |   | 7   | 2   | 27  | 7      |
fn eight_rows() -> (Table, Release) {
    let t = Table::from_columns(
        vec![
            (
                "sex".into(),
                QiValues::Numeric(vec![1.0, 1.0, 2.0, 1.0, 2.0, 2.0, 1.0, 2.0]),
            ),
            (
                "age".into(),
                QiValues::Numeric((20..28).map(f64::from).collect()),
            ),
        ],
        vec![(
            "income".into(),
            SaValues::Numeric(vec![1.0, 4.0, 6.0, 9.0, 0.0, 5.0, 3.0, 7.0]),
        )],
    );
    let rel = generalize(&t, Partition::new(vec![vec![0, 1, 2, 3], vec![4, 5, 6, 7]])).unwrap();
    (t, rel)
}

#[test]
fn a_tiny_workload_by_hand() {
    let (t, rel) = eight_rows();
    // q = 1 and one SA column: f = 0.25^(1/2) = 0.5, so a predicate is
    // ⌊2·0.5⌋ = 1 sex, ⌊8·0.5⌋ = 4 ages, ⌊10·0.5⌋ = 5 incomes.
    let spec = WorkloadSpec {
        queries: 4,
        q: 1,
        selectivity: 0.25,
        seed: 3,
    };
    let got = query_answers(&Published::whole(&t, &rel), &spec).unwrap();
    let expected = [
        // age 24–27 ∧ income 0–4: rows 4 and 6. Group 1's box misses the
        // ages; group 2's lies inside them and holds 2 such incomes: 2.
        (vec![(1, (24.0, 27.0))], (0.0, 4.0), 2, 2.0),
        // sex 1 ∧ income 1–5: rows 0, 1, 6. Each box [1-2] is half sex 1;
        // incomes 1–5: rows 0, 1 in group 1, 5, 6 in group 2: 2·½ + 2·½.
        (vec![(0, (1.0, 1.0))], (1.0, 5.0), 3, 2.0),
        // sex 1 ∧ income 5–9: row 3 only; rows 2, 3 and 5, 7: 2·½ + 2·½.
        (vec![(0, (1.0, 1.0))], (5.0, 9.0), 1, 2.0),
        // age 22–25 ∧ income 5–9: rows 2, 3, 5. Ages 22–23 are 2 of group
        // 1's 4, ages 24–25 2 of group 2's 4; incomes 5–9: rows 2, 3 and
        // 5, 7: 2·½ + 2·½.
        (vec![(1, (22.0, 25.0))], (5.0, 9.0), 3, 2.0),
    ];
    assert_eq!(got.len(), expected.len());
    for (a, (qis, sa, act, est)) in got.iter().zip(expected) {
        assert_eq!(a.qis, qis);
        assert_eq!(a.sa, vec![(0, sa)]);
        assert_eq!((a.actual, a.estimate), (act, est), "{a:?}");
    }
    // Errors 0, 1/3, 1, 1/3: mean 5/12, median 1/3.
    let r = query_error(&Published::whole(&t, &rel), &spec).unwrap();
    assert!(
        (r.mean_relative_error.unwrap() - 5.0 / 12.0).abs() < 1e-15,
        "{r:?}"
    );
    assert!(
        (r.median_relative_error.unwrap() - 1.0 / 3.0).abs() < 1e-15,
        "{r:?}"
    );
    assert_eq!((r.queries_used, r.queries, r.sa_predicates), (4, 4, 1));
}

/// Six rows with a three-column SA (x 0–9, y 0–3, z 0–1); group 1 = rows
/// 0–2 (box sex [1-2], age [20-25]), group 2 = rows 3–5 (sex [1-2], age
/// [24-29]).
///
/// | row | sex | age | x | y | z |
/// |-----|-----|-----|---|---|---|
/// | 0   | 1   | 20  | 0 | 0 | 0 |
/// | 1   | 1   | 22  | 3 | 1 | 1 |
/// | 2   | 2   | 25  | 5 | 2 | 0 |
/// | 3   | 1   | 27  | 9 | 3 | 1 |
/// | 4   | 2   | 29  | 7 | 0 | 0 |
/// | 5   | 2   | 24  | 2 | 1 | 1 |
fn composite_sa() -> (Table, Release) {
    let t = Table::from_columns(
        vec![
            (
                "sex".into(),
                QiValues::Numeric(vec![1.0, 1.0, 2.0, 1.0, 2.0, 2.0]),
            ),
            (
                "age".into(),
                QiValues::Numeric(vec![20.0, 22.0, 25.0, 27.0, 29.0, 24.0]),
            ),
        ],
        vec![
            (
                "x".into(),
                SaValues::Numeric(vec![0.0, 3.0, 5.0, 9.0, 7.0, 2.0]),
            ),
            (
                "y".into(),
                SaValues::Numeric(vec![0.0, 1.0, 2.0, 3.0, 0.0, 1.0]),
            ),
            (
                "z".into(),
                SaValues::Numeric(vec![0.0, 1.0, 0.0, 1.0, 0.0, 1.0]),
            ),
        ],
    );
    let rel = generalize(&t, Partition::new(vec![vec![0, 1, 2], vec![3, 4, 5]])).unwrap();
    (t, rel)
}

#[test]
fn a_composite_sa_is_queried_on_two_of_its_columns_by_hand() {
    let (t, rel) = composite_sa();
    // q = 1 and qs = 2: f = 0.1^(1/3) ≈ 0.464, so a predicate is 1 sex,
    // ⌊10f⌋ = 4 ages or x values, ⌊4f⌋ = 1 y, ⌊2f⌋ = 0 → 1 z.
    let spec = WorkloadSpec {
        queries: 3,
        q: 1,
        selectivity: 0.1,
        seed: 6,
    };
    let got = query_answers(&Published::whole(&t, &rel), &spec).unwrap();
    let expected = [
        // sex 2 ∧ y 1 ∧ z 1: row 5. y = z = 1: row 1 in group 1, row 5 in
        // group 2, each box half sex 2: ½ + ½.
        (
            vec![(0, (2.0, 2.0))],
            vec![(1, (1.0, 1.0)), (2, (1.0, 1.0))],
            1,
            1.0,
        ),
        // sex 1 ∧ y 3 ∧ z 0: no row has y 3 and z 0 (skipped).
        (
            vec![(0, (1.0, 1.0))],
            vec![(1, (3.0, 3.0)), (2, (0.0, 0.0))],
            0,
            0.0,
        ),
        // age 24–27 ∧ x 2–5 ∧ z 0: row 2. x 2–5 with z 0: row 2 in group
        // 1, whose box holds ages 24–25 as 2 of its 6; none in group 2.
        (
            vec![(1, (24.0, 27.0))],
            vec![(0, (2.0, 5.0)), (2, (0.0, 0.0))],
            1,
            1.0 / 3.0,
        ),
    ];
    for (a, (qis, sa, act, est)) in got.iter().zip(expected) {
        assert_eq!((&a.qis, &a.sa), (&qis, &sa));
        assert_eq!(a.actual, act, "{a:?}");
        assert!((a.estimate - est).abs() < 1e-15, "{a:?}");
    }
    // Errors 0 and 2/3 over the 2 queries with act > 0.
    let r = query_error(&Published::whole(&t, &rel), &spec).unwrap();
    assert!(
        (r.mean_relative_error.unwrap() - 1.0 / 3.0).abs() < 1e-15,
        "{r:?}"
    );
    assert!(
        (r.median_relative_error.unwrap() - 1.0 / 3.0).abs() < 1e-15,
        "{r:?}"
    );
    assert_eq!((r.queries_used, r.queries, r.sa_predicates), (2, 3, 2));
}

/// The answer of one query the slow way: every row for the actual count,
/// every group and its generalized values for the estimate.
fn brute_force(t: &Table, rel: &Release, a: &QueryAnswer) -> (u64, f64) {
    let qi_key = |d: usize, r: usize| match &t.qis()[d].values {
        QiValues::Numeric(v) => v[r],
        QiValues::Date(v) => v[r] as f64,
        QiValues::Categorical { codes, hierarchy } => hierarchy.leaf_rank(codes[r]) as f64,
    };
    let sa_key = |j: usize, r: usize| match &t.sensitive()[j].values {
        SaValues::Numeric(v) => v[r],
        SaValues::Categorical {
            codes, hierarchy, ..
        } => hierarchy.leaf_rank(codes[r]) as f64,
    };
    let inside = |x: f64, (lo, hi): (f64, f64)| lo <= x && x <= hi;
    let sa_ok = |r: usize| a.sa.iter().all(|&(j, p)| inside(sa_key(j, r), p));
    let actual = (0..t.rows())
        .filter(|&r| sa_ok(r) && a.qis.iter().all(|&(d, p)| inside(qi_key(d, r), p)))
        .count() as u64;
    let mut estimate = 0.0;
    for (rows, gen) in rel.partition().groups.iter().zip(rel.generalized()) {
        let matching = rows.iter().filter(|&&r| sa_ok(r as usize)).count() as f64;
        let mut fraction = 1.0;
        for &(d, (a, b)) in &a.qis {
            // Every QI here is integer-valued or categorical: count values.
            let (lo, hi) = match &gen[d] {
                GeneralizedQi::Numeric { lo, hi } => (*lo, *hi),
                GeneralizedQi::Date { lo, hi } => (*lo as f64, *hi as f64),
                GeneralizedQi::Categorical { level, node } => match &t.qis()[d].values {
                    QiValues::Categorical { hierarchy, .. } => {
                        let first = hierarchy.first_rank(*level, *node) as f64;
                        (
                            first,
                            first + hierarchy.leaves_under(*level, *node) as f64 - 1.0,
                        )
                    }
                    _ => unreachable!(),
                },
            };
            let covered = (lo.max(a) as i64..=hi.min(b) as i64).count() as f64;
            fraction *= covered / (hi - lo + 1.0);
        }
        estimate += matching * fraction;
    }
    (actual, estimate)
}

/// The synthetic table with a three-column SA (income, a second integer
/// column and a categorical one).
fn synthetic_composite(n: usize, seed: u64) -> Table {
    let base = synthetic(n, seed);
    let mut rng = StdRng::seed_from_u64(seed + 100);
    let qis = base
        .qis()
        .iter()
        .map(|c| (c.name.clone(), c.values.clone()))
        .collect();
    let h = Arc::new(Hierarchy::flat(["a", "b", "c", "d", "e"]));
    let mut sa: Vec<(String, SaValues)> = base
        .sensitive()
        .iter()
        .map(|c| (c.name.clone(), c.values.clone()))
        .collect();
    sa.push((
        "hours".into(),
        SaValues::Numeric((0..n).map(|_| rng.gen_range(1..=99) as f64).collect()),
    ));
    sa.push((
        "grade".into(),
        SaValues::Categorical {
            codes: (0..n).map(|_| rng.gen_range(0..5)).collect(),
            hierarchy: h,
            has_hierarchy: false,
        },
    ));
    Table::from_columns(qis, sa)
}

#[test]
fn every_query_follows_the_drawing_rules_and_the_slow_answer() {
    let t = synthetic_composite(3000, 12);
    let rel = mondrian(&t, 8);
    let domains: Vec<(f64, f64)> = Index::new(&Published::whole(&t, &rel))
        .unwrap()
        .qi_domains
        .iter()
        .map(|d| (d.lo, d.hi))
        .collect();
    let sa_sizes = [None, Some(99.0), Some(5.0)];
    for q in 1..=4 {
        let spec = spec(q, 40 + q as u64);
        let f = spec.selectivity.powf(1.0 / (q + 2) as f64);
        let answers = query_answers(&Published::whole(&t, &rel), &spec).unwrap();
        assert_eq!(answers.len(), spec.queries);
        let mut sa_columns_seen = [0usize; 3];
        for a in &answers {
            let mut qis: Vec<usize> = a.qis.iter().map(|p| p.0).collect();
            qis.sort_unstable();
            qis.dedup();
            assert_eq!(qis.len(), q, "distinct QIs: {a:?}");
            for &(d, (lo, hi)) in &a.qis {
                let (dlo, dhi) = domains[d];
                let expected = ((dhi - dlo + 1.0) * f).floor().max(1.0);
                assert_eq!(hi - lo + 1.0, expected, "QI {d}: {a:?}");
                assert!(dlo <= lo && hi <= dhi, "QI {d} inside its domain: {a:?}");
            }
            // Two distinct SA columns, in column order.
            assert_eq!(a.sa.len(), 2, "{a:?}");
            assert!(a.sa[0].0 < a.sa[1].0, "{a:?}");
            for &(j, (lo, hi)) in &a.sa {
                sa_columns_seen[j] += 1;
                if let Some(size) = sa_sizes[j] {
                    assert_eq!(hi - lo + 1.0, (size * f).floor().max(1.0), "SA {j}: {a:?}");
                }
            }
            let (act, est) = brute_force(&t, &rel, a);
            assert_eq!(a.actual, act, "{a:?}");
            assert!(
                (a.estimate - est).abs() < 1e-9 * est.max(1.0),
                "{a:?}: {est}"
            );
        }
        // Each SA column is picked in about 2/3 of the queries.
        for seen in sa_columns_seen {
            assert!((150..=250).contains(&seen), "{sa_columns_seen:?}");
        }
    }
}

#[test]
fn a_single_column_sa_is_always_queried() {
    let t = synthetic(500, 13);
    let rel = mondrian(&t, 5);
    for a in query_answers(&Published::whole(&t, &rel), &spec(2, 1)).unwrap() {
        assert_eq!(a.sa.len(), 1);
        assert_eq!(a.sa[0].0, 0);
    }
    assert_eq!(
        query_error(&Published::whole(&t, &rel), &spec(2, 1))
            .unwrap()
            .sa_predicates,
        1
    );
}

/// The eight rows with row 6 (sex 1, age 26, income 3) left out by the
/// release: group 1 = rows 0–3 as before, group 2 = rows 4, 5, 7 (box sex
/// [2-2], age [24-27]). The domains are those of all eight rows, so the
/// queries are the ones of [`a_tiny_workload_by_hand`].
#[test]
fn rows_left_out_count_in_the_true_answers_by_hand() {
    use crate::run::{Anonymized, SUPPRESSED};
    let (t, _) = eight_rows();
    let released = Anonymized::from_assignment(&t, &[0, 0, 0, 0, 1, 1, SUPPRESSED, 1]).unwrap();
    assert_eq!(released.suppressed_by_model(), 1);
    let spec = WorkloadSpec {
        queries: 4,
        q: 1,
        selectivity: 0.25,
        seed: 3,
    };
    let got = query_answers(&released.published(&t), &spec).unwrap();
    let expected = [
        // age 24–27 ∧ income 0–4: rows 4 and 6 of the original (row 6 left
        // out); the release's group 2 lies inside the ages and holds one
        // such income (row 4): estimate 1.
        (vec![(1, (24.0, 27.0))], (0.0, 4.0), 2, 1.0),
        // sex 1 ∧ income 1–5: rows 0, 1 and the left-out 6. Group 1's box
        // is half sex 1, with two such incomes: 2·½; group 2's box is sex
        // 2 only: 0.
        (vec![(0, (1.0, 1.0))], (1.0, 5.0), 3, 1.0),
        // sex 1 ∧ income 5–9: row 3; group 1: rows 2, 3 at ½.
        (vec![(0, (1.0, 1.0))], (5.0, 9.0), 1, 1.0),
        // age 22–25 ∧ income 5–9: rows 2, 3, 5; group 1: rows 2, 3 at ½
        // (ages 22–23 of 20–23), group 2: rows 5, 7 at ½ (24–25 of 24–27).
        (vec![(1, (22.0, 25.0))], (5.0, 9.0), 3, 2.0),
    ];
    assert_eq!(got.len(), expected.len());
    for (a, (qis, sa, act, est)) in got.iter().zip(expected) {
        assert_eq!(a.qis, qis);
        assert_eq!(a.sa, vec![(0, sa)]);
        assert_eq!((a.actual, a.estimate), (act, est), "{a:?}");
    }
    // Against the original: errors 1/2, 2/3, 0, 1/3 — mean 3/8, median
    // (1/3 + 1/2)/2 = 5/12.
    let honest = query_error(&released.published(&t), &spec).unwrap();
    assert!((honest.mean_relative_error.unwrap() - 3.0 / 8.0).abs() < 1e-15);
    assert!((honest.median_relative_error.unwrap() - 5.0 / 12.0).abs() < 1e-15);
    assert_eq!(honest.queries_used, 4);
    // Against the kept rows only (the old definition): the first two
    // queries lose row 6 from their true answers too — actual 1 and 2,
    // errors 0, 1/2, 0, 1/3: mean 5/24, median 1/6. The left-out row
    // vanished from the figure.
    let kept = released.table(&t);
    let flattering = query_error(&Published::whole(kept, &released.release), &spec).unwrap();
    assert!((flattering.mean_relative_error.unwrap() - 5.0 / 24.0).abs() < 1e-15);
    assert!((flattering.median_relative_error.unwrap() - 1.0 / 6.0).abs() < 1e-15);
}

/// Half the rows left out: every query's true answer is the whole
/// table's, and its estimate the release's alone (checked the slow way).
#[test]
fn left_out_rows_count_in_the_truth_and_not_in_the_estimate() {
    use crate::run::{Anonymized, SUPPRESSED};
    let t = synthetic(400, 21);
    let assignment: Vec<u32> = (0..400u32)
        .map(|r| if r % 2 == 0 { r / 40 } else { SUPPRESSED })
        .collect();
    let released = Anonymized::from_assignment(&t, &assignment).unwrap();
    assert_eq!(released.suppressed_by_model(), 200);
    let answers = query_answers(&released.published(&t), &spec(2, 5)).unwrap();
    let whole = query_answers(&Published::whole(&t, &identity(&t)), &spec(2, 5)).unwrap();
    let kept = released.table(&t);
    let mut lost = 0;
    for (a, w) in answers.iter().zip(&whole) {
        // The same queries (domains of the original), the same truth.
        assert_eq!((&a.qis, &a.sa, a.actual), (&w.qis, &w.sa, w.actual));
        let (kept_actual, estimate) = brute_force(kept, &released.release, a);
        assert!(
            (a.estimate - estimate).abs() < 1e-9 * estimate.max(1.0),
            "{a:?}"
        );
        assert!(kept_actual <= a.actual);
        lost += a.actual - kept_actual;
    }
    assert!(lost > 0);
}

/// A group larger than a pass, passes that start inside a block of
/// groups, and more rows left out than a pass: read in passes, every
/// query's truth is the whole table's and its estimate the release's, as
/// the slow way counts them.
#[test]
fn groups_and_rows_left_out_are_read_in_passes_as_one() {
    use crate::run::{Anonymized, SUPPRESSED};
    use crate::utility::workload::index::PASS_ROWS;
    let n = 4 * PASS_ROWS + 5000;
    let big = (2 * PASS_ROWS + 100) as u32;
    let t = synthetic(n, 23);
    // Odd rows left out; of the even ones, those below `big` form one
    // group of more than PASS_ROWS rows, the rest groups of 200.
    let assignment: Vec<u32> = (0..n as u32)
        .map(|r| match r {
            _ if r % 2 == 1 => SUPPRESSED,
            _ if r < big => 0,
            _ => 1 + (r - big) / 400,
        })
        .collect();
    let released = Anonymized::from_assignment(&t, &assignment).unwrap();
    assert!(released.suppressed_by_model() > 2 * PASS_ROWS);
    let few = WorkloadSpec {
        queries: 100,
        ..spec(2, 8)
    };
    let answers = query_answers(&released.published(&t), &few).unwrap();
    let kept = released.table(&t);
    for a in &answers {
        let (actual, _) = brute_force(&t, &one_group(&t), a);
        let (_, estimate) = brute_force(kept, &released.release, a);
        assert_eq!(a.actual, actual, "{a:?}");
        assert!(
            (a.estimate - estimate).abs() < 1e-9 * estimate.max(1.0),
            "{a:?}: {estimate}"
        );
    }
}
