//! Unit tests of the CSV shapes a careless or hostile client sends: a
//! quote never closed (the rest of the file would become one published
//! cell), line breaks in generalized cells, control characters.

use std::sync::Arc;

use super::load_table;
use crate::error::{Detail, ErrorKind, Field};
use crate::schema::{ColumnSpec, CsvOptions, MissingPolicy, Role, Schema, ValueType};

fn col(name: &str, role: Role, t: Option<ValueType>) -> ColumnSpec {
    ColumnSpec {
        name: name.into(),
        role,
        value_type: t,
        hierarchy: None,
    }
}

/// name (identifier), age (numeric QI), diagnosis (categorical SA), note
/// (insensitive).
fn schema(allow_line_breaks: bool) -> Arc<Schema> {
    Arc::new(
        Schema::new(
            "patients".into(),
            CsvOptions {
                allow_line_breaks,
                ..CsvOptions::default()
            },
            MissingPolicy::Reject,
            vec![
                col("name", Role::Identifier, None),
                col("age", Role::QuasiIdentifier, Some(ValueType::Numeric)),
                col("diagnosis", Role::Sensitive, Some(ValueType::Categorical)),
                col("note", Role::Insensitive, None),
            ],
        )
        .unwrap(),
    )
}

const HEADER: &str = "name,age,diagnosis,note\n";

/// The review's case: the quote opened in Bob's diagnosis is never closed,
/// so a lenient reader would publish Carol's, Dave's and Erin's names
/// inside one diagnosis cell.
#[test]
fn an_unclosed_quote_is_malformed_and_names_the_line_where_it_opened() {
    let csv = format!(
        "{HEADER}Ann Lee,20,flu,a\nBob Jones,21,\"cancer\nCarol White,22,hiv,c\n\
         Dave Black,23,flu,d\nErin Green,24,flu,e\n"
    );
    for allow in [false, true] {
        let e = load_table(schema(allow), csv.as_bytes()).unwrap_err();
        assert_eq!(e.kind, ErrorKind::MalformedCsv, "{}", e.message);
        assert_eq!(e.errors[0].field, Field::DataLine(2));
        assert!(e.message.contains("file line 3"), "{}", e.message);
        assert!(e.message.contains("never closed"), "{}", e.message);
        assert_eq!(e.detail("file_line"), Some(&Detail::Int(3)));
        assert_eq!(e.detail("line"), Some(&Detail::Int(2)));
        // Nothing of the swallowed rows is echoed back.
        assert!(!e.message.contains("Carol"), "{}", e.message);
    }
}

#[test]
fn an_unclosed_quote_in_the_header_or_the_last_row_is_malformed() {
    let e = load_table(
        schema(false),
        "name,\"age,diagnosis,note\n1,2,3,4\n".as_bytes(),
    )
    .unwrap_err();
    assert_eq!(e.kind, ErrorKind::MalformedCsv);
    assert_eq!(e.errors[0].field, Field::DataHeader);
    // Even a file whose last cell is cut inside its quote (no newline).
    let csv = format!("{HEADER}Ann,20,flu,a\nBob,21,flu,\"unfinished");
    let e = load_table(schema(false), csv.as_bytes()).unwrap_err();
    assert_eq!(e.errors[0].field, Field::DataLine(2));
}

#[test]
fn line_breaks_in_generalized_cells_need_the_schema_to_opt_in() {
    let csv = format!("{HEADER}Ann,20,\"flu\nsevere\",a\nBob,21,hiv,b\n");
    let e = load_table(schema(false), csv.as_bytes()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::MalformedCsv);
    assert_eq!(e.errors[0].field, Field::DataCell(1, "diagnosis".into()));
    assert!(e.message.contains("line break"), "{}", e.message);
    assert!(e.message.contains("allow_line_breaks"), "{}", e.message);
    let t = load_table(schema(true), csv.as_bytes()).unwrap();
    assert_eq!(t.rows(), 2);
}

/// The second review's case: a quote opened in an insensitive cell and
/// closed ten lines later. The record has the right number of fields, so
/// only the line break tells: without it the ten rows in between —
/// identifiers included — would be published inside one notes cell.
#[test]
fn a_stray_quote_in_an_insensitive_cell_is_refused_by_default() {
    let mut csv = HEADER.to_string();
    for i in 1..=20 {
        let note = match i {
            5 => "\"opened here".to_string(),
            15 => "here\"".to_string(),
            _ => format!("n{i}"),
        };
        csv.push_str(&format!("SSN-{i:06},{},flu,{note}\n", 20 + i));
    }
    let e = load_table(schema(false), csv.as_bytes()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::MalformedCsv, "{}", e.message);
    assert_eq!(e.errors[0].field, Field::DataCell(5, "note".into()));
    assert_eq!(e.detail("line"), Some(&Detail::Int(5)));
    assert_eq!(e.detail("file_line"), Some(&Detail::Int(6)));
    assert_eq!(e.detail("last_file_line"), Some(&Detail::Int(16)));
    assert!(e.message.contains("allow_line_breaks"), "{}", e.message);
    // Only the cell's own first line is echoed, none of the merged rows.
    assert_eq!(e.detail("value"), Some(&Detail::Str("opened here".into())));
    assert!(!e.message.contains("SSN-000006"), "{}", e.message);
    // The explicit opt-in takes the cell as written (rows 5 to 15 in one).
    assert_eq!(load_table(schema(true), csv.as_bytes()).unwrap().rows(), 10);
}

/// An identifier cell is never published, but a quote there swallows rows
/// just the same (they would vanish from the release): refused too, with
/// nothing of the identifier echoed.
#[test]
fn line_breaks_in_identifier_cells_are_refused_without_echoing_them() {
    let csv = format!("{HEADER}\"Ann\nLee\",20,flu,a\nBob,21,hiv,b\n");
    let e = load_table(schema(false), csv.as_bytes()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::MalformedCsv, "{}", e.message);
    assert_eq!(e.errors[0].field, Field::DataCell(1, "name".into()));
    assert!(!e.message.contains("Ann"), "{}", e.message);
    assert_eq!(e.detail("value"), None);
    // Carriage returns count as line breaks too.
    let csv = format!("{HEADER}Ann,20,flu,\"two\r\nlines\"\nBob,21,hiv,b\n");
    let e = load_table(schema(false), csv.as_bytes()).unwrap_err();
    assert_eq!(e.errors[0].field, Field::DataCell(1, "note".into()));
    let csv = format!("{HEADER}\"Ann\nLee\",20,flu,\"two\r\nlines\"\nBob,21,hiv,b\n");
    assert_eq!(load_table(schema(true), csv.as_bytes()).unwrap().rows(), 2);
}

#[test]
fn control_characters_in_published_cells_are_refused() {
    for (cell, column) in [
        ("fl\u{0}u", "diagnosis"),
        ("x\u{1b}[31m", "note"),
        ("a\u{7f}", "note"),
        ("c1\u{85}", "diagnosis"),
    ] {
        let (d, n) = if column == "note" {
            ("flu", cell)
        } else {
            (cell, "a")
        };
        let csv = format!("{HEADER}Ann,20,{d},{n}\n");
        for allow in [false, true] {
            let e = load_table(schema(allow), csv.as_bytes()).unwrap_err();
            assert_eq!(e.kind, ErrorKind::MalformedCsv, "{cell:?}");
            assert_eq!(e.errors[0].field, Field::DataCell(1, column.into()));
            assert!(e.message.contains("control character"), "{}", e.message);
        }
    }
    // Tabs are ordinary text, and so is non-ASCII text next to the C1 range.
    let csv = format!("{HEADER}Ann\u{0},20,fl\tu,Ā é\n");
    assert_eq!(load_table(schema(false), csv.as_bytes()).unwrap().rows(), 1);
}

/// A 1 MB cell that fails its check is echoed shortened, with its length.
#[test]
fn a_huge_bad_cell_is_echoed_shortened() {
    let big = "9x".repeat(500_000);
    let csv = format!("{HEADER}Ann,{big},flu,a\n");
    let e = load_table(schema(false), csv.as_bytes()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::MalformedCsv);
    let Some(Detail::Str(v)) = e.detail("value") else {
        panic!("no value detail: {:?}", e.details)
    };
    assert!(v.chars().count() <= 81 && v.ends_with('…'), "{v}");
    assert_eq!(e.detail("value_truncated"), Some(&Detail::Bool(true)));
    assert_eq!(e.detail("value_chars"), Some(&Detail::Int(1_000_000)));
    assert!(e.message.len() < 1_000, "{}", e.message.len());
}

/// A 50,000-column header with four columns described: the error lists a
/// bounded number of names and says how many there are.
#[test]
fn a_very_wide_header_gives_a_bounded_error() {
    let mut csv = String::from("name,age,diagnosis,note");
    for i in 0..50_000 {
        csv.push_str(&format!(",extra_column_{i}"));
    }
    csv.push('\n');
    csv.push_str(&"1,".repeat(50_003));
    csv.push_str("1\n");
    let e = load_table(schema(false), csv.as_bytes()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::UndescribedColumn);
    assert!(e.message.len() < 4_000, "{}", e.message.len());
    assert!(e.message.contains("and 49980 more"), "{}", e.message);
    assert!(e.errors.len() <= 20);
    assert_eq!(e.detail("count"), Some(&Detail::Int(50_000)));
    let Some(Detail::List(cols)) = e.detail("columns") else {
        panic!("no column list")
    };
    assert_eq!(cols.len(), 20);
}

/// A line break or a huge cell in a field past the header's width is the
/// width check's to report (found by the fuzzer: the cell checks looked
/// up a column name that does not exist).
#[test]
fn a_line_break_past_the_header_width_is_a_width_error() {
    let csv = format!("{HEADER}Ann,20,flu,a,\"extra\nfield\"\nBob,21,hiv,b\n");
    let e = load_table(schema(false), csv.as_bytes()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::MalformedCsv);
    assert_eq!(e.errors[0].field, Field::DataLine(1));
    assert!(e.message.contains("5 field(s)"), "{}", e.message);
}
