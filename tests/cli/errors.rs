//! Bad input → exit code 2 and the API's problem object on stderr.

use crate::support::{expect_problem, proxima, Scratch};

const SCHEMA: &str = r#"{"name": "t", "columns": [
    {"name": "age", "role": "quasi_identifier", "type": "numeric"},
    {"name": "sex", "role": "quasi_identifier", "type": "categorical"},
    {"name": "salary", "role": "sensitive", "type": "numeric"}]}"#;

const DATA: &str = "age,sex,salary\n30,M,1000\n31,F,2000\n32,M,3000\n33,F,4000\n";

const MODEL: &str = r#"{"kind": "k_anonymity", "k": 2}"#;

fn anonymize(
    s: &Scratch,
    schema: &str,
    data: &str,
    model: &str,
    extra: &[&str],
) -> crate::support::Run {
    let schema = s.file("schema.json", schema);
    let data = s.file("data.csv", data);
    let mut args = vec![
        "anonymize",
        "--data",
        &data,
        "--schema",
        &schema,
        "--model",
        model,
    ];
    args.extend_from_slice(extra);
    proxima(&args)
}

#[test]
fn malformed_schema_json() {
    let s = Scratch::new();
    let run = anonymize(&s, r#"{"name": "t", "columns": ["#, DATA, MODEL, &[]);
    expect_problem(&run, "malformed_json");
    assert!(run.stdout.is_empty());
}

#[test]
fn invalid_schema_points_at_the_column() {
    let s = Scratch::new();
    let schema = SCHEMA.replace(r#""type": "categorical""#, r#""type": "text""#);
    let p = expect_problem(&anonymize(&s, &schema, DATA, MODEL, &[]), "invalid_schema");
    assert_eq!(p["errors"][0]["pointer"], "/columns/1/type");
    assert_eq!(p["status"], 422);
}

#[test]
fn schema_column_missing_from_the_data_is_unknown_column() {
    let s = Scratch::new();
    let data = "age,salary\n30,1000\n";
    let p = expect_problem(&anonymize(&s, SCHEMA, data, MODEL, &[]), "unknown_column");
    assert!(p["detail"].as_str().unwrap().contains("sex"), "{p}");
}

#[test]
fn undescribed_data_column() {
    let s = Scratch::new();
    let data = "age,sex,salary,zip\n30,M,1000,12345\n";
    let p = expect_problem(
        &anonymize(&s, SCHEMA, data, MODEL, &[]),
        "undescribed_column",
    );
    assert!(p["detail"].as_str().unwrap().contains("zip"), "{p}");
}

#[test]
fn hierarchy_for_an_unknown_column() {
    let s = Scratch::new();
    let h = s.file("zip.csv", "1;*\n");
    let arg = format!("zip={h}");
    let p = expect_problem(
        &anonymize(&s, SCHEMA, DATA, MODEL, &["--hierarchy", &arg]),
        "unknown_column",
    );
    assert_eq!(p["errors"][0]["pointer"], "/hierarchies/zip");
}

#[test]
fn malformed_csv_names_the_line() {
    let s = Scratch::new();
    let data = "age,sex,salary\n30,M,1000\n31,F\n";
    let p = expect_problem(&anonymize(&s, SCHEMA, data, MODEL, &[]), "malformed_csv");
    assert_eq!(p["status"], 400);
    assert!(p["detail"].as_str().unwrap().contains("line 2"), "{p}");
}

#[test]
fn invalid_model_parameter_points_at_it() {
    let s = Scratch::new();
    let model = r#"{"kind": "epsilon_m", "epsilon": 100, "m": 0}"#;
    let p = expect_problem(
        &anonymize(&s, SCHEMA, DATA, model, &[]),
        "invalid_parameters",
    );
    assert_eq!(p["errors"][0]["pointer"], "/model/m");
    let typo = r#"{"kind": "k_anonymity", "kk": 2}"#;
    let p = expect_problem(
        &anonymize(&s, SCHEMA, DATA, typo, &[]),
        "invalid_parameters",
    );
    assert_eq!(p["errors"][0]["pointer"], "/model/kk");
}

#[test]
fn unsupported_algorithm_names_the_supported_ones() {
    let s = Scratch::new();
    let p = expect_problem(
        &anonymize(&s, SCHEMA, DATA, MODEL, &["--algorithm", "xcolor"]),
        "invalid_parameters",
    );
    assert_eq!(p["errors"][0]["pointer"], "/algorithm");
    assert!(p["detail"].as_str().unwrap().contains("mondrian"), "{p}");
}

#[test]
fn model_from_a_file_with_at() {
    let s = Scratch::new();
    let model = s.file("model.json", r#"{"kind": "k_anonymity", "k": 0}"#);
    let p = expect_problem(
        &anonymize(&s, SCHEMA, DATA, &format!("@{model}"), &[]),
        "invalid_parameters",
    );
    assert_eq!(p["errors"][0]["pointer"], "/model/k");
}

#[test]
fn missing_data_file_is_bad_input() {
    let s = Scratch::new();
    let schema = s.file("schema.json", SCHEMA);
    let missing = s.path("nope.csv");
    let run = proxima(&[
        "anonymize",
        "--data",
        missing.to_str().unwrap(),
        "--schema",
        &schema,
        "--model",
        MODEL,
    ]);
    let p = expect_problem(&run, "unreadable_input");
    assert!(p["detail"].as_str().unwrap().contains("nope.csv"), "{p}");
}

#[test]
fn audit_checks_errors_point_into_the_list() {
    let s = Scratch::new();
    let schema = s.file("schema.json", SCHEMA);
    let data = s.file("data.csv", DATA);
    let run = proxima(&[
        "audit",
        "--data",
        &data,
        "--schema",
        &schema,
        "--checks",
        r#"[{"kind": "k_anonymity", "k": 2}, {"kind": "t_closeness", "t": 1.5}]"#,
    ]);
    let p = expect_problem(&run, "invalid_parameters");
    assert_eq!(p["errors"][0]["pointer"], "/checks/1/t");
}

#[test]
fn audit_groups_by_an_unknown_column() {
    let s = Scratch::new();
    let schema = s.file("schema.json", SCHEMA);
    let data = s.file("data.csv", DATA);
    let run = proxima(&[
        "audit",
        "--data",
        &data,
        "--schema",
        &schema,
        "--checks",
        r#"[{"kind": "k_anonymity", "k": 2}]"#,
        "--groups-by",
        "gid",
    ]);
    let p = expect_problem(&run, "unknown_column");
    assert_eq!(p["errors"][0]["pointer"], "/groups/column");
}

/// The review's case offline: Bob's diagnosis opens a quote the file never
/// closes. A lenient read publishes the next rows' names inside that cell;
/// the load must refuse the file, name the line where the quote opened,
/// and write no release.
#[test]
fn an_unclosed_quote_is_malformed_and_no_identifier_is_published() {
    let s = Scratch::new();
    let schema = r#"{"name": "patients", "columns": [
        {"name": "name", "role": "identifier"},
        {"name": "age", "role": "quasi_identifier", "type": "numeric"},
        {"name": "diagnosis", "role": "sensitive", "type": "categorical"}]}"#;
    let data = "name,age,diagnosis\nAnn Lee,20,flu\nBob Jones,21,\"cancer\n\
                Carol White,22,hiv\nDave Black,23,flu\nErin Green,24,flu\n";
    let out = s.path("release.csv");
    let out = out.to_str().unwrap();
    let run = anonymize(&s, schema, data, MODEL, &["--out", out]);
    let p = expect_problem(&run, "malformed_csv");
    assert_eq!(p["status"], 400, "{p}");
    assert_eq!(p["errors"][0]["pointer"], "/data/line/2", "{p}");
    assert_eq!(p["details"]["file_line"], 3, "{p}");
    assert!(
        p["detail"].as_str().unwrap().contains("never closed"),
        "{p}"
    );
    assert!(!run.stderr.contains("Carol"), "{}", run.stderr);
    assert!(!String::from_utf8_lossy(&run.stdout).contains("Carol"));
    let written = std::fs::read_to_string(out).unwrap_or_default();
    assert!(!written.contains("Carol"), "{written}");
}

/// A NUL byte in a published cell is refused, never written out raw.
#[test]
fn a_control_character_in_a_cell_is_malformed() {
    let s = Scratch::new();
    let data = "age,sex,salary\n30,M,1000\n31,F\u{0},2000\n";
    let p = expect_problem(&anonymize(&s, SCHEMA, data, MODEL, &[]), "malformed_csv");
    assert_eq!(p["errors"][0]["pointer"], "/data/line/2/sex", "{p}");
}
