//! The OpenAPI document: the committed `openapi/openapi.json` is what the
//! code generates (drift test; `UPDATE_OPENAPI=1` rewrites it, as does
//! `cargo run -- openapi > openapi/openapi.json`), the server serves it and
//! Swagger UI without auth and without a CDN, and its `/v1` operations are
//! exactly the routes the router serves.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

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
    // The docs/api.md routes; guards the source reading above as well.
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
        ("GET", "/v1/jobs/{id}/report"),
        ("POST", "/v1/audits"),
        ("POST", "/v1/sweeps"),
        ("GET", "/v1/sweeps"),
        ("GET", "/v1/sweeps/{id}"),
        ("POST", "/v1/sweeps/{id}/cancel"),
        ("GET", "/v1/sweeps/{id}/report"),
        ("POST", "/v1/jobs/{id}/approvals"),
        ("GET", "/v1/jobs/{id}/approvals"),
        ("GET", "/v1/settings/release-policy"),
        ("PUT", "/v1/settings/release-policy"),
        ("POST", "/v1/keys"),
    ]
    .into_iter()
    .map(|(m, p)| (m.to_string(), p.to_string()))
    .collect();
    assert_eq!(routed, api_md, "the router's /v1 routes are docs/api.md's");
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
            "#/components/schemas/Problem",
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

/// Every schema node of a document, with its JSON pointer.
fn schema_nodes<'a>(at: String, v: &'a Value, out: &mut Vec<(String, &'a Value)>) {
    match v {
        Value::Object(map) => {
            if map.contains_key("type") || map.contains_key("$ref") || map.contains_key("oneOf") {
                out.push((at.clone(), v));
            }
            for (k, child) in map {
                schema_nodes(format!("{at}/{k}"), child, out);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                schema_nodes(format!("{at}/{i}"), child, out);
            }
        }
        _ => {}
    }
}

/// What client generators need: no object placeholders, every
/// property typed, and no inline objects inside a union (each variant is a
/// named schema, so generated clients get named types).
#[test]
fn the_document_has_no_placeholders_and_named_variants() {
    let doc = committed();
    let mut nodes = Vec::new();
    schema_nodes(String::new(), &doc["components"]["schemas"], &mut nodes);
    for (at, node) in &nodes {
        let object = node["type"] == "object"
            || node["type"]
                .as_array()
                .is_some_and(|t| t.contains(&Value::from("object")));
        if object {
            assert!(
                node.get("properties").is_some() || node.get("additionalProperties").is_some(),
                "{at} is an object placeholder: {node}"
            );
        }
        if let Some(props) = node.get("properties").and_then(Value::as_object) {
            for (name, p) in props {
                let typed = ["type", "$ref", "oneOf", "allOf", "anyOf"]
                    .iter()
                    .any(|k| p.get(k).is_some());
                assert!(typed, "{at}/properties/{name} has no type: {p}");
            }
        }
        for item in node["oneOf"].as_array().into_iter().flatten() {
            assert!(
                item.get("properties").is_none(),
                "{at} has an inline object variant: {item}"
            );
        }
    }
}

/// operationIds are unique (OpenAPI requires it; openapi-typescript's
/// `operations` and the generated clients' function names are keyed by
/// them).
#[test]
fn operation_ids_are_unique() {
    let doc = committed();
    let mut ids = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let id = op["operationId"].as_str().expect("an operationId");
            assert!(ids.insert(id.to_string()), "{method} {path}: {id} again");
        }
    }
}

/// The `kind`- and `by`-tagged unions carry a discriminator whose mapping
/// names each variant, and each variant is a closed object whose tag is
/// exactly its mapping key (as serde's `tag` and `deny_unknown_fields`).
#[test]
fn tagged_unions_have_discriminators_and_closed_variants() {
    let doc = committed();
    let schemas = &doc["components"]["schemas"];
    for (union, tag, kinds) in [
        (
            "Model",
            "kind",
            &[
                "epsilon_m",
                "dissimilarity",
                "k_anonymity",
                "l_diversity",
                "t_closeness",
                "k_map",
                "delta_presence",
            ][..],
        ),
        (
            "Metric",
            "kind",
            &[
                "absolute",
                "relative",
                "equal",
                "hierarchical",
                "lp",
                "variational",
            ][..],
        ),
        (
            "Check",
            "kind",
            &[
                "k_anonymity",
                "l_diversity",
                "alpha_k",
                "epsilon_m",
                "dissimilarity",
                "delta_l_diversity",
                "t_closeness",
                "special_uniques",
                "k_map",
                "delta_presence",
            ][..],
        ),
        (
            "FeasibilityRequest",
            "kind",
            &["epsilon_m", "dissimilarity"][..],
        ),
        ("Groups", "by", &["quasi_identifiers", "column"][..]),
    ] {
        let d = &schemas[union]["discriminator"];
        assert_eq!(d["propertyName"], tag, "{union}");
        let mapping = d["mapping"].as_object().expect("a mapping");
        let mapped: BTreeSet<&str> = mapping.keys().map(String::as_str).collect();
        assert_eq!(mapped, kinds.iter().copied().collect(), "{union}");
        let refs: BTreeSet<&str> = schemas[union]["oneOf"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["$ref"].as_str().expect("a $ref variant"))
            .collect();
        for (kind, target) in mapping {
            let target = target.as_str().unwrap();
            assert!(refs.contains(target), "{union}: {target}");
            let name = target.strip_prefix("#/components/schemas/").unwrap();
            let variant = &schemas[name];
            assert_eq!(
                variant["properties"][tag]["enum"],
                serde_json::json!([kind])
            );
            assert!(
                variant["required"]
                    .as_array()
                    .unwrap()
                    .contains(&Value::from(tag)),
                "{name}"
            );
            assert_eq!(variant["additionalProperties"], false, "{name}");
        }
    }
    // The Lp metric's p: 1, 2 or "inf", nothing else.
    assert_eq!(
        schemas["LpMetric"]["properties"]["p"]["oneOf"],
        serde_json::json!([
            {"type": "integer", "enum": [1, 2]},
            {"type": "string", "enum": ["inf"]}
        ])
    );
}

/// The JSON request bodies are as closed as the server's parsing
/// (`deny_unknown_fields` everywhere): every object reachable from them
/// forbids other properties, so generated clients cannot send a field the
/// server rejects.
#[test]
fn request_bodies_are_closed() {
    let doc = committed();
    let schemas = &doc["components"]["schemas"];
    let mut todo: Vec<String> = Vec::new();
    for item in doc["paths"].as_object().unwrap().values() {
        for op in item.as_object().unwrap().values() {
            let body = &op["requestBody"]["content"]["application/json"]["schema"]["$ref"];
            if let Some(r) = body.as_str() {
                todo.push(r.to_string());
            }
        }
    }
    assert!(todo.len() >= 3, "{todo:?}");
    let mut seen = BTreeSet::new();
    while let Some(r) = todo.pop() {
        if !seen.insert(r.clone()) {
            continue;
        }
        let name = r.strip_prefix("#/components/schemas/").unwrap();
        let schema = &schemas[name];
        let mut nodes = Vec::new();
        schema_nodes(String::new(), schema, &mut nodes);
        for (_, node) in nodes {
            if let Some(next) = node["$ref"].as_str() {
                todo.push(next.to_string());
            }
        }
        if schema.get("properties").is_some() {
            assert_eq!(schema["additionalProperties"], false, "{name} is open");
        }
    }
    for name in ["JobRequest", "EpsilonMModel", "LpMetric", "ColumnGroups"] {
        assert!(
            seen.contains(&format!("#/components/schemas/{name}")),
            "{name}"
        );
    }
}

/// A value of `schema` with every property it documents (the first enum
/// value, the first `oneOf` item, `$ref`s resolved in `schemas`).
fn sample(schema: &Value, schemas: &Value) -> Value {
    if let Some(r) = schema["$ref"].as_str() {
        let name = r.strip_prefix("#/components/schemas/").unwrap();
        return sample(&schemas[name], schemas);
    }
    if let Some(first) = schema["enum"].as_array().and_then(|e| e.first()) {
        return first.clone();
    }
    if let Some(first) = schema["oneOf"].as_array().and_then(|o| o.first()) {
        return sample(first, schemas);
    }
    let ty = match &schema["type"] {
        Value::Array(types) => types[0].as_str().unwrap_or("null").to_string(),
        t => t.as_str().unwrap_or("null").to_string(),
    };
    match ty.as_str() {
        "integer" => Value::from(2),
        "number" => Value::from(0.5),
        "string" => Value::from("qid"),
        "boolean" => Value::from(true),
        "array" => Value::Array(vec![]),
        "object" => Value::Object(
            schema["properties"]
                .as_object()
                .into_iter()
                .flatten()
                .map(|(k, p)| (k.clone(), sample(p, schemas)))
                .collect(),
        ),
        _ => Value::Null,
    }
}

/// The request schemas say what serde parses: a value with every property
/// a schema (or each variant of a union) documents parses as its DTO, and
/// one more property is rejected (`additionalProperties: false` is
/// `deny_unknown_fields`).
#[test]
fn each_documented_request_shape_parses_and_nothing_more() {
    use proxima::api::{
        AuditRequestDto, CheckDto, FeasibilityRequestDto, GroupsDto, JobRequestDto, MetricDto,
        ModelDto, SchemaDto,
    };
    let doc = committed();
    let schemas = &doc["components"]["schemas"];
    type Parses = fn(&Value) -> bool;
    let parsers: [(&str, Parses); 11] = [
        ("ReleasePolicyRequest", |v| {
            proxima::api::policy::parse_policy(v).is_ok()
        }),
        ("ApprovalRequest", |v| {
            proxima::api::approval::parse_approval(v).is_ok()
        }),
        ("KeyRequest", |v| {
            proxima::api::access::parse_key_request(v).is_ok()
        }),
        ("JobRequest", |v| {
            serde_json::from_value::<JobRequestDto>(v.clone()).is_ok()
        }),
        ("AuditRequest", |v| {
            serde_json::from_value::<AuditRequestDto>(v.clone()).is_ok()
        }),
        ("DatasetSchema", |v| {
            serde_json::from_value::<SchemaDto>(v.clone()).is_ok()
        }),
        ("Model", |v| {
            serde_json::from_value::<ModelDto>(v.clone()).is_ok()
        }),
        ("Metric", |v| {
            serde_json::from_value::<MetricDto>(v.clone()).is_ok()
        }),
        ("Check", |v| {
            serde_json::from_value::<CheckDto>(v.clone()).is_ok()
        }),
        ("FeasibilityRequest", |v| {
            serde_json::from_value::<FeasibilityRequestDto>(v.clone()).is_ok()
        }),
        ("Groups", |v| {
            serde_json::from_value::<GroupsDto>(v.clone()).is_ok()
        }),
    ];
    for (union, parses) in parsers {
        let variants = match schemas[union]["oneOf"].as_array() {
            Some(items) => items.clone(),
            None => vec![schemas[union].clone()],
        };
        for variant in &variants {
            let value = sample(variant, schemas);
            assert!(parses(&value), "{union}: {value} does not parse");
            let mut extra = value.clone();
            extra["undocumented"] = Value::from(1);
            assert!(!parses(&extra), "{union}: {extra} parses");
        }
    }
    // The Lp metric's p: each documented value parses as a metric the core
    // accepts.
    for p in [Value::from(1), Value::from(2), Value::from("inf")] {
        let dto: MetricDto =
            serde_json::from_value(serde_json::json!({"kind": "lp", "p": p})).unwrap();
        assert!(dto.to_spec("/m").is_ok(), "{p}");
    }
}

/// Checks `value` against `schema` as a closed shape: every key of an
/// object is a documented property (or allowed by `additionalProperties`),
/// every required property is present, and a `oneOf` has a variant that
/// fits. Returns the first mismatch.
fn fits(value: &Value, schema: &Value, schemas: &Value, at: &str) -> Result<(), String> {
    if let Some(r) = schema["$ref"].as_str() {
        let name = r.strip_prefix("#/components/schemas/").unwrap();
        return fits(value, &schemas[name], schemas, at);
    }
    if let Some(variants) = schema["oneOf"].as_array() {
        let mut why = Vec::new();
        for v in variants {
            match fits(value, v, schemas, at) {
                Ok(()) => return Ok(()),
                Err(e) => why.push(e),
            }
        }
        return Err(format!("{at}: no variant fits: {why:?}"));
    }
    let types: Vec<&str> = match &schema["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
        _ => return Ok(()),
    };
    let actual = match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    let documented = types.contains(&actual) || (actual == "integer" && types.contains(&"number"));
    if !documented {
        return Err(format!("{at}: {actual} where {types:?} is documented"));
    }
    if let Value::Array(items) = value {
        for (i, item) in items.iter().enumerate() {
            fits(item, &schema["items"], schemas, &format!("{at}/{i}"))?;
        }
    }
    if let Value::Object(map) = value {
        for name in schema["required"].as_array().into_iter().flatten() {
            let name = name.as_str().unwrap();
            if !map.contains_key(name) {
                return Err(format!("{at}: required {name} is missing"));
            }
        }
        for (k, v) in map {
            let at = format!("{at}/{k}");
            match (&schema["properties"][k], &schema["additionalProperties"]) {
                (Value::Null, Value::Null | Value::Bool(false)) => {
                    return Err(format!("{at} is not documented"))
                }
                (Value::Null, Value::Bool(true)) => {}
                (Value::Null, extra) => fits(v, extra, schemas, &at)?,
                (p, _) => fits(v, p, schemas, &at)?,
            }
        }
    }
    Ok(())
}

/// What the server sends is what the document says, field for field: a
/// dataset, a succeeded job, a page of jobs and a job's audit carry every
/// required property and nothing undocumented (the response schemas stay
/// open for additions, so Schemathesis would not notice an undocumented
/// field; generated clients would drop it).
#[tokio::test]
async fn responses_carry_exactly_the_documented_fields() {
    use reqwest::multipart::{Form, Part};
    let app = TestApp::with(Options {
        runner: Some(std::sync::Arc::new(
            proxima::worker::core_runner::CoreRunner,
        )),
        ..Options::default()
    })
    .await;
    let doc = committed();
    let schemas = &doc["components"]["schemas"];
    let form = Form::new()
        .part(
            "schema",
            Part::bytes(serde_json::to_vec(&people_schema("people")).unwrap()),
        )
        .part("data", Part::bytes(PEOPLE_CSV.as_bytes().to_vec()))
        .part(
            "hierarchy:zip",
            Part::bytes(b"1000;*\n2000;*\n3000;*\n".to_vec()),
        );
    let res = app
        .client
        .post(app.url("/v1/datasets"))
        .bearer_auth(&app.key)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    let dataset: Value = res.json().await.unwrap();
    let id = dataset["id"].as_str().unwrap().to_string();
    let res = app
        .post_json("/v1/jobs", &model_body(id.parse().unwrap()))
        .await;
    assert_eq!(res.status(), 202);
    let job: Value = res.json().await.unwrap();
    let job_id = job["id"].as_str().unwrap().to_string();
    app.wait_job(&job_id, |s| s == "succeeded").await;
    let check = |path: String, schema: &'static str| {
        let app = &app;
        async move {
            let body: Value = app.get(&path).await.json().await.unwrap();
            let r = fits(&body, &schemas[schema], schemas, schema);
            assert!(r.is_ok(), "GET {path}: {}: {body}", r.unwrap_err());
        }
    };
    check(format!("/v1/datasets/{id}"), "Dataset").await;
    check(format!("/v1/jobs/{job_id}"), "Job").await;
    check("/v1/jobs".to_string(), "JobList").await;
    check("/v1/datasets".to_string(), "DatasetList").await;
    check(format!("/v1/jobs/{job_id}/audit"), "AuditReport").await;
    check(format!("/v1/jobs/{}", uuid::Uuid::new_v4()), "Problem").await;
    // A sweep with an infeasible point (k = 5 on 3 rows), once finished;
    // its points' jobs carry `sweep_id` and `summary.query_error`.
    let res = app
        .post_json(
            "/v1/sweeps",
            &json!({"dataset_id": id, "model": {"kind": "k_anonymity", "k": [1, 2, 5]}}),
        )
        .await;
    assert_eq!(res.status(), 202);
    let sweep: Value = res.json().await.unwrap();
    let sweep_id = sweep["id"].as_str().unwrap().to_string();
    for point in sweep["points"].as_array().unwrap() {
        if let Some(job) = point["job_id"].as_str() {
            app.wait_job(job, |s| s == "succeeded").await;
            check(format!("/v1/jobs/{job}"), "Job").await;
        }
    }
    check(format!("/v1/sweeps/{sweep_id}"), "Sweep").await;
    check("/v1/sweeps".to_string(), "SweepList").await;
    check(
        format!("/v1/sweeps/{sweep_id}/report?format=json"),
        "SweepReport",
    )
    .await;
    let posts = [
        (
            format!("/v1/datasets/{id}/feasibility"),
            json!({"kind": "epsilon_m", "epsilon": 5}),
            "FeasibilityAnswer",
        ),
        (
            format!("/v1/datasets/{id}/feasibility"),
            json!({"kind": "epsilon_m", "m": 2}),
            "FeasibilityAnswer",
        ),
        (
            format!("/v1/datasets/{id}/feasibility"),
            json!({"kind": "dissimilarity", "epsilon": 0.1}),
            "FeasibilityAnswer",
        ),
        (
            "/v1/audits".to_string(),
            json!({"dataset_id": id, "checks": [{"kind": "k_anonymity", "k": 2}]}),
            "AuditReport",
        ),
        ("/v1/jobs".to_string(), json!({"dataset_id": id}), "Problem"),
    ];
    for (path, body, schema) in posts {
        let answer: Value = app.post_json(&path, &body).await.json().await.unwrap();
        let r = fits(&answer, &schemas[schema], schemas, schema);
        assert!(
            r.is_ok(),
            "POST {path} {body}: {}: {answer}",
            r.unwrap_err()
        );
    }
}
