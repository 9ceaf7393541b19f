//! Reports, downloads and audits within bounds: an uploaded table whose
//! groups publish heavily overlapping boxes is refused by the attacker's
//! view's memory budget (422 `attacker_view_too_large`) instead of taking
//! gigabytes, and reports and result downloads take a computation slot
//! like audits do (held until the download has streamed), so those beyond
//! the per-tenant or global cap get 503 `too_many_computations` instead of
//! each loading its table.

use std::sync::Arc;

use proxima::http::compute::ComputeLimits;
use proxima::http::limits::Limits;
use proxima::worker::core_runner::CoreRunner;
use reqwest::multipart::{Form, Part};
use serde_json::{json, Value};

use crate::support::*;

async fn upload(app: &TestApp, schema: &Value, csv: String) -> Value {
    let form = Form::new()
        .part(
            "schema",
            Part::bytes(serde_json::to_vec(schema).unwrap())
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
    assert_eq!(res.status(), 201);
    res.json().await.unwrap()
}

/// 6,000 rows in 600 groups (`gid`) of 10 random points on two numeric
/// QIs: every group's box covers most of the plane (about 117 KB).
fn overlapping_csv() -> String {
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % 1000
    };
    let mut csv = String::from("gid,a,b,s\n");
    for i in 0..6000 {
        let (a, b) = (next(), next());
        csv.push_str(&format!("g{},{a},{b},{}\n", i % 600, i % 97));
    }
    csv
}

fn overlapping_schema() -> Value {
    json!({"name": "overlapping", "columns": [
        {"name": "gid", "role": "insensitive"},
        {"name": "a", "role": "quasi_identifier", "type": "numeric"},
        {"name": "b", "role": "quasi_identifier", "type": "numeric"},
        {"name": "s", "role": "sensitive", "type": "numeric"}]})
}

#[tokio::test]
async fn an_attacker_view_audit_of_overlapping_boxes_is_refused_within_its_budget() {
    let mut limits = Limits::default();
    limits.max_view_bytes = 32 << 20;
    let app = TestApp::with(Options {
        max_body: 4 << 20,
        limits,
        ..Options::default()
    })
    .await;
    let ds = upload(&app, &overlapping_schema(), overlapping_csv()).await;
    assert_eq!(ds["rows"], 6000);
    let audit = |view: &str| {
        json!({"dataset_id": ds["id"], "groups": {"by": "column", "column": "gid"},
               "view": view, "checks": [{"kind": "k_anonymity", "k": 2}]})
    };
    let res = app.post_json("/v1/audits", &audit("attacker")).await;
    let problem = expect_problem(res, 422, "attacker_view_too_large").await;
    assert_eq!(problem["details"]["budget_bytes"], 32 << 20);
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("memory budget"),
        "{problem}"
    );
    // The per-group view needs no candidate sets: answered as before.
    let res = app.post_json("/v1/audits", &audit("groups")).await;
    assert_eq!(res.status(), 200);
}

/// A succeeded k = 2 job on a small table, on an app whose computation
/// caps are 1 per tenant and 2 over the server, with no queue wait.
async fn app_with_a_result() -> (TestApp, String) {
    let mut limits = Limits::default();
    limits.compute = ComputeLimits::new(2, 1);
    limits.compute.queue_wait = std::time::Duration::ZERO;
    let app = TestApp::with(Options {
        max_body: 4 << 20,
        limits,
        runner: Some(Arc::new(CoreRunner)),
        ..Options::default()
    })
    .await;
    let mut csv = String::from("gid,a,b,s\n");
    for i in 0..2000 {
        csv.push_str(&format!(
            "g{},{},{},{}\n",
            i % 10,
            i % 90,
            (i * 7) % 50,
            i % 13
        ));
    }
    let ds = upload(&app, &overlapping_schema(), csv).await;
    let res = app
        .post_json(
            "/v1/jobs",
            &json!({"dataset_id": ds["id"], "model": {"kind": "k_anonymity", "k": 2}}),
        )
        .await;
    assert_eq!(res.status(), 202);
    let id = res.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let job = app
        .wait_job(&id, |s| matches!(s, "succeeded" | "failed"))
        .await;
    assert_eq!(job["status"], "succeeded", "{job}");
    (app, id)
}

/// What a tenant's report and download get while its computation slots
/// (or the server's) are taken by other work.
async fn refused_while_busy(app: &TestApp, path: &str) {
    // The tenant's one slot busy (say, with an audit): refused at once.
    let held = app.limits.compute.hold("t1").unwrap();
    let res = app.get(path).await;
    let problem = expect_problem(res, 503, "too_many_computations").await;
    assert_eq!(problem["details"]["max_computations_per_tenant"], 1);
    drop(held);
    // The server's two slots busy with other tenants' work: refused too.
    let others = (
        app.limits.compute.hold("other-1").unwrap(),
        app.limits.compute.hold("other-2").unwrap(),
    );
    let res = app.get(path).await;
    let problem = expect_problem(res, 503, "too_many_computations").await;
    assert_eq!(problem["details"]["max_computations"], 2);
    drop(others);
    // Free again: served, and the slot is given back once it is done.
    let res = app.get(path).await;
    assert_eq!(res.status(), 200);
    res.bytes().await.unwrap();
    let mut idle = false;
    for _ in 0..200 {
        if app.limits.compute.running() == 0 {
            idle = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert!(idle, "the slot was kept after the answer was sent");
}

#[tokio::test]
async fn reports_take_a_computation_slot() {
    let (app, id) = app_with_a_result().await;
    refused_while_busy(&app, &format!("/v1/jobs/{id}/report?format=json")).await;
    refused_while_busy(&app, &format!("/v1/jobs/{id}/report")).await;
}

#[tokio::test]
async fn result_downloads_take_a_computation_slot() {
    let (app, id) = app_with_a_result().await;
    refused_while_busy(&app, &format!("/v1/jobs/{id}/result")).await;
    refused_while_busy(&app, &format!("/v1/jobs/{id}/result?format=json")).await;
}
