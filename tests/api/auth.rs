use proxima::server::bootstrap_keys;

use crate::support::*;

#[tokio::test]
async fn v1_routes_need_a_known_bearer_key() {
    let app = TestApp::start().await;
    let url = app.url("/v1/datasets");
    let res = app.client.get(&url).send().await.unwrap();
    assert_eq!(
        res.headers()
            .get("www-authenticate")
            .unwrap()
            .to_str()
            .unwrap(),
        "Bearer"
    );
    expect_problem(res, 401, "unauthorized").await;
    let res = app
        .client
        .get(&url)
        .bearer_auth("pxk_wrong")
        .send()
        .await
        .unwrap();
    expect_problem(res, 401, "unauthorized").await;
    let res = app
        .client
        .get(&url)
        .header("authorization", format!("Basic {}", app.key))
        .send()
        .await
        .unwrap();
    expect_problem(res, 401, "unauthorized").await;
    // Every /v1 route, not only lists.
    let res = app
        .client
        .post(app.url("/v1/jobs"))
        .json(&serde_json::json!({}))
        .send()
        .await
        .unwrap();
    expect_problem(res, 401, "unauthorized").await;
    let res = app.get("/v1/datasets").await;
    assert_eq!(res.status(), 200);
}

#[tokio::test]
async fn a_revoked_key_is_refused() {
    let app = TestApp::start().await;
    assert_eq!(app.get("/v1/jobs").await.status(), 200);
    assert_eq!(app.store.revoke_key(&app.key).await.unwrap(), 1);
    expect_problem(app.get("/v1/jobs").await, 401, "unauthorized").await;
}

#[tokio::test]
async fn bootstrap_key_is_idempotent_and_first_key_is_created_once() {
    let store = fresh_store().await;
    // No keys and no bootstrap key: one is created and returned.
    let first = bootstrap_keys(&store, None)
        .await
        .unwrap()
        .expect("a new key");
    assert_eq!(
        store.tenant_for_key(&first).await.unwrap().as_deref(),
        Some("default")
    );
    // The next start finds it and creates nothing.
    assert_eq!(bootstrap_keys(&store, None).await.unwrap(), None);
    assert_eq!(store.count_keys().await.unwrap(), 1);
    // A bootstrap key is made to exist for `default`, once across restarts.
    bootstrap_keys(&store, Some("boot-key-123")).await.unwrap();
    bootstrap_keys(&store, Some("boot-key-123")).await.unwrap();
    assert_eq!(store.count_keys().await.unwrap(), 2);
    assert_eq!(
        store
            .tenant_for_key("boot-key-123")
            .await
            .unwrap()
            .as_deref(),
        Some("default")
    );
    // Keys are stored hashed, never in clear.
    let clear: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM api_keys WHERE encode(key_hash, 'escape') LIKE '%boot-key%'
            OR prefix = 'boot-key-123'",
    )
    .fetch_one(&store.pool)
    .await
    .unwrap();
    assert_eq!(clear, 0);
}
