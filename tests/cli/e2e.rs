//! End to end on the shared tables: `proxima anonymize` writes a release
//! that satisfies its model (checked here independently of the core), and
//! `proxima audit` reports on it.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use serde_json::Value;

use crate::support::{proxima, shared_dir, Scratch};

/// A parsed release: header and rows (the CSV writer never quotes these
/// tables' cells, so a split is enough).
struct Release {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Release {
    fn from_csv(text: &str) -> Release {
        let mut lines = text.split("\r\n").filter(|l| !l.is_empty());
        let header = lines
            .next()
            .unwrap()
            .split(',')
            .map(str::to_string)
            .collect();
        let rows = lines
            .map(|l| l.split(',').map(str::to_string).collect())
            .collect();
        Release { header, rows }
    }

    fn from_json(v: &Value) -> Release {
        let strings = |a: &Value| -> Vec<String> {
            a.as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap().to_string())
                .collect()
        };
        Release {
            header: strings(&v["columns"]),
            rows: v["rows"].as_array().unwrap().iter().map(strings).collect(),
        }
    }

    fn col(&self, name: &str) -> usize {
        self.header
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("no column {name} in {:?}", self.header))
    }

    /// Row indices by group id; asserts rows come grouped (each group's rows
    /// contiguous).
    fn groups(&self) -> Vec<Vec<usize>> {
        let g = self.col("group_id");
        let mut groups: Vec<Vec<usize>> = Vec::new();
        let mut seen = HashSet::new();
        let mut current: Option<&str> = None;
        for (i, r) in self.rows.iter().enumerate() {
            if current != Some(r[g].as_str()) {
                assert!(
                    seen.insert(r[g].clone()),
                    "group {} is not contiguous",
                    r[g]
                );
                groups.push(Vec::new());
                current = Some(r[g].as_str());
            }
            groups.last_mut().unwrap().push(i);
        }
        groups
    }
}

/// Absolute (ε,m)-anonymity: in every group, every row's closed
/// ε-neighbourhood holds at most |G|/m rows (itself included).
fn assert_epsilon_m(release: &Release, sa: &str, epsilon: f64, m: usize) {
    let s = release.col(sa);
    for g in release.groups() {
        let mut v: Vec<f64> = g
            .iter()
            .map(|&i| release.rows[i][s].parse().unwrap())
            .collect();
        v.sort_by(f64::total_cmp);
        let (mut lo, mut hi) = (0, 0);
        for x in &v {
            while v[lo] < x - epsilon {
                lo += 1;
            }
            while hi < v.len() && v[hi] <= x + epsilon {
                hi += 1;
            }
            let neighbours = hi - lo;
            assert!(
                neighbours * m <= v.len(),
                "a group of {} has a row with {neighbours} neighbours (m = {m})",
                v.len()
            );
        }
    }
}

/// Every QI cell is the same within a group and covers the row's original
/// value: `[lo-hi]` with lo ≤ x ≤ hi, or x itself.
fn assert_generalizes(release: &Release, original: &Original, qis: &[&str]) {
    let row_id = release.col("row_id");
    for g in release.groups() {
        for qi in qis {
            let c = release.col(qi);
            let cell = &release.rows[g[0]][c];
            for &i in &g {
                let r = &release.rows[i];
                assert_eq!(&r[c], cell, "{qi} differs inside a group");
                let line: usize = r[row_id].parse().unwrap();
                let x: f64 = original.value(line, qi).parse().unwrap();
                assert!(covers(cell, x), "{qi}: {cell} does not cover {x}");
            }
        }
    }
}

fn covers(cell: &str, x: f64) -> bool {
    if let Some(inner) = cell.strip_prefix('[').and_then(|c| c.strip_suffix(']')) {
        // `[lo-hi]`; lo may be negative, so split at the '-' after lo.
        let at = inner[1..].find('-').map(|i| i + 1).expect("an interval");
        let lo: f64 = inner[..at].parse().unwrap();
        let hi: f64 = inner[at + 1..].parse().unwrap();
        lo <= x && x <= hi
    } else {
        cell.parse::<f64>().unwrap() == x
    }
}

/// The input table, by 1-based data line.
struct Original {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Original {
    fn read(path: &Path, delimiter: char) -> Original {
        let text = std::fs::read_to_string(path).unwrap();
        let mut lines = text.lines();
        let header = lines
            .next()
            .unwrap()
            .split(delimiter)
            .map(str::to_string)
            .collect();
        let rows = lines
            .filter(|l| !l.is_empty())
            .map(|l| l.split(delimiter).map(str::to_string).collect())
            .collect();
        Original { header, rows }
    }

    fn value(&self, line: usize, column: &str) -> &str {
        let c = self.header.iter().position(|h| h == column).unwrap();
        &self.rows[line - 1][c]
    }
}

fn summary_of(stderr_json: &Value) -> (u64, u64, u64) {
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

/// The schema of a release for auditing it: group_id and row_id are not
/// published attributes, generalized QIs are categorical labels.
fn release_schema(header: &[String], qis: &[&str], sa: &str) -> String {
    let columns: Vec<Value> = header
        .iter()
        .map(|h| {
            if qis.contains(&h.as_str()) {
                serde_json::json!({"name": h, "role": "quasi_identifier", "type": "categorical"})
            } else if h == sa {
                serde_json::json!({"name": h, "role": "sensitive", "type": "numeric"})
            } else if h == "row_id" {
                serde_json::json!({"name": h, "role": "identifier"})
            } else {
                serde_json::json!({"name": h, "role": "insensitive"})
            }
        })
        .collect();
    serde_json::json!({"name": "release", "columns": columns}).to_string()
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
        "--format",
        "json",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    let (rows, groups, min_size) = summary_of(&run.stderr_json());
    assert_eq!(rows, 500_000);
    assert!(min_size >= 5);

    let v: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    let release = Release::from_json(&v);
    assert_eq!(
        release.header,
        ["group_id", "Age", "Birthplace", "Occupation", "Income"]
    );
    assert_eq!(release.rows.len(), 500_000);
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
    assert_eq!(report["rows"], 500_000);
    assert_eq!(report["passed"], true, "{report}");
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
