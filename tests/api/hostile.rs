//! Hostile and careless clients: a CSV whose unclosed quote
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

/// A 900 KB bad cell (under the cell limit): the error echoes at most a
/// short prefix of it.
#[tokio::test]
async fn a_huge_bad_cell_is_echoed_truncated() {
    let app = app().await;
    let big = "x".repeat(900_000);
    let csv = format!("name,age,diagnosis\nAnn,{big},flu\n");
    let res = upload(&app, form(&patients_schema(false), csv)).await;
    assert_eq!(res.status(), 400);
    let body = res.bytes().await.unwrap();
    assert!(body.len() < 4096, "a {}-byte error body", body.len());
    let p: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(p["details"]["value_truncated"], true, "{p}");
    assert_eq!(p["details"]["value_chars"], 900_000, "{p}");
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

fn limited(f: impl FnOnce(&mut proxima::http::limits::Limits)) -> Options {
    let mut limits = proxima::http::limits::Limits::default();
    f(&mut limits);
    Options {
        max_body: 32 << 20,
        runner: Some(Arc::new(CoreRunner)),
        limits,
        ..Options::default()
    }
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

/// A gzip-compressed data part is read as its CSV (the CLI reads `.gz`
/// too); a bomb that inflates past the cap is a 413, not a full inflate.
#[tokio::test]
async fn gzip_data_is_accepted_and_a_bomb_is_refused_at_the_cap() {
    let app = TestApp::with(limited(|l| l.max_decompressed_bytes = 4 << 20)).await;
    let csv = "name,age,diagnosis\nAnn,20,flu\nBob,21,flu\nCid,22,hiv\n";
    let res = upload(&app, form(&patients_schema(false), gzip(csv.as_bytes()))).await;
    assert_eq!(res.status(), 201);
    let d: Value = res.json().await.unwrap();
    assert_eq!(d["rows"], 3, "{d}");
    assert_eq!(d["columns"][2]["distinct"], 2, "{d}");

    // 256 MiB of zeros compress to ~250 KiB; the cap is 4 MiB.
    let mut zeros = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let block = vec![0u8; 1 << 20];
    for _ in 0..256 {
        std::io::Write::write_all(&mut zeros, &block).unwrap();
    }
    let bomb = zeros.finish().unwrap();
    assert!(bomb.len() < 1 << 20, "{}", bomb.len());
    let res = upload(&app, form(&patients_schema(false), bomb)).await;
    let p = expect_problem(res, 413, "payload_too_large").await;
    assert_eq!(p["details"]["limit_bytes"], 4 << 20, "{p}");
    assert_eq!(p["details"]["decompressed"], true, "{p}");
    assert_eq!(dataset_count(&app).await, 1);
}

/// The schema part is capped at 1 MiB and hierarchy parts at their flag,
/// each refused while it is being read (the body limit is far larger).
#[tokio::test]
async fn schema_and_hierarchy_parts_have_their_own_small_limits() {
    let app = TestApp::with(limited(|l| l.max_hierarchy_bytes = 64 << 10)).await;
    let mut schema = serde_json::to_vec(&patients_schema(false)).unwrap();
    // Whitespace is valid JSON: only the size is wrong.
    schema.splice(1..1, std::iter::repeat_n(b' ', 2 << 20));
    let f = Form::new()
        .part("schema", Part::bytes(schema))
        .part("data", Part::bytes(b"name,age,diagnosis\nA,1,x\n".to_vec()));
    let p = expect_problem(upload(&app, f).await, 413, "payload_too_large").await;
    assert_eq!(p["details"]["part"], "schema", "{p}");
    assert_eq!(p["details"]["limit_bytes"], 1 << 20, "{p}");

    let schema = json!({"name": "h", "columns": [
        {"name": "zip", "role": "quasi_identifier", "type": "categorical"},
        {"name": "salary", "role": "sensitive", "type": "numeric"}]});
    let hierarchy = "1000;*\n".repeat(20_000);
    let f = form(&schema, "zip,salary\n1000,1\n")
        .part("hierarchy:zip", Part::bytes(hierarchy.into_bytes()));
    let p = expect_problem(upload(&app, f).await, 413, "payload_too_large").await;
    assert_eq!(p["details"]["part"], "hierarchy:zip", "{p}");
    assert_eq!(p["details"]["limit_bytes"], 64 << 10, "{p}");
    assert_eq!(dataset_count(&app).await, 0);
}

/// The review's wide table: 100,000 columns. A schema describing more than
/// the column cap is refused; a header with 100,000 undescribed columns gets an
/// error that lists a bounded number of them.
#[tokio::test]
async fn wide_tables_are_capped_and_their_errors_bounded() {
    let app = TestApp::with(limited(|l| l.max_columns = 1000)).await;
    let width = 100_000;
    let names: Vec<String> = (0..width).map(|i| format!("column_{i}")).collect();
    let mut csv = names.join(",");
    csv.push('\n');
    csv.push_str(&vec!["1"; width].join(","));
    csv.push('\n');
    // One column over the cap (a 100,000-column schema is over the schema
    // part's 1 MiB anyway).
    let cols: Vec<Value> = names[..1001]
        .iter()
        .map(|n| json!({"name": n, "role": "quasi_identifier", "type": "numeric"}))
        .collect();
    let schema = json!({"name": "wide", "columns": cols});
    let p = expect_problem(
        upload(&app, form(&schema, csv.clone())).await,
        422,
        "invalid_parameters",
    )
    .await;
    assert_eq!(p["details"]["max_columns"], 1000, "{p}");

    let schema = json!({"name": "wide", "columns": [
        {"name": "column_0", "role": "quasi_identifier", "type": "numeric"},
        {"name": "column_1", "role": "sensitive", "type": "numeric"}]});
    let res = upload(&app, form(&schema, csv)).await;
    assert_eq!(res.status(), 422);
    let body = res.bytes().await.unwrap();
    assert!(body.len() < 16 << 10, "a {}-byte error body", body.len());
    let p: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(p["code"], "undescribed_column", "{p}");
    assert_eq!(p["details"]["count"], width - 2, "{p}");
}

/// With a metrics token configured, /metrics needs it; without one it is
/// open (the documented default: counts only, over all tenants).
#[tokio::test]
async fn metrics_can_require_a_token() {
    let app = TestApp::with(limited(|l| l.metrics_token = Some("scrape-secret".into()))).await;
    let get = |auth: Option<&str>| {
        let mut r = app.client.get(app.url("/metrics"));
        if let Some(a) = auth {
            r = r.header("authorization", a);
        }
        r.send()
    };
    expect_problem(get(None).await.unwrap(), 401, "unauthorized").await;
    expect_problem(
        get(Some(&format!("Bearer {}", app.key))).await.unwrap(),
        401,
        "unauthorized",
    )
    .await;
    let res = get(Some("Bearer scrape-secret")).await.unwrap();
    assert_eq!(res.status(), 200);
    assert!(res
        .text()
        .await
        .unwrap()
        .contains("proxima_http_requests_total"));
    let open = TestApp::start().await;
    assert_eq!(
        open.client
            .get(open.url("/metrics"))
            .send()
            .await
            .unwrap()
            .status(),
        200
    );
}

/// The head of a multipart upload from `key`, then nothing: the upload
/// stays in progress until the server ends it or the socket is dropped.
async fn stalled_upload(app: &TestApp, key: &str) -> tokio::net::TcpStream {
    use tokio::io::AsyncWriteExt;
    let addr = app.base.trim_start_matches("http://");
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST /v1/datasets HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {key}\r\n\
         Content-Type: multipart/form-data; boundary=XyZ\r\nContent-Length: 100000\r\n\r\n\
         --XyZ\r\nContent-Disposition: form-data; name=\"data\"\r\n\r\nname,age\n"
    );
    s.write_all(head.as_bytes()).await.unwrap();
    s
}

async fn wait_uploads(app: &TestApp, n: usize) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while app.limits.uploads_in_progress() != n {
        assert!(
            std::time::Instant::now() < deadline,
            "{} uploads in progress, expected {n}",
            app.limits.uploads_in_progress()
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// One tenant's slow uploads fill its own share only: its next upload is
/// 429 while another tenant's upload goes through; a stalled upload is
/// ended at the idle timeout and gives its slot back.
#[tokio::test]
async fn one_tenant_cannot_take_every_upload_slot() {
    let app = TestApp::with(limited(|l| {
        l.max_uploads_per_tenant = 2;
        l.upload_idle_timeout = std::time::Duration::from_secs(2);
    }))
    .await;
    let other = app.store.create_key("t2").await.unwrap();
    let _a = stalled_upload(&app, &app.key).await;
    let _b = stalled_upload(&app, &app.key).await;
    wait_uploads(&app, 2).await;

    let csv = "name,age,diagnosis\nAnn,20,flu\nBob,21,flu\n";
    let res = upload(&app, form(&patients_schema(false), csv)).await;
    assert!(res.headers().contains_key("retry-after"));
    let p = expect_problem(res, 429, "too_many_uploads").await;
    assert_eq!(p["details"]["max_uploads_per_tenant"], 2, "{p}");

    let res = app
        .client
        .post(app.url("/v1/datasets"))
        .bearer_auth(&other)
        .multipart(form(&patients_schema(false), csv))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());

    // The stalled uploads send nothing: both are ended at the idle timeout
    // (the sockets are still open) and the tenant can upload again.
    wait_uploads(&app, 0).await;
    let res = upload(&app, form(&patients_schema(false), csv)).await;
    assert_eq!(res.status(), 201);
}
