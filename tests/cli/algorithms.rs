//! Every model/algorithm pair the CLI accepts, on the shared tables: the
//! release satisfies the model (checked here or by an independent audit
//! run of the binary).

use serde_json::Value;

use crate::e2e::summary_of;
use crate::release::{assert_epsilon_m, release_schema, Release};
use crate::support::{proxima, shared_dir, Scratch};

fn audit(s: &Scratch, release_csv: &str, schema: &str, checks: &str) -> Value {
    let schema = s.file("audit.schema.json", schema);
    let run = proxima(&[
        "audit",
        "--data",
        release_csv,
        "--schema",
        &schema,
        "--checks",
        checks,
        "--groups-by",
        "group_id",
    ]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    serde_json::from_slice(&run.stdout).unwrap()
}

#[test]
fn mondrian_k_anonymity_on_adult_with_hierarchy_files() {
    let Some(shared) = shared_dir() else { return };
    let s = Scratch::new();
    let data = shared.join("data/adult/adult.csv");
    let schema = shared.join("examples/adult.schema.json");
    let out = s.path("release.csv");
    let categorical = [
        "sex",
        "race",
        "marital-status",
        "education",
        "native-country",
        "workclass",
        "occupation",
    ];
    let hierarchy_args: Vec<String> = categorical
        .iter()
        .map(|c| {
            let file = shared.join(format!("data/adult/adult_hierarchy_{c}.csv"));
            format!("{c}={}", file.display())
        })
        .collect();
    let mut args = vec![
        "anonymize",
        "--data",
        data.to_str().unwrap(),
        "--schema",
        schema.to_str().unwrap(),
        "--model",
        r#"{"kind": "k_anonymity", "k": 10}"#,
        "--out",
        out.to_str().unwrap(),
    ];
    for h in &hierarchy_args {
        args.extend_from_slice(&["--hierarchy", h]);
    }
    let run = proxima(&args);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    let (rows, groups, min_size) = summary_of(&run.stderr_json());
    assert_eq!(rows, 30162);
    assert!(min_size >= 10);

    let release = Release::from_csv(&std::fs::read_to_string(&out).unwrap());
    let sizes: Vec<usize> = release.groups().iter().map(Vec::len).collect();
    assert_eq!(sizes.len() as u64, groups);
    assert!(sizes.iter().all(|&n| n >= 10));
    // Categorical QIs publish hierarchy labels: the workclass hierarchy's
    // internal labels appear once groups merge workclasses.
    let hierarchy =
        std::fs::read_to_string(shared.join("data/adult/adult_hierarchy_workclass.csv")).unwrap();
    let labels: std::collections::HashSet<&str> =
        hierarchy.lines().flat_map(|l| l.split(';')).collect();
    let w = release.col("workclass");
    assert!(release.rows.iter().all(|r| labels.contains(r[w].as_str())));

    let mut qis = vec!["age"];
    qis.extend_from_slice(&categorical);
    let schema = release_schema(&release.header, &qis, "salary-class")
        .replace(r#""type":"numeric""#, r#""type":"categorical""#);
    let report = audit(
        &s,
        out.to_str().unwrap(),
        &schema,
        r#"[{"kind": "k_anonymity", "k": 10}, {"kind": "k_anonymity", "k": 11}]"#,
    );
    assert_eq!(report["checks"][0]["passed"], true, "{report}");
    assert_eq!(
        report["checks"][0]["value"]["min_size"].as_u64().unwrap(),
        min_size
    );
    assert_eq!(report["checks"][1]["passed"], min_size >= 11);
}

#[test]
fn xcolor_dissimilarity_on_creditcard_both_colourings() {
    let Some(shared) = shared_dir() else { return };
    let data = shared.join("data/creditcard/creditcard.csv");
    let schema = shared.join("examples/creditcard.schema.json");
    for initial in ["qi_aware", "degree_balanced"] {
        let s = Scratch::new();
        let out = s.path("release.csv");
        let run = proxima(&[
            "anonymize",
            "--data",
            data.to_str().unwrap(),
            "--schema",
            schema.to_str().unwrap(),
            "--model",
            r#"{"kind": "dissimilarity", "epsilon": 0.001, "delta": 0.5, "k": 10}"#,
            "--metric",
            r#"{"kind": "lp", "p": 1}"#,
            "--xcolor-initial",
            initial,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(run.code, 0, "{initial}: stderr: {}", run.stderr);
        let (rows, _, min_size) = summary_of(&run.stderr_json());
        assert_eq!(rows, 30000);
        assert!(min_size >= 10, "{initial}");

        let release = Release::from_csv(&std::fs::read_to_string(&out).unwrap());
        let schema = release_schema(
            &release.header,
            &["SEX", "EDUCATION", "MARRIAGE", "AGE"],
            "BILL_AMT1",
        );
        let report = audit(
            &s,
            out.to_str().unwrap(),
            &schema,
            r#"[{"kind": "dissimilarity", "epsilon": 0.001, "delta": 0.5, "k": 10,
                 "sensitive_metric": {"kind": "lp", "p": 1}}]"#,
        );
        assert_eq!(report["passed"], true, "{initial}: {report}");
    }
}

#[test]
fn mondrian_runs_epsilon_m_as_a_baseline() {
    let Some(shared) = shared_dir() else { return };
    let s = Scratch::new();
    let data = shared.join("data/creditcard/creditcard.csv");
    let schema = shared.join("examples/creditcard.schema.json");
    let out = s.path("release.json");
    let run = proxima(&[
        "anonymize",
        "--data",
        data.to_str().unwrap(),
        "--schema",
        schema.to_str().unwrap(),
        "--model",
        r#"{"kind": "epsilon_m", "epsilon": 1000, "m": 4}"#,
        "--algorithm",
        "mondrian",
        "--format",
        "json",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    let v: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    let release = Release::from_json(&v);
    assert_eq!(release.rows.len(), 30000);
    assert_epsilon_m(&release, "BILL_AMT1", 1000.0, 4);
}

#[test]
fn a_dissimilarity_model_with_a_relative_metric_is_rejected() {
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
        r#"{"kind": "dissimilarity", "epsilon": 0.1, "delta": 0.5, "k": 10}"#,
        "--metric",
        r#"{"kind": "relative"}"#,
    ]);
    assert_eq!(run.code, 2, "stderr: {}", run.stderr);
    let p = run.stderr_json();
    assert_eq!(p["code"], "invalid_parameters", "{p}");
    assert_eq!(p["errors"][0]["pointer"], "/sensitive_metric");
}
