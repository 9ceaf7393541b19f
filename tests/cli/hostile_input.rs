//! The offline commands read data through the upload's loader: a stray
//! quote that merges rows into an insensitive (or identifier) cell and a
//! huge cell are refused as the API refuses them.

use crate::support::{expect_problem, proxima, Scratch};

const SCHEMA: &str = r#"{"name": "patients", "columns": [
    {"name": "ssn", "role": "identifier"},
    {"name": "age", "role": "quasi_identifier", "type": "numeric"},
    {"name": "disease", "role": "sensitive", "type": "categorical"},
    {"name": "notes", "role": "insensitive"}]}"#;

/// 40 rows; row 10's notes open a quote that row 20's close.
fn stray_quote_csv() -> String {
    let mut csv = "ssn,age,disease,notes\n".to_string();
    for i in 1..=40 {
        let notes = match i {
            10 => "\"opened here".to_string(),
            20 => "here\"".to_string(),
            _ => format!("note {i}"),
        };
        let disease = ["flu", "hiv", "cancer"][i % 3];
        csv.push_str(&format!(
            "SSN-{},{},{disease},{notes}\n",
            100_000 + i,
            20 + i
        ));
    }
    csv
}

fn run(
    command: &str,
    s: &Scratch,
    schema: &str,
    data: &str,
    extra: &[&str],
) -> crate::support::Run {
    let schema = s.file("schema.json", schema);
    let data = s.file("data.csv", data);
    let mut args = vec![command, "--data", &data, "--schema", &schema];
    match command {
        "anonymize" => args.extend(["--model", r#"{"kind": "k_anonymity", "k": 2}"#]),
        _ => args.extend(["--checks", r#"[{"kind": "k_anonymity", "k": 2}]"#]),
    }
    args.extend_from_slice(extra);
    proxima(&args)
}

#[test]
fn a_stray_quote_in_an_insensitive_column_is_refused_by_anonymize_and_audit() {
    let s = Scratch::new();
    for command in ["anonymize", "audit"] {
        let r = run(command, &s, SCHEMA, &stray_quote_csv(), &[]);
        let p = expect_problem(&r, "malformed_csv");
        assert_eq!(p["errors"][0]["pointer"], "/data/line/10/notes", "{p}");
        assert_eq!(p["details"]["last_file_line"], 21, "{p}");
        assert!(r.stdout.is_empty(), "{command}: nothing is released");
        assert!(!r.stderr.contains("SSN-"), "{}", r.stderr);
    }
    // The schema's opt-in takes the cell as written.
    let opted_in = SCHEMA.replace(
        r#""name": "patients","#,
        r#""name": "patients", "csv": {"allow_line_breaks": true},"#,
    );
    let r = run("anonymize", &s, &opted_in, &stray_quote_csv(), &[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
}

#[test]
fn a_huge_cell_is_refused_unless_the_limit_is_raised() {
    let s = Scratch::new();
    let mut csv = "ssn,age,disease,notes\n".to_string();
    for i in 1..=6 {
        let notes = if i == 4 {
            "n".repeat(1_500_000)
        } else {
            format!("note {i}")
        };
        csv.push_str(&format!("SSN-{i},{},flu,{notes}\n", 20 + i));
    }
    let r = run("anonymize", &s, SCHEMA, &csv, &[]);
    let p = expect_problem(&r, "record_too_large");
    assert_eq!(p["status"], 413);
    assert_eq!(p["errors"][0]["pointer"], "/data/line/4/notes", "{p}");
    assert_eq!(p["details"]["max_cell_bytes"], 1 << 20, "{p}");
    let r = run(
        "anonymize",
        &s,
        SCHEMA,
        &csv,
        &["--max-record-bytes", "100000"],
    );
    let p = expect_problem(&r, "record_too_large");
    assert_eq!(p["errors"][0]["pointer"], "/data/line/4", "{p}");
    let r = run(
        "anonymize",
        &s,
        SCHEMA,
        &csv,
        &["--max-cell-bytes", "2000000"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
}
