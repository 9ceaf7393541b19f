use std::collections::HashSet;

use serde_json::Value;

use crate::support::*;

#[tokio::test]
async fn datasets_are_read_and_listed() {
    let app = TestApp::start().await;
    let mine = app.dataset("t1").await;
    let res = app.get(&format!("/v1/datasets/{}", mine.id)).await;
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["id"], mine.id.to_string());
    assert_eq!(body["rows"], 3);
    assert_eq!(body["name"], "people");
    let list: Value = app.get("/v1/datasets").await.json().await.unwrap();
    let ids: Vec<&str> = list["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, vec![mine.id.to_string().as_str()]);
    assert_eq!(list["next_cursor"], Value::Null);
}

#[tokio::test]
async fn lists_paginate_with_limit_and_cursor() {
    let app = TestApp::start().await;
    let mut created = HashSet::new();
    for _ in 0..5 {
        created.insert(app.dataset("t1").await.id.to_string());
    }
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    let mut pages = 0;
    loop {
        let path = match &cursor {
            Some(c) => format!("/v1/datasets?limit=2&cursor={c}"),
            None => "/v1/datasets?limit=2".to_string(),
        };
        let page: Value = app.get(&path).await.json().await.unwrap();
        let items = page["items"].as_array().unwrap();
        assert!(items.len() <= 2);
        seen.extend(items.iter().map(|d| d["id"].as_str().unwrap().to_string()));
        pages += 1;
        match page["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => break,
        }
    }
    assert_eq!(pages, 3);
    assert_eq!(seen.len(), 5, "no item twice");
    assert_eq!(seen.iter().cloned().collect::<HashSet<_>>(), created);
    // Newest first.
    let all: Value = app.get("/v1/datasets").await.json().await.unwrap();
    let times: Vec<&str> = all["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["created_at"].as_str().unwrap())
        .collect();
    let mut sorted = times.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    assert_eq!(times, sorted);
    // Out-of-range limits and foreign cursors are refused.
    for bad in ["limit=0", "limit=501", "limit=x", "cursor=garbage"] {
        let res = app.get(&format!("/v1/datasets?{bad}")).await;
        expect_problem(res, 422, "invalid_parameters").await;
    }
    let res = app.get("/v1/datasets?limit=500").await;
    assert_eq!(res.status(), 200);
}

#[tokio::test]
async fn deleting_a_dataset_purges_its_jobs_and_chunks() {
    let app = TestApp::start().await;
    let d = app.dataset("t1").await;
    let res = app.post_json("/v1/jobs", &model_body(d.id)).await;
    assert_eq!(res.status(), 202);
    let job: Value = res.json().await.unwrap();
    let res = app
        .client
        .delete(app.url(&format!("/v1/datasets/{}", d.id)))
        .bearer_auth(&app.key)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 204);
    expect_problem(
        app.get(&format!("/v1/datasets/{}", d.id)).await,
        404,
        "not_found",
    )
    .await;
    let job_path = format!("/v1/jobs/{}", job["id"].as_str().unwrap());
    expect_problem(app.get(&job_path).await, 404, "not_found").await;
    let chunks: i64 = sqlx::query_scalar("SELECT count(*) FROM dataset_chunks")
        .fetch_one(&app.store.pool)
        .await
        .unwrap();
    assert_eq!(chunks, 0);
}

#[tokio::test]
async fn stored_files_round_trip_compressed() {
    let store = fresh_store().await;
    let d = insert_dataset(&store, "t1", "x").await;
    let files = store.dataset_files("t1", d.id).await.unwrap();
    // Stored without a table (as before tables were stored): the CSV.
    assert_eq!(files.table, None);
    assert_eq!(files.data, PEOPLE_CSV.as_bytes());
    assert_eq!(files.hierarchies.len(), 1);
    assert_eq!(files.hierarchies[0].0, "zip");
    // Scoped by tenant: another tenant reads nothing.
    let none = store.dataset_files("t2", d.id).await.unwrap();
    assert!(none.data.is_empty() && none.hierarchies.is_empty());
}
