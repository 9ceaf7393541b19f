use crate::support::*;

#[tokio::test]
async fn healthz_and_readyz_on_a_migrated_database() {
    let app = TestApp::start().await;
    let res = app.client.get(app.url("/healthz")).send().await.unwrap();
    assert_eq!(res.status(), 200);
    let res = app.client.get(app.url("/readyz")).send().await.unwrap();
    assert_eq!(res.status(), 200);
    // Every response carries a request id; a client's own is kept.
    let id = res.headers()["x-request-id"].to_str().unwrap();
    assert!(uuid::Uuid::parse_str(id).is_ok(), "{id}");
    let res = app
        .client
        .get(app.url("/healthz"))
        .header("x-request-id", "portal-42")
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["x-request-id"], "portal-42");
}

#[tokio::test]
async fn readyz_is_503_until_migrations_are_applied() {
    let app = TestApp::with(Options {
        migrate: false,
        ..Options::default()
    })
    .await;
    let res = app.client.get(app.url("/readyz")).send().await.unwrap();
    expect_problem(res, 503, "not_ready").await;
    // Liveness does not depend on the database.
    let res = app.client.get(app.url("/healthz")).send().await.unwrap();
    assert_eq!(res.status(), 200);
    app.store.migrate().await.unwrap();
    let res = app.client.get(app.url("/readyz")).send().await.unwrap();
    assert_eq!(res.status(), 200);
}

#[tokio::test]
async fn readyz_is_503_when_the_database_is_gone() {
    let app = TestApp::start().await;
    app.store.pool.close().await;
    let res = app.client.get(app.url("/readyz")).send().await.unwrap();
    expect_problem(res, 503, "not_ready").await;
}
