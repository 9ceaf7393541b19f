//! The verdict and the sign-off: the release policy (defaults, validation,
//! roles), key roles on every kind of route, approvals with four eyes, the
//! publication download tied to approval, the verdict in the JSON and HTML
//! report (and in Chromium), immutability, and the record a deleted
//! dataset leaves.

use std::sync::Arc;

use proxima::api::access::KeyRole;
use proxima::worker::core_runner::CoreRunner;
use reqwest::multipart::{Form, Part};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::support::*;

/// Three classes of identical QIs, no insensitive column (so no warning
/// about one): k = 2 gives groups of 2 and 4, prosecutor risk 1/2.
const CSV: &str = "age,zip,salary\n\
30,1000,50\n30,1000,52\n40,2000,60\n40,2000,61\n40,2000,62\n50,3000,70\n";
const ZIP: &[u8] = b"1000;1xxx-2xxx;*\n2000;1xxx-2xxx;*\n3000;3xxx;*\n";

fn schema() -> Value {
    json!({"name": "signed", "columns": [
        {"name": "age", "role": "quasi_identifier", "type": "numeric"},
        {"name": "zip", "role": "quasi_identifier", "type": "categorical"},
        {"name": "salary", "role": "sensitive", "type": "numeric"}
    ]})
}

async fn app() -> TestApp {
    TestApp::with(Options {
        runner: Some(Arc::new(CoreRunner)),
        ..Options::default()
    })
    .await
}

async fn key(app: &TestApp, role: KeyRole) -> String {
    app.store.create_key_with_role("t1", role).await.unwrap()
}

async fn send(
    app: &TestApp,
    key: &str,
    method: reqwest::Method,
    path: &str,
    body: Option<Value>,
) -> reqwest::Response {
    let mut req = app.client.request(method, app.url(path)).bearer_auth(key);
    if let Some(b) = body {
        req = req.json(&b);
    }
    req.send().await.unwrap()
}

async fn get(app: &TestApp, key: &str, path: &str) -> reqwest::Response {
    send(app, key, reqwest::Method::GET, path, None).await
}

async fn post(app: &TestApp, key: &str, path: &str, body: Value) -> reqwest::Response {
    send(app, key, reqwest::Method::POST, path, Some(body)).await
}

async fn put_policy(app: &TestApp, key: &str, body: Value) -> reqwest::Response {
    send(
        app,
        key,
        reqwest::Method::PUT,
        "/v1/settings/release-policy",
        Some(body),
    )
    .await
}

async fn upload(app: &TestApp, key: &str) -> Value {
    let form = Form::new()
        .part(
            "schema",
            Part::bytes(serde_json::to_vec(&schema()).unwrap())
                .mime_str("application/json")
                .unwrap(),
        )
        .part("data", Part::bytes(CSV.as_bytes().to_vec()))
        .part("hierarchy:zip", Part::bytes(ZIP.to_vec()));
    let res = app
        .client
        .post(app.url("/v1/datasets"))
        .bearer_auth(key)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    res.json().await.unwrap()
}

/// A finished k-anonymity job queued with `key`; returns its id.
async fn job(app: &TestApp, key: &str, dataset: &Value, k: u64) -> String {
    let res = post(
        app,
        key,
        "/v1/jobs",
        json!({"dataset_id": dataset["id"], "model": {"kind": "k_anonymity", "k": k}}),
    )
    .await;
    assert_eq!(res.status(), 202, "{}", res.text().await.unwrap());
    let id = res.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    app.wait_job(&id, |s| !matches!(s, "queued" | "running"))
        .await;
    id
}

async fn report(app: &TestApp, key: &str, job: &str) -> Value {
    let res = get(app, key, &format!("/v1/jobs/{job}/report?format=json")).await;
    assert_eq!(res.status(), 200, "{}", res.text().await.unwrap());
    res.json().await.unwrap()
}

/// A k-anonymous job submitted by the tenant's admin key, with a reviewer
/// key beside it; the policy loosened first when `loose_policy`.
struct Submitted {
    app: TestApp,
    admin: String,
    reviewer: String,
    ds: Value,
    id: String,
}

async fn submitted(loose_policy: bool) -> Submitted {
    let app = app().await;
    let admin = app.key.clone();
    if loose_policy {
        assert_eq!(put_policy(&app, &admin, loose()).await.status(), 200);
    }
    let reviewer = key(&app, KeyRole::Reviewer).await;
    let ds = upload(&app, &admin).await;
    let id = job(&app, &admin, &ds, 2).await;
    Submitted {
        app,
        admin,
        reviewer,
        ds,
        id,
    }
}

fn approval(decision: &str) -> Value {
    json!({"decision": decision, "name": "Ada Lovelace", "role": "release officer",
           "comment": "checked the verdict"})
}

/// The loosest risk policy: k = 2 releases pass it.
fn loose() -> Value {
    json!({"max_prosecutor_risk": 1.0, "max_median_query_error": 100.0})
}

#[tokio::test]
async fn the_release_policy_has_documented_defaults_is_validated_and_is_the_tenants() {
    let app = TestApp::start().await;
    let admin = app.key.clone();
    let res = get(&app, &admin, "/v1/settings/release-policy").await;
    assert_eq!(res.status(), 200);
    let p: Value = res.json().await.unwrap();
    assert_eq!(
        p,
        json!({"max_prosecutor_risk": 0.1, "max_below_k_share": 0.05,
               "max_population_uniques_share": 0.01, "max_suppressed_share": 0.05,
               "max_median_query_error": 0.5, "require_approval": true, "four_eyes": true,
               "source": "default", "updated_at": null})
    );

    let res = put_policy(
        &app,
        &admin,
        json!({"max_prosecutor_risk": 0.2, "four_eyes": false}),
    )
    .await;
    assert_eq!(res.status(), 200, "{}", res.text().await.unwrap());
    let set: Value = res.json().await.unwrap();
    assert_eq!(set["source"], "tenant");
    assert_eq!(set["max_prosecutor_risk"], 0.2);
    assert_eq!(set["four_eyes"], false);
    // Left out: the default.
    assert_eq!(set["max_below_k_share"], 0.05);
    assert!(set["updated_at"].is_string());
    // Every role reads it; the served document can be sent back as is.
    let reviewer = key(&app, KeyRole::Reviewer).await;
    let read: Value = get(&app, &reviewer, "/v1/settings/release-policy")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(read, set);
    assert_eq!(put_policy(&app, &admin, read).await.status(), 200);

    // Validation: every bad field named by its pointer; nothing stored.
    let p = expect_problem(
        put_policy(
            &app,
            &admin,
            json!({"max_prosecutor_risk": 0, "max_below_k_share": 2, "four_eyes": "yes",
                   "max_median_query_error": -0.5, "colour": "red"}),
        )
        .await,
        422,
        "invalid_parameters",
    )
    .await;
    let pointers: Vec<&str> = p["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["pointer"].as_str().unwrap())
        .collect();
    for ptr in [
        "/max_prosecutor_risk",
        "/max_below_k_share",
        "/four_eyes",
        "/max_median_query_error",
        "/colour",
    ] {
        assert!(pointers.contains(&ptr), "{ptr} in {p}");
    }
    expect_problem(
        put_policy(&app, &admin, json!([])).await,
        422,
        "invalid_parameters",
    )
    .await;
    let res = app
        .client
        .put(app.url("/v1/settings/release-policy"))
        .bearer_auth(&admin)
        .header("content-type", "application/json")
        .body("{")
        .send()
        .await
        .unwrap();
    expect_problem(res, 400, "malformed_json").await;
    let read: Value = get(&app, &admin, "/v1/settings/release-policy")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(read["max_prosecutor_risk"], 0.2);

    // Only admins set it.
    for role in [KeyRole::Submitter, KeyRole::Reviewer] {
        let k = key(&app, role).await;
        let p = expect_problem(put_policy(&app, &k, json!({})).await, 403, "role_forbidden").await;
        assert_eq!(p["details"]["allowed_roles"], json!(["admin"]), "{p}");
    }
    // Another tenant still has the defaults.
    let other = app.store.create_key("t2").await.unwrap();
    let theirs: Value = get(&app, &other, "/v1/settings/release-policy")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(theirs["source"], "default");
    assert_eq!(theirs["max_prosecutor_risk"], 0.1);
}

#[tokio::test]
async fn roles_gate_every_kind_of_route() {
    let app = app().await;
    let submitter = key(&app, KeyRole::Submitter).await;
    let reviewer = key(&app, KeyRole::Reviewer).await;
    let ds = upload(&app, &submitter).await;
    let id = job(&app, &submitter, &ds, 2).await;
    // A reviewer reads everything a submitter made…
    for path in [
        "/v1/datasets".to_string(),
        format!("/v1/datasets/{}", ds["id"].as_str().unwrap()),
        "/v1/jobs".into(),
        format!("/v1/jobs/{id}"),
        format!("/v1/jobs/{id}/audit"),
        format!("/v1/jobs/{id}/result"),
        format!("/v1/jobs/{id}/report"),
        format!("/v1/jobs/{id}/approvals"),
        "/v1/sweeps".into(),
    ] {
        let res = get(&app, &reviewer, &path).await;
        assert_eq!(res.status(), 200, "{path}: {}", res.text().await.unwrap());
    }
    // …but uploads, queues, audits and deletes nothing.
    let ds_id = ds["id"].as_str().unwrap();
    for (method, path, body) in [
        (
            reqwest::Method::POST,
            "/v1/jobs".to_string(),
            json!({"dataset_id": ds_id, "model": {"kind": "k_anonymity", "k": 2}}),
        ),
        (
            reqwest::Method::POST,
            "/v1/audits".into(),
            json!({"dataset_id": ds_id, "checks": [{"kind": "k_anonymity", "k": 2}]}),
        ),
        (
            reqwest::Method::POST,
            "/v1/sweeps".into(),
            json!({"dataset_id": ds_id, "model": {"kind": "k_anonymity", "k": [2, 3]}}),
        ),
        (
            reqwest::Method::POST,
            format!("/v1/datasets/{ds_id}/feasibility"),
            json!({"kind": "epsilon_m", "epsilon": 5, "neighborhood": "absolute"}),
        ),
        (
            reqwest::Method::POST,
            format!("/v1/jobs/{id}/cancel"),
            json!({}),
        ),
        (
            reqwest::Method::DELETE,
            format!("/v1/datasets/{ds_id}"),
            json!({}),
        ),
    ] {
        let p = expect_problem(
            send(&app, &reviewer, method.clone(), &path, Some(body)).await,
            403,
            "role_forbidden",
        )
        .await;
        assert_eq!(p["details"]["role"], "reviewer", "{method} {path}: {p}");
        assert_eq!(p["details"]["allowed_roles"], json!(["submitter", "admin"]));
    }
    // A submitter does not sign.
    let p = expect_problem(
        post(
            &app,
            &submitter,
            &format!("/v1/jobs/{id}/approvals"),
            approval("approve"),
        )
        .await,
        403,
        "role_forbidden",
    )
    .await;
    assert_eq!(p["details"]["allowed_roles"], json!(["reviewer", "admin"]));
    // An unknown key is still a 401, before any role.
    expect_problem(
        get(&app, "pxk_nobody", "/v1/settings/release-policy").await,
        401,
        "unauthorized",
    )
    .await;
}

#[tokio::test]
async fn four_eyes_approval_binds_the_verdict_and_hash_and_opens_the_publication_download() {
    let Submitted {
        app,
        admin,
        reviewer,
        ds: _,
        id,
    } = submitted(true).await;

    let r = report(&app, &reviewer, &id).await;
    assert_eq!(r["verdict"]["policy_source"], "tenant");
    assert_eq!(r["verdict"]["policy"]["max_prosecutor_risk"], 1.0);
    let decision = r["verdict"]["decision"].as_str().unwrap().to_string();
    assert_ne!(decision, "not_publishable", "{}", r["verdict"]);
    assert_eq!(r["approvals"], json!([]));
    let sha = r["release"]["sha256"].as_str().unwrap().to_string();

    // No approval yet: the owner's download works, publication does not.
    let publication = format!("/v1/jobs/{id}/result?purpose=publication");
    assert_eq!(
        get(&app, &reviewer, &format!("/v1/jobs/{id}/result"))
            .await
            .status(),
        200
    );
    let p = expect_problem(
        get(&app, &admin, &publication).await,
        409,
        "approval_required",
    )
    .await;
    assert_eq!(p["details"]["latest_decision"], Value::Null);

    // The submitting key cannot approve its own job (an admin may sign,
    // but not what it submitted).
    let p = expect_problem(
        post(
            &app,
            &admin,
            &format!("/v1/jobs/{id}/approvals"),
            approval("approve"),
        )
        .await,
        403,
        "four_eyes_required",
    )
    .await;
    assert_eq!(p["details"]["submitter_known"], true);

    // Another key approves: 201, bound to the verdict, the hash, the key.
    let res = post(
        &app,
        &reviewer,
        &format!("/v1/jobs/{id}/approvals"),
        approval("approve"),
    )
    .await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    assert_eq!(
        res.headers()["location"],
        format!("/v1/jobs/{id}/approvals")
    );
    let a: Value = res.json().await.unwrap();
    assert_eq!(a["decision"], "approve");
    assert_eq!(a["name"], "Ada Lovelace");
    assert_eq!(a["role"], "release officer");
    assert_eq!(a["comment"], "checked the verdict");
    assert_eq!(a["verdict"], decision.as_str());
    assert_eq!(a["release_sha256"], sha.as_str());
    assert_eq!(a["tenant"], "t1");
    assert_eq!(a["job_id"], id.as_str());
    let reviewer_key_id: uuid::Uuid =
        sqlx::query_scalar("SELECT id FROM api_keys WHERE role = 'reviewer'")
            .fetch_one(&app.store.pool)
            .await
            .unwrap();
    assert_eq!(a["key_id"], reviewer_key_id.to_string());
    assert!(a["created_at"].is_string());

    // The publication download now serves the very bytes approved.
    let res = get(&app, &admin, &publication).await;
    assert_eq!(res.status(), 200);
    let body = res.bytes().await.unwrap();
    assert_eq!(hex::encode(Sha256::digest(&body)), sha);
    expect_problem(
        get(&app, &admin, &format!("{publication}&row_id=true")).await,
        422,
        "invalid_parameters",
    )
    .await;

    // Listed; shown in the report with the hash it binds.
    let list: Value = get(&app, &reviewer, &format!("/v1/jobs/{id}/approvals"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(list["items"].as_array().unwrap().len(), 1);
    assert_eq!(list["items"][0], a);
    assert_eq!(list["release_deleted_at"], Value::Null);
    let r = report(&app, &reviewer, &id).await;
    assert_eq!(r["approvals"][0], a);
    let html = get(&app, &reviewer, &format!("/v1/jobs/{id}/report"))
        .await
        .text()
        .await
        .unwrap();
    let sign_off = &html[html.find("id=\"sign-off\"").expect("a sign-off section")..];
    assert!(sign_off.contains(&sha), "the approval's hash is shown");
    assert!(sign_off.contains("Ada Lovelace"));
    assert!(sign_off.contains("(this release)"));
    assert!(html.contains("purpose=publication"));

    // A later rejection closes the publication download again.
    let res = post(
        &app,
        &reviewer,
        &format!("/v1/jobs/{id}/approvals"),
        approval("reject"),
    )
    .await;
    assert_eq!(res.status(), 201);
    let p = expect_problem(
        get(&app, &admin, &publication).await,
        409,
        "approval_required",
    )
    .await;
    assert_eq!(p["details"]["latest_decision"], "reject");
    let list: Value = get(&app, &reviewer, &format!("/v1/jobs/{id}/approvals?limit=1"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(list["items"][0]["decision"], "reject", "newest first");
    let cursor = list["next_cursor"].as_str().unwrap();
    let older: Value = get(
        &app,
        &reviewer,
        &format!("/v1/jobs/{id}/approvals?limit=1&cursor={cursor}"),
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(older["items"][0]["decision"], "approve");
    assert_eq!(older["next_cursor"], Value::Null);

    // Immutable: no route edits or deletes one, and the table refuses it.
    for method in [
        reqwest::Method::PUT,
        reqwest::Method::DELETE,
        reqwest::Method::PATCH,
    ] {
        let res = send(
            &app,
            &admin,
            method,
            &format!("/v1/jobs/{id}/approvals"),
            Some(json!({})),
        )
        .await;
        assert_eq!(res.status(), 405);
    }
    for sql in [
        "UPDATE approvals SET decision = 'approve'",
        "DELETE FROM approvals",
    ] {
        let err = sqlx::query(sql).execute(&app.store.pool).await.unwrap_err();
        assert!(
            err.to_string().contains("never updated or deleted"),
            "{err}"
        );
    }
    let n: i64 = sqlx::query_scalar("SELECT count(*) FROM approvals")
        .fetch_one(&app.store.pool)
        .await
        .unwrap();
    assert_eq!(n, 2);
}

#[tokio::test]
async fn four_eyes_off_lets_the_submitter_approve_and_unknown_submitters_are_refused_under_it() {
    let Submitted {
        app,
        admin,
        reviewer,
        ds,
        id,
    } = submitted(false).await;
    // A job queued before submitters were recorded: who submitted it is
    // unknown, so four eyes cannot be shown.
    sqlx::query("UPDATE jobs SET submitted_by_key = NULL")
        .execute(&app.store.pool)
        .await
        .unwrap();
    assert_eq!(put_policy(&app, &admin, loose()).await.status(), 200);
    let p = expect_problem(
        post(
            &app,
            &reviewer,
            &format!("/v1/jobs/{id}/approvals"),
            approval("approve"),
        )
        .await,
        403,
        "four_eyes_required",
    )
    .await;
    assert_eq!(p["details"]["submitter_known"], false);
    // Rejecting needs no second pair of eyes.
    assert_eq!(
        post(
            &app,
            &reviewer,
            &format!("/v1/jobs/{id}/approvals"),
            approval("reject")
        )
        .await
        .status(),
        201
    );
    // Without four eyes, the submitting admin key approves its own job.
    let mut policy = loose();
    policy["four_eyes"] = json!(false);
    assert_eq!(put_policy(&app, &admin, policy).await.status(), 200);
    let id2 = job(&app, &admin, &ds, 2).await;
    assert_eq!(
        post(
            &app,
            &admin,
            &format!("/v1/jobs/{id2}/approvals"),
            approval("approve")
        )
        .await
        .status(),
        201
    );
}

#[tokio::test]
async fn a_not_publishable_verdict_cannot_be_approved_but_can_be_rejected() {
    let Submitted {
        app,
        admin,
        reviewer,
        ds: _,
        id,
    } = submitted(false).await;
    // The defaults: prosecutor risk 1/2 is above 0.1.
    let r = report(&app, &reviewer, &id).await;
    let v = &r["verdict"];
    assert_eq!(v["decision"], "not_publishable", "{v}");
    assert_eq!(v["policy_source"], "default");
    let first = &v["reasons"][0];
    assert_eq!(first["kind"], "prosecutor_risk", "{v}");
    assert_eq!(first["effect"], "blocking");
    assert_eq!(first["anchor"], "#risk");
    assert_eq!(first["value"], 0.5);
    assert_eq!(first["threshold"], 0.1);
    let kinds: Vec<&str> = v["reasons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["kind"].as_str().unwrap())
        .collect();
    assert!(kinds.contains(&"model"), "{kinds:?}");
    // Every anchor a reason names exists on the page.
    let html = get(&app, &reviewer, &format!("/v1/jobs/{id}/report"))
        .await
        .text()
        .await
        .unwrap();
    assert!(html.contains("data-decision=\"not_publishable\""));
    for r in v["reasons"].as_array().unwrap() {
        let anchor = r["anchor"].as_str().unwrap();
        assert!(
            html.contains(&format!("id=\"{}\"", &anchor[1..])),
            "{anchor}"
        );
        assert!(html.contains(&format!("href=\"{anchor}\"")), "{anchor}");
    }
    assert!(html.find("id=\"verdict\"").unwrap() < html.find("id=\"release\"").unwrap());
    let p = expect_problem(
        post(
            &app,
            &reviewer,
            &format!("/v1/jobs/{id}/approvals"),
            approval("approve"),
        )
        .await,
        409,
        "verdict_not_publishable",
    )
    .await;
    assert_eq!(p["details"]["verdict"], "not_publishable");
    let res = post(
        &app,
        &reviewer,
        &format!("/v1/jobs/{id}/approvals"),
        approval("reject"),
    )
    .await;
    assert_eq!(res.status(), 201);
    let a: Value = res.json().await.unwrap();
    assert_eq!(a["verdict"], "not_publishable");
    // Without required approval, publication is the owner's call.
    let mut policy = json!({"require_approval": false});
    assert_eq!(put_policy(&app, &admin, policy.take()).await.status(), 200);
    assert_eq!(
        get(
            &app,
            &admin,
            &format!("/v1/jobs/{id}/result?purpose=publication")
        )
        .await
        .status(),
        200
    );
}

#[tokio::test]
async fn a_column_acting_as_a_qi_blocks_with_a_link_to_its_warning() {
    let app = app().await;
    // SMALL_CSV's `note` is unique per row and published as is.
    let res = crate::release_report::upload(
        &app,
        crate::release_report::form(
            &crate::release_report::small_schema(None),
            crate::release_report::SMALL_CSV,
        ),
    )
    .await;
    let ds: Value = res.json().await.unwrap();
    assert_eq!(put_policy(&app, &app.key, loose()).await.status(), 200);
    let id = job(&app, &app.key, &ds, 2).await;
    let r = report(&app, &app.key, &id).await;
    let n = r["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .position(|w| w["kind"] == "fine_grained_column")
        .expect("note acts as a QI")
        + 1;
    assert_eq!(r["warnings"][n - 1]["below_k_share"], 1.0);
    let v = &r["verdict"];
    assert_eq!(v["decision"], "not_publishable", "{v}");
    let reason = v["reasons"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["kind"] == "fine_grained_column")
        .unwrap();
    assert_eq!(reason["effect"], "blocking");
    assert_eq!(reason["anchor"], format!("#warning-{n}"));
    assert_eq!(reason["threshold"], 0.05);
    let html = get(&app, &app.key, &format!("/v1/jobs/{id}/report"))
        .await
        .text()
        .await
        .unwrap();
    assert!(html.contains(&format!("id=\"warning-{n}\"")));
}

#[tokio::test]
async fn a_failed_job_is_not_publishable_and_has_nothing_to_approve() {
    let app = app().await;
    let reviewer = key(&app, KeyRole::Reviewer).await;
    // Equal salaries: no (ε, δ)-dissimilar grouping exists.
    let csv = "age,zip,salary,note\n31,1000,50,a\n35,1000,50,b\n52,2000,50,c\n58,3000,50,d\n";
    let ds: Value = crate::release_report::upload(
        &app,
        crate::release_report::form(&crate::release_report::small_schema(None), csv),
    )
    .await
    .json()
    .await
    .unwrap();
    let model = json!({"kind": "dissimilarity", "epsilon": 5, "delta": 0.5, "k": 2});
    let id =
        crate::release_report::finished_job(&app, json!({"dataset_id": ds["id"], "model": model}))
            .await;
    let r = report(&app, &reviewer, &id).await;
    assert_eq!(r["job"]["status"], "failed");
    assert_eq!(r["verdict"]["decision"], "not_publishable");
    assert_eq!(r["verdict"]["reasons"][0]["kind"], "job_failed");
    assert_eq!(r["verdict"]["reasons"][0]["anchor"], "#failure");
    expect_problem(
        post(
            &app,
            &reviewer,
            &format!("/v1/jobs/{id}/approvals"),
            approval("approve"),
        )
        .await,
        409,
        "result_not_ready",
    )
    .await;
}

#[tokio::test]
async fn approval_requests_are_validated_and_scoped() {
    let app = app().await;
    let reviewer = key(&app, KeyRole::Reviewer).await;
    let ds = upload(&app, &app.key).await;
    let id = job(&app, &app.key, &ds, 2).await;
    let path = format!("/v1/jobs/{id}/approvals");
    let p = expect_problem(
        post(
            &app,
            &reviewer,
            &path,
            json!({"decision": "ok", "name": "", "extra": 1}),
        )
        .await,
        422,
        "invalid_parameters",
    )
    .await;
    let pointers: Vec<&str> = p["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["pointer"].as_str().unwrap())
        .collect();
    for ptr in ["/decision", "/name", "/role", "/extra"] {
        assert!(pointers.contains(&ptr), "{ptr} in {p}");
    }
    let res = app
        .client
        .post(app.url(&path))
        .bearer_auth(&reviewer)
        .body("decision=approve")
        .send()
        .await
        .unwrap();
    expect_problem(res, 415, "unsupported_media_type").await;
    // Another tenant's job, or none: 404, for both verbs.
    let other = app
        .store
        .create_key_with_role("t2", KeyRole::Reviewer)
        .await
        .unwrap();
    expect_problem(
        post(&app, &other, &path, approval("approve")).await,
        404,
        "not_found",
    )
    .await;
    expect_problem(get(&app, &other, &path).await, 404, "not_found").await;
    let nobody = format!("/v1/jobs/{}/approvals", uuid::Uuid::new_v4());
    expect_problem(get(&app, &reviewer, &nobody).await, 404, "not_found").await;
    expect_problem(
        get(
            &app,
            &reviewer,
            &format!("/v1/jobs/{id}/result?purpose=print"),
        )
        .await,
        422,
        "invalid_parameters",
    )
    .await;
}

#[tokio::test]
async fn deleting_the_dataset_keeps_a_record_of_the_release_and_its_approvals_without_data() {
    let Submitted {
        app,
        admin,
        reviewer,
        ds,
        id,
    } = submitted(true).await;
    let res = post(
        &app,
        &reviewer,
        &format!("/v1/jobs/{id}/approvals"),
        approval("approve"),
    )
    .await;
    assert_eq!(res.status(), 201);
    let a: Value = res.json().await.unwrap();
    let res = send(
        &app,
        &admin,
        reqwest::Method::DELETE,
        &format!("/v1/datasets/{}", ds["id"].as_str().unwrap()),
        None,
    )
    .await;
    assert_eq!(res.status(), 204);
    // The job and its release are gone…
    expect_problem(
        get(&app, &admin, &format!("/v1/jobs/{id}")).await,
        404,
        "not_found",
    )
    .await;
    // …the record stays: who approved what, when, and that it was deleted.
    let list: Value = get(&app, &reviewer, &format!("/v1/jobs/{id}/approvals"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(list["items"][0], a);
    assert!(list["release_deleted_at"].is_string(), "{list}");
    // No cell of the data in what is kept (every value of the CSV is a
    // number; the kept rows hold ids, hashes, names and times only).
    let kept: Vec<Value> = sqlx::query_scalar(
        "SELECT to_jsonb(x) FROM (SELECT * FROM approvals) x
         UNION ALL SELECT to_jsonb(y) FROM (SELECT * FROM deleted_releases) y",
    )
    .fetch_all(&app.store.pool)
    .await
    .unwrap();
    assert_eq!(kept.len(), 2);
    let text = serde_json::to_string(&kept).unwrap();
    for cell in ["1xxx-2xxx", "3xxx", "[30-40]", "[40-50]"] {
        assert!(!text.contains(cell), "{cell} kept: {text}");
    }
    let leftovers: i64 = sqlx::query_scalar(
        "SELECT (SELECT count(*) FROM dataset_chunks) + (SELECT count(*) FROM job_results)",
    )
    .fetch_one(&app.store.pool)
    .await
    .unwrap();
    assert_eq!(leftovers, 0);
}

#[tokio::test]
async fn the_verdict_renders_in_a_real_browser_with_working_links() {
    let app = app().await;
    let ds = upload(&app, &app.key).await;
    let id = job(&app, &app.key, &ds, 2).await;
    let js = r##"(() => {
        const d = document.getElementById('verdict-decision');
        const v = document.getElementById('verdict');
        const box = v ? v.getBoundingClientRect() : null;
        const links = [...v.querySelectorAll('a[href^="#"]')].map(a => a.getAttribute('href'));
        return {
            decision: d ? d.dataset.decision : null,
            title: v ? v.querySelector('.callout strong').textContent : null,
            first: document.querySelector('main section').id,
            visible: box !== null && box.height > 0 && box.width > 0,
            links: links.length,
            broken: links.filter(h => !document.querySelector(h)),
        };
    })()"##;
    let url = app.url(&format!("/v1/jobs/{id}/report"));
    let Some(page) = crate::browser::render(&url, &app.key, js).await else {
        return;
    };
    assert_eq!(page.status, 200);
    assert!(page.console_errors.is_empty(), "{:?}", page.console_errors);
    assert_eq!(page.eval["decision"], "not_publishable", "{}", page.eval);
    assert_eq!(page.eval["title"], "Not publishable");
    assert_eq!(
        page.eval["first"], "verdict",
        "the report opens with its verdict"
    );
    assert_eq!(page.eval["visible"], true);
    assert!(page.eval["links"].as_u64().unwrap() >= 2, "{}", page.eval);
    assert_eq!(page.eval["broken"], json!([]));
}

#[tokio::test]
async fn an_admin_makes_keys_with_roles_of_its_own_tenant() {
    let app = TestApp::start().await;
    let res = post(&app, &app.key, "/v1/keys", json!({"role": "reviewer"})).await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    assert_eq!(res.headers()["cache-control"], "no-store");
    let made: Value = res.json().await.unwrap();
    assert_eq!(made["role"], "reviewer");
    assert_eq!(made["tenant"], "t1");
    let new_key = made["key"].as_str().unwrap();
    assert!(new_key.starts_with(made["prefix"].as_str().unwrap()));
    // The new key works, as a reviewer of t1.
    assert_eq!(get(&app, new_key, "/v1/datasets").await.status(), 200);
    expect_problem(
        post(&app, new_key, "/v1/keys", json!({"role": "admin"})).await,
        403,
        "role_forbidden",
    )
    .await;
    let submitter = key(&app, KeyRole::Submitter).await;
    expect_problem(
        post(&app, &submitter, "/v1/keys", json!({"role": "admin"})).await,
        403,
        "role_forbidden",
    )
    .await;
    for (body, pointer) in [
        (json!({"role": "root"}), "/role"),
        (json!({}), "/role"),
        (json!({"role": "admin", "tenant": "t2"}), "/tenant"),
    ] {
        let p = expect_problem(
            post(&app, &app.key, "/v1/keys", body).await,
            422,
            "invalid_parameters",
        )
        .await;
        assert_eq!(p["errors"][0]["pointer"], pointer, "{p}");
    }
}

#[tokio::test]
async fn keys_made_before_roles_become_admins_and_new_ones_name_their_role() {
    // The migrations before roles, a key made then, then the rest.
    let url = fresh_database().await;
    let store = proxima::store::Store::connect(&url, 2).await.unwrap();
    let before: Vec<_> = proxima::store::MIGRATOR
        .iter()
        .filter(|m| m.version < 6)
        .cloned()
        .collect();
    sqlx::migrate::Migrator::with_migrations(before)
        .run(&store.pool)
        .await
        .unwrap();
    sqlx::query(
        "INSERT INTO api_keys (id, tenant, key_hash, prefix) VALUES ($1, 't1', $2, 'pxk_old')",
    )
    .bind(uuid::Uuid::new_v4())
    .bind(proxima::store::api_keys::hash_key("pxk_old_key"))
    .execute(&store.pool)
    .await
    .unwrap();
    store.migrate().await.unwrap();
    let old = store.key_identity("pxk_old_key").await.unwrap().unwrap();
    assert_eq!(old.role, KeyRole::Admin);

    // `proxima keys create`: `--role` names it, submitter by default, an
    // unknown role refused.
    let create = |role: Option<&str>| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_proxima"));
        cmd.args(["keys", "create", "--tenant", "t1"])
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("DATABASE_URL", &url);
        if let Some(r) = role {
            cmd.args(["--role", r]);
        }
        cmd.output().unwrap()
    };
    for (role, expected) in [
        (Some("reviewer"), KeyRole::Reviewer),
        (Some("admin"), KeyRole::Admin),
        (None, KeyRole::Submitter),
    ] {
        let out = create(role);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = String::from_utf8(out.stdout).unwrap();
        let key = stdout.lines().last().unwrap().trim();
        let made = store.key_identity(key).await.unwrap().unwrap();
        assert_eq!(made.role, expected, "{role:?}");
    }
    let out = create(Some("root"));
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("submitter, reviewer or admin"));
}

#[test]
fn the_document_names_the_403_of_every_operation_a_role_may_not_call() {
    let doc = crate::openapi::committed();
    for (method, path, roles) in [
        ("post", "/v1/jobs", "submitter or admin"),
        ("delete", "/v1/datasets/{id}", "submitter or admin"),
        ("post", "/v1/sweeps", "submitter or admin"),
    ] {
        let d = doc["paths"][path][method]["responses"]["403"]["description"]
            .as_str()
            .unwrap_or_else(|| panic!("{method} {path} has no 403"));
        assert!(d.contains("role_forbidden") && d.contains(roles), "{d}");
    }
    for (method, path) in [
        ("get", "/v1/jobs/{id}/report"),
        ("get", "/v1/jobs/{id}/result"),
    ] {
        assert!(
            doc["paths"][path][method]["responses"]["403"].is_null(),
            "{method} {path}: every role may"
        );
    }
    for (method, path) in [
        ("post", "/v1/jobs/{id}/approvals"),
        ("put", "/v1/settings/release-policy"),
        ("post", "/v1/keys"),
    ] {
        let d = doc["paths"][path][method]["responses"]["403"]["description"]
            .as_str()
            .unwrap();
        assert!(d.contains("role_forbidden"), "{d}");
    }
}

#[tokio::test]
async fn a_sweeps_jobs_remember_who_submitted_them() {
    let app = app().await;
    let admin = app.key.clone();
    assert_eq!(put_policy(&app, &admin, loose()).await.status(), 200);
    let ds = upload(&app, &admin).await;
    let res = post(
        &app,
        &admin,
        "/v1/sweeps",
        json!({"dataset_id": ds["id"], "model": {"kind": "k_anonymity", "k": [2, 3]}}),
    )
    .await;
    assert_eq!(res.status(), 202, "{}", res.text().await.unwrap());
    let sweep: Value = res.json().await.unwrap();
    let job = sweep["points"][0]["job_id"].as_str().unwrap().to_string();
    app.wait_job(&job, |s| !matches!(s, "queued" | "running"))
        .await;
    let p = expect_problem(
        post(
            &app,
            &admin,
            &format!("/v1/jobs/{job}/approvals"),
            approval("approve"),
        )
        .await,
        403,
        "four_eyes_required",
    )
    .await;
    assert_eq!(p["details"]["submitter_known"], true);
    let reviewer = key(&app, KeyRole::Reviewer).await;
    let res = post(
        &app,
        &reviewer,
        &format!("/v1/jobs/{job}/approvals"),
        approval("approve"),
    )
    .await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
}

/// The README walkthrough's XColor job on adult: `occupation`, published
/// as is, leaves far more than 5 % of the records below k = 10, so the
/// default policy calls the release not publishable, pointing at that
/// warning (the README says so).
#[tokio::test]
async fn the_walkthroughs_adult_release_is_not_publishable_because_of_occupation() {
    let Some(shared) = shared_dir() else {
        eprintln!("skipped: ../shared/data is absent");
        return;
    };
    let app = TestApp::with(Options {
        max_body: 64 << 20,
        runner: Some(Arc::new(CoreRunner)),
        ..Options::default()
    })
    .await;
    let ds = crate::release_report::upload_adult(&app, &shared).await;
    let model = json!({"kind": "dissimilarity", "epsilon": 0.02, "delta": 0.5, "k": 10});
    let id =
        crate::release_report::finished_job(&app, json!({"dataset_id": ds["id"], "model": model}))
            .await;
    let r = report(&app, &app.key, &id).await;
    let v = &r["verdict"];
    assert_eq!(v["decision"], "not_publishable", "{v}");
    let occupation = v["reasons"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| {
            x["kind"] == "fine_grained_column"
                && x["message"].as_str().unwrap().contains("'occupation'")
        })
        .unwrap_or_else(|| panic!("no reason about occupation: {v}"));
    assert_eq!(occupation["effect"], "blocking");
    assert!(occupation["value"].as_f64().unwrap() > 0.05, "{occupation}");
    let n: usize = occupation["anchor"]
        .as_str()
        .unwrap()
        .strip_prefix("#warning-")
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(r["warnings"][n - 1]["column"], "occupation");
    // The model itself holds in the attacker's view: that reason is ok.
    let model_reason = v["reasons"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["kind"] == "model")
        .unwrap();
    assert_eq!(model_reason["effect"], "ok");
}
