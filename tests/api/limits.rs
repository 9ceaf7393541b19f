//! Request timeouts and the cap on concurrent uploads (src/http/limits.rs):
//! a request that cannot finish in time gets 503 `request_timeout`, a
//! download that streams for longer than the timeout completes, and uploads
//! over the cap are refused with `Retry-After` until one ends.

use std::sync::Arc;
use std::time::{Duration, Instant};

use proxima::http::limits::Limits;
use proxima::worker::core_runner::CoreRunner;
use reqwest::multipart::{Form, Part};
use serde_json::{json, Value};
use tokio::io::AsyncWriteExt;

use crate::support::*;

fn limits(request_secs: u64, max_uploads: usize) -> Limits {
    Limits::new(
        Duration::from_secs(request_secs),
        Duration::from_secs(3600),
        max_uploads,
    )
}

/// A handler blocked on a table lock the test holds cannot finish: it gets
/// the timeout's problem, and the same request succeeds once the lock is
/// gone.
#[tokio::test]
async fn a_request_over_the_timeout_gets_503_request_timeout() {
    let app = TestApp::with(Options {
        limits: limits(1, 4),
        ..Options::default()
    })
    .await;
    let mut lock = app.store.pool.begin().await.unwrap();
    sqlx::query("LOCK TABLE datasets IN ACCESS EXCLUSIVE MODE")
        .execute(&mut *lock)
        .await
        .unwrap();
    let started = Instant::now();
    let res = app.get("/v1/datasets").await;
    let p = expect_problem(res, 503, "request_timeout").await;
    assert_eq!(p["details"]["limit_secs"], 1.0, "{p}");
    assert!(started.elapsed() >= Duration::from_secs(1));
    lock.rollback().await.unwrap();
    assert_eq!(app.get("/v1/datasets").await.status(), 200);
}

/// A release of a few hundred thousand rows, read slowly: the client
/// pauses longer than the request timeout in the middle of the body, and
/// the download still completes with every row.
#[tokio::test]
async fn a_download_longer_than_the_timeout_completes() {
    let app = TestApp::with(Options {
        max_body: 64 << 20,
        runner: Some(Arc::new(CoreRunner)),
        limits: limits(1, 4),
        ..Options::default()
    })
    .await;
    let rows = 400_000usize;
    let mut csv = String::with_capacity(rows * 20);
    csv.push_str("age,hours,salary\n");
    for i in 0..rows {
        csv.push_str(&format!(
            "{},{},{}\n",
            18 + i % 70,
            10 + (i * 7) % 50,
            20_000 + (i * 13) % 90_000
        ));
    }
    let schema = json!({"name": "big", "columns": [
        {"name": "age", "role": "quasi_identifier", "type": "numeric"},
        {"name": "hours", "role": "quasi_identifier", "type": "numeric"},
        {"name": "salary", "role": "sensitive", "type": "numeric"}
    ]});
    let form = Form::new()
        .part(
            "schema",
            Part::bytes(serde_json::to_vec(&schema).unwrap())
                .mime_str("application/json")
                .unwrap(),
        )
        .part("data", Part::bytes(csv.into_bytes()));
    let res = app
        .client
        .post(app.url("/v1/datasets"))
        .bearer_auth(&app.key)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    let ds: Value = res.json().await.unwrap();
    // Queued through the store: validating a job over 400k rows is itself
    // an ordinary request that can take longer than this test's 1 s.
    let job = proxima::store::jobs::NewJob {
        tenant: "t1".into(),
        dataset_id: ds["id"].as_str().unwrap().parse().unwrap(),
        params: k2_mondrian(),
        max_attempts: 3,
        idempotency: None,
        max_active: None,
        submitted_by: None,
    };
    let id = match app.store.create_job(&job).await.unwrap() {
        proxima::store::jobs::Created::New(j) => j.id.to_string(),
        other => panic!("{other:?}"),
    };
    let done = app
        .wait_job(&id, |s| !matches!(s, "queued" | "running"))
        .await;
    assert_eq!(done["status"], "succeeded", "{done}");

    let started = Instant::now();
    let mut res = app.get(&format!("/v1/jobs/{id}/result")).await;
    assert_eq!(res.status(), 200);
    let mut body = Vec::new();
    let mut paused = false;
    while let Some(chunk) = res.chunk().await.expect("the stream is not cut") {
        body.extend_from_slice(&chunk);
        // Stall mid-body, longer than the timeout: the server is blocked
        // on a full socket by now (the release is several megabytes).
        if !paused && body.len() > 1 << 20 {
            paused = true;
            tokio::time::sleep(Duration::from_millis(1500)).await;
        }
    }
    // Bigger than what the sockets' buffers hold, so the server was still
    // streaming during the pause.
    assert!(
        body.len() > 4 << 20,
        "a small release: {} bytes",
        body.len()
    );
    assert!(started.elapsed() > Duration::from_secs(1));
    let text = String::from_utf8(body).unwrap();
    assert_eq!(text.lines().count(), rows + 1, "header + every row");
}

/// Sends the head and the first bytes of a multipart upload over a raw
/// socket and then stalls, holding the upload open until dropped.
async fn stalled_upload(app: &TestApp) -> tokio::net::TcpStream {
    let addr = app.base.trim_start_matches("http://");
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST /v1/datasets HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {}\r\n\
         Content-Type: multipart/form-data; boundary=XyZ\r\nContent-Length: 100000\r\n\r\n\
         --XyZ\r\nContent-Disposition: form-data; name=\"data\"\r\n\r\nage,zip,salary\n",
        app.key
    );
    s.write_all(head.as_bytes()).await.unwrap();
    s.flush().await.unwrap();
    s
}

async fn small_upload(app: &TestApp) -> reqwest::Response {
    let form = Form::new()
        .part(
            "schema",
            Part::bytes(serde_json::to_vec(&people_schema("p")).unwrap())
                .mime_str("application/json")
                .unwrap(),
        )
        .part("data", Part::bytes(PEOPLE_CSV.as_bytes().to_vec()))
        .part(
            "hierarchy:zip",
            Part::bytes(b"1000;*\n2000;*\n3000;*\n".to_vec()),
        );
    app.client
        .post(app.url("/v1/datasets"))
        .bearer_auth(&app.key)
        .multipart(form)
        .send()
        .await
        .unwrap()
}

async fn wait_uploads(app: &TestApp, n: usize) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while app.limits.uploads_in_progress() != n {
        assert!(
            Instant::now() < deadline,
            "{} uploads in progress, expected {n}",
            app.limits.uploads_in_progress()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn uploads_over_the_cap_are_refused_until_one_ends() {
    let app = TestApp::with(Options {
        limits: limits(60, 2),
        ..Options::default()
    })
    .await;
    let first = stalled_upload(&app).await;
    let _second = stalled_upload(&app).await;
    wait_uploads(&app, 2).await;

    let res = small_upload(&app).await;
    let retry = res
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let p = expect_problem(res, 503, "too_many_uploads").await;
    assert_eq!(p["details"]["max_concurrent_uploads"], 2, "{p}");
    assert!(retry.parse::<u64>().is_ok_and(|s| s > 0), "{retry:?}");
    // Other requests are not capped.
    assert_eq!(app.get("/v1/datasets").await.status(), 200);

    // One stalled upload goes away: its permit comes back.
    drop(first);
    wait_uploads(&app, 1).await;
    let res = small_upload(&app).await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    wait_uploads(&app, 1).await;
}
