//! The offline command drops the QIs' text before it partitions
//! (`Table::without_qi_text`): the release must be the same bytes, since
//! it prints the QIs' labels and never their cells.

use super::tests_jobs::{loaded, run_model};
use super::{write_release, Format};

const SCHEMA: &str = r#"{"name": "mixed", "columns": [
  {"name": "age", "role": "quasi_identifier", "type": "numeric"},
  {"name": "sex", "role": "quasi_identifier", "type": "categorical",
   "hierarchy": [["Male", "*"], ["Female", "*"]]},
  {"name": "town", "role": "quasi_identifier", "type": "categorical"},
  {"name": "born", "role": "quasi_identifier", "type": "date"},
  {"name": "name", "role": "identifier"},
  {"name": "notes", "role": "insensitive"},
  {"name": "income", "role": "sensitive", "type": "numeric"}]}"#;

/// Cells written the way people write them (leading zeros, decimals, a
/// trailing `.0`), so a release that printed a QI's cell instead of its
/// label would differ.
fn csv() -> String {
    let mut csv = "age,sex,town,born,name,notes,income\n".to_string();
    for i in 0..400u32 {
        csv += &format!(
            "{age},{sex},{town},{y}-{m:02}-{d:02},n{i},\"note {i}, text\",{income}\n",
            age = match i % 4 {
                0 => format!("0{}", 20 + i % 50),
                1 => format!("{}.0", 20 + i % 50),
                2 => format!("{}.5", 20 + i % 50),
                _ => format!("{}", 20 + i % 50),
            },
            sex = if i % 3 == 0 { "Female" } else { "Male" },
            town = ["Ash", "Birch", "Cedar", "Elm"][(i % 7 % 4) as usize],
            y = 1950 + i % 40,
            m = 1 + i % 12,
            d = 1 + i % 28,
            income = 1000 + (i * 37) % 5000,
        );
    }
    csv
}

fn release_bytes(model: &str, drop_qi_text: bool, format: Format) -> Vec<u8> {
    let (schema, table) = loaded(SCHEMA, &csv());
    let table = if drop_qi_text {
        table.without_qi_text()
    } else {
        table
    };
    let outcome = run_model(&schema, &table, model, 0.1);
    let kept = outcome.anonymized.table(&table);
    write_release(format, Vec::new(), kept, &outcome.anonymized.release, true).unwrap()
}

#[test]
fn the_release_is_the_same_without_the_qis_text() {
    for model in [
        r#"{"kind": "k_anonymity", "k": 5}"#,
        r#"{"kind": "epsilon_m", "epsilon": 400, "m": 3, "neighborhood": "absolute"}"#,
    ] {
        for format in [Format::Csv, Format::Json] {
            let whole = release_bytes(model, false, format);
            let lean = release_bytes(model, true, format);
            assert!(whole.len() > 400 * 20, "{model}: a release was written");
            assert!(whole == lean, "{model} {format:?}: the releases differ");
        }
    }
}

#[test]
#[should_panic(expected = "was dropped")]
fn reading_a_dropped_qi_text_is_a_bug_not_an_identifier() {
    let table = loaded(SCHEMA, &csv()).1.without_qi_text();
    assert_eq!(table.text(6, 0), Some("1000"), "the SA keeps its text");
    assert!(table.text(4, 0).is_none(), "identifiers have none");
    table.text(0, 0);
}
