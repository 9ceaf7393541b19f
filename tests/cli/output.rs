//! The release as written: CSV on stdout with the formula-injection guard,
//! JSON with verbatim cells, the summary on stderr.

use serde_json::Value;

use crate::support::{proxima, Scratch};

const SCHEMA: &str = r#"{"name": "t", "columns": [
    {"name": "name", "role": "identifier"},
    {"name": "age", "role": "quasi_identifier", "type": "numeric"},
    {"name": "note", "role": "insensitive"},
    {"name": "salary", "role": "sensitive", "type": "numeric"}]}"#;

const DATA: &str = "name,age,note,salary\n\
Ann,30,=HYPERLINK(\"x\"),1000\n\
Bob,31,-5,-200\n\
Cy,40,\"a,b\",3000\n\
Di,41,-x,4000\n";

fn run(format: &str) -> crate::support::Run {
    let s = Scratch::new();
    let schema = s.file("schema.json", SCHEMA);
    let data = s.file("data.csv", DATA);
    proxima(&[
        "anonymize",
        "--data",
        &data,
        "--schema",
        &schema,
        "--model",
        r#"{"kind": "k_anonymity", "k": 2}"#,
        "--format",
        format,
    ])
}

#[test]
fn csv_on_stdout_is_guarded_and_quoted() {
    let r = run("csv");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = String::from_utf8(r.stdout.clone()).unwrap();
    let mut lines: Vec<&str> = text.split("\r\n").filter(|l| !l.is_empty()).collect();
    assert_eq!(lines.remove(0), "group_id,age,note,salary");
    lines.sort();
    assert_eq!(
        lines,
        [
            // Guarded, then quoted because it holds quotes.
            "1,[30-31],\"'=HYPERLINK(\"\"x\"\")\",1000",
            // Negative numbers stay numbers.
            "1,[30-31],-5,-200",
            "2,[40-41],\"a,b\",3000",
            "2,[40-41],'-x,4000",
        ]
    );
    let summary = r.stderr_json();
    assert_eq!(summary["rows"], 4);
    assert_eq!(summary["groups"], 2);
    assert_eq!(summary["min_group_size"], 2);
    assert!(summary["information_loss"].as_f64().unwrap() > 0.0);
    assert!(summary["elapsed_ms"].is_u64());
}

#[test]
fn json_on_stdout_keeps_cells_verbatim() {
    let r = run("json");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(
        v["columns"],
        serde_json::json!(["group_id", "age", "note", "salary"])
    );
    let notes: Vec<&str> = v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r[2].as_str().unwrap())
        .collect();
    for expected in ["=HYPERLINK(\"x\")", "-5", "a,b", "-x"] {
        assert!(notes.contains(&expected), "{notes:?}");
    }
}
