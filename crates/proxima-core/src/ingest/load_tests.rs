//! Unit tests of `load_table`: one per rule and per error path, each
//! checking the kind, the pointer or line, and that the message names the
//! offending value.

use std::sync::Arc;

use super::{load_table, parse_hierarchy_csv};
use crate::error::{CoreError, Detail, ErrorKind, Field};
use crate::schema::{ColumnSpec, CsvOptions, MissingPolicy, Role, Schema, ValueType};
use crate::table::{parse_date, QiValues, SaValues, Table};

fn col(name: &str, role: Role, t: Option<ValueType>) -> ColumnSpec {
    ColumnSpec {
        name: name.into(),
        role,
        value_type: t,
        hierarchy: None,
    }
}

fn education() -> ColumnSpec {
    let h = parse_hierarchy_csv(
        b"Bachelors;Higher;*\nMasters;Higher;*\nHS-grad;Secondary;*\n",
        "education",
    )
    .unwrap();
    ColumnSpec {
        hierarchy: Some(Arc::new(h)),
        ..col(
            "education",
            Role::QuasiIdentifier,
            Some(ValueType::Categorical),
        )
    }
}

/// id (identifier), age (numeric QI), education (categorical QI with a
/// hierarchy), city (categorical QI without), born (date QI), salary
/// (numeric SA), note (insensitive).
fn schema_with(delimiter: u8, missing: &[&str], policy: MissingPolicy) -> Arc<Schema> {
    Arc::new(
        Schema::new(
            "t".into(),
            CsvOptions {
                delimiter,
                missing: missing.iter().map(|s| s.to_string()).collect(),
                allow_line_breaks: false,
            },
            policy,
            vec![
                col("id", Role::Identifier, None),
                col("age", Role::QuasiIdentifier, Some(ValueType::Numeric)),
                education(),
                col("city", Role::QuasiIdentifier, Some(ValueType::Categorical)),
                col("born", Role::QuasiIdentifier, Some(ValueType::Date)),
                col("salary", Role::Sensitive, Some(ValueType::Numeric)),
                col("note", Role::Insensitive, None),
            ],
        )
        .unwrap(),
    )
}

fn schema() -> Arc<Schema> {
    schema_with(b',', &[""], MissingPolicy::Reject)
}

const HEADER: &str = "id,age,education,city,born,salary,note\n";

fn load(csv: &str) -> Result<Table, CoreError> {
    load_table(schema(), csv.as_bytes())
}

fn err(csv: &str) -> CoreError {
    load(csv).expect_err("the load should fail")
}

fn assert_names(e: &CoreError, parts: &[&str]) {
    for p in parts {
        assert!(e.message.contains(p), "message lacks {p}: {}", e.message);
    }
}

#[test]
fn loads_every_column_kind() {
    let t = load(&format!(
        "{HEADER}\
         p1,34,Masters,Lyon,1990-05-17,52000,first\n\
         p2,41.5,HS-grad,Paris,1983-01-02,-10.25,\n\
         p3,34,Masters,Lyon,2000-02-29,0,\"quoted, with comma\"\n"
    ))
    .unwrap();
    assert_eq!(t.rows(), 3);
    assert_eq!(t.suppressed_rows(), 0);
    assert_eq!(t.source_lines(), &[1, 2, 3]);
    assert_eq!(t.qis().len(), 4);
    let qi = |name: &str| &t.qis().iter().find(|c| c.name == name).unwrap().values;
    assert_eq!(qi("age"), &QiValues::Numeric(vec![34.0, 41.5, 34.0]));
    match qi("education") {
        QiValues::Categorical { codes, hierarchy } => {
            let labels: Vec<&str> = codes.iter().map(|&c| hierarchy.leaf_label(c)).collect();
            assert_eq!(labels, ["Masters", "HS-grad", "Masters"]);
            assert_eq!(hierarchy.height(), 2);
        }
        other => panic!("{other:?}"),
    }
    match qi("city") {
        // Coded by first appearance under a flat hierarchy.
        QiValues::Categorical { codes, hierarchy } => {
            assert_eq!(codes, &[0, 1, 0]);
            assert_eq!(hierarchy.leaf_labels(), ["Lyon", "Paris"]);
            assert_eq!(hierarchy.height(), 1);
        }
        other => panic!("{other:?}"),
    }
    let born = [
        parse_date("1990-05-17").unwrap(),
        parse_date("1983-01-02").unwrap(),
        parse_date("2000-02-29").unwrap(),
    ];
    assert_eq!(qi("born"), &QiValues::Date(born.to_vec()));
    assert_eq!(t.single_numeric_sa(), Some(&[52000.0, -10.25, 0.0][..]));
    // Text: identifiers not stored; published cells verbatim (even empty
    // insensitive cells, even though "" is a missing token).
    assert_eq!(t.text(0, 0), None);
    assert_eq!(t.text(1, 1), Some("41.5"));
    assert_eq!(t.text(6, 1), Some(""));
    assert_eq!(t.text(6, 2), Some("quoted, with comma"));
    assert_eq!(t.text(4, 2), Some("2000-02-29"));
}

#[test]
fn header_order_may_differ_from_the_schema() {
    let t = load(
        "note,salary,born,city,education,age,id\n\
         x,100,2001-01-01,Lyon,Bachelors,20,p1\n",
    )
    .unwrap();
    // The table is in schema order whatever the CSV order.
    assert_eq!(t.qis()[0].name, "age");
    assert_eq!(t.qis()[0].schema_index, 1);
    assert_eq!(t.qis()[0].values, QiValues::Numeric(vec![20.0]));
    assert_eq!(t.text(6, 0), Some("x"));
    assert_eq!(t.text(1, 0), Some("20"));
}

#[test]
fn crlf_bom_and_blank_lines_are_accepted() {
    let t = load(
        "\u{feff}id,age,education,city,born,salary,note\r\n\
         p1,34,Masters,Lyon,1990-05-17,52000,a\r\n\
         \r\n\
         p2,35,Masters,\"Saint-Étienne\",1990-05-18,1,b\r\n\r\n",
    )
    .unwrap();
    assert_eq!(t.rows(), 2);
    assert_eq!(t.text(6, 1), Some("b"));
    assert_eq!(t.text(3, 1), Some("Saint-Étienne"));
    // Blank lines are not records: data lines count records.
    assert_eq!(t.source_lines(), &[1, 2]);
}

#[test]
fn semicolon_delimiter_and_quoted_delimiters() {
    let s = schema_with(b';', &[""], MissingPolicy::Reject);
    let t = load_table(
        s,
        &b"id;age;education;city;born;salary;note\n\
           1;20;Masters;\"A;B\";2001-01-01;5;\"x;y\"\n"[..],
    )
    .unwrap();
    assert_eq!(t.text(3, 0), Some("A;B"));
    assert_eq!(t.text(6, 0), Some("x;y"));
}

#[test]
fn undescribed_column_is_named() {
    let e =
        err("id,age,education,city,born,salary,note,shoe_size\n1,2,Masters,a,2001-01-01,3,n,44\n");
    assert_eq!(e.kind, ErrorKind::UndescribedColumn);
    assert_names(&e, &["'shoe_size'"]);
    assert_eq!(e.errors[0].field, Field::HeaderCell(7));
    assert_eq!(
        e.detail("columns"),
        Some(&Detail::List(vec![Detail::from("shoe_size")]))
    );
}

#[test]
fn schema_column_absent_from_header_is_unknown() {
    let e = err("id,age,education,city,born,note\n1,2,Masters,a,2001-01-01,n\n");
    assert_eq!(e.kind, ErrorKind::UnknownColumn);
    assert_names(&e, &["'salary'"]);
    assert_eq!(e.errors[0].field, Field::ColumnParam(5, "name"));
    assert!(e.message.contains("missing from the CSV"), "{}", e.message);
    assert!(e.errors[0].message.contains("'salary' is missing"));
}

#[test]
fn a_renamed_column_is_named_undescribed_and_missing() {
    // `salary` became `income`: one undescribed, one missing; both named.
    let e = err("id,age,education,city,born,income,note\n1,2,Masters,a,2001-01-01,3,n\n");
    assert_eq!(e.kind, ErrorKind::UndescribedColumn);
    assert!(e.message.contains("'income'"), "{}", e.message);
    assert!(
        e.message.contains("'salary' are missing from the CSV"),
        "{}",
        e.message
    );
    assert_eq!(
        e.detail("missing"),
        Some(&Detail::List(vec![Detail::from("salary")]))
    );
    assert!(e
        .errors
        .iter()
        .any(|x| x.field == Field::ColumnParam(5, "name") && x.message.contains("missing")));
}

#[test]
fn duplicate_header_is_malformed() {
    let e = err("id,age,education,city,born,salary,note,age\n1,2,Masters,a,2001-01-01,3,n,4\n");
    assert_eq!(e.kind, ErrorKind::MalformedCsv);
    assert_names(&e, &["'age'", "twice"]);
    assert_eq!(e.errors[0].field, Field::HeaderCell(7));
}

#[test]
fn empty_input_and_header_only_are_malformed() {
    for input in ["", "\n\n", "\u{feff}"] {
        let e = err(input);
        assert_eq!(e.kind, ErrorKind::MalformedCsv);
        assert_names(&e, &["empty"]);
        assert_eq!(e.errors[0].field, Field::Data);
    }
    for input in [HEADER, "id,age,education,city,born,salary,note\r\n\r\n"] {
        let e = err(input);
        assert_eq!(e.kind, ErrorKind::MalformedCsv);
        assert_names(&e, &["no data rows"]);
    }
}

#[test]
fn wrong_field_count_names_the_data_line() {
    let e = err(&format!(
        "{HEADER}p1,34,Masters,Lyon,1990-05-17,5,a\n\np2,34,Masters,Lyon,1990-05-17,5\n"
    ));
    assert_eq!(e.kind, ErrorKind::MalformedCsv);
    // Data line 2 is the second record; the blank line shifts the file line.
    assert_names(
        &e,
        &["data line 2 (file line 4)", "6 field(s)", "header has 7"],
    );
    assert_eq!(e.errors[0].field, Field::DataLine(2));
    assert_eq!(e.detail("file_line"), Some(&Detail::Int(4)));
}

#[test]
fn crlf_files_report_their_own_lines() {
    let csv = "id,age,education,city,born,salary,note\r\n\
               p1,30,Masters,Lyon,1990-05-17,1,\"two\r\nlines\"\r\n\
               p2,3O,Masters,Lyon,1990-05-17,1,a\r\n";
    // The note's line break needs the schema's opt-in.
    let e = err(csv);
    assert_eq!(e.errors[0].field, Field::DataCell(1, "note".into()));
    assert_names(&e, &["data line 1 (file line 2)", "file line 3"]);
    let opted_in = Schema::new(
        "t".into(),
        CsvOptions {
            allow_line_breaks: true,
            ..CsvOptions::default()
        },
        MissingPolicy::Reject,
        schema().columns().to_vec(),
    )
    .unwrap();
    let e = load_table(Arc::new(opted_in), csv.as_bytes()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::MalformedCsv);
    assert_names(&e, &["data line 2 (file line 4)", "'3O'"]);
    assert_eq!(e.errors[0].field, Field::DataCell(2, "age".into()));
}

#[test]
fn bad_numbers_name_column_line_and_value() {
    for bad in ["4x", "NaN", "inf", "1,5", "", " "] {
        let cell = if bad.contains(',') {
            format!("\"{bad}\"")
        } else {
            bad.to_string()
        };
        let s = schema_with(b',', &["NA"], MissingPolicy::Reject);
        let csv = format!(
            "{HEADER}p1,30,Masters,Lyon,1990-05-17,1,a\np2,{cell},Masters,Lyon,1990-05-17,1,a\n"
        );
        let e = load_table(s, csv.as_bytes()).unwrap_err();
        assert_eq!(e.kind, ErrorKind::MalformedCsv, "{bad:?}");
        assert_names(&e, &["column 'age'", "data line 2", &format!("'{bad}'")]);
        assert_eq!(e.errors[0].field, Field::DataCell(2, "age".into()));
        assert_eq!(e.detail("value"), Some(&Detail::from(bad)));
    }
    let e = err(&format!("{HEADER}p1,30,Masters,Lyon,1990-05-17,12k,a\n"));
    assert_eq!(e.kind, ErrorKind::MalformedCsv);
    assert_names(&e, &["column 'salary'", "'12k'"]);
    assert_eq!(e.errors[0].field, Field::DataCell(1, "salary".into()));
}

#[test]
fn numbers_and_dates_tolerate_surrounding_blanks_and_keep_their_text() {
    let t = load(&format!(
        "{HEADER}p1,\" 34 \",Masters,Lyon,\" 1990-05-17\",\"\t7e2\",a\n"
    ))
    .unwrap();
    assert_eq!(t.qis()[0].values, QiValues::Numeric(vec![34.0]));
    assert_eq!(t.single_numeric_sa(), Some(&[700.0][..]));
    assert_eq!(
        t.qis()[3].values,
        QiValues::Date(vec![parse_date("1990-05-17").unwrap()])
    );
    assert_eq!(t.text(1, 0), Some(" 34 "));
}

#[test]
fn bad_dates_name_column_line_and_value() {
    for bad in ["17/05/1990", "1990-02-30", "1990-5-17"] {
        let e = err(&format!("{HEADER}p1,30,Masters,Lyon,{bad},1,a\n"));
        assert_eq!(e.kind, ErrorKind::MalformedCsv);
        assert_names(
            &e,
            &[
                "column 'born'",
                "data line 1",
                &format!("'{bad}'"),
                "YYYY-MM-DD",
            ],
        );
        assert_eq!(e.errors[0].field, Field::DataCell(1, "born".into()));
    }
}

#[test]
fn value_outside_the_hierarchy_names_its_first_line() {
    let e = err(&format!(
        "{HEADER}\
         p1,30,Masters,Lyon,1990-05-17,1,a\n\
         p2,30,PhD,Lyon,1990-05-17,1,a\n\
         p3,30,PhD,Lyon,1990-05-17,1,a\n"
    ));
    assert_eq!(e.kind, ErrorKind::InvalidHierarchy);
    assert_names(&e, &["column 'education'", "data line 2", "'PhD'", "leaf"]);
    assert_eq!(e.errors[0].field, Field::DataCell(2, "education".into()));
    assert_eq!(e.detail("line"), Some(&Detail::Int(2)));
    // Categorical values are compared exactly: no trimming.
    let e = err(&format!("{HEADER}p1,30, Masters,Lyon,1990-05-17,1,a\n"));
    assert_eq!(e.kind, ErrorKind::InvalidHierarchy);
    assert_names(&e, &["' Masters'"]);
}

#[test]
fn missing_values_are_rejected_listing_the_first_ten_lines() {
    let mut csv = HEADER.to_string();
    csv.push_str("p0,30,Masters,Lyon,1990-05-17,1,a\n");
    for i in 1..=12 {
        // Line 2 misses two columns; later ones one; a bad number after the
        // first missing value is no longer reported.
        match i {
            1 => csv.push_str("p,,Masters,?,1990-05-17,1,a\n"),
            5 => csv.push_str("p,oops,Masters,Lyon,1990-05-17,1,a\n"),
            _ => csv.push_str("p,30,Masters,Lyon,1990-05-17,?,a\n"),
        }
    }
    let s = schema_with(b',', &["", "?"], MissingPolicy::Reject);
    let e = load_table(s, csv.as_bytes()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::MissingValues);
    assert_eq!(e.detail("rows_with_missing"), Some(&Detail::Int(11)));
    assert_names(
        &e,
        &["11 row(s)", "2 (age, city)", "3 (salary)", "suppress"],
    );
    assert_eq!(e.errors[0].field, Field::DataCell(2, "age".into()));
    assert_eq!(e.errors[1].field, Field::DataCell(2, "city".into()));
    assert_eq!(e.errors[2].field, Field::DataCell(3, "salary".into()));
    // 10 lines listed (2, 3, 4, 5, 7, 8, …, 12), 11 pointers.
    let Some(Detail::List(listed)) = e.detail("missing") else {
        panic!("no missing detail: {e:?}")
    };
    assert_eq!(listed.len(), 10);
    assert_eq!(e.errors.len(), 11);
    assert!(!e
        .errors
        .iter()
        .any(|f| matches!(f.field, Field::DataCell(6, _))));
    assert!(!e
        .errors
        .iter()
        .any(|f| matches!(f.field, Field::DataCell(13, _))));
    assert!(e.message.contains("12 (salary)") && !e.message.contains("13 (salary)"));
}

#[test]
fn missing_values_are_suppressed_and_counted() {
    let s = schema_with(b',', &["", "NA"], MissingPolicy::Suppress);
    let csv = format!(
        "{HEADER}\
         p1,30,Masters,Lyon,1990-05-17,1,a\n\
         p2,NA,PhD,Lyon,1990-05-17,1,b\n\
         ,31,Masters,Nice,1990-05-17,2,NA\n\
         p4,32,Masters,Lyon,,3,c\n\
         p5,33,HS-grad,Paris,1990-05-17,4,\n"
    );
    let t = load_table(s, csv.as_bytes()).unwrap();
    // Row 2 (its bad education is not checked) and row 4 are left out;
    // missing tokens in the identifier and the insensitive column are text.
    assert_eq!(t.suppressed_rows(), 2);
    assert_eq!(t.source_lines(), &[1, 3, 5]);
    assert_eq!(t.single_numeric_sa(), Some(&[1.0, 2.0, 4.0][..]));
    assert_eq!(t.text(6, 1), Some("NA"));
    assert_eq!(t.text(6, 2), Some(""));
    // Suppressed rows add no categories.
    match &t.qis()[2].values {
        QiValues::Categorical { hierarchy, .. } => {
            assert_eq!(hierarchy.leaf_labels(), ["Lyon", "Nice", "Paris"])
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn suppressing_every_row_is_an_error() {
    let s = schema_with(b',', &["?"], MissingPolicy::Suppress);
    let csv =
        format!("{HEADER}p1,?,Masters,Lyon,1990-05-17,1,a\np2,3,Masters,Lyon,1990-05-17,?,a\n");
    let e = load_table(s, csv.as_bytes()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::MissingValues);
    assert_names(&e, &["all 2 data row(s)"]);
}

#[test]
fn invalid_utf8_in_published_cells_is_malformed_but_identifiers_are_ignored() {
    let mut csv = HEADER.as_bytes().to_vec();
    csv.extend_from_slice(b"p\xff1,30,Masters,Lyon,1990-05-17,1,a\n");
    let t = load_table(schema(), &csv[..]).unwrap();
    assert_eq!(t.rows(), 1);

    let mut csv = HEADER.as_bytes().to_vec();
    csv.extend_from_slice(b"p1,30,Masters,Lyon,1990-05-17,1,caf\xe9\n");
    let e = load_table(schema(), &csv[..]).unwrap_err();
    assert_eq!(e.kind, ErrorKind::MalformedCsv);
    assert_names(
        &e,
        &["column 'note'", "data line 1", "UTF-8", "'caf\u{fffd}'"],
    );
    assert_eq!(e.errors[0].field, Field::DataCell(1, "note".into()));
}

#[test]
fn categorical_sa_with_and_without_hierarchy() {
    let h =
        parse_hierarchy_csv(b"flu;infection;*\ncold;infection;*\nulcer;stomach;*\n", "d").unwrap();
    for (hierarchy, expect_flag) in [(Some(Arc::new(h)), true), (None, false)] {
        let s = Schema::new(
            "t".into(),
            CsvOptions::default(),
            MissingPolicy::Reject,
            vec![
                col("zip", Role::QuasiIdentifier, Some(ValueType::Numeric)),
                ColumnSpec {
                    hierarchy: hierarchy.clone(),
                    ..col("d", Role::Sensitive, Some(ValueType::Categorical))
                },
            ],
        )
        .unwrap();
        let t = load_table(Arc::new(s), &b"zip,d\n1,ulcer\n2,flu\n3,ulcer\n"[..]).unwrap();
        match &t.sensitive()[0].values {
            SaValues::Categorical {
                codes,
                hierarchy,
                has_hierarchy,
            } => {
                assert_eq!(*has_hierarchy, expect_flag);
                let labels: Vec<&str> = codes.iter().map(|&c| hierarchy.leaf_label(c)).collect();
                assert_eq!(labels, ["ulcer", "flu", "ulcer"]);
            }
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn pointers_escape_column_names() {
    let s = Schema::new(
        "t".into(),
        CsvOptions::default(),
        MissingPolicy::Reject,
        vec![col("km/h", Role::QuasiIdentifier, Some(ValueType::Numeric))],
    )
    .unwrap();
    let e = load_table(Arc::new(s), &b"km/h\nfast\n"[..]).unwrap_err();
    assert_eq!(e.errors[0].field, Field::DataCell(1, "km/h".into()));
    assert_names(&e, &["'km/h'", "'fast'"]);
}

#[test]
fn read_failures_name_the_data_line() {
    /// Yields the header and one row, then fails like a broken upload.
    struct Broken(Vec<u8>);
    impl std::io::Read for Broken {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.0.is_empty() {
                return Err(std::io::Error::other("connection reset"));
            }
            let n = buf.len().min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0.drain(..n);
            Ok(n)
        }
    }
    let bytes = format!("{HEADER}p1,30,Masters,Lyon,1990-05-17,1,a\n").into_bytes();
    let e = load_table(schema(), Broken(bytes)).unwrap_err();
    assert_eq!(e.kind, ErrorKind::MalformedCsv);
    assert_names(&e, &["data line 2", "connection reset"]);
    assert_eq!(e.errors[0].field, Field::DataLine(2));
}

mod numbers {
    use proptest::prelude::*;

    use crate::ingest::load::parse_number;

    /// What the float parser makes of a cell (the reader's rule before
    /// integers got their own path).
    fn by_float_parser(s: &str) -> Option<f64> {
        let v: f64 = s.trim_matches(|c| c == ' ' || c == '\t').parse().ok()?;
        v.is_finite().then_some(v)
    }

    fn same(a: Option<f64>, b: Option<f64>) -> bool {
        a.map(f64::to_bits) == b.map(f64::to_bits)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Integers of any length, signs, leading zeros, blanks: the same
        /// value to the bit (negative zero included) as the float parser.
        #[test]
        fn integer_cells_read_as_the_float_parser_reads_them(
            s in "[ \t]?[+-]?[0-9]{0,19}[ \t]?",
        ) {
            prop_assert!(same(parse_number(&s), by_float_parser(&s)), "{:?}", s);
        }

        #[test]
        fn other_cells_read_as_the_float_parser_reads_them(
            s in "[+-]?[0-9]{0,4}[.eE]?[+-]?[0-9]{0,4}|[a-z+-]{1,4}",
        ) {
            prop_assert!(same(parse_number(&s), by_float_parser(&s)), "{:?}", s);
        }
    }

    #[test]
    fn negative_zero_and_the_largest_integers_are_exact() {
        assert_eq!(
            parse_number("-0").map(f64::to_bits),
            Some((-0.0f64).to_bits())
        );
        assert_eq!(parse_number("+0"), Some(0.0));
        assert_eq!(parse_number("999999999999999"), Some(999_999_999_999_999.0));
        assert_eq!(parse_number("0009"), Some(9.0));
        assert_eq!(parse_number("-"), None);
        assert_eq!(parse_number(""), None);
    }
}
