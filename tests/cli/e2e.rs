//! End to end on the shared tables: `proxima anonymize` writes a release
//! that satisfies its model (checked here independently of the core), and
//! `proxima audit` reports on it.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use crate::release::{assert_epsilon_m, assert_generalizes, release_schema, Original, Release};
use crate::support::{proxima, shared_dir, Scratch};

pub fn summary_of(stderr_json: &Value) -> (u64, u64, u64) {
    (
        stderr_json["rows"].as_u64().unwrap(),
        stderr_json["groups"].as_u64().unwrap(),
        stderr_json["min_group_size"].as_u64().unwrap(),
    )
}

#[test]
fn creditcard_epsilon_m_release_and_audit() {
    let Some(shared) = shared_dir() else { return };
    let s = Scratch::new();
    let data = shared.join("data/creditcard/creditcard.csv");
    let schema = shared.join("examples/creditcard.schema.json");
    let out = s.path("release.csv");
    let run = proxima(&[
        "anonymize",
        "--data",
        data.to_str().unwrap(),
        "--schema",
        schema.to_str().unwrap(),
        "--model",
        r#"{"kind": "epsilon_m", "epsilon": 1000, "m": 4}"#,
        "--row-id",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    let (rows, groups, min_size) = summary_of(&run.stderr_json());
    assert_eq!(rows, 30000);

    let release = Release::from_csv(&std::fs::read_to_string(&out).unwrap());
    let original = Original::read(&data, ';');
    // group_id, row_id (the core's release layout), then the published
    // columns in dataset order (the identifier ID dropped).
    let mut expected = vec!["group_id".to_string(), "row_id".to_string()];
    expected.extend(original.header.iter().filter(|h| *h != "ID").cloned());
    assert_eq!(release.header, expected);
    assert_eq!(release.rows.len(), 30000);
    assert_eq!(release.groups().len() as u64, groups);
    assert!(min_size >= 4);

    // row_id is each input line exactly once, and the SA is as uploaded.
    let row_id = release.col("row_id");
    let bill = release.col("BILL_AMT1");
    let mut lines = HashSet::new();
    for r in &release.rows {
        let line: usize = r[row_id].parse().unwrap();
        assert!(lines.insert(line));
        assert_eq!(r[bill], original.value(line, "BILL_AMT1"));
    }
    assert_eq!(lines.len(), 30000);

    assert_epsilon_m(&release, "BILL_AMT1", 1000.0, 4);
    assert_generalizes(
        &release,
        &original,
        &["SEX", "EDUCATION", "MARRIAGE", "AGE"],
    );

    // Audit the release as published: QIs are labels now, groups by group_id.
    let audit_schema = release_schema(
        &release.header,
        &["SEX", "EDUCATION", "MARRIAGE", "AGE"],
        "BILL_AMT1",
    );
    let audit_schema = s.file("release.schema.json", &audit_schema);
    let run = proxima(&[
        "audit",
        "--data",
        out.to_str().unwrap(),
        "--schema",
        &audit_schema,
        "--checks",
        r#"[{"kind": "epsilon_m", "epsilon": 1000, "m": 4}, {"kind": "k_anonymity", "k": 4},
            {"kind": "epsilon_m", "epsilon": 1000, "m": 40}]"#,
        "--groups-by",
        "group_id",
    ]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    let report: Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(report["rows"], 30000);
    assert_eq!(report["groups"].as_u64().unwrap(), groups);
    assert_eq!(
        report["checks"][0]["passed"], true,
        "{}",
        report["checks"][0]
    );
    assert_eq!(
        report["checks"][1]["passed"], true,
        "{}",
        report["checks"][1]
    );
    // m = 40 is beyond what the release guarantees: the audit must say so.
    assert_eq!(report["checks"][2]["passed"], false);
    assert_eq!(report["passed"], false);
}

#[test]
fn sal_500k_epsilon_m_release_as_json_and_audit() {
    let Some(shared) = shared_dir() else { return };
    let s = Scratch::new();
    let data = shared.join("data/sal_synthetic/sal_synthetic_500k.csv.gz");
    let schema = shared.join("examples/sal.schema.json");
    let out = s.path("release.json");
    let run = proxima(&[
        "anonymize",
        "--data",
        data.to_str().unwrap(),
        "--schema",
        schema.to_str().unwrap(),
        "--model",
        r#"{"kind": "epsilon_m", "epsilon": 4500, "m": 5}"#,
        // m = 5 in the attacker's view needs some of sal's rows left out.
        "--suppression-limit",
        "0.25",
        "--format",
        "json",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    let summary = run.stderr_json();
    let (rows, groups, min_size) = summary_of(&summary);
    assert_eq!(rows, 500_000);
    assert!(min_size >= 5);
    let suppressed = summary["suppressed_by_model"].as_u64().unwrap();
    assert!(suppressed > 0 && suppressed <= 125_000, "{summary}");
    assert_eq!(summary["attacker_view"]["over_bound"], 0);

    let v: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    let release = Release::from_json(&v);
    assert_eq!(
        release.header,
        ["group_id", "Age", "Birthplace", "Occupation", "Income"]
    );
    assert_eq!(release.rows.len() as u64, 500_000 - suppressed);
    assert_eq!(release.groups().len() as u64, groups);
    assert_epsilon_m(&release, "Income", 4500.0, 5);
    let mut income: HashMap<String, usize> = HashMap::new();
    for r in &release.rows {
        *income.entry(r[4].clone()).or_default() += 1;
    }
    assert!(income.len() > 1000, "Income is published as uploaded");

    // Audit a CSV copy of the release grouped by group_id.
    let csv = s.path("release.csv");
    let mut text = release.header.join(",") + "\n";
    for r in &release.rows {
        text.push_str(&r.join(","));
        text.push('\n');
    }
    std::fs::write(&csv, text).unwrap();
    let audit_schema = release_schema(
        &release.header,
        &["Age", "Birthplace", "Occupation"],
        "Income",
    );
    let audit_schema = s.file("release.schema.json", &audit_schema);
    let run = proxima(&[
        "audit",
        "--data",
        csv.to_str().unwrap(),
        "--schema",
        &audit_schema,
        "--checks",
        r#"[{"kind": "epsilon_m", "epsilon": 4500, "m": 5}]"#,
        "--groups-by",
        "group_id",
    ]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    let report: Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(report["rows"], 500_000 - suppressed);
    assert_eq!(report["passed"], true, "{report}");
    assert_eq!(report["view"], "groups");

    // As an attacker reads the downloaded file: every row anywhere in its
    // group's box, every set of groups covering a point a candidate set.
    let run = proxima(&[
        "audit",
        "--data",
        csv.to_str().unwrap(),
        "--schema",
        &audit_schema,
        "--checks",
        r#"[{"kind": "epsilon_m", "epsilon": 4500, "m": 5}]"#,
        "--groups-by",
        "group_id",
        "--view",
        "attacker",
    ]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    let report: Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(report["view"], "attacker");
    assert_eq!(report["passed"], true, "{}", report["checks"][0]);
    assert_eq!(report["checks"][0]["attacker"]["over_bound"], 0);
    assert_eq!(
        report["checks"][0]["attacker"]["candidate_groups"]["max"],
        1
    );
}

#[test]
fn infeasible_m_exits_2_with_the_reachable_values() {
    let Some(shared) = shared_dir() else { return };
    let data = shared.join("data/creditcard/creditcard.csv");
    let schema = shared.join("examples/creditcard.schema.json");
    let run = proxima(&[
        "anonymize",
        "--data",
        data.to_str().unwrap(),
        "--schema",
        schema.to_str().unwrap(),
        "--model",
        r#"{"kind": "epsilon_m", "epsilon": 1000, "m": 50}"#,
    ]);
    assert_eq!(run.code, 2, "stderr: {}", run.stderr);
    let p = run.stderr_json();
    assert_eq!(p["code"], "infeasible_parameters", "{p}");
    assert!(run.stdout.is_empty());
}

#[test]
fn relative_neighbourhoods_need_positive_values() {
    let Some(shared) = shared_dir() else { return };
    let data = shared.join("data/creditcard/creditcard.csv");
    let schema = shared.join("examples/creditcard.schema.json");
    let run = proxima(&[
        "anonymize",
        "--data",
        data.to_str().unwrap(),
        "--schema",
        schema.to_str().unwrap(),
        "--model",
        r#"{"kind": "epsilon_m", "epsilon": 0.1, "m": 2, "neighborhood": "relative"}"#,
    ]);
    assert_eq!(run.code, 2, "stderr: {}", run.stderr);
    let p = run.stderr_json();
    assert_eq!(p["code"], "invalid_parameters", "{p}");
    assert_eq!(p["errors"][0]["pointer"], "/model/neighborhood");
    assert!(p["detail"].as_str().unwrap().contains("> 0"), "{p}");
}

/// `--threads` changes how fast, never what: the release written with one
/// thread and with three is the same file, byte for byte, in both formats
/// (the forking partitioners and the release rendered in stretches on
/// several threads, `proxima_core::parallel` and `src/render`).
#[test]
fn the_release_is_the_same_file_on_one_thread_and_on_three() {
    let Some(shared) = shared_dir() else { return };
    let s = Scratch::new();
    let data = shared.join("data/sal_synthetic/sal_synthetic_500k.csv.gz");
    let schema = shared.join("examples/sal.schema.json");
    let cases = [
        (r#"{"kind": "k_anonymity", "k": 10}"#, "csv", "0"),
        (
            r#"{"kind": "epsilon_m", "epsilon": 4500, "m": 5}"#,
            "json",
            "0.25",
        ),
    ];
    for (model, format, limit) in cases {
        let mut files = Vec::new();
        for threads in ["1", "3"] {
            let out = s.path(&format!("release-{threads}.{format}"));
            let run = proxima(&[
                "anonymize",
                "--data",
                data.to_str().unwrap(),
                "--schema",
                schema.to_str().unwrap(),
                "--model",
                model,
                "--suppression-limit",
                limit,
                "--row-id",
                "--format",
                format,
                "--threads",
                threads,
                "--out",
                out.to_str().unwrap(),
            ]);
            assert_eq!(run.code, 0, "stderr: {}", run.stderr);
            files.push(std::fs::read(&out).unwrap());
        }
        assert!(files[0].len() > 10_000_000, "{model}: a whole release");
        assert!(files[0] == files[1], "{model}: the {format} files differ");
    }
}
