use serde_json::{json, Value};

use crate::support::*;

#[tokio::test]
async fn post_job_queues_it_with_defaults_and_location() {
    let app = TestApp::start().await;
    let d = app.dataset("t1").await;
    let res = app.post_json("/v1/jobs", &model_body(d.id)).await;
    assert_eq!(res.status(), 202);
    let loc = res
        .headers()
        .get("location")
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();
    let job: Value = res.json().await.unwrap();
    assert_eq!(loc, format!("/v1/jobs/{}", job["id"].as_str().unwrap()));
    assert_eq!(job["status"], "queued");
    assert_eq!(job["algorithm"], "mondrian");
    assert_eq!(job["attempts"], 0);
    assert_eq!(job["error"], Value::Null);
    let fetched: Value = app.get(&loc).await.json().await.unwrap();
    assert_eq!(fetched["id"], job["id"]);
    // Default algorithms per model kind.
    let models = [
        (
            json!({"kind": "epsilon_m", "epsilon": 5, "m": 2, "neighborhood": "absolute"}),
            "epsilon_m",
        ),
        (
            json!({"kind": "dissimilarity", "epsilon": 5, "delta": 0.5, "k": 1}),
            "xcolor",
        ),
    ];
    for (model, algo) in models {
        let body = json!({"dataset_id": d.id, "model": model});
        let job: Value = app.post_json("/v1/jobs", &body).await.json().await.unwrap();
        assert_eq!(job["algorithm"], algo);
    }
    // A model is required.
    let res = app
        .post_json("/v1/jobs", &json!({"dataset_id": d.id}))
        .await;
    let p = expect_problem(res, 422, "invalid_parameters").await;
    assert_eq!(p["errors"][0]["pointer"], "/model");
}

#[tokio::test]
async fn idempotency_key_replays_or_conflicts() {
    let app = TestApp::start().await;
    let d = app.dataset("t1").await;
    let post = |body: Value, key: &'static str| {
        let req = app
            .client
            .post(app.url("/v1/jobs"))
            .bearer_auth(&app.key)
            .header("idempotency-key", key)
            .json(&body);
        async move { req.send().await.unwrap() }
    };
    let first = post(model_body(d.id), "k-1").await;
    assert_eq!(first.status(), 202);
    let first: Value = first.json().await.unwrap();
    // Same key, same body (keys in another order): the original job, 200.
    let reordered = json!({"model": {"k": 2, "kind": "k_anonymity"}, "dataset_id": d.id});
    let again = post(reordered, "k-1").await;
    assert_eq!(again.status(), 200);
    let again: Value = again.json().await.unwrap();
    assert_eq!(again["id"], first["id"]);
    // Same key, another body: 409.
    let other = json!({"dataset_id": d.id, "model": {"kind": "k_anonymity", "k": 3}});
    expect_problem(
        post(other.clone(), "k-1").await,
        409,
        "idempotency_conflict",
    )
    .await;
    // Another key: a new job.
    let fresh = post(other, "k-2").await;
    assert_eq!(fresh.status(), 202);
    let fresh: Value = fresh.json().await.unwrap();
    assert_ne!(fresh["id"], first["id"]);
    let n: i64 = sqlx::query_scalar("SELECT count(*) FROM jobs")
        .fetch_one(&app.store.pool)
        .await
        .unwrap();
    assert_eq!(n, 2);
}

#[tokio::test]
async fn cancel_a_queued_job_then_409() {
    let app = TestApp::start().await;
    let d = app.dataset("t1").await;
    let job: Value = app
        .post_json("/v1/jobs", &model_body(d.id))
        .await
        .json()
        .await
        .unwrap();
    let path = format!("/v1/jobs/{}/cancel", job["id"].as_str().unwrap());
    let res = app.post_json(&path, &json!({})).await;
    assert_eq!(res.status(), 200);
    let cancelled: Value = res.json().await.unwrap();
    assert_eq!(cancelled["status"], "cancelled");
    assert!(cancelled["finished_at"].is_string());
    let res = app.post_json(&path, &json!({})).await;
    let p = expect_problem(res, 409, "job_finished").await;
    assert_eq!(p["details"]["status"], "cancelled");
    // A cancelled job is never claimed.
    assert!(app
        .store
        .claim_job("w", std::time::Duration::from_secs(5))
        .await
        .unwrap()
        .is_none());
}

#[tokio::test]
async fn jobs_list_filters_and_paginates() {
    let app = TestApp::start().await;
    let d1 = app.dataset("t1").await;
    let d2 = app.dataset("t1").await;
    for d in [&d1, &d1, &d2] {
        assert_eq!(
            app.post_json("/v1/jobs", &model_body(d.id)).await.status(),
            202
        );
    }
    let first: Value = app.get("/v1/jobs").await.json().await.unwrap();
    let id = first["items"][0]["id"].as_str().unwrap().to_string();
    app.post_json(&format!("/v1/jobs/{id}/cancel"), &json!({}))
        .await;
    let count = |v: Value| v["items"].as_array().unwrap().len();
    assert_eq!(count(app.get("/v1/jobs").await.json().await.unwrap()), 3);
    let by_ds = format!("/v1/jobs?dataset_id={}", d1.id);
    assert_eq!(count(app.get(&by_ds).await.json().await.unwrap()), 2);
    assert_eq!(
        count(
            app.get("/v1/jobs?status=cancelled")
                .await
                .json()
                .await
                .unwrap()
        ),
        1
    );
    assert_eq!(
        count(
            app.get("/v1/jobs?status=queued")
                .await
                .json()
                .await
                .unwrap()
        ),
        2
    );
    let page: Value = app.get("/v1/jobs?limit=2").await.json().await.unwrap();
    assert_eq!(count(page.clone()), 2);
    let c = page["next_cursor"].as_str().unwrap();
    let rest: Value = app
        .get(&format!("/v1/jobs?limit=2&cursor={c}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(count(rest.clone()), 1);
    assert_eq!(rest["next_cursor"], Value::Null);
    expect_problem(
        app.get("/v1/jobs?status=bogus").await,
        422,
        "invalid_parameters",
    )
    .await;
    expect_problem(
        app.get("/v1/jobs?dataset_id=zz").await,
        422,
        "invalid_parameters",
    )
    .await;
}
