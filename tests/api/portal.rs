//! The portal flow over HTTP on shared data: upload (with hierarchy parts),
//! job, poll, download (CSV and JSON), audit; and uploads that are refused
//! store nothing.

use std::collections::HashSet;
use std::sync::Arc;

use proxima::worker::core_runner::CoreRunner;
use reqwest::multipart::{Form, Part};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::support::*;

pub(crate) async fn portal_app() -> TestApp {
    TestApp::with(Options {
        max_body: 64 << 20,
        runner: Some(Arc::new(CoreRunner)),
        ..Options::default()
    })
    .await
}

async fn upload(app: &TestApp, form: Form) -> reqwest::Response {
    app.client
        .post(app.url("/v1/datasets"))
        .bearer_auth(&app.key)
        .multipart(form)
        .send()
        .await
        .unwrap()
}

fn part_json(v: &Value) -> Part {
    Part::bytes(serde_json::to_vec(v).unwrap())
        .mime_str("application/json")
        .unwrap()
}

/// Uploads creditcard with its example schema and returns the Dataset.
pub(crate) async fn upload_creditcard(app: &TestApp, shared: &std::path::Path) -> Value {
    let schema: Value = serde_json::from_slice(
        &std::fs::read(shared.join("examples/creditcard.schema.json")).unwrap(),
    )
    .unwrap();
    let data = std::fs::read(shared.join("data/creditcard/creditcard.csv")).unwrap();
    let form = Form::new()
        .part("schema", part_json(&schema))
        .part("data", Part::bytes(data));
    let res = upload(app, form).await;
    assert_eq!(res.status(), 201);
    res.json().await.unwrap()
}

/// Posts a job, waits until it has finished (however it ended) and returns
/// it as `GET /v1/jobs/{id}` shows it.
async fn run_job_to_end(app: &TestApp, body: Value) -> Value {
    let res = app.post_json("/v1/jobs", &body).await;
    assert_eq!(res.status(), 202, "{}", res.text().await.unwrap());
    let job: Value = res.json().await.unwrap();
    let id = job["id"].as_str().unwrap().to_string();
    app.wait_job(&id, |s| !matches!(s, "queued" | "running"))
        .await;
    app.get(&format!("/v1/jobs/{id}"))
        .await
        .json()
        .await
        .unwrap()
}

pub(crate) async fn run_job(app: &TestApp, body: Value) -> Value {
    let done = run_job_to_end(app, body).await;
    assert_eq!(done["status"], "succeeded", "{done}");
    done
}

#[tokio::test]
async fn creditcard_epsilon_m_upload_job_download_audit() {
    let Some(shared) = shared_dir() else { return };
    let app = portal_app().await;
    let data = std::fs::read(shared.join("data/creditcard/creditcard.csv")).unwrap();
    let schema: Value = serde_json::from_slice(
        &std::fs::read(shared.join("examples/creditcard.schema.json")).unwrap(),
    )
    .unwrap();
    let form = Form::new()
        .part("schema", part_json(&schema))
        .part("data", Part::bytes(data.clone()));
    let res = upload(&app, form).await;
    assert_eq!(res.status(), 201);
    let loc = res.headers()["location"].to_str().unwrap().to_string();
    let ds: Value = res.json().await.unwrap();
    assert_eq!(loc, format!("/v1/datasets/{}", ds["id"].as_str().unwrap()));
    assert_eq!(ds["rows"], 30000);
    assert_eq!(ds["size_bytes"], data.len());
    assert_eq!(ds["sha256"], hex::encode(Sha256::digest(&data)));
    let age = ds["columns"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "AGE")
        .unwrap();
    assert_eq!(age["role"], "quasi_identifier");
    assert!(age["min"].as_f64().unwrap() >= 18.0);

    // Infeasible parameters are refused before queueing, with the bound.
    let res = app
        .post_json(
            "/v1/jobs",
            &json!({"dataset_id": ds["id"], "model":
                {"kind": "epsilon_m", "epsilon": 1000, "m": 100000}}),
        )
        .await;
    let p = expect_problem(res, 422, "infeasible_parameters").await;
    assert!(!p["errors"].as_array().unwrap().is_empty(), "{p}");

    let job = run_job(
        &app,
        json!({"dataset_id": ds["id"], "model": {"kind": "epsilon_m", "epsilon": 1000, "m": 4}}),
    )
    .await;
    assert_eq!(job["progress"], 1.0);
    assert_eq!(job["summary"]["rows"], 30000);
    assert!(job["summary"]["min_group_size"].as_u64().unwrap() >= 4);
    let id = job["id"].as_str().unwrap();

    // CSV with row ids: every upload line once, SA values as uploaded.
    let res = app.get(&format!("/v1/jobs/{id}/result?row_id=true")).await;
    assert_eq!(res.status(), 200);
    assert!(res.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/csv"));
    let csv = res.text().await.unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(header[0], "group_id");
    assert!(!header.contains(&"ID"), "identifiers are dropped");
    let row_id = header.iter().position(|h| *h == "row_id").unwrap();
    let bill = header.iter().position(|h| *h == "BILL_AMT1").unwrap();
    let original: Vec<Vec<String>> = String::from_utf8(data)
        .unwrap()
        .lines()
        .map(|l| l.split(';').map(str::to_string).collect())
        .collect();
    let orig_bill = original[0].iter().position(|h| h == "BILL_AMT1").unwrap();
    let mut seen = HashSet::new();
    for line in lines {
        let cells: Vec<&str> = line.split(',').collect();
        let n: usize = cells[row_id].parse().unwrap();
        assert!(seen.insert(n), "row {n} twice");
        // row_id is the 1-based data line: line n is original[n].
        assert_eq!(cells[bill], original[n][orig_bill]);
    }
    assert_eq!(seen.len(), 30000);

    // JSON by Accept, no row ids by default.
    let res = app
        .client
        .get(app.url(&format!("/v1/jobs/{id}/result")))
        .bearer_auth(&app.key)
        .header("accept", "application/json")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.unwrap();
    let columns = body["columns"].as_array().unwrap();
    assert!(!columns.iter().any(|c| c == "row_id"));
    assert_eq!(body["rows"].as_array().unwrap().len(), 30000);

    let audit: Value = app
        .get(&format!("/v1/jobs/{id}/audit"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(audit["passed"], true, "{audit}");
    assert_eq!(audit["rows"], 30000);

    // Feasibility agrees with what job validation accepts: max_m passes,
    // max_m + 1 is refused as infeasible.
    let path = format!("/v1/datasets/{}/feasibility", ds["id"].as_str().unwrap());
    let f: Value = app
        .post_json(&path, &json!({"kind": "epsilon_m", "epsilon": 1000}))
        .await
        .json()
        .await
        .unwrap();
    let max_m = f["max_m"].as_u64().unwrap();
    assert!(max_m >= 4 && f["maxsize"].as_u64().unwrap() > 0, "{f}");
    let model = |m: u64| json!({"dataset_id": ds["id"], "model": {"kind": "epsilon_m", "epsilon": 1000, "m": m}});
    assert_eq!(app.post_json("/v1/jobs", &model(max_m)).await.status(), 202);
    let res = app.post_json("/v1/jobs", &model(max_m + 1)).await;
    expect_problem(res, 422, "infeasible_parameters").await;
    let f: Value = app
        .post_json(&path, &json!({"kind": "epsilon_m", "m": 4}))
        .await
        .json()
        .await
        .unwrap();
    assert!(f["max_epsilon_exclusive"].as_f64().unwrap() > 1000.0, "{f}");
    let res = app.post_json(&path, &json!({"kind": "epsilon_m"})).await;
    expect_problem(res, 422, "invalid_parameters").await;
    // ε and m together add the lower bound on suppression: none forced up
    // to max_m; beyond it, some rows must go from any release.
    let both = |m: u64| json!({"kind": "epsilon_m", "epsilon": 1000, "m": m});
    let f: Value = app.post_json(&path, &both(4)).await.json().await.unwrap();
    assert_eq!(f["max_m"], max_m, "{f}");
    assert_eq!(
        f["minimum_suppression"],
        json!({"m": 4, "share": 0.0, "rows": 0, "max_published_rows": 30000,
               "bound": "lower_bound"})
    );
    let f: Value = app
        .post_json(&path, &both(max_m + 1))
        .await
        .json()
        .await
        .unwrap();
    let bound = &f["minimum_suppression"];
    let rows = bound["rows"].as_u64().unwrap();
    assert!(rows > 0, "{f}");
    assert_eq!(rows + bound["max_published_rows"].as_u64().unwrap(), 30000);
    assert_eq!(bound["bound"], "lower_bound");

    // POST /v1/audits on the job's result, and on the raw upload grouped by
    // identical QI values (where small groups fail k = 4).
    let by_job: Value = app
        .post_json(
            "/v1/audits",
            &json!({"job_id": id, "checks": [{"kind": "k_anonymity", "k": 4}]}),
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(by_job["passed"], true, "{by_job}");
    assert!(by_job["checks"][0]["value"]["min_size"].as_u64().unwrap() >= 4);
    let raw: Value = app
        .post_json(
            "/v1/audits",
            &json!({"dataset_id": ds["id"], "groups": {"by": "quasi_identifiers"},
                    "checks": [{"kind": "k_anonymity", "k": 4}]}),
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(raw["rows"], 30000, "{raw}");
    assert_eq!(raw["passed"], false, "{raw}");
    assert!(raw["checks"][0]["violating_groups"].as_u64().unwrap() > 0);
}

#[tokio::test]
async fn adult_mondrian_with_hierarchy_parts() {
    let Some(shared) = shared_dir() else { return };
    let app = portal_app().await;
    let dir = shared.join("data/adult");
    let schema: Value =
        serde_json::from_slice(&std::fs::read(shared.join("examples/adult.schema.json")).unwrap())
            .unwrap();
    let mut form = Form::new().part("schema", part_json(&schema)).part(
        "data",
        Part::bytes(std::fs::read(dir.join("adult.csv")).unwrap()),
    );
    for col in [
        "sex",
        "race",
        "marital-status",
        "education",
        "native-country",
        "workclass",
        "occupation",
        "salary-class",
    ] {
        let file = std::fs::read(dir.join(format!("adult_hierarchy_{col}.csv"))).unwrap();
        form = form.part(format!("hierarchy:{col}"), Part::bytes(file));
    }
    let res = upload(&app, form).await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    let ds: Value = res.json().await.unwrap();
    let sex = ds["columns"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "sex")
        .unwrap();
    assert_eq!(sex["hierarchy_height"], 1);
    let job = run_job(
        &app,
        json!({"dataset_id": ds["id"], "model": {"kind": "k_anonymity", "k": 10}}),
    )
    .await;
    assert_eq!(job["algorithm"], "mondrian");
    assert!(job["summary"]["min_group_size"].as_u64().unwrap() >= 10);
    let id = job["id"].as_str().unwrap();
    let csv = app
        .get(&format!("/v1/jobs/{id}/result?format=csv"))
        .await
        .text()
        .await
        .unwrap();
    assert_eq!(
        csv.lines().count() as u64,
        job["summary"]["published_rows"].as_u64().unwrap() + 1
    );
}

#[tokio::test]
async fn refused_uploads_store_nothing() {
    let app = portal_app().await;
    let count = || async {
        let n: i64 = sqlx::query_scalar("SELECT count(*) FROM datasets")
            .fetch_one(&app.store.pool)
            .await
            .unwrap();
        let c: i64 = sqlx::query_scalar("SELECT count(*) FROM dataset_chunks")
            .fetch_one(&app.store.pool)
            .await
            .unwrap();
        (n, c)
    };
    let schema = people_schema("people");
    // A column the schema does not describe.
    let csv = PEOPLE_CSV
        .replace("salary\n", "salary,extra\n")
        .replace("50\n", "50,1\n")
        .replace("60\n", "60,1\n")
        .replace("70\n", "70,1\n");
    let form = Form::new()
        .part("schema", part_json(&schema))
        .part("data", Part::bytes(csv.into_bytes()))
        .part(
            "hierarchy:zip",
            Part::bytes(b"1000;*\n2000;*\n3000;*\n".to_vec()),
        );
    expect_problem(upload(&app, form).await, 422, "undescribed_column").await;
    // A value missing from its hierarchy.
    let form = Form::new()
        .part("schema", part_json(&schema))
        .part("data", Part::bytes(PEOPLE_CSV.as_bytes().to_vec()))
        .part("hierarchy:zip", Part::bytes(b"1000;*\n2000;*\n".to_vec()));
    expect_problem(upload(&app, form).await, 422, "invalid_hierarchy").await;
    // Missing parts, unknown parts, a schema that is not JSON.
    let form = Form::new().part("data", Part::bytes(PEOPLE_CSV.as_bytes().to_vec()));
    expect_problem(upload(&app, form).await, 422, "invalid_parameters").await;
    let form = Form::new()
        .part("schema", part_json(&schema))
        .part("data", Part::bytes(PEOPLE_CSV.as_bytes().to_vec()))
        .part("extra", Part::bytes(b"x".to_vec()));
    expect_problem(upload(&app, form).await, 422, "invalid_parameters").await;
    let form = Form::new()
        .part("schema", Part::bytes(b"{not json".to_vec()))
        .part("data", Part::bytes(PEOPLE_CSV.as_bytes().to_vec()));
    expect_problem(upload(&app, form).await, 400, "malformed_json").await;
    // Not multipart at all.
    let res = app.post_json("/v1/datasets", &schema).await;
    expect_problem(res, 415, "unsupported_media_type").await;
    assert_eq!(count().await, (0, 0));
    // And the same upload done right is stored.
    let form = Form::new()
        .part("schema", part_json(&schema))
        .part("data", Part::bytes(PEOPLE_CSV.as_bytes().to_vec()))
        .part(
            "hierarchy:zip",
            Part::bytes(b"1000;*\n2000;*\n3000;*\n".to_vec()),
        );
    assert_eq!(upload(&app, form).await.status(), 201);
    // One chunk each: the CSV, the zip hierarchy and the parsed table
    // stored once at upload (store/datasets.rs, TABLE_PART).
    assert_eq!(count().await, (1, 3));
}

#[tokio::test]
async fn results_wait_for_success() {
    let app = TestApp::start().await;
    let d = app.dataset("t1").await;
    let job: Value = app
        .post_json("/v1/jobs", &model_body(d.id))
        .await
        .json()
        .await
        .unwrap();
    let id = job["id"].as_str().unwrap();
    let p = expect_problem(
        app.get(&format!("/v1/jobs/{id}/result")).await,
        409,
        "result_not_ready",
    )
    .await;
    assert_eq!(p["details"]["status"], "queued");
    expect_problem(
        app.get(&format!("/v1/jobs/{id}/audit")).await,
        409,
        "result_not_ready",
    )
    .await;
    let other = uuid::Uuid::new_v4();
    expect_problem(
        app.get(&format!("/v1/jobs/{other}/result")).await,
        404,
        "not_found",
    )
    .await;
}

/// The sal 500k case: upload → epsilon_m ε = 4500, m = 5 → download.
#[tokio::test]
async fn sal_500k_epsilon_m_upload_job_download() {
    use std::io::Read;
    let Some(shared) = shared_dir() else { return };
    let app = portal_app().await;
    let mut data = Vec::new();
    flate2::read::GzDecoder::new(
        std::fs::File::open(shared.join("data/sal_synthetic/sal_synthetic_500k.csv.gz")).unwrap(),
    )
    .read_to_end(&mut data)
    .unwrap();
    let schema: Value =
        serde_json::from_slice(&std::fs::read(shared.join("examples/sal.schema.json")).unwrap())
            .unwrap();
    let form = Form::new()
        .part("schema", part_json(&schema))
        .part("data", Part::bytes(data));
    let res = upload(&app, form).await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    let ds: Value = res.json().await.unwrap();
    assert_eq!(ds["rows"], 500_000);
    // sal's densest ±4500 window holds 26 % of the rows: m = 5 in the
    // attacker's view needs some rows suppressed, so a limit of 0 fails
    // clearly, naming what would be needed, and a limit of 0.25 publishes.
    let refused = run_job_to_end(
        &app,
        json!({"dataset_id": ds["id"], "model":
            {"kind": "epsilon_m", "epsilon": 4500, "m": 5, "neighborhood": "absolute"}}),
    )
    .await;
    assert_eq!(refused["status"], "failed", "{refused}");
    assert_eq!(refused["error"]["code"], "model_not_satisfied");
    let needed = refused["error"]["details"]["rows_needing_suppression"]
        .as_u64()
        .unwrap();
    assert!(needed > 0 && needed < 125_000, "{refused}");
    let job = run_job(
        &app,
        json!({"dataset_id": ds["id"], "suppression_limit": 0.25, "model":
            {"kind": "epsilon_m", "epsilon": 4500, "m": 5, "neighborhood": "absolute"}}),
    )
    .await;
    let summary = &job["summary"];
    let suppressed = summary["suppressed_by_model"].as_u64().unwrap();
    let published = summary["published_rows"].as_u64().unwrap();
    assert!(suppressed > 0 && suppressed <= 125_000, "{summary}");
    assert_eq!(published + suppressed, 500_000);
    assert_eq!(summary["rows"], 500_000);
    assert!(summary["min_group_size"].as_u64().unwrap() >= 5);
    assert_eq!(summary["attacker_view"]["over_bound"], 0);
    assert_eq!(summary["attacker_view"]["victims"], published);
    assert!(summary["attacker_view"]["worst"].as_f64().unwrap() <= 0.2);
    let id = job["id"].as_str().unwrap();
    let res = app.get(&format!("/v1/jobs/{id}/result")).await;
    assert_eq!(res.status(), 200);
    let csv = res.text().await.unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next().unwrap(),
        "group_id,Age,Birthplace,Occupation,Income"
    );
    // Suppressed rows are absent from the release.
    assert_eq!(lines.count() as u64, published);
    let audit: Value = app
        .get(&format!("/v1/jobs/{id}/audit"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(audit["passed"], true);
    assert_eq!(audit["view"], "attacker");
    assert_eq!(audit["rows"], published);
    let model = &audit["checks"][0];
    assert_eq!(model["kind"], "epsilon_m");
    assert_eq!(model["attacker"]["over_bound"], 0);
    assert_eq!(model["per_group"]["passed"], true);
}

#[tokio::test]
async fn creditcard_xcolor_job_and_its_audit() {
    let Some(shared) = shared_dir() else { return };
    let app = portal_app().await;
    let ds = upload_creditcard(&app, &shared).await;
    let job = run_job(
        &app,
        json!({"dataset_id": ds["id"], "model":
            {"kind": "dissimilarity", "epsilon": 0.001, "delta": 0.5, "k": 10}}),
    )
    .await;
    assert_eq!(job["algorithm"], "xcolor");
    // No metric was asked for: the job shows the default it applied (one
    // numeric SA → absolute).
    assert_eq!(job["sensitive_metric"]["kind"], "absolute", "{job}");
    assert!(job["summary"]["min_group_size"].as_u64().unwrap() >= 10);
    let id = job["id"].as_str().unwrap();
    let audit: Value = app
        .get(&format!("/v1/jobs/{id}/audit"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(audit["passed"], true, "{audit}");
    let kinds: Vec<&str> = audit["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["kind"].as_str().unwrap())
        .collect();
    assert!(kinds.contains(&"dissimilarity"), "{kinds:?}");
    let res = app.get(&format!("/v1/jobs/{id}/result?format=json")).await;
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["rows"].as_array().unwrap().len(), 30000);
}

/// Every upload error code of docs/api.md, each from the core's one validation.
#[tokio::test]
async fn upload_errors_carry_their_codes() {
    let app = portal_app().await;
    let zip = || Part::bytes(b"1000;*\n2000;*\n3000;*\n".to_vec());
    let send = |schema: Value, csv: &str, with_zip: bool| {
        let mut form = Form::new()
            .part("schema", part_json(&schema))
            .part("data", Part::bytes(csv.as_bytes().to_vec()));
        if with_zip {
            form = form.part("hierarchy:zip", zip());
        }
        upload(&app, form)
    };
    let good = people_schema("people");
    // A row with a field too many.
    let res = send(
        good.clone(),
        "age,zip,salary\n30,1000,50\n40,2000,60,9\n",
        true,
    )
    .await;
    expect_problem(res, 400, "malformed_csv").await;
    // A missing salary under the default `reject` policy.
    let res = send(good.clone(), "age,zip,salary\n30,1000,50\n40,2000,\n", true).await;
    expect_problem(res, 422, "missing_values").await;
    // The schema describes a column the data lacks.
    let res = send(good.clone(), "age,zip\n30,1000\n", true).await;
    expect_problem(res, 422, "unknown_column").await;
    // A role that does not exist.
    let mut bad = good.clone();
    bad["columns"][0]["role"] = json!("boss");
    let res = send(bad, PEOPLE_CSV, true).await;
    let p = expect_problem(res, 422, "invalid_schema").await;
    assert!(
        p["errors"][0]["pointer"]
            .as_str()
            .unwrap()
            .starts_with("/columns/0"),
        "{p}"
    );
    // A non-numeric value in a numeric QI names the offending line.
    let res = send(
        good.clone(),
        "age,zip,salary\n30,1000,50\nold,2000,60\n",
        true,
    )
    .await;
    let p = expect_problem(res, 400, "malformed_csv").await;
    assert_eq!(p["errors"][0]["pointer"], "/data/line/2/age", "{p}");
    assert_eq!(p["details"]["value"], "old", "{p}");
    // On `suppress`, rows with missing values are counted, not refused.
    let mut suppress = good.clone();
    suppress["on_missing"] = json!("suppress");
    let res = send(
        suppress,
        "age,zip,salary\n30,1000,50\n40,2000,\n50,3000,70\n",
        true,
    )
    .await;
    assert_eq!(res.status(), 201);
    let ds: Value = res.json().await.unwrap();
    assert_eq!(ds["suppressed_rows"], 1);
}

/// The pre-publication check as a portal runs it: download a release,
/// upload it as a table of its own (QIs are now generalized labels), and
/// audit it with `POST /v1/audits` grouped by identical QI values (the
/// attacker's view) and by the `group_id` column.
#[tokio::test]
async fn audit_of_an_uploaded_generalized_table() {
    let Some(shared) = shared_dir() else { return };
    let app = portal_app().await;
    let ds = upload_creditcard(&app, &shared).await;
    let job = run_job(
        &app,
        json!({"dataset_id": ds["id"], "model": {"kind": "k_anonymity", "k": 10}}),
    )
    .await;
    let groups = job["summary"]["groups"].as_u64().unwrap();
    let release = app
        .get(&format!("/v1/jobs/{}/result", job["id"].as_str().unwrap()))
        .await
        .text()
        .await
        .unwrap();

    // Describe the release: QIs are labels now (categorical), the SA and the
    // other columns as uploaded, group_id an ordinary column.
    let header: Vec<&str> = release.lines().next().unwrap().split(',').collect();
    let qis = ["SEX", "EDUCATION", "MARRIAGE", "AGE"];
    let columns: Vec<Value> = header
        .iter()
        .map(|&name| {
            if qis.contains(&name) {
                json!({"name": name, "role": "quasi_identifier", "type": "categorical"})
            } else if name == "BILL_AMT1" {
                json!({"name": name, "role": "sensitive", "type": "numeric"})
            } else {
                json!({"name": name, "role": "insensitive"})
            }
        })
        .collect();
    let release_schema = json!({"name": "creditcard-release", "columns": columns});
    let form = Form::new()
        .part("schema", part_json(&release_schema))
        .part("data", Part::bytes(release.into_bytes()));
    let res = upload(&app, form).await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    let uploaded: Value = res.json().await.unwrap();
    assert_eq!(uploaded["rows"], 30000);

    let audit = |groups_by: Value, checks: Value| {
        let body = json!({"dataset_id": uploaded["id"], "groups": groups_by, "checks": checks});
        let app = &app;
        async move {
            let res = app.post_json("/v1/audits", &body).await;
            assert_eq!(res.status(), 200);
            res.json::<Value>().await.unwrap()
        }
    };
    let checks = json!([
        {"kind": "k_anonymity", "k": 10},
        {"kind": "epsilon_m", "epsilon": 1000, "m": 1000}
    ]);
    let by_qis = audit(json!({"by": "quasi_identifiers"}), checks.clone()).await;
    assert_eq!(by_qis["rows"], 30000, "{by_qis}");
    assert_eq!(by_qis["checks"][0]["passed"], true, "{by_qis}");
    assert!(by_qis["checks"][0]["value"]["min_size"].as_u64().unwrap() >= 10);
    // Strict Mondrian boxes are disjoint, so the attacker sees the job's groups.
    assert_eq!(by_qis["groups"].as_u64().unwrap(), groups, "{by_qis}");
    // m = 1000 is far beyond what groups of ~10 rows can give: it must fail.
    assert_eq!(by_qis["checks"][1]["passed"], false);
    assert_eq!(by_qis["passed"], false);

    let by_column = audit(json!({"by": "column", "column": "group_id"}), checks).await;
    assert_eq!(by_column["groups"].as_u64().unwrap(), groups, "{by_column}");
    assert_eq!(by_column["checks"][0]["passed"], true);
}

/// Audits `csv` (uploaded with `schema`) grouped by `group_column` in the
/// given view; returns the report.
async fn audit_upload(
    app: &TestApp,
    schema: Value,
    csv: Vec<u8>,
    group_column: &str,
    checks: Value,
    view: &str,
) -> Value {
    let form = Form::new()
        .part("schema", part_json(&schema))
        .part("data", Part::bytes(csv));
    let res = upload(app, form).await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    let ds: Value = res.json().await.unwrap();
    let res = app
        .post_json(
            "/v1/audits",
            &json!({"dataset_id": ds["id"], "view": view, "checks": checks,
                    "groups": {"by": "column", "column": group_column}}),
        )
        .await;
    assert_eq!(res.status(), 200, "{}", res.text().await.unwrap());
    res.json().await.unwrap()
}

#[tokio::test]
async fn an_uploaded_table_whose_groups_pass_alone_breaches_in_the_attackers_view() {
    // Groups 1 and 2 publish the same label; each passes (ε=100, m=2) by
    // itself (their values are > ε apart), but an attacker who knows a
    // victim's age in [20-29] sees both: 1075 has 1000, 1075 and 1150 in
    // its neighbourhood among 4 candidates, 3/4 > 1/2.
    let app = portal_app().await;
    let schema = json!({"name": "generalized", "columns": [
        {"name": "g", "role": "insensitive"},
        {"name": "age", "role": "quasi_identifier", "type": "categorical"},
        {"name": "salary", "role": "sensitive", "type": "numeric"}]});
    let csv = b"g,age,salary\n1,[20-29],1000\n1,[20-29],1150\n2,[20-29],1075\n2,[20-29],5000\n\
                3,[30-39],100000\n3,[30-39],200000\n"
        .to_vec();
    let checks = json!([{"kind": "epsilon_m", "epsilon": 100, "m": 2}]);
    let groups = audit_upload(
        &app,
        schema.clone(),
        csv.clone(),
        "g",
        checks.clone(),
        "groups",
    )
    .await;
    assert_eq!(groups["view"], "groups");
    assert_eq!(groups["passed"], true, "{groups}");
    let attacker = audit_upload(&app, schema, csv, "g", checks, "attacker").await;
    assert_eq!(attacker["view"], "attacker");
    assert_eq!(attacker["passed"], false, "{attacker}");
    let check = &attacker["checks"][0];
    assert_eq!(check["value"]["max_breach_probability"], 0.75, "{check}");
    assert!(check["attacker"]["over_bound"].as_u64().unwrap() >= 1);
    assert_eq!(check["attacker"]["candidate_groups"]["max"], 2);
    assert_eq!(check["per_group"]["passed"], true);
}

#[tokio::test]
async fn a_downloaded_release_reuploaded_gets_the_job_audits_verdict() {
    let Some(shared) = shared_dir() else { return };
    let app = portal_app().await;
    let ds = upload_creditcard(&app, &shared).await;
    let model = json!({"kind": "epsilon_m", "epsilon": 1000, "m": 4});
    let job = run_job(&app, json!({"dataset_id": ds["id"], "model": model})).await;
    let id = job["id"].as_str().unwrap();
    let audit: Value = app
        .get(&format!("/v1/jobs/{id}/audit"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(audit["view"], "attacker");
    assert_eq!(audit["passed"], true, "{audit}");
    let csv = app
        .get(&format!("/v1/jobs/{id}/result"))
        .await
        .text()
        .await
        .unwrap();
    // The release as a portal would re-upload it: QI labels as categorical
    // text ("[20-29]"), read back as intervals by the attacker's view.
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let columns: Vec<Value> = header
        .iter()
        .map(|&name| match name {
            "SEX" | "EDUCATION" | "MARRIAGE" | "AGE" => {
                json!({"name": name, "role": "quasi_identifier", "type": "categorical"})
            }
            "BILL_AMT1" => json!({"name": name, "role": "sensitive", "type": "numeric"}),
            _ => json!({"name": name, "role": "insensitive"}),
        })
        .collect();
    let schema = json!({"name": "creditcard release", "columns": columns});
    let checks = json!([{"kind": "epsilon_m", "epsilon": 1000, "m": 4}]);
    let reaudit = audit_upload(
        &app,
        schema,
        csv.into_bytes(),
        "group_id",
        checks,
        "attacker",
    )
    .await;
    assert_eq!(reaudit["passed"], audit["checks"][0]["passed"], "{reaudit}");
    assert_eq!(reaudit["checks"][0]["attacker"]["over_bound"], 0);
    assert_eq!(reaudit["groups"], audit["groups"]);
}
