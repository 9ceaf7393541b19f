//! Under pressure: a request that finds every
//! database connection busy is a 503 `database_busy` with `Retry-After`,
//! never a 500, and the same request succeeds once connections are free.

use std::time::Duration;

use proxima::http::{router, AppState};
use proxima::store::Store;
use sqlx::postgres::PgPoolOptions;

use crate::support::*;

#[tokio::test]
async fn an_exhausted_connection_pool_is_a_503_not_a_500() {
    let url = fresh_database().await;
    let pool = PgPoolOptions::new()
        .max_connections(3)
        .acquire_timeout(Duration::from_millis(500))
        .connect(&url)
        .await
        .unwrap();
    let store = Store { pool };
    store.migrate().await.unwrap();
    let key = store.create_key("t1").await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let app = router(AppState::new(store.clone(), 1 << 20, 3));
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let client = reqwest::Client::new();
    let get = |path: &'static str| client.get(format!("{base}{path}")).bearer_auth(&key).send();
    assert_eq!(get("/v1/datasets").await.unwrap().status(), 200);

    // The test holds every connection.
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(store.pool.acquire().await.unwrap());
    }
    for path in ["/v1/datasets", "/v1/jobs"] {
        let res = get(path).await.unwrap();
        assert!(res.headers().contains_key("retry-after"), "{path}");
        expect_problem(res, 503, "database_busy").await;
    }
    drop(held);
    assert_eq!(get("/v1/datasets").await.unwrap().status(), 200);
}

/// Retention: datasets and finished jobs older than the TTL are deleted by
/// the service's task (results go with their jobs); a dataset with a job
/// still queued stays until that job settles; younger data stays.
#[tokio::test]
async fn retention_deletes_expired_datasets_and_results() {
    let app = TestApp::start().await;
    let old = app.dataset("t1").await;
    let busy = app.dataset("t1").await;
    let young = app.dataset("t1").await;
    // A finished job on a young dataset: purged by its own age.
    let finished = app.post_json("/v1/jobs", &model_body(young.id)).await;
    let finished: serde_json::Value = finished.json().await.unwrap();
    let queued = app.post_json("/v1/jobs", &model_body(busy.id)).await;
    assert_eq!(queued.status(), 202);
    sqlx::query(
        "UPDATE jobs SET status = 'succeeded', finished_at = now() - interval '2 hours'
         WHERE id = $1",
    )
    .bind(
        finished["id"]
            .as_str()
            .unwrap()
            .parse::<uuid::Uuid>()
            .unwrap(),
    )
    .execute(&app.store.pool)
    .await
    .unwrap();
    sqlx::query("UPDATE datasets SET created_at = now() - interval '2 hours' WHERE id <> $1")
        .bind(young.id)
        .execute(&app.store.pool)
        .await
        .unwrap();

    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let task = proxima::retention::start(app.store.clone(), Duration::from_secs(3600), stop_rx);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while app.get(&format!("/v1/datasets/{}", old.id)).await.status() != 404 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the expired dataset was not purged"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let gone = app
        .get(&format!("/v1/jobs/{}", finished["id"].as_str().unwrap()))
        .await;
    assert_eq!(gone.status(), 404);
    assert_eq!(
        app.get(&format!("/v1/datasets/{}", busy.id)).await.status(),
        200
    );
    assert_eq!(
        app.get(&format!("/v1/datasets/{}", young.id))
            .await
            .status(),
        200
    );
    stop_tx.send(true).unwrap();
    task.await.unwrap();
}

/// A client that gives up on a slow feasibility request (its connection
/// closes): the computation is abandoned at its next checkpoint and its
/// slot comes back, long before the work would have ended.
#[tokio::test]
async fn a_disconnected_client_s_computation_is_given_up() {
    let app = TestApp::with(Options {
        max_body: 64 << 20,
        ..Options::default()
    })
    .await;
    // 40,000 rows with three distinct numeric sensitive columns: the
    // dissimilarity degree index is quadratic (many seconds of CPU).
    let mut csv = String::from("age,s1,s2,s3\n");
    for i in 0u64..40_000 {
        csv.push_str(&format!(
            "{},{},{},{}\n",
            18 + i % 70,
            (i * 7919) % 100_003,
            (i * 104_729) % 100_019,
            (i * 1_299_709) % 100_043
        ));
    }
    let schema = serde_json::json!({"name": "sa3", "columns": [
        {"name": "age", "role": "quasi_identifier", "type": "numeric"},
        {"name": "s1", "role": "sensitive", "type": "numeric"},
        {"name": "s2", "role": "sensitive", "type": "numeric"},
        {"name": "s3", "role": "sensitive", "type": "numeric"}]});
    let form = reqwest::multipart::Form::new()
        .part(
            "schema",
            reqwest::multipart::Part::bytes(serde_json::to_vec(&schema).unwrap()),
        )
        .part("data", reqwest::multipart::Part::bytes(csv.into_bytes()));
    let res = app
        .client
        .post(app.url("/v1/datasets"))
        .bearer_auth(&app.key)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    let ds: serde_json::Value = res.json().await.unwrap();
    let gave_up = app
        .client
        .post(app.url(&format!(
            "/v1/datasets/{}/feasibility",
            ds["id"].as_str().unwrap()
        )))
        .bearer_auth(&app.key)
        .json(&serde_json::json!({"kind": "dissimilarity", "epsilon": 1.0}))
        .timeout(Duration::from_millis(1500))
        .send()
        .await;
    assert!(
        gave_up.is_err(),
        "the request should still have been running"
    );
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    while app.limits.compute.running() > 0 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the abandoned computation still runs"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
