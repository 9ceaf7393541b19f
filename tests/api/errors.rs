use serde_json::json;

use crate::support::*;

#[tokio::test]
async fn malformed_json_is_a_400_problem() {
    let app = TestApp::start().await;
    let res = app
        .client
        .post(app.url("/v1/jobs"))
        .bearer_auth(&app.key)
        .header("content-type", "application/json")
        .body("{\"dataset_id\": ")
        .send()
        .await
        .unwrap();
    let body = expect_problem(res, 400, "malformed_json").await;
    assert!(body["detail"].as_str().unwrap().contains("JSON"), "{body}");
}

#[tokio::test]
async fn wrong_content_type_is_a_415_problem() {
    let app = TestApp::start().await;
    let res = app
        .client
        .post(app.url("/v1/jobs"))
        .bearer_auth(&app.key)
        .header("content-type", "text/plain")
        .body("{}")
        .send()
        .await
        .unwrap();
    expect_problem(res, 415, "unsupported_media_type").await;
    // No content type at all is the same.
    let res = app
        .client
        .post(app.url("/v1/jobs"))
        .bearer_auth(&app.key)
        .body("{}")
        .send()
        .await
        .unwrap();
    expect_problem(res, 415, "unsupported_media_type").await;
}

#[tokio::test]
async fn a_body_over_the_limit_is_a_413_problem() {
    let app = TestApp::with(Options {
        max_body: 1000,
        ..Options::default()
    })
    .await;
    let big = json!({"dataset_id": "x", "pad": "a".repeat(5000)});
    let res = app.post_json("/v1/jobs", &big).await;
    let body = expect_problem(res, 413, "payload_too_large").await;
    assert_eq!(body["details"]["limit_bytes"], 1000);
    // Just under the limit is read (and then judged on its content).
    let small = json!({"dataset_id": "x"});
    let res = app.post_json("/v1/jobs", &small).await;
    expect_problem(res, 422, "invalid_parameters").await;
}

#[tokio::test]
async fn unknown_routes_and_ids_are_404_problems() {
    let app = TestApp::start().await;
    expect_problem(app.get("/v1/nothing-here").await, 404, "not_found").await;
    expect_problem(app.get("/v1/datasets/not-a-uuid").await, 404, "not_found").await;
    let id = uuid::Uuid::new_v4();
    expect_problem(
        app.get(&format!("/v1/datasets/{id}")).await,
        404,
        "not_found",
    )
    .await;
    expect_problem(app.get(&format!("/v1/jobs/{id}")).await, 404, "not_found").await;
    let res = app
        .post_json(&format!("/v1/jobs/{id}/cancel"), &json!({}))
        .await;
    expect_problem(res, 404, "not_found").await;
    // A job for a dataset that does not exist.
    let res = app.post_json("/v1/jobs", &model_body(id)).await;
    expect_problem(res, 404, "not_found").await;
}

#[tokio::test]
async fn a_wrong_method_is_a_405_problem() {
    let app = TestApp::start().await;
    let res = app
        .client
        .put(app.url("/v1/jobs"))
        .bearer_auth(&app.key)
        .send()
        .await
        .unwrap();
    expect_problem(res, 405, "method_not_allowed").await;
}
