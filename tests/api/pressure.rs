//! Under pressure (issue 11, finding 3): a request that finds every
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
