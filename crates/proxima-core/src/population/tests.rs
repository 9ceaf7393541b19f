//! k-map and δ-presence against a brute-force counter: for every class,
//! every population record is tested against the class's labels one by one
//! (numeric interval, categorical node by its leaves, the root for values
//! outside the sample's hierarchy), on random small tables whose classes
//! are random sets of rows — so their labels overlap.

use std::sync::Arc;

use proptest::prelude::*;

use super::*;
use crate::generalize::{generalize, GeneralizedQi};
use crate::hierarchy::Hierarchy;
use crate::params::K;
use crate::table::{QiValues, SaValues};

const LEAVES: [&str; 4] = ["x1", "x2", "y1", "y2"];

fn tree() -> Arc<Hierarchy> {
    let paths: Vec<Vec<String>> = LEAVES
        .iter()
        .map(|l| vec![l.to_string(), l[..1].to_uppercase(), "*".to_string()])
        .collect();
    Arc::new(Hierarchy::from_paths(&paths).unwrap())
}

/// A table of (age, place) rows; `place` codes index `labels`, read into
/// `hierarchy` (the population may hold labels the sample's hierarchy lacks
/// when both are flat).
fn table(rows: &[(u8, usize)], labels: &[&str], hierarchy: Option<Arc<Hierarchy>>) -> Table {
    let h = hierarchy.unwrap_or_else(|| Arc::new(Hierarchy::flat(labels.iter())));
    let codes = rows
        .iter()
        .map(|&(_, p)| h.leaf_code(labels[p]).expect("a leaf"))
        .collect();
    Table::from_columns(
        vec![
            (
                "age".into(),
                QiValues::Numeric(rows.iter().map(|r| r.0 as f64).collect()),
            ),
            (
                "place".into(),
                QiValues::Categorical {
                    codes,
                    hierarchy: h,
                },
            ),
        ],
        vec![("s".into(), SaValues::Numeric(vec![0.0; rows.len()]))],
    )
}

/// Brute force: the population records the class's published labels cover.
fn covered(sample: &Table, population: &Table, rows: &[u32]) -> u64 {
    let gs: Vec<GeneralizedQi> = sample
        .qis()
        .iter()
        .map(|c| crate::generalize::generalize_column(&c.values, rows))
        .collect();
    let (
        QiValues::Numeric(ages),
        QiValues::Categorical {
            codes,
            hierarchy: theirs,
        },
    ) = (&population.qis()[0].values, &population.qis()[1].values)
    else {
        unreachable!()
    };
    let QiValues::Categorical {
        hierarchy: ours, ..
    } = &sample.qis()[1].values
    else {
        unreachable!()
    };
    let (GeneralizedQi::Numeric { lo, hi }, GeneralizedQi::Categorical { level, node }) =
        (gs[0], gs[1])
    else {
        unreachable!()
    };
    (0..population.rows())
        .filter(|&r| {
            let label = theirs.leaf_label(codes[r]);
            let place = match ours.leaf_code(label) {
                Some(leaf) => ours.ancestor(leaf, level) == node,
                // Outside the sample's hierarchy: only the root covers it
                // (a single-leaf hierarchy's leaf is not widened).
                None => level == ours.height() && ours.leaf_count() >= 2,
            };
            lo <= ages[r] && ages[r] <= hi && place
        })
        .count() as u64
}

fn random_partition(n: usize, assign: &[u8]) -> Partition {
    let groups = 1 + (assign.first().copied().unwrap_or(0) as usize % 4).min(n.saturating_sub(1));
    let mut parts = vec![Vec::new(); groups];
    for r in 0..n {
        parts[assign[r % assign.len()] as usize % groups].push(r as u32);
    }
    parts.retain(|p| !p.is_empty());
    Partition::new(parts)
}

proptest! {
    #[test]
    fn class_counts_match_a_brute_force_count(
        sample in proptest::collection::vec((0u8..6, 0usize..4), 1..25),
        population in proptest::collection::vec((0u8..7, 0usize..6), 0..60),
        assign in proptest::collection::vec(any::<u8>(), 1..25),
        declared in any::<bool>(),
    ) {
        // With the declared hierarchy both tables read it (population
        // places 4 and 5 fold onto its leaves); flat, the population holds
        // places the sample never shows.
        let (s, p) = if declared {
            let pop: Vec<(u8, usize)> = population.iter().map(|&(a, q)| (a, q % 4)).collect();
            (table(&sample, &LEAVES, Some(tree())), table(&pop, &LEAVES, Some(tree())))
        } else {
            let all = ["x1", "x2", "y1", "y2", "z1", "z2"];
            let seen: Vec<&str> = sample.iter().map(|&(_, q)| LEAVES[q]).collect();
            let sample_rows: Vec<(u8, usize)> = sample.iter().enumerate().map(|(i, &(a, _))| (a, i)).collect();
            (table(&sample_rows, &seen, None), table(&population, &all, None))
        };
        let partition = random_partition(s.rows(), &assign);
        let release = generalize(&s, partition.clone()).unwrap();
        let boxes = GroupBoxes::from_release(&s, &release);
        let index = PopulationIndex::for_release(&s, &p, "/p", Progress::none()).unwrap();
        prop_assert_eq!(index.rows(), p.rows());
        let counts = class_counts(&index, &boxes);
        for (g, rows) in release.partition().groups.iter().enumerate() {
            let want = covered(&s, &p, rows);
            prop_assert_eq!(counts[g], want, "class {}", g);
            prop_assert_eq!(index.count_rows(&s, rows), want);
        }
        // The capped predicate Mondrian uses agrees with the exact count.
        for model in [
            PopulationModel::KMap { k: K::new(3, "/k").unwrap() },
            PopulationModel::delta_presence(0.0, 0.5, "").unwrap(),
            PopulationModel::delta_presence(0.2, 0.7, "").unwrap(),
            PopulationModel::delta_presence(1.0 / 3.0, 1.0, "").unwrap(),
        ] {
            for (g, rows) in release.partition().groups.iter().enumerate() {
                prop_assert_eq!(
                    model.allows_rows(&index, &s, rows),
                    model.allows(rows.len(), counts[g]),
                    "{:?} class {}", model, g
                );
            }
        }
        // The checks' verdicts follow the counts.
        let k = K::new(3, "/k").unwrap();
        let report = judge(&PopulationModel::KMap { k }, release.partition(), &counts, None);
        prop_assert_eq!(report.passed, counts.iter().all(|&c| c >= 3));
        let model = PopulationModel::delta_presence(0.0, 0.5, "").unwrap();
        let report = judge(&model, release.partition(), &counts, None);
        let ok = release.partition().groups.iter().zip(&counts)
            .all(|(g, &c)| c > 0 && g.len() as f64 <= 0.5 * c as f64);
        prop_assert_eq!(report.passed, ok);
    }

    #[test]
    fn mondrian_classes_satisfy_the_model_by_brute_force(
        sample in proptest::collection::vec((0u8..6, 0usize..4), 1..40),
        extra in proptest::collection::vec((0u8..6, 0usize..4), 0..80),
        k in 1u64..12,
    ) {
        // The population holds the sample and more.
        let mut pop = sample.clone();
        pop.extend(extra);
        let s = table(&sample, &LEAVES, Some(tree()));
        let p = table(&pop, &LEAVES, Some(tree()));
        let index = PopulationIndex::for_release(&s, &p, "/p", Progress::none()).unwrap();
        let model = PopulationModel::KMap { k: K::new(k, "/k").unwrap() };
        match anonymize(&s, &index, &model, Progress::none()) {
            Ok(partition) => {
                partition.check_covers(s.rows()).unwrap();
                for g in &partition.groups {
                    prop_assert!(covered(&s, &p, g) >= k);
                }
            }
            Err(e) => {
                prop_assert_eq!(e.kind, ErrorKind::InfeasibleParameters);
                let all: Vec<u32> = (0..s.rows() as u32).collect();
                prop_assert!(covered(&s, &p, &all) < k);
            }
        }
        let model = PopulationModel::delta_presence(0.0, 0.6, "").unwrap();
        match anonymize(&s, &index, &model, Progress::none()) {
            Ok(partition) => {
                for g in &partition.groups {
                    let c = covered(&s, &p, g);
                    prop_assert!(g.len() as f64 <= 0.6 * c as f64, "{} of {}", g.len(), c);
                }
            }
            Err(e) => prop_assert_eq!(e.kind, ErrorKind::InfeasibleParameters),
        }
    }
}

#[test]
fn a_sample_outside_the_population_is_refused() {
    let s = table(&[(1, 0), (1, 0), (2, 1)], &LEAVES, Some(tree()));
    let p = table(&[(1, 0), (2, 1), (3, 2)], &LEAVES, Some(tree()));
    let index = PopulationIndex::for_release(&s, &p, "/p", Progress::none()).unwrap();
    let err = check_subset(&s, &index, Field::PopulationDataset).unwrap_err();
    assert_eq!(err.kind, ErrorKind::PopulationMismatch);
    assert_eq!(err.detail("unmatched_records"), Some(&Detail::Int(1)));
    assert_eq!(err.errors[0].field, Field::PopulationDataset);
    let model = PopulationModel::delta_presence(0.0, 1.0, "").unwrap();
    let err = anonymize(&s, &index, &model, Progress::none()).unwrap_err();
    assert_eq!(err.kind, ErrorKind::PopulationMismatch);
    // k-map does not need the subset (the whole table's labels, ages 1-2
    // and "X", cover 2 population records).
    let k = PopulationModel::KMap {
        k: K::new(2, "").unwrap(),
    };
    assert!(anonymize(&s, &index, &k, Progress::none()).is_ok());
}

#[test]
fn a_population_without_a_qi_or_with_another_type_is_named() {
    let s = table(&[(1, 0)], &LEAVES, Some(tree()));
    let p = Table::from_columns(
        vec![("age".into(), QiValues::Date(vec![3]))],
        vec![("s".into(), SaValues::Numeric(vec![0.0]))],
    );
    let err = PopulationIndex::for_release(&s, &p, "/x", Progress::none()).unwrap_err();
    assert_eq!(err.kind, ErrorKind::PopulationMismatch);
    assert!(err.message.contains("'age' is a date"), "{}", err.message);
    let p = Table::from_columns(
        vec![("age".into(), QiValues::Numeric(vec![3.0]))],
        vec![("s".into(), SaValues::Numeric(vec![0.0]))],
    );
    let err = PopulationIndex::for_release(&s, &p, "/x", Progress::none()).unwrap_err();
    assert!(
        err.message.contains("no quasi-identifier 'place'"),
        "{}",
        err.message
    );
}

#[test]
fn k_map_and_delta_presence_figures_by_hand() {
    // Two classes: ages 1-2 (x1, x2 → "X") and age 5 (y1).
    let s = table(&[(1, 0), (2, 1), (5, 2)], &LEAVES, Some(tree()));
    let p = table(
        &[(1, 0), (2, 1), (1, 1), (5, 2), (5, 2), (5, 3), (9, 0)],
        &LEAVES,
        Some(tree()),
    );
    let index = PopulationIndex::for_release(&s, &p, "/p", Progress::none()).unwrap();
    let partition = Partition::new(vec![vec![0, 1], vec![2]]);
    let release = generalize(&s, partition).unwrap();
    let counts = class_counts(&index, &GroupBoxes::from_release(&s, &release));
    assert_eq!(counts, vec![3, 2]);
    let k = PopulationModel::KMap {
        k: K::new(3, "").unwrap(),
    };
    let r = judge(&k, release.partition(), &counts, None);
    assert!(!r.passed);
    assert_eq!(r.value, vec![d("min_population_count", 2i64)]);
    assert_eq!((r.violating_groups, r.violating_rows), (1, 1));
    assert_eq!(r.worst_groups[0].group_id, "2");
    let dp = PopulationModel::delta_presence(0.1, 0.6, "").unwrap();
    let r = judge(&dp, release.partition(), &counts, None);
    assert_eq!(
        r.value,
        vec![d("min_delta", 0.5), d("max_delta", 2.0 / 3.0)]
    );
    assert!(!r.passed);
    let risk = journalist_risk(release.partition(), &counts);
    assert_eq!(risk.max, 0.5);
    assert_eq!(risk.records_at_max, 1);
    assert!((risk.average - (2.0 / 3.0 + 0.5) / 3.0).abs() < 1e-12);
    let err = PopulationModel::delta_presence(0.7, 0.6, Field::Check(0)).unwrap_err();
    assert_eq!(err.errors[0].field, Field::CheckParam(0, "delta_min"));
}

/// Loads `csv` as an upload whose `age` and `place` columns are
/// categorical without a hierarchy (generalized labels), `s` numeric SA.
fn upload(csv: &str) -> Table {
    use crate::schema::{ColumnSpec, CsvOptions, MissingPolicy, Role, Schema, ValueType};
    let columns = ["age", "place", "s"]
        .iter()
        .map(|&name| ColumnSpec {
            name: name.to_string(),
            role: if name == "s" {
                Role::Sensitive
            } else {
                Role::QuasiIdentifier
            },
            value_type: Some(if name == "s" {
                ValueType::Numeric
            } else {
                ValueType::Categorical
            }),
            hierarchy: None,
        })
        .collect();
    let schema = Schema::new(
        "upload".into(),
        CsvOptions::default(),
        MissingPolicy::Reject,
        columns,
    )
    .unwrap();
    crate::ingest::load_table(Arc::new(schema), csv.as_bytes()).unwrap()
}

#[test]
fn an_uploaded_tables_labels_are_read_against_the_population() {
    // Two overlapping interval classes and an opaque `*` beside a leaf.
    let t = upload("age,place,s\n[1-3],x1,0\n[1-3],x1,0\n[2-5],*,0\n");
    let (partition, ids) = group_by_published_qis(&t);
    let boxes = GroupBoxes::from_labels(&t, &partition).unwrap();
    let p = table(
        &[(1, 0), (2, 0), (3, 1), (4, 2), (5, 0), (6, 0), (2, 3)],
        &["x1", "x2", "z9", "q"],
        None,
    );
    let index = PopulationIndex::for_boxes(&t, &boxes, &p, "/p", Progress::none()).unwrap();
    // [1-3] × x1: ages 1 and 2 at x1. [2-5] × *: every place, ages 2-5
    // (z9 and q are outside the upload's labels; `*` covers them).
    assert_eq!(class_counts(&index, &boxes), vec![2, 5]);
    let k = PopulationModel::KMap {
        k: K::new(3, "").unwrap(),
    };
    let r = judge(&k, &partition, &class_counts(&index, &boxes), Some(&ids));
    assert_eq!(r.value, vec![d("min_population_count", 2i64)]);
    assert_eq!(r.worst_groups[0].group_id, ids[0]);
    // The weaker subset test of a generalized table: 2 rows over 2.
    check_class_subset(&partition, &class_counts(&index, &boxes), "/p").unwrap();
    // Interval labels against a population that holds no numbers.
    let text = Table::from_columns(
        vec![
            (
                "age".into(),
                QiValues::Categorical {
                    codes: vec![0],
                    hierarchy: Arc::new(Hierarchy::flat(["old"])),
                },
            ),
            (
                "place".into(),
                QiValues::Categorical {
                    codes: vec![0],
                    hierarchy: Arc::new(Hierarchy::flat(["x1"])),
                },
            ),
        ],
        vec![("s".into(), SaValues::Numeric(vec![0.0]))],
    );
    let index = PopulationIndex::for_boxes(&t, &boxes, &text, "/p", Progress::none()).unwrap();
    assert_eq!(class_counts(&index, &boxes), vec![0, 0]);
}
