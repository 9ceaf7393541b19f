//! The OpenAPI document: the committed `openapi/openapi.json` is what the
//! code generates (drift test; `UPDATE_OPENAPI=1` rewrites it, as does
//! `cargo run -- openapi > openapi/openapi.json`), the server serves it and
//! Swagger UI without auth and without a CDN, and its `/v1` operations are
//! exactly the routes the router serves.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::support::*;

fn committed_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("openapi/openapi.json")
}

pub(crate) fn committed() -> Value {
    let text = std::fs::read_to_string(committed_path()).expect("openapi/openapi.json exists");
    serde_json::from_str(&text).expect("openapi/openapi.json is JSON")
}

#[test]
fn committed_document_matches_the_code() {
    let generated = proxima::http::openapi::pretty_json();
    let path = committed_path();
    if std::env::var_os("UPDATE_OPENAPI").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == generated,
        "openapi/openapi.json is stale: regenerate it with \
         `cargo run -- openapi > openapi/openapi.json` \
         (or `UPDATE_OPENAPI=1 cargo test -p proxima --test api openapi`)"
    );
}

/// `(METHOD, path)` of every operation under `/v1` in a document.
pub(crate) fn documented_v1(doc: &Value) -> BTreeSet<(String, String)> {
    let mut ops = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        if !path.starts_with("/v1/") {
            continue;
        }
        for method in item.as_object().unwrap().keys() {
            if ["get", "post", "put", "patch", "delete"].contains(&method.as_str()) {
                ops.insert((method.to_uppercase(), path.clone()));
            }
        }
    }
    ops
}

/// `(METHOD, path)` of every route the router nests under `/v1`, read from
/// the router's source (axum cannot list its routes), so a route added
/// there without documentation fails the test below.
fn routed_v1() -> BTreeSet<(String, String)> {
    let src =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/http/mod.rs"))
            .unwrap();
    let start = src.find("let v1 = Router::new()").expect("the /v1 router");
    let block = &src[start..];
    let block = &block[..block.find(".route_layer(").expect("the /v1 auth layer")];
    let mut ops = BTreeSet::new();
    for route in block.split(".route(").skip(1) {
        let path = route.split('"').nth(1).expect("a route path literal");
        for method in ["get", "post", "put", "patch", "delete"] {
            // `get(handler)` or `.get(handler)`, not `datasets::get`.
            let called = route.match_indices(&format!("{method}(")).any(|(i, _)| {
                i == 0 || !route[..i].ends_with(|c: char| c.is_alphanumeric() || c == ':')
            });
            if called {
                ops.insert((method.to_uppercase(), format!("/v1{path}")));
            }
        }
    }
    ops
}

#[test]
fn every_v1_route_is_documented_and_nothing_else() {
    let routed = routed_v1();
    // The API.md routes; guards the source reading above as well.
    let api_md: BTreeSet<(String, String)> = [
        ("GET", "/v1/datasets"),
        ("POST", "/v1/datasets"),
        ("GET", "/v1/datasets/{id}"),
        ("DELETE", "/v1/datasets/{id}"),
        ("POST", "/v1/datasets/{id}/feasibility"),
        ("POST", "/v1/jobs"),
        ("GET", "/v1/jobs"),
        ("GET", "/v1/jobs/{id}"),
        ("POST", "/v1/jobs/{id}/cancel"),
        ("GET", "/v1/jobs/{id}/result"),
        ("GET", "/v1/jobs/{id}/audit"),
        ("POST", "/v1/audits"),
    ]
    .into_iter()
    .map(|(m, p)| (m.to_string(), p.to_string()))
    .collect();
    assert_eq!(routed, api_md, "the router's /v1 routes are API.md's");
    let generated =
        serde_json::to_value(<proxima::http::openapi::ApiDoc as utoipa::OpenApi>::openapi())
            .unwrap();
    assert_eq!(documented_v1(&generated), routed);
    // Every /v1 operation needs the bearer key and documents its 401.
    for (method, path) in &routed {
        let op = &generated["paths"][path][method.to_lowercase()];
        assert_eq!(
            op["security"],
            serde_json::json!([{"bearer": []}]),
            "{method} {path}"
        );
        assert_eq!(
            op["responses"]["401"]["$ref"], "#/components/responses/Unauthorized",
            "{method} {path}"
        );
    }
    // The shared responses are problem+json documents.
    for name in ["Unauthorized", "NotFound", "Internal", "RequestTimeout"] {
        assert_eq!(
            generated["components"]["responses"][name]["content"]["application/problem+json"]
                ["schema"]["$ref"],
            "#/components/schemas/ProblemDto",
            "{name}"
        );
    }
    assert_eq!(
        generated["components"]["securitySchemes"]["bearer"]["scheme"],
        "bearer"
    );
}

#[tokio::test]
async fn the_server_serves_the_committed_document_without_auth() {
    let app = TestApp::start().await;
    let res = app
        .client
        .get(app.url("/openapi.json"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let served: Value = res.json().await.unwrap();
    assert_eq!(served, committed());
    // The document's /v1 routes answer (401 without a key, not 404): they
    // are served under the paths documented.
    for (method, path) in documented_v1(&served) {
        let url = app.url(&path.replace("{id}", &uuid::Uuid::new_v4().to_string()));
        let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        let res = app
            .client
            .request(method.clone(), url)
            .send()
            .await
            .unwrap();
        expect_problem(res, 401, "unauthorized").await;
    }
}

#[tokio::test]
async fn docs_serve_swagger_ui_from_the_binary() {
    let app = TestApp::start().await;
    // `/docs` redirects to `/docs/`; reqwest follows.
    let res = app.client.get(app.url("/docs")).send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.url().path(), "/docs/");
    let page = res.text().await.unwrap();
    assert!(page.contains("swagger-ui"), "{page}");
    assert!(
        !page.contains("http://") && !page.contains("https://"),
        "the page loads something from outside: {page}"
    );
    // Its assets and configuration come from this server, and the
    // configuration points at our document.
    for asset in [
        "swagger-ui.css",
        "swagger-ui-bundle.js",
        "swagger-initializer.js",
    ] {
        assert!(page.contains(asset), "{asset} not referenced: {page}");
        let res = app
            .client
            .get(app.url(&format!("/docs/{asset}")))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200, "{asset}");
        let body = res.bytes().await.unwrap();
        assert!(body.len() > 100, "{asset} is empty");
        if asset == "swagger-initializer.js" {
            let js = String::from_utf8(body.to_vec()).unwrap();
            assert!(js.contains("/openapi.json"), "{js}");
            assert!(!js.contains("http://") && !js.contains("https://"), "{js}");
        }
    }
}
