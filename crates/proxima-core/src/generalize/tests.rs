use std::sync::Arc;

use proptest::prelude::*;

use super::*;
use crate::error::ErrorKind;
use crate::hierarchy::Hierarchy;
use crate::run::summary;
use crate::schema::{ColumnSpec, CsvOptions, MissingPolicy, Role, Schema, ValueType};
use crate::table::{parse_date, QiColumn, SaColumn, SaValues, TextColumn};

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

fn text(cells: &[&str]) -> TextColumn {
    let mut t = TextColumn::new();
    cells.iter().for_each(|c| t.push(c).unwrap());
    t
}

fn spec(name: &str, role: Role, vt: Option<ValueType>, h: Option<Arc<Hierarchy>>) -> ColumnSpec {
    ColumnSpec {
        name: name.into(),
        role,
        value_type: vt,
        hierarchy: h,
    }
}

/// Columns: name (identifier), age (QI), city (insensitive), edu (QI with a
/// hierarchy), since (date QI), salary (SA). Upload line 3 was suppressed.
fn people() -> Table {
    let edu = education();
    let schema = Schema::new(
        "people".into(),
        CsvOptions::default(),
        MissingPolicy::Suppress,
        vec![
            spec("name", Role::Identifier, None, None),
            spec("age", Role::QuasiIdentifier, Some(ValueType::Numeric), None),
            spec("city", Role::Insensitive, None, None),
            spec(
                "edu",
                Role::QuasiIdentifier,
                Some(ValueType::Categorical),
                Some(edu.clone()),
            ),
            spec("since", Role::QuasiIdentifier, Some(ValueType::Date), None),
            spec("salary", Role::Sensitive, Some(ValueType::Numeric), None),
        ],
    )
    .unwrap();
    let code = |l: &str| edu.leaf_code(l).unwrap();
    let dates = [
        "2020-01-05",
        "2020-03-01",
        "2020-01-05",
        "2021-07-30",
        "2021-07-30",
    ];
    Table::new(
        Arc::new(schema),
        vec![
            QiColumn {
                name: "age".into(),
                schema_index: 1,
                values: QiValues::Numeric(vec![23.0, 31.0, 27.0, 40.0, 40.0]),
            },
            QiColumn {
                name: "edu".into(),
                schema_index: 3,
                values: QiValues::Categorical {
                    codes: vec![
                        code("Masters"),
                        code("Doctorate"),
                        code("Bachelors"),
                        code("HS-grad"),
                        code("HS-grad"),
                    ],
                    hierarchy: edu.clone(),
                },
            },
            QiColumn {
                name: "since".into(),
                schema_index: 4,
                values: QiValues::Date(dates.iter().map(|d| parse_date(d).unwrap()).collect()),
            },
        ],
        vec![SaColumn {
            name: "salary".into(),
            schema_index: 5,
            values: SaValues::Numeric(vec![5000.0, 7000.0, 4000.0, 3000.0, 3000.0]),
        }],
        vec![
            None,
            Some(text(&["23", "31", "27", "40", "40"])),
            Some(text(&["Oslo", "Bergen", "Oslo", "Tromsø", "Oslo"])),
            Some(text(&[
                "Masters",
                "Doctorate",
                "Bachelors",
                "HS-grad",
                "HS-grad",
            ])),
            Some(text(&dates)),
            Some(text(&["5000", "7000", "4000.0", "3000", "3000"])),
        ],
        vec![1, 2, 4, 5, 6],
        1,
    )
    .unwrap()
}

fn collect_rows(table: &Table, release: &Release, row_id: bool) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for_each_release_row(table, release, row_id, |cells| {
        out.push(cells.iter().map(|c| c.to_string()).collect::<Vec<_>>());
        Ok::<(), ()>(())
    })
    .unwrap();
    out
}

fn rows_of(expected: &[&[&str]]) -> Vec<Vec<String>> {
    expected
        .iter()
        .map(|r| r.iter().map(|c| c.to_string()).collect())
        .collect()
}

#[test]
fn numeric_labels_and_their_inverse() {
    let v = QiValues::Numeric(vec![]);
    let l = |lo: f64, hi: f64| label(&v, &GeneralizedQi::Numeric { lo, hi });
    assert_eq!(l(17.0, 17.0), "17");
    assert_eq!(l(17.0, 24.0), "[17-24]");
    assert_eq!(l(2.5, 3.75), "[2.5-3.75]");
    assert_eq!(l(-5.0, -1.0), "[-5--1]");
    assert_eq!(l(-5.0, 3.0), "[-5-3]");
    assert_eq!(l(-0.5, -0.5), "-0.5");
    for (lo, hi) in [
        (17.0, 24.0),
        (-5.0, -1.0),
        (-5.0, 3.0),
        (-2.5, 0.25),
        (4.0, 4.0),
        (1e-7, 3e20),
    ] {
        assert_eq!(
            parse_numeric_label(&l(lo, hi)),
            Some((lo, hi)),
            "{}",
            l(lo, hi)
        );
    }
    assert_eq!(parse_numeric_label("[5-1]"), None);
    assert_eq!(parse_numeric_label("[5]"), None);
    assert_eq!(parse_numeric_label("abc"), None);
}

#[test]
fn categorical_labels_are_the_lowest_common_ancestor() {
    let h = education();
    let v = QiValues::Categorical {
        codes: vec![],
        hierarchy: h.clone(),
    };
    let lca = |leaves: &[&str]| {
        let (level, node) = h
            .lca(leaves.iter().map(|l| h.leaf_code(l).unwrap()))
            .unwrap();
        label(&v, &GeneralizedQi::Categorical { level, node })
    };
    assert_eq!(lca(&["Masters"]), "Masters");
    assert_eq!(lca(&["Masters", "Doctorate"]), "Graduate");
    assert_eq!(lca(&["Masters", "Bachelors"]), "Higher");
    assert_eq!(lca(&["Masters", "HS-grad"]), "*");
    let flat = Arc::new(Hierarchy::flat(["red", "green", "blue"]));
    let fv = QiValues::Categorical {
        codes: vec![0, 2],
        hierarchy: flat,
    };
    assert_eq!(label(&fv, &generalize_column(&fv, &[0, 1])), "*");
    assert_eq!(label(&fv, &generalize_column(&fv, &[1])), "blue");
}

#[test]
fn date_labels_and_their_inverse() {
    let v = QiValues::Date(vec![]);
    let d = |s: &str| parse_date(s).unwrap();
    let a = GeneralizedQi::Date {
        lo: d("2020-01-05"),
        hi: d("2020-03-01"),
    };
    assert_eq!(label(&v, &a), "[2020-01-05-2020-03-01]");
    assert_eq!(
        parse_date_interval_label("[2020-01-05-2020-03-01]"),
        Some((d("2020-01-05"), d("2020-03-01")))
    );
    let same = GeneralizedQi::Date {
        lo: d("1969-12-31"),
        hi: d("1969-12-31"),
    };
    assert_eq!(label(&v, &same), "1969-12-31");
    assert_eq!(parse_date_interval_label("1969-12-31"), Some((-1, -1)));
    assert_eq!(parse_date_interval_label("[2020-03-01-2020-01-05]"), None);
    assert_eq!(parse_date_interval_label("[2020-3-1-2020-01-05]"), None);
}

#[test]
fn release_prints_grouped_rows_without_identifiers() {
    let t = people();
    let release = generalize(&t, Partition::new(vec![vec![3, 4], vec![0, 2, 1]])).unwrap();
    assert_eq!(
        release_header(&t, false),
        ["group_id", "age", "city", "edu", "since", "salary"]
    );
    let (ages, days) = ("[23-31]", "[2020-01-05-2020-03-01]");
    // Inside a group, rows are in publication order: by salary, then by
    // city when salaries tie (group 1).
    assert_eq!(
        collect_rows(&t, &release, false),
        rows_of(&[
            &["1", "40", "Oslo", "HS-grad", "2021-07-30", "3000"],
            &["1", "40", "Tromsø", "HS-grad", "2021-07-30", "3000"],
            &["2", ages, "Oslo", "Higher", days, "4000.0"],
            &["2", ages, "Oslo", "Higher", days, "5000"],
            &["2", ages, "Bergen", "Higher", days, "7000"],
        ])
    );
    // row_id sits right after group_id and is the upload's data line (line
    // 3 was suppressed, so rows 2.. are lines 4..).
    assert_eq!(
        release_header(&t, true),
        ["group_id", "row_id", "age", "city", "edu", "since", "salary"]
    );
    let with_ids = collect_rows(&t, &release, true);
    let ids: Vec<&str> = with_ids.iter().map(|r| r[1].as_str()).collect();
    assert_eq!(ids, ["6", "5", "4", "1", "2"]);
    assert_eq!(with_ids[4][2..], collect_rows(&t, &release, false)[4][1..]);
}

#[test]
fn rows_inside_a_group_do_not_follow_the_upload_order() {
    // Whatever order the partitioner hands over, a group publishes its rows
    // sorted by SA (then insensitive text), so the upload order — here
    // ascending age — cannot link a published row to an exact age.
    let t = people();
    let a = generalize(&t, Partition::new(vec![vec![0, 1, 2, 3, 4]])).unwrap();
    let b = generalize(&t, Partition::new(vec![vec![4, 2, 3, 1, 0]])).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.partition().groups, vec![vec![4, 3, 2, 0, 1]]);
    // Equal SA values and no insensitive column: the row index decides.
    let mut rows = vec![1, 2, 0];
    let same_sa = Table::from_columns(
        vec![("x".into(), QiValues::Numeric(vec![3.0, 1.0, 2.0]))],
        vec![("s".into(), SaValues::Numeric(vec![7.0, 7.0, 7.0]))],
    );
    publication_order(&same_sa, &mut rows);
    assert_eq!(rows, [0, 1, 2]);
}

#[test]
fn streaming_stops_at_the_callers_error() {
    let t = people();
    let release = generalize(&t, Partition::new(vec![vec![0, 1, 2, 3, 4]])).unwrap();
    let mut seen = 0;
    let r = for_each_release_row(&t, &release, false, |cells| {
        seen += 1;
        assert_eq!(cells.len(), 6);
        assert_eq!(
            (cells[1], cells[3], cells[4]),
            ("[23-40]", "*", "[2020-01-05-2021-07-30]")
        );
        if seen == 2 {
            Err("client went away")
        } else {
            Ok(())
        }
    });
    assert_eq!(r, Err("client went away"));
    assert_eq!(seen, 2);
}

#[test]
fn generalize_rejects_partitions_that_do_not_cover() {
    let t = people();
    for bad in [
        vec![vec![0, 1], vec![2, 3]],
        vec![vec![0, 1, 2, 3, 4], vec![4]],
        vec![vec![0, 1, 2, 3, 4, 5]],
    ] {
        let err = generalize(&t, Partition::new(bad)).unwrap_err();
        assert_eq!(err.kind, ErrorKind::Internal);
    }
}

#[test]
fn assignment_round_trips_and_is_validated() {
    let t = people();
    let release = generalize(&t, Partition::new(vec![vec![1, 3], vec![0, 2, 4]])).unwrap();
    let assignment = group_assignment(&release);
    assert_eq!(assignment, vec![1, 0, 1, 0, 1]);
    let back = Release::from_assignment(&t, &assignment).unwrap();
    assert_eq!(back, release);
    assert_eq!(
        collect_rows(&t, &back, true),
        collect_rows(&t, &release, true)
    );

    let err = Release::from_assignment(&t, &[0, 0, 1, 1]).unwrap_err();
    assert_eq!(err.kind, ErrorKind::Internal);
    assert!(
        err.message.contains("4 rows, the table has 5"),
        "{}",
        err.message
    );
    let err = Release::from_assignment(&t, &[0, 0, 2, 2, 0]).unwrap_err();
    assert!(err.message.contains("skips group 1"), "{}", err.message);
    let err = Release::from_assignment(&t, &[0, 0, 9, 1, 1]).unwrap_err();
    assert!(err.message.contains("group 9"), "{}", err.message);
    let err = Release::from_assignment(&t, &[0, 0, u32::MAX, 1, 1]).unwrap_err();
    assert_eq!(err.kind, ErrorKind::Internal);
}

#[test]
fn summary_counts_suppressed_rows_and_groups() {
    let t = people();
    let release = generalize(&t, Partition::new(vec![vec![3, 4], vec![0, 2, 1]])).unwrap();
    let s = summary(&t, &release);
    assert_eq!((s.rows, s.published_rows, s.suppressed_rows), (6, 5, 1));
    assert_eq!((s.groups, s.min_group_size), (2, 2));
    // Group 2: age 8/17, edu (3−1)/(4−1), since 56/572 days; group 1: 0.
    let expected = 3.0 * (8.0 / 17.0 + 2.0 / 3.0 + 56.0 / 572.0) / (5.0 * 3.0);
    assert!(
        (s.information_loss - expected).abs() < 1e-12,
        "{}",
        s.information_loss
    );
}

/// Rows the model leaves out count as fully generalized (loss 1) in GCP,
/// and in the summary's rows, not in its published rows.
#[test]
fn rows_left_out_by_the_model_count_at_loss_1() {
    let t = people();
    let release = generalize(&t, Partition::new(vec![vec![3, 4], vec![0, 2, 1]])).unwrap();
    let mut s = summary(&t, &release);
    let published_loss = s.information_loss;
    s.set_suppressed_by_model(3);
    // 5 published rows at their loss, 3 rows at loss 1.
    let expected = (5.0 * published_loss + 3.0) / 8.0;
    assert!(
        (s.information_loss - expected).abs() < 1e-12,
        "{}",
        s.information_loss
    );
    assert_eq!((s.rows, s.published_rows, s.suppressed_by_model), (9, 5, 3));
    // Nothing left out: nothing changes.
    let mut same = summary(&t, &release);
    same.set_suppressed_by_model(0);
    assert_eq!(same, summary(&t, &release));
}

fn random_table_and_partition() -> impl Strategy<Value = (Table, Partition)> {
    (1usize..40).prop_flat_map(|n| {
        (
            proptest::collection::vec(-50.0f64..50.0, n),
            proptest::collection::vec(0u32..4, n),
            proptest::collection::vec(-400i32..400, n),
            proptest::collection::vec(0u32..6, n),
        )
            .prop_map(move |(num, cat, dates, group)| {
                let table = Table::from_columns(
                    vec![
                        ("x".into(), QiValues::Numeric(num)),
                        (
                            "e".into(),
                            QiValues::Categorical {
                                codes: cat,
                                hierarchy: education(),
                            },
                        ),
                        ("d".into(), QiValues::Date(dates)),
                    ],
                    vec![("s".into(), SaValues::Numeric(vec![1.0; n]))],
                );
                // Compact the random group ids into dense ones.
                let mut groups: Vec<Vec<u32>> = vec![Vec::new(); 6];
                for (r, g) in group.into_iter().enumerate() {
                    groups[g as usize].push(r as u32);
                }
                groups.retain(|g| !g.is_empty());
                (table, Partition::new(groups))
            })
    })
}

proptest! {
    #[test]
    fn every_generalization_covers_its_rows((table, partition) in random_table_and_partition()) {
        let release = generalize(&table, partition).unwrap();
        for (rows, gen) in release.partition().groups.iter().zip(release.generalized()) {
            for (d, g) in gen.iter().enumerate() {
                let values = &table.qis()[d].values;
                for &r in rows {
                    let r = r as usize;
                    match (g, values) {
                        (GeneralizedQi::Numeric { lo, hi }, QiValues::Numeric(v)) => {
                            prop_assert!(*lo <= v[r] && v[r] <= *hi);
                        }
                        (GeneralizedQi::Date { lo, hi }, QiValues::Date(v)) => {
                            prop_assert!(*lo <= v[r] && v[r] <= *hi);
                        }
                        (GeneralizedQi::Categorical { level, node },
                         QiValues::Categorical { codes, hierarchy }) => {
                            prop_assert_eq!(hierarchy.ancestor(codes[r], *level), *node);
                        }
                        _ => prop_assert!(false, "generalization of the wrong type"),
                    }
                }
                // The one-pass generalization equals the per-group one.
                prop_assert_eq!(*g, generalize_column(values, rows));
                // Tight: the bounds are attained by some row.
                if let (GeneralizedQi::Numeric { lo, hi }, QiValues::Numeric(v)) = (g, values) {
                    prop_assert!(rows.iter().any(|&r| v[r as usize] == *lo));
                    prop_assert!(rows.iter().any(|&r| v[r as usize] == *hi));
                }
            }
        }
        let assignment = group_assignment(&release);
        // Group ids survive the round trip, so the generalizations do too.
        let back = Release::from_assignment(&table, &assignment).unwrap();
        prop_assert_eq!(back.generalized(), release.generalized());
    }
}

/// A table with a numeric SA (few values: many ties, both signs and zeros)
/// and two insensitive text columns whose cells share long prefixes, for
/// checking the keyed publication sort against the plain comparison.
fn tied_table(sa: Vec<f64>, a: Vec<String>, b: Vec<String>) -> Table {
    let n = sa.len();
    let schema = Schema::new(
        "tied".into(),
        CsvOptions::default(),
        MissingPolicy::Reject,
        vec![
            spec("q", Role::QuasiIdentifier, Some(ValueType::Numeric), None),
            spec("a", Role::Insensitive, None, None),
            spec("s", Role::Sensitive, Some(ValueType::Numeric), None),
            spec("b", Role::Insensitive, None, None),
        ],
    )
    .unwrap();
    let cells = |v: &[String]| text(&v.iter().map(String::as_str).collect::<Vec<_>>());
    Table::new(
        Arc::new(schema),
        vec![QiColumn {
            name: "q".into(),
            schema_index: 0,
            values: QiValues::Numeric(vec![0.0; n]),
        }],
        vec![SaColumn {
            name: "s".into(),
            schema_index: 2,
            values: SaValues::Numeric(sa.clone()),
        }],
        vec![
            Some(text(&vec!["0"; n])),
            Some(cells(&a)),
            Some(text(
                &sa.iter()
                    .map(|x| crate::table::format_number(*x))
                    .collect::<Vec<_>>()
                    .iter()
                    .map(String::as_str)
                    .collect::<Vec<_>>(),
            )),
            Some(cells(&b)),
        ],
        (1..=n as u32).collect(),
        0,
    )
    .unwrap()
}

/// Every row of `release` rendered from the columns and from the row-major
/// text, in release order.
fn rows_both_ways(table: &Table, release: &Release, row_id: bool) -> [Vec<Vec<String>>; 2] {
    let row_text = release_row_text(table).expect("two text columns or more");
    [None, Some(&row_text)].map(|text| {
        let mut out = Vec::new();
        let groups = 0..release.partition().groups.len();
        for_each_release_row_in(table, release, row_id, groups, text, |cells| {
            out.push(cells.iter().map(|c| c.to_string()).collect::<Vec<_>>());
            Ok::<(), ()>(())
        })
        .unwrap();
        out
    })
}

#[test]
fn rows_rendered_from_the_row_major_text_are_those_of_the_columns() {
    let table = people();
    let release = generalize(&table, Partition::new(vec![vec![4, 0], vec![1, 3, 2]])).unwrap();
    for row_id in [false, true] {
        let [columns, rows] = rows_both_ways(&table, &release, row_id);
        assert_eq!(columns, collect_rows(&table, &release, row_id));
        assert_eq!(rows, columns);
    }
}

proptest! {
    #[test]
    fn the_row_major_text_renders_every_release_as_the_columns_do(
        cells in proptest::collection::vec(
            ("(é|a|,|\x22|)[ab]{0,3}", "[ab]{0,2}", 0usize..5),
            1..60,
        ),
    ) {
        let sa = vec![1.0; cells.len()];
        let a: Vec<String> = cells.iter().map(|c| c.0.clone()).collect();
        let b: Vec<String> = cells.iter().map(|c| c.1.clone()).collect();
        let table = tied_table(sa, a, b);
        let mut groups = vec![Vec::new(); 5];
        for (r, c) in cells.iter().enumerate() {
            groups[c.2].push(r as u32);
        }
        groups.retain(|g| !g.is_empty());
        let release = generalize(&table, Partition::new(groups)).unwrap();
        let [columns, rows] = rows_both_ways(&table, &release, true);
        prop_assert_eq!(rows, columns);
    }
}

proptest! {
    #[test]
    fn keyed_publication_order_equals_the_plain_comparison(
        cells in proptest::collection::vec(
            (
                prop::sample::select(vec![-1.0, -0.0, 0.0, 2.5, 40.0]),
                "(abcdef|abcdefg|abcdefgh|a\\x00|a|)[ab\\x00]?",
                "[ab]{0,2}",
            ),
            1..40,
        ),
    ) {
        let sa: Vec<f64> = cells.iter().map(|c| c.0).collect();
        let a: Vec<String> = cells.iter().map(|c| c.1.clone()).collect();
        let b: Vec<String> = cells.iter().map(|c| c.2.clone()).collect();
        let table = tied_table(sa.clone(), a.clone(), b.clone());
        let mut rows: Vec<u32> = (0..cells.len() as u32).rev().collect();
        let mut expected = rows.clone();
        expected.sort_by(|&x, &y| {
            let (x, y) = (x as usize, y as usize);
            sa[x]
                .total_cmp(&sa[y])
                .then_with(|| a[x].cmp(&a[y]))
                .then_with(|| b[x].cmp(&b[y]))
                .then(x.cmp(&y))
        });
        publication_order(&table, &mut rows);
        prop_assert_eq!(rows, expected);
    }
}
