//! Requests that say two things at once, or too much: two
//! `Idempotency-Key` headers, a query parameter given twice, an audit
//! asking for thousands of checks. Each is refused with a clear problem
//! instead of one reading being picked or the work being done.

use serde_json::{json, Value};

use crate::support::*;

/// Two `Idempotency-Key` headers are refused (not "the first wins"), for
/// jobs and sweeps alike, and nothing is queued.
#[tokio::test]
async fn two_idempotency_keys_are_refused() {
    let app = TestApp::start().await;
    let d = app.dataset("t1").await;
    for (path, body) in [
        ("/v1/jobs", model_body(d.id)),
        (
            "/v1/sweeps",
            json!({"dataset_id": d.id, "model": {"kind": "k_anonymity", "k": [2, 3]}}),
        ),
    ] {
        let res = app
            .client
            .post(app.url(path))
            .bearer_auth(&app.key)
            .header("idempotency-key", "first")
            .header("idempotency-key", "second")
            .json(&body)
            .send()
            .await
            .unwrap();
        let p = expect_problem(res, 400, "malformed_request").await;
        assert_eq!(p["errors"][0]["pointer"], "/headers/Idempotency-Key", "{p}");
        assert!(
            p["detail"].as_str().unwrap().contains("more than one"),
            "{p}"
        );
    }
    assert_eq!(app.store.active_jobs("t1").await.unwrap(), 0);
    // One key is still fine.
    let res = app
        .client
        .post(app.url("/v1/jobs"))
        .bearer_auth(&app.key)
        .header("idempotency-key", "only")
        .json(&model_body(d.id))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 202);
}

/// `?status=failed&status=succeeded` has no one meaning: refused, naming
/// the parameter, on every route that reads a query.
#[tokio::test]
async fn a_query_parameter_given_twice_is_refused() {
    let app = TestApp::start().await;
    let d = app.dataset("t1").await;
    let job: Value = app
        .post_json("/v1/jobs", &model_body(d.id))
        .await
        .json()
        .await
        .unwrap();
    let job = job["id"].as_str().unwrap();
    for (path, name) in [
        (
            "/v1/jobs?status=failed&status=succeeded".to_string(),
            "status",
        ),
        ("/v1/datasets?limit=1&limit=500".to_string(), "limit"),
        (
            format!("/v1/jobs/{job}/result?format=csv&format=json"),
            "format",
        ),
        (
            format!("/v1/jobs/{job}/report?audience=external&audience=internal"),
            "audience",
        ),
        ("/v1/sweeps?cursor=&cursor=".to_string(), "cursor"),
    ] {
        let res = app.get(&path).await;
        let p = expect_problem(res, 400, "malformed_request").await;
        assert_eq!(p["errors"][0]["pointer"], format!("/query/{name}"), "{p}");
        assert_eq!(p["details"]["parameter"], name, "{p}");
    }
    // Different parameters together are fine.
    let res = app.get("/v1/jobs?status=queued&limit=5").await;
    assert_eq!(res.status(), 200);
}

fn audit_body(dataset: uuid::Uuid, checks: usize) -> Value {
    let check = json!({"kind": "k_anonymity", "k": 2});
    json!({"dataset_id": dataset, "checks": vec![check; checks]})
}

/// The review's audit of 10,000 checks ran 51 s and answered 10 MB. Over
/// `--max-audit-checks` (64 by default) an audit is refused before any
/// work; up to it, it runs.
#[tokio::test]
async fn an_audit_with_too_many_checks_is_refused() {
    let app = TestApp::start().await;
    let d = app.dataset("t1").await;
    let res = app.post_json("/v1/audits", &audit_body(d.id, 10_000)).await;
    let p = expect_problem(res, 422, "invalid_parameters").await;
    assert_eq!(p["errors"][0]["pointer"], "/checks", "{p}");
    assert_eq!(p["details"]["checks"], 10_000, "{p}");
    assert_eq!(p["details"]["max_audit_checks"], 64, "{p}");
    let res = app.post_json("/v1/audits", &audit_body(d.id, 64)).await;
    assert_eq!(res.status(), 200);
    let report: Value = res.json().await.unwrap();
    assert_eq!(report["checks"].as_array().unwrap().len(), 64);

    let mut options = Options::default();
    options.limits.max_audit_checks = 2;
    let app = TestApp::with(options).await;
    let d = app.dataset("t1").await;
    assert_eq!(
        app.post_json("/v1/audits", &audit_body(d.id, 2))
            .await
            .status(),
        200
    );
    let res = app.post_json("/v1/audits", &audit_body(d.id, 3)).await;
    let p = expect_problem(res, 422, "invalid_parameters").await;
    assert_eq!(p["details"]["max_audit_checks"], 2, "{p}");
}
