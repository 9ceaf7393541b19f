//! Hostile and careless clients (issue 11): a CSV whose unclosed quote
//! would publish identifiers, control characters, huge cells echoed in
//! errors, cacheable downloads, ambiguous `Authorization` headers and
//! duplicate JSON keys.

use std::sync::Arc;

use proxima::worker::core_runner::CoreRunner;
use reqwest::multipart::{Form, Part};
use serde_json::{json, Value};

use crate::support::*;

async fn app() -> TestApp {
    TestApp::with(Options {
        max_body: 32 << 20,
        runner: Some(Arc::new(CoreRunner)),
        ..Options::default()
    })
    .await
}

fn form(schema: &Value, csv: impl Into<Vec<u8>>) -> Form {
    Form::new()
        .part(
            "schema",
            Part::bytes(serde_json::to_vec(schema).unwrap())
                .mime_str("application/json")
                .unwrap(),
        )
        .part("data", Part::bytes(csv.into()))
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

fn patients_schema(allow_line_breaks: bool) -> Value {
    json!({"name": "patients", "csv": {"allow_line_breaks": allow_line_breaks}, "columns": [
        {"name": "name", "role": "identifier"},
        {"name": "age", "role": "quasi_identifier", "type": "numeric"},
        {"name": "diagnosis", "role": "sensitive", "type": "categorical"}]})
}

async fn dataset_count(app: &TestApp) -> usize {
    let page: Value = app.get("/v1/datasets").await.json().await.unwrap();
    page["items"].as_array().unwrap().len()
}

/// The review's case: Bob's diagnosis opens a quote the file never closes.
/// Today the upload is 201 with `rows: 2` and a k=2 release carries three
/// names inside one diagnosis cell; it must be refused, naming the line
/// where the quote opened, and store nothing — whether or not the schema
/// accepts line breaks.
#[tokio::test]
async fn an_unclosed_quote_is_refused_and_no_identifier_is_published() {
    let app = app().await;
    let csv = "name,age,diagnosis\nAnn Lee,20,flu\nBob Jones,21,\"cancer\n\
               Carol White,22,hiv\nDave Black,23,flu\nErin Green,24,flu\n";
    for allow in [false, true] {
        let res = upload(&app, form(&patients_schema(allow), csv)).await;
        let p = expect_problem(res, 400, "malformed_csv").await;
        assert_eq!(p["errors"][0]["pointer"], "/data/line/2", "{p}");
        assert_eq!(p["details"]["file_line"], 3, "{p}");
        assert!(
            p["detail"].as_str().unwrap().contains("never closed"),
            "{p}"
        );
        assert!(!p.to_string().contains("Carol"), "{p}");
    }
    assert_eq!(dataset_count(&app).await, 0);
}

/// A line break inside a sensitive cell is refused unless the schema opts
/// in; then the release quotes it (the cell is published as written).
#[tokio::test]
async fn line_breaks_in_sensitive_cells_need_the_schema_to_opt_in() {
    let app = app().await;
    let csv = "name,age,diagnosis\nAnn,20,\"flu\nsevere\"\nBob,21,flu\nCid,22,hiv\n";
    let res = upload(&app, form(&patients_schema(false), csv)).await;
    let p = expect_problem(res, 400, "malformed_csv").await;
    assert_eq!(p["errors"][0]["pointer"], "/data/line/1/diagnosis", "{p}");
    assert!(
        p["detail"].as_str().unwrap().contains("allow_line_breaks"),
        "{p}"
    );
    let res = upload(&app, form(&patients_schema(true), csv)).await;
    assert_eq!(res.status(), 201);
    let d: Value = res.json().await.unwrap();
    assert_eq!(d["rows"], 3, "{d}");
}

/// NUL, escape sequences and C1 controls in published cells are refused.
#[tokio::test]
async fn control_characters_in_cells_are_refused() {
    let app = app().await;
    for cell in ["fl\u{0}u", "\u{1b}[2Jflu", "flu\u{9b}"] {
        let csv = format!("name,age,diagnosis\nAnn,20,{cell}\nBob,21,flu\n");
        let res = upload(&app, form(&patients_schema(true), csv)).await;
        let p = expect_problem(res, 400, "malformed_csv").await;
        assert_eq!(p["errors"][0]["pointer"], "/data/line/1/diagnosis", "{p}");
    }
    assert_eq!(dataset_count(&app).await, 0);
}

/// A 10 MB bad cell: the error echoes at most a short prefix of it.
#[tokio::test]
async fn a_huge_bad_cell_is_echoed_truncated() {
    let app = app().await;
    let big = "x".repeat(10 << 20);
    let csv = format!("name,age,diagnosis\nAnn,{big},flu\n");
    let res = upload(&app, form(&patients_schema(false), csv)).await;
    assert_eq!(res.status(), 400);
    let body = res.bytes().await.unwrap();
    assert!(body.len() < 4096, "a {}-byte error body", body.len());
    let p: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(p["details"]["value_truncated"], true, "{p}");
    assert_eq!(p["details"]["value_chars"], 10 << 20, "{p}");
}

/// A release is an attachment that no cache keeps and no browser sniffs.
#[tokio::test]
async fn downloads_are_attachments_not_cached_nor_sniffed() {
    let app = app().await;
    let csv = "name,age,diagnosis\nAnn,20,flu\nBob,21,flu\nCid,22,hiv\nDan,23,hiv\n";
    let res = upload(&app, form(&patients_schema(false), csv)).await;
    assert_eq!(res.status(), 201);
    let d: Value = res.json().await.unwrap();
    let id: uuid::Uuid = d["id"].as_str().unwrap().parse().unwrap();
    let res = app.post_json("/v1/jobs", &model_body(id)).await;
    assert_eq!(res.status(), 202);
    let job: Value = res.json().await.unwrap();
    let job_id = job["id"].as_str().unwrap();
    let done = app
        .wait_job(job_id, |s| s != "queued" && s != "running")
        .await;
    assert_eq!(done["status"], "succeeded", "{done}");
    for (query, ext) in [("", "csv"), ("?format=json", "json")] {
        let res = app.get(&format!("/v1/jobs/{job_id}/result{query}")).await;
        assert_eq!(res.status(), 200);
        let h = res.headers();
        assert_eq!(h["cache-control"], "no-store");
        assert_eq!(h["x-content-type-options"], "nosniff");
        assert_eq!(
            h["content-disposition"],
            format!("attachment; filename=\"{job_id}.{ext}\"").as_str()
        );
    }
    // Every tenant-data answer is uncacheable, errors included.
    let res = app.get("/v1/jobs").await;
    assert_eq!(res.headers()["cache-control"], "no-store");
    let res = app.get(&format!("/v1/jobs/{}", uuid::Uuid::new_v4())).await;
    assert_eq!(res.headers()["cache-control"], "no-store");
    assert_eq!(res.headers()["x-content-type-options"], "nosniff");
}

/// Two `Authorization` headers are refused (not "the first wins"); the
/// scheme is case-insensitive.
#[tokio::test]
async fn authorization_is_one_header_with_a_case_insensitive_scheme() {
    let app = app().await;
    let other = app.store.create_key("t2").await.unwrap();
    for scheme in ["Bearer", "bearer", "BEARER", "BeArEr"] {
        let res = app
            .client
            .get(app.url("/v1/datasets"))
            .header("authorization", format!("{scheme} {}", app.key))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200, "{scheme}");
    }
    let res = app
        .client
        .get(app.url("/v1/datasets"))
        .header("authorization", format!("Bearer {}", app.key))
        .header("authorization", format!("Bearer {other}"))
        .send()
        .await
        .unwrap();
    let p = expect_problem(res, 401, "unauthorized").await;
    assert!(
        p["detail"].as_str().unwrap().contains("more than one"),
        "{p}"
    );
}

/// `{"k": 2, "k": 100}` is not "k = 100": a duplicate key is refused in a
/// request body and in an upload's schema part.
#[tokio::test]
async fn duplicate_json_keys_are_refused() {
    let app = app().await;
    let d = app.dataset("t1").await;
    let body = format!(
        r#"{{"dataset_id": "{}", "model": {{"kind": "k_anonymity", "k": 2, "k": 100}}}}"#,
        d.id
    );
    let res = app
        .client
        .post(app.url("/v1/jobs"))
        .bearer_auth(&app.key)
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .unwrap();
    let p = expect_problem(res, 400, "malformed_json").await;
    assert!(p["detail"].as_str().unwrap().contains("\"k\""), "{p}");
    assert_eq!(p["errors"][0]["pointer"], "/model", "{p}");

    let schema = r#"{"name": "p", "name": "q", "columns": [
        {"name": "age", "role": "quasi_identifier", "type": "numeric"}]}"#;
    let f = Form::new()
        .part("schema", Part::bytes(schema.as_bytes().to_vec()))
        .part("data", Part::bytes(b"age\n1\n".to_vec()));
    let p = expect_problem(upload(&app, f).await, 400, "malformed_json").await;
    assert!(p["detail"].as_str().unwrap().contains("\"name\""), "{p}");
}
