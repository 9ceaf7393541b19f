//! A stray quote in any column: a quoted cell that runs over line breaks
//! merges the rows in between into one cell. In an insensitive column that
//! cell is published as uploaded — identifiers of the merged rows included
//! — so a line break in any cell is refused unless the schema opts in.

use std::sync::Arc;

use proxima::worker::core_runner::CoreRunner;
use reqwest::multipart::{Form, Part};
use serde_json::{json, Value};

use crate::support::*;

async fn app() -> TestApp {
    TestApp::with(Options {
        runner: Some(Arc::new(CoreRunner)),
        ..Options::default()
    })
    .await
}

fn schema(allow_line_breaks: bool) -> Value {
    json!({"name": "patients", "csv": {"allow_line_breaks": allow_line_breaks}, "columns": [
        {"name": "ssn", "role": "identifier"},
        {"name": "age", "role": "quasi_identifier", "type": "numeric"},
        {"name": "disease", "role": "sensitive", "type": "categorical"},
        {"name": "notes", "role": "insensitive"}]})
}

/// 200 rows; row 50's notes open a quote that row 60's notes close.
fn csv_with_stray_quote() -> String {
    let mut csv = "ssn,age,disease,notes\n".to_string();
    for i in 1..=200 {
        let notes = match i {
            50 => "\"opened here".to_string(),
            60 => "here\"".to_string(),
            _ => format!("note {i}"),
        };
        let disease = ["flu", "hiv", "cancer", "asthma"][i % 4];
        csv.push_str(&format!(
            "SSN-{},{},{disease},{notes}\n",
            100_000 + i,
            20 + i % 50
        ));
    }
    csv
}

async fn upload(app: &TestApp, schema: &Value, csv: String) -> reqwest::Response {
    let form = Form::new()
        .part(
            "schema",
            Part::bytes(serde_json::to_vec(schema).unwrap())
                .mime_str("application/json")
                .unwrap(),
        )
        .part("data", Part::bytes(csv.into_bytes()));
    app.client
        .post(app.url("/v1/datasets"))
        .bearer_auth(&app.key)
        .multipart(form)
        .send()
        .await
        .unwrap()
}

/// The review's reproduction: the upload was 201 with `rows: 190` and a
/// k = 5 release held ten `SSN-…` lines inside one notes cell. Refused
/// now, naming the column, the line where the cell starts and the file
/// line where it ends, echoing none of the merged rows, storing nothing.
#[tokio::test]
async fn a_stray_quote_in_an_insensitive_column_is_refused() {
    let app = app().await;
    let res = upload(&app, &schema(false), csv_with_stray_quote()).await;
    let p = expect_problem(res, 400, "malformed_csv").await;
    assert_eq!(p["errors"][0]["pointer"], "/data/line/50/notes", "{p}");
    assert_eq!(p["details"]["column"], "notes", "{p}");
    assert_eq!(p["details"]["line"], 50, "{p}");
    assert_eq!(p["details"]["file_line"], 51, "{p}");
    assert_eq!(p["details"]["last_file_line"], 61, "{p}");
    assert_eq!(p["details"]["value"], "opened here", "{p}");
    let detail = p["detail"].as_str().unwrap();
    assert!(detail.contains("allow_line_breaks"), "{p}");
    assert!(!p.to_string().contains("SSN-"), "{p}");
    let page: Value = app.get("/v1/datasets").await.json().await.unwrap();
    assert_eq!(page["items"].as_array().unwrap().len(), 0);
}

/// The same stray quote in the identifier column: nothing of it would be
/// published, but the rows it swallows would vanish from the release. It
/// is refused too, and the identifier is not echoed.
#[tokio::test]
async fn a_stray_quote_in_an_identifier_column_is_refused() {
    let app = app().await;
    let csv = csv_with_stray_quote()
        .replace("SSN-100070,", "\"SSN-100070,")
        .replace("\nSSN-100075,", "\nSSN-100075\",");
    let res = upload(&app, &schema(false), csv).await;
    let p = expect_problem(res, 400, "malformed_csv").await;
    // Row 50's stray quote comes first; with it closed, row 70's.
    assert_eq!(p["errors"][0]["pointer"], "/data/line/50/notes", "{p}");
    let csv = csv_with_stray_quote()
        .replace("\"opened here", "opened here")
        .replace("here\"\n", "here\n")
        .replace("SSN-100070,", "\"SSN-100070,")
        .replace("\nSSN-100075,", "\nSSN-100075\",");
    let res = upload(&app, &schema(false), csv).await;
    let p = expect_problem(res, 400, "malformed_csv").await;
    assert_eq!(p["errors"][0]["pointer"], "/data/line/70/ssn", "{p}");
    assert!(p["details"].get("value").is_none(), "{p}");
    assert!(!p.to_string().contains("SSN-"), "{p}");
}

/// With the explicit opt-in the cell is taken as written (the schema says
/// the breaks are meant), as before for every column.
#[tokio::test]
async fn the_opt_in_covers_every_column() {
    let app = app().await;
    let res = upload(&app, &schema(true), csv_with_stray_quote()).await;
    assert_eq!(res.status(), 201);
    let d: Value = res.json().await.unwrap();
    assert_eq!(d["rows"], 190, "{d}");
}

/// A dataset stored before line breaks were refused in every column (its
/// schema without the opt-in, a notes cell holding merged rows): a new job
/// on it is refused, and a job queued before is failed by the worker with
/// an error naming the cell, so no release publishes the merged rows.
#[tokio::test]
async fn a_stored_table_with_merged_rows_is_refused_by_jobs_and_the_worker() {
    // No worker yet: the job stays queued while the dataset is changed.
    let app = TestApp::start().await;
    let res = upload(&app, &schema(true), csv_with_stray_quote()).await;
    assert_eq!(res.status(), 201);
    let d: Value = res.json().await.unwrap();
    let id: uuid::Uuid = d["id"].as_str().unwrap().parse().unwrap();
    let body = json!({"dataset_id": id, "model": {"kind": "k_anonymity", "k": 5}});
    let res = app.post_json("/v1/jobs", &body).await;
    assert_eq!(res.status(), 202);
    let job: Value = res.json().await.unwrap();
    let job_id = job["id"].as_str().unwrap();
    // What an earlier version stored: the same table, no opt-in.
    sqlx::query(
        "UPDATE datasets SET schema = jsonb_set(schema, '{csv,allow_line_breaks}', 'false')
         WHERE id = $1",
    )
    .bind(id)
    .execute(&app.store.pool)
    .await
    .unwrap();
    let res = app.post_json("/v1/jobs", &body).await;
    let p = expect_problem(res, 400, "malformed_csv").await;
    assert_eq!(p["errors"][0]["pointer"], "/data/line/50/notes", "{p}");
    assert!(!p.to_string().contains("SSN-"), "{p}");

    let _worker = proxima::worker::start(
        app.store.clone(),
        Arc::new(CoreRunner),
        test_worker_config(1),
    );
    let done = app
        .wait_job(job_id, |s| s != "queued" && s != "running")
        .await;
    assert_eq!(done["status"], "failed", "{done}");
    assert_eq!(done["error"]["code"], "malformed_csv", "{done}");
    assert!(!done.to_string().contains("SSN-"), "{done}");
    let res = app.get(&format!("/v1/jobs/{job_id}/result")).await;
    assert_eq!(res.status(), 409);
}

/// A release made before the rule changed, on a table whose notes cell
/// holds merged rows: its download, report and audit are refused (the
/// table is checked whenever it is loaded), so the merged identifiers are
/// not published after the fact either.
#[tokio::test]
async fn an_earlier_release_with_merged_rows_is_no_longer_served() {
    let app = app().await;
    let res = upload(&app, &schema(true), csv_with_stray_quote()).await;
    assert_eq!(res.status(), 201);
    let d: Value = res.json().await.unwrap();
    let id: uuid::Uuid = d["id"].as_str().unwrap().parse().unwrap();
    let body = json!({"dataset_id": id, "model": {"kind": "k_anonymity", "k": 5}});
    let job: Value = app.post_json("/v1/jobs", &body).await.json().await.unwrap();
    let job_id = job["id"].as_str().unwrap();
    let done = app
        .wait_job(job_id, |s| s != "queued" && s != "running")
        .await;
    assert_eq!(done["status"], "succeeded", "{done}");
    // With the opt-in the cell is published as written (ten SSN lines).
    let csv = app
        .get(&format!("/v1/jobs/{job_id}/result"))
        .await
        .text()
        .await
        .unwrap();
    assert_eq!(csv.matches("\nSSN-").count(), 10, "{csv}");
    sqlx::query(
        "UPDATE datasets SET schema = jsonb_set(schema, '{csv,allow_line_breaks}', 'false')
         WHERE id = $1",
    )
    .bind(id)
    .execute(&app.store.pool)
    .await
    .unwrap();
    for path in [
        format!("/v1/jobs/{job_id}/result"),
        format!("/v1/jobs/{job_id}/report?format=json"),
    ] {
        let p = expect_problem(app.get(&path).await, 400, "malformed_csv").await;
        assert_eq!(
            p["errors"][0]["pointer"], "/data/line/50/notes",
            "{path}: {p}"
        );
        assert!(!p.to_string().contains("SSN-"), "{p}");
    }
    let audit = json!({"job_id": job_id, "checks": [{"kind": "k_anonymity", "k": 5}]});
    let p = expect_problem(
        app.post_json("/v1/audits", &audit).await,
        400,
        "malformed_csv",
    )
    .await;
    assert!(!p.to_string().contains("SSN-"), "{p}");
}
