//! The release report (`GET /v1/jobs/{id}/report`) and the dataset's
//! `population`: figures checked against values computed here from the
//! uploaded CSV and the downloaded release (a small brute-force twin of the
//! attacker's view), the external audience, a failed job's report, the
//! error paths, and the adult report rendered in headless Chromium.

use std::collections::HashMap;
use std::sync::Arc;

use proxima::worker::core_runner::CoreRunner;
use reqwest::multipart::{Form, Part};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::support::*;

/// Three classes of identical QIs: (30,1000)×2, (40,2000)×3, (50,3000)×1.
pub(crate) const SMALL_CSV: &str = "age,zip,salary,note\n\
30,1000,50,n1\n30,1000,52,n2\n40,2000,60,n3\n40,2000,61,n4\n40,2000,62,n5\n50,3000,70,n6\n";
const ZIP_HIERARCHY: &[u8] = b"1000;1xxx-2xxx;*\n2000;1xxx-2xxx;*\n3000;3xxx;*\n";

pub(crate) fn small_schema(population: Option<Value>) -> Value {
    let mut s = json!({"name": "small", "columns": [
        {"name": "age", "role": "quasi_identifier", "type": "numeric"},
        {"name": "zip", "role": "quasi_identifier", "type": "categorical"},
        {"name": "salary", "role": "sensitive", "type": "numeric"},
        {"name": "note", "role": "insensitive"}
    ]});
    if let Some(p) = population {
        s["population"] = p;
    }
    s
}

pub(crate) fn form(schema: &Value, csv: &str) -> Form {
    Form::new()
        .part(
            "schema",
            Part::bytes(serde_json::to_vec(schema).unwrap())
                .mime_str("application/json")
                .unwrap(),
        )
        .part("data", Part::bytes(csv.as_bytes().to_vec()))
        .part("hierarchy:zip", Part::bytes(ZIP_HIERARCHY.to_vec()))
}

pub(crate) async fn upload(app: &TestApp, form: Form) -> reqwest::Response {
    app.client
        .post(app.url("/v1/datasets"))
        .bearer_auth(&app.key)
        .multipart(form)
        .send()
        .await
        .unwrap()
}

pub(crate) async fn app_with_worker() -> TestApp {
    TestApp::with(Options {
        runner: Some(Arc::new(CoreRunner)),
        ..Options::default()
    })
    .await
}

/// Posts a job and waits for it to end; returns its id.
pub(crate) async fn finished_job(app: &TestApp, body: Value) -> String {
    let res = app.post_json("/v1/jobs", &body).await;
    assert_eq!(res.status(), 202, "{}", res.text().await.unwrap());
    let job: Value = res.json().await.unwrap();
    let id = job["id"].as_str().unwrap().to_string();
    app.wait_job(&id, |s| !matches!(s, "queued" | "running"))
        .await;
    id
}

/// The HTML page (`query` as `?audience=…`, or empty).
async fn report_html(app: &TestApp, job: &str, query: &str) -> String {
    let res = app.get(&format!("/v1/jobs/{job}/report{query}")).await;
    assert_eq!(res.status(), 200);
    res.text().await.unwrap()
}

async fn report_json(app: &TestApp, job: &str, query: &str) -> Value {
    let res = app.get(&format!("/v1/jobs/{job}/report{query}")).await;
    assert_eq!(res.status(), 200, "{}", res.text().await.unwrap());
    assert!(res.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("application/json"));
    res.json().await.unwrap()
}

/// Sizes of the classes of identical values of the first `qis` columns.
fn class_sizes_per_row(rows: &[Vec<String>], qis: usize) -> Vec<usize> {
    let mut count: HashMap<Vec<String>, usize> = HashMap::new();
    for r in rows {
        *count.entry(r[..qis].to_vec()).or_default() += 1;
    }
    rows.iter().map(|r| count[&r[..qis]]).collect()
}

fn csv_rows(csv: &str) -> Vec<Vec<String>> {
    csv.lines()
        .skip(1)
        .filter(|l| !l.is_empty())
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

/// Does a published label cover a value? Numeric `[lo-hi]` or the value;
/// zip labels by the hierarchy above.
fn covers(label: &str, value: &str, numeric: bool) -> bool {
    if numeric {
        let v: f64 = value.parse().unwrap();
        match label.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
            Some(inner) => {
                let (lo, hi) = inner.split_once('-').unwrap();
                lo.parse::<f64>().unwrap() <= v && v <= hi.parse::<f64>().unwrap()
            }
            None => label.parse::<f64>().unwrap() == v,
        }
    } else {
        label == value
            || label == "*"
            || (label == "1xxx-2xxx" && (value == "1000" || value == "2000"))
            || (label == "3xxx" && value == "3000")
    }
}

#[tokio::test]
async fn population_is_validated_stored_and_shown() {
    let app = TestApp::start().await;
    // Accepted: a size of at least the rows, a fraction in (0, 1].
    for (population, shown) in [
        (json!({"size": 6}), json!({"size": 6})),
        (json!({"size": 3_200_000}), json!({"size": 3_200_000})),
        (
            json!({"sampling_fraction": 1}),
            json!({"sampling_fraction": 1.0}),
        ),
        (
            json!({"sampling_fraction": 0.01}),
            json!({"sampling_fraction": 0.01}),
        ),
    ] {
        let res = upload(
            &app,
            form(&small_schema(Some(population.clone())), SMALL_CSV),
        )
        .await;
        assert_eq!(
            res.status(),
            201,
            "{population}: {}",
            res.text().await.unwrap()
        );
        let ds: Value = res.json().await.unwrap();
        assert_eq!(ds["population"], shown, "{ds}");
        let read: Value = app
            .get(&format!("/v1/datasets/{}", ds["id"].as_str().unwrap()))
            .await
            .json()
            .await
            .unwrap();
        assert_eq!(read["population"], shown, "{read}");
    }
    let res = upload(&app, form(&small_schema(None), SMALL_CSV)).await;
    let ds: Value = res.json().await.unwrap();
    assert_eq!(ds["population"], Value::Null, "{ds}");
    let listed: Value = app.get("/v1/datasets").await.json().await.unwrap();
    assert_eq!(listed["items"].as_array().unwrap().len(), 5);

    // Refused with invalid_schema and a pointer; nothing stored.
    for (population, pointer) in [
        (json!({"size": 5}), Some("/population/size")),
        (json!({"size": 0}), Some("/population/size")),
        (
            json!({"sampling_fraction": 0}),
            Some("/population/sampling_fraction"),
        ),
        (
            json!({"sampling_fraction": 1.5}),
            Some("/population/sampling_fraction"),
        ),
        (
            json!({"sampling_fraction": -0.1}),
            Some("/population/sampling_fraction"),
        ),
        (json!({"size": 10, "sampling_fraction": 0.5}), None),
        (json!({"fraction": 0.5}), None),
        (json!({"size": -3}), None),
    ] {
        let res = upload(
            &app,
            form(&small_schema(Some(population.clone())), SMALL_CSV),
        )
        .await;
        assert_eq!(
            res.status(),
            422,
            "{population}: {}",
            res.text().await.unwrap()
        );
        let p = expect_problem(res, 422, "invalid_schema").await;
        if let Some(pointer) = pointer {
            assert_eq!(p["errors"][0]["pointer"], pointer, "{population}: {p}");
        }
    }
    let listed: Value = app.get("/v1/datasets").await.json().await.unwrap();
    assert_eq!(listed["items"].as_array().unwrap().len(), 5);
}

/// A sampling fraction is resolved once, against the rows uploaded: the
/// row with a missing QI (suppressed at upload) and the rows the model
/// suppresses still belong to the sample, so N = round(7 / 0.1) = 70
/// before and after, and π is the published rows over that N.
#[tokio::test]
async fn a_sampling_fraction_is_resolved_against_the_rows_uploaded() {
    let app = app_with_worker().await;
    let mut schema = small_schema(Some(json!({"sampling_fraction": 0.1})));
    schema["on_missing"] = json!("suppress");
    let csv = format!("{SMALL_CSV},3000,71,n7\n");
    let res = upload(&app, form(&schema, &csv)).await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    let ds: Value = res.json().await.unwrap();
    assert_eq!(ds["rows"], 7, "{ds}");
    // k = 3 with a suppression limit: whatever the model leaves out, N stays.
    let job = finished_job(
        &app,
        json!({"dataset_id": ds["id"], "model": {"kind": "k_anonymity", "k": 3},
               "suppression_limit": 0.5}),
    )
    .await;
    let r = report_json(&app, &job, "?format=json").await;
    assert_eq!(r["job"]["status"], "succeeded", "{r}");
    for side in ["before", "after"] {
        let pu = &r["risk"][side]["population_uniqueness"];
        assert_eq!(pu["population_size"], 70.0, "{side}: {pu}");
        let records = r["risk"][side]["records"].as_f64().unwrap();
        let pi = pu["sampling_fraction"].as_f64().unwrap();
        assert!((pi - records / 70.0).abs() < 1e-12, "{side}: {pu}");
    }
    assert_eq!(r["risk"]["before"]["records"], 6);
    // The page shows N and each estimator beside the share, as the JSON.
    let html = report_html(&app, &job, "").await;
    let n_row = html
        .split("Population size N")
        .nth(1)
        .and_then(|rest| rest.split("</tr>").next())
        .expect("a population size row");
    assert_eq!(
        n_row.matches(">70<").count(),
        2,
        "before and after: {n_row}"
    );
    for estimator in ["Pitman estimate", "Zayatz estimate", "SNB estimate"] {
        assert!(html.contains(estimator), "{estimator}");
    }
    let explanation = r["risk"]["before"]["population_uniqueness"]["explanation"]
        .as_str()
        .unwrap();
    assert!(
        html.contains(&explanation.replace('\'', "&#39;")),
        "{explanation}"
    );
}

#[tokio::test]
async fn report_figures_agree_with_the_table_the_release_and_the_audit() {
    let app = app_with_worker().await;
    let res = upload(
        &app,
        form(&small_schema(Some(json!({"size": 60}))), SMALL_CSV),
    )
    .await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    let ds: Value = res.json().await.unwrap();
    let request = json!({"dataset_id": ds["id"], "model": {"kind": "k_anonymity", "k": 2}});
    let job = finished_job(&app, request.clone()).await;
    let r = report_json(&app, &job, "?format=json").await;

    // The dataset and the replayable request.
    assert_eq!(r["audience"], "internal");
    assert_eq!(r["job"]["status"], "succeeded");
    assert_eq!(r["dataset"]["name"], "small");
    assert_eq!(r["dataset"]["rows"], 6);
    assert_eq!(r["dataset"]["population"], json!({"size": 60}));
    let roles: Vec<(&str, &str)> = r["dataset"]["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["name"].as_str().unwrap(), c["role"].as_str().unwrap()))
        .collect();
    assert_eq!(
        roles,
        [
            ("age", "quasi_identifier"),
            ("zip", "quasi_identifier"),
            ("salary", "sensitive"),
            ("note", "insensitive")
        ]
    );
    assert_eq!(r["job"]["request"]["model"], request["model"]);
    assert_eq!(r["job"]["request"]["dataset_id"], ds["id"]);
    // Replaying the request gives the very same release.
    let replay = finished_job(&app, r["job"]["request"].clone()).await;

    // The hash is the downloaded CSV's.
    let csv = app
        .get(&format!("/v1/jobs/{job}/result"))
        .await
        .text()
        .await
        .unwrap();
    let replayed = app
        .get(&format!("/v1/jobs/{replay}/result"))
        .await
        .text()
        .await
        .unwrap();
    assert_eq!(csv, replayed);
    let sha = hex::encode(Sha256::digest(csv.as_bytes()));
    assert_eq!(r["release"]["sha256"], sha);
    assert_eq!(r["release"]["bytes"], csv.len());
    assert_eq!(r["release"]["rows"], 6);

    // Risk before: classes of identical QI values of the upload.
    let rows = csv_rows(SMALL_CSV);
    let before = class_sizes_per_row(&rows, 2);
    let min = *before.iter().min().unwrap();
    let b = &r["risk"]["before"];
    assert_eq!(b["records"], 6);
    assert_eq!(b["classes"], 3);
    assert_eq!(b["min_class_size"], min);
    assert_eq!(b["prosecutor_max"], 1.0 / min as f64);
    assert_eq!(
        b["records_at_max"],
        before.iter().filter(|&&s| s == min).count()
    );
    let marketer: f64 = before.iter().map(|&s| 1.0 / s as f64).sum::<f64>() / 6.0;
    assert!(
        (b["marketer"].as_f64().unwrap() - marketer).abs() < 1e-12,
        "{b}"
    );
    assert_eq!(
        b["sample_uniques"],
        before.iter().filter(|&&s| s == 1).count()
    );
    let pu = &b["population_uniqueness"];
    assert!(
        ["pitman", "zayatz", "snb"].contains(&pu["model"].as_str().unwrap()),
        "{pu}"
    );
    assert_eq!(pu["sampling_fraction"], 0.1);
    let share = pu["share"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&share), "{pu}");

    // Risk after: each row's candidates are the published rows whose labels
    // cover its original QI values (every group, not only its own).
    let release: Vec<Vec<String>> = csv_rows(&csv);
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    assert_eq!(header, ["group_id", "age", "zip", "salary", "note"]);
    let candidates: Vec<usize> = rows
        .iter()
        .map(|orig| {
            release
                .iter()
                .filter(|p| covers(&p[1], &orig[0], true) && covers(&p[2], &orig[1], false))
                .count()
        })
        .collect();
    let min_after = *candidates.iter().min().unwrap();
    let a = &r["risk"]["after"];
    assert_eq!(a["records"], 6);
    assert_eq!(a["min_class_size"], min_after);
    assert_eq!(a["prosecutor_max"], 1.0 / min_after as f64);
    let marketer: f64 = candidates.iter().map(|&s| 1.0 / s as f64).sum::<f64>() / 6.0;
    assert!(
        (a["marketer"].as_f64().unwrap() - marketer).abs() < 1e-12,
        "{a}"
    );
    assert_eq!(a["sample_uniques"], 0);
    assert!(a["prosecutor_max"].as_f64().unwrap() <= 0.5);

    // The attacker's view is the job audit's, figure for figure.
    let audit: Value = app
        .get(&format!("/v1/jobs/{job}/audit"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(r["attacker_view"]["model_check"], audit["checks"][0]);
    assert_eq!(r["group_sizes"], audit["group_sizes"]);
    assert_eq!(
        r["attacker_view"]["model_check"]["attacker"]["worst"],
        min_after as f64
    );

    // Utility: GCP as the job summary's; query error at s = 0.1, q = 2
    // (q = 3 exceeds the two QIs: no figure).
    let summary: Value = app
        .get(&format!("/v1/jobs/{job}"))
        .await
        .json()
        .await
        .unwrap();
    let u = &r["utility"];
    assert!(
        (u["gcp"].as_f64().unwrap() - summary["summary"]["information_loss"].as_f64().unwrap())
            .abs()
            < 1e-12,
        "{u} vs {summary}"
    );
    assert_eq!(u["per_qi"].as_array().unwrap().len(), 2);
    assert_eq!(u["query_error"][0]["q"], 2);
    assert_eq!(u["query_error"][0]["selectivity"], 0.1);
    assert!(u["query_error"][0]["mean"].is_number(), "{u}");
    assert!(u["query_error"][0]["median"].is_number(), "{u}");
    // One SA column: one SA predicate per query.
    assert_eq!(u["query_error"][0]["sa_predicates"], 1);
    assert_eq!(u["query_error"][1]["q"], 3);
    assert_eq!(u["query_error"][1]["mean"], Value::Null);
    assert_eq!(u["query_error"][1]["median"], Value::Null);
    assert_eq!(u["query_error"][1]["sa_predicates"], 0);
    assert_eq!(
        u["suppressed"],
        json!({"missing_values": 0, "model": 0, "model_share": 0.0,
               "model_minimum_share": null})
    );

    // The SA distribution: shares of the published table.
    let s = &r["sensitive"][0];
    assert_eq!(s["column"], "salary");
    let total: f64 = s["table"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .sum();
    assert!((total - 1.0).abs() < 1e-9, "{s}");

    // Internal: the riskiest combinations with their values; the unique
    // (50, 3000) first.
    let risky = &r["riskiest"];
    assert_eq!(risky["columns"], json!(["age", "zip"]));
    assert_eq!(
        risky["before"][0],
        json!({"values": ["50", "3000"], "class_size": 1})
    );
    assert!(!risky["after"].as_array().unwrap().is_empty());

    // External: none of them.
    let ext = report_json(&app, &job, "?format=json&audience=external").await;
    assert_eq!(ext["audience"], "external");
    assert_eq!(ext["riskiest"], Value::Null);
    assert_eq!(ext["risk"], r["risk"]);
    let ext_html = report_html(&app, &job, "?audience=external").await;
    for text in [ext.to_string(), ext_html] {
        assert!(
            !text.contains("3000"),
            "an external report shows a risky QI value"
        );
    }
}

/// Every row has the same QIs, so any release is one group (identical
/// boxes are one candidate set), and that group fails (ε = 10, m = 2):
/// salary 50 has 40–60, five of eight rows, in its neighbourhood. A row
/// must go (50 alone suffices), and the report says what that does to
/// counts.
#[tokio::test]
async fn the_report_says_what_rows_left_out_do_to_counts() {
    let app = app_with_worker().await;
    let mut csv = String::from("age,zip,salary,note\n");
    for (i, salary) in [40, 45, 50, 55, 60, 200, 300, 400].iter().enumerate() {
        csv.push_str(&format!("30,1000,{salary},n{i}\n"));
    }
    let res = upload(&app, form(&small_schema(None), &csv)).await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    let ds: Value = res.json().await.unwrap();
    let job = finished_job(
        &app,
        json!({"dataset_id": ds["id"], "suppression_limit": 0.5,
               "model": {"kind": "epsilon_m", "epsilon": 10, "m": 2}}),
    )
    .await;
    let done: Value = app
        .get(&format!("/v1/jobs/{job}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(done["status"], "succeeded", "{done}");
    let left_out = done["summary"]["suppressed_by_model"].as_u64().unwrap();
    assert!(left_out >= 1, "{done}");
    let r = report_json(&app, &job, "?format=json").await;
    let s = &r["utility"]["suppressed"];
    assert_eq!(s["model"], left_out, "{s}");
    let share = s["model_share"].as_f64().unwrap();
    assert!((share - left_out as f64 / 8.0).abs() < 1e-12, "{s}");
    // The data forces nothing out: no SA window of width 10 holds more
    // than 3 of the 8 rows (Theorem 1 allows m = 2); the loss is the one
    // group's, which identical QIs impose.
    assert_eq!(s["model_minimum_share"], 0.0, "{s}");
    // GCP: the kept rows share one QI point (loss 0), each left-out row
    // counts at loss 1 — in the report as in the job summary.
    let gcp = r["utility"]["gcp"].as_f64().unwrap();
    assert!((gcp - share).abs() < 1e-12, "{gcp} vs {share}");
    assert_eq!(done["summary"]["information_loss"].as_f64(), Some(gcp));
    let html = report_html(&app, &job, "").await;
    let sentence = format!(
        "The model left out {left_out} rows, {}% of the table: every count taken from the \
         release misses them",
        100.0 * share
    );
    assert!(html.contains(&sentence), "{sentence}");
    assert!(
        html.contains("Any release at these (ε, m) parameters leaves out at least 0% of the rows"),
        "{html}"
    );
}

#[tokio::test]
async fn the_html_report_is_self_contained_and_carries_the_hash() {
    let app = app_with_worker().await;
    let res = upload(&app, form(&small_schema(None), SMALL_CSV)).await;
    let ds: Value = res.json().await.unwrap();
    let job = finished_job(
        &app,
        json!({"dataset_id": ds["id"], "model": {"kind": "k_anonymity", "k": 2}}),
    )
    .await;
    let res = app.get(&format!("/v1/jobs/{job}/report")).await;
    assert_eq!(res.status(), 200);
    let h = res.headers().clone();
    assert_eq!(h["content-type"], "text/html; charset=utf-8");
    let csp = h["content-security-policy"].to_str().unwrap();
    assert!(csp.contains("default-src 'none'"), "{csp}");
    assert_eq!(h["cache-control"], "no-store");
    let html = res.text().await.unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    for external in [
        "<script",
        " src=",
        "url(",
        "@import",
        "<link",
        "href=\"http",
    ] {
        assert!(
            !html.contains(external),
            "the page loads nothing: {external}"
        );
    }
    let csv = app
        .get(&format!("/v1/jobs/{job}/result"))
        .await
        .text()
        .await
        .unwrap();
    let sha = hex::encode(Sha256::digest(csv.as_bytes()));
    assert!(
        html.contains(&format!("<code id=\"release-sha256\">{sha}</code>")),
        "the page shows the release's hash"
    );
    assert!(html.contains("class=\"mark\""), "charts have marks");
    // Accept: application/json gives JSON; text/html (a browser) HTML.
    let res = app
        .client
        .get(app.url(&format!("/v1/jobs/{job}/report")))
        .bearer_auth(&app.key)
        .header("accept", "application/json")
        .send()
        .await
        .unwrap();
    assert!(res.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("application/json"));
    let res = app
        .client
        .get(app.url(&format!("/v1/jobs/{job}/report")))
        .bearer_auth(&app.key)
        .header(
            "accept",
            "text/html,application/xhtml+xml,application/json;q=0.9",
        )
        .send()
        .await
        .unwrap();
    assert!(res.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
}

/// Every salary the same: with ε = 5 every pair is a neighbour, beyond
/// XColor's bound, so the dissimilarity job fails at run time.
#[tokio::test]
async fn a_failed_jobs_report_explains_the_failure() {
    let app = app_with_worker().await;
    let csv = "age,zip,salary,note\n31,1000,50,a\n35,1000,50,b\n52,2000,50,c\n58,3000,50,d\n";
    let res = upload(&app, form(&small_schema(None), csv)).await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    let ds: Value = res.json().await.unwrap();
    let model = json!({"kind": "dissimilarity", "epsilon": 5, "delta": 0.5, "k": 2});
    let job = finished_job(&app, json!({"dataset_id": ds["id"], "model": model})).await;
    let done: Value = app
        .get(&format!("/v1/jobs/{job}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(done["status"], "failed", "{done}");

    let r = report_json(&app, &job, "?format=json").await;
    assert_eq!(r["job"]["status"], "failed");
    assert_eq!(r["job"]["request"]["model"], model);
    let f = &r["failure"];
    assert_eq!(f["code"], done["error"]["code"]);
    assert_eq!(f["message"], done["error"]["message"]);
    assert_eq!(f["details"], done["error"]["details"]);
    // The deliverable parameters: the feasibility answer for ε = 5.
    let feasibility: Value = app
        .post_json(
            &format!("/v1/datasets/{}/feasibility", ds["id"].as_str().unwrap()),
            &json!({"kind": "dissimilarity", "epsilon": 5}),
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(f["deliverable"], feasibility);
    assert_eq!(r["release"], Value::Null);
    assert_eq!(r["risk"]["after"], Value::Null);
    assert_eq!(r["risk"]["before"]["records"], 4);
    assert_eq!(r["risk"]["before"]["sample_uniques"], 4);
    assert_eq!(r["utility"], Value::Null);

    let html = report_html(&app, &job, "").await;
    assert!(html.contains("Why the job failed"), "{html}");
    assert!(html.contains(done["error"]["code"].as_str().unwrap()));
}

#[tokio::test]
async fn report_errors_are_problems() {
    let app = TestApp::start().await;
    let ds = app.dataset("t1").await;
    // Not a job, or not this tenant's: 404.
    let res = app
        .get(&format!("/v1/jobs/{}/report", uuid::Uuid::new_v4()))
        .await;
    expect_problem(res, 404, "not_found").await;
    let res = app.get("/v1/jobs/not-a-uuid/report").await;
    expect_problem(res, 404, "not_found").await;
    // No worker: the job stays queued, so it has no report yet.
    let res = app.post_json("/v1/jobs", &model_body(ds.id)).await;
    assert_eq!(res.status(), 202);
    let job: Value = res.json().await.unwrap();
    let id = job["id"].as_str().unwrap();
    let res = app.get(&format!("/v1/jobs/{id}/report")).await;
    let p = expect_problem(res, 409, "result_not_ready").await;
    assert_eq!(p["details"]["status"], "queued", "{p}");
    // Bad parameters are refused before the job is looked at.
    for (query, pointer) in [
        ("?audience=public", "/query/audience"),
        ("?audience=", "/query/audience"),
        ("?format=pdf", "/query/format"),
    ] {
        let res = app.get(&format!("/v1/jobs/{id}/report{query}")).await;
        let p = expect_problem(res, 422, "invalid_parameters").await;
        assert_eq!(p["errors"][0]["pointer"], pointer, "{p}");
    }
    // Without a key: 401.
    let res = app
        .client
        .get(app.url(&format!("/v1/jobs/{id}/report")))
        .send()
        .await
        .unwrap();
    expect_problem(res, 401, "unauthorized").await;
}

/// Uploads adult_full (composite SA, `?` rows suppressed) with its
/// hierarchies and a population, as the README's walkthrough does.
pub(crate) async fn upload_adult(app: &TestApp, shared: &std::path::Path) -> Value {
    let mut schema: Value = serde_json::from_slice(
        &std::fs::read(shared.join("examples/adult_full_composite.schema.json")).unwrap(),
    )
    .unwrap();
    schema["population"] = json!({"sampling_fraction": 0.01});
    let d = shared.join("data/adult_full");
    let mut f = Form::new()
        .part(
            "schema",
            Part::bytes(serde_json::to_vec(&schema).unwrap())
                .mime_str("application/json")
                .unwrap(),
        )
        .part(
            "data",
            Part::bytes(std::fs::read(d.join("adult_full.csv")).unwrap()),
        );
    for c in [
        "workclass",
        "education",
        "marital-status",
        "relationship",
        "race",
        "sex",
        "native-country",
    ] {
        let bytes = std::fs::read(d.join(format!("adult_full_hierarchy_{c}.csv"))).unwrap();
        f = f.part(format!("hierarchy:{c}"), Part::bytes(bytes));
    }
    let res = upload(app, f).await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    res.json().await.unwrap()
}

/// Read from the rendered page: the hash, the marks of every chart, every
/// table row's cells and the visible text.
const PAGE_FIGURES_JS: &str = "({
  hash: (document.getElementById('release-sha256') || {}).textContent || null,
  charts: Array.from(document.querySelectorAll('svg.chart'))
    .map(s => s.querySelectorAll('.mark').length),
  rows: Array.from(document.querySelectorAll('tr'))
    .map(r => Array.from(r.querySelectorAll('td')).map(c => c.textContent)),
  text: document.body.innerText,
  sections: Array.from(document.querySelectorAll('section'))
    .map(s => [s.id, Math.round(s.getBoundingClientRect().top + window.scrollY)]),
  jsonOutsideCode: (() => {
    const c = document.body.cloneNode(true);
    c.querySelectorAll('pre').forEach(p => p.remove());
    return /\\{\\s*\"/.test(c.textContent);
  })(),
  unexplained: Array.from(document.querySelectorAll('#risk table, #utility table, #attacker-view table'))
    .filter(t => t.querySelector('th:last-child').textContent === 'What it means')
    .flatMap(t => Array.from(t.querySelectorAll('tbody tr')))
    .filter(r => r.lastElementChild.textContent.trim() === '')
    .map(r => r.firstElementChild.textContent)
})";

/// What every rendered report must be for a reader: no raw JSON outside
/// the replayable request, every figure of the risk, attacker's-view and
/// utility tables explained, no label outside its chart, nothing cut when
/// printed on A4.
fn assert_readable(page: &crate::browser::Rendered, which: &str) {
    assert_eq!(
        page.eval["jsonOutsideCode"], false,
        "{which}: raw JSON outside the request"
    );
    assert_eq!(
        page.eval["unexplained"],
        json!([]),
        "{which}: figures without an explanation"
    );
    assert!(
        page.clipped_labels.is_empty(),
        "{which}: {:?}",
        page.clipped_labels
    );
    assert!(
        page.too_wide_for_a4.is_empty(),
        "{which}: {:?}",
        page.too_wide_for_a4
    );
}

/// Does `row` hold `values` side by side?
fn row_holds(row: &[String], values: &[String]) -> bool {
    !values.is_empty() && row.windows(values.len()).any(|w| w == values)
}

#[tokio::test]
async fn the_adult_report_renders_in_a_real_browser() {
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
    let ds = upload_adult(&app, &shared).await;
    let model = json!({"kind": "dissimilarity", "epsilon": 0.02, "delta": 0.5, "k": 10});
    let job = finished_job(&app, json!({"dataset_id": ds["id"], "model": model})).await;
    let internal = report_json(&app, &job, "?format=json").await;
    assert_eq!(
        internal["job"]["status"], "succeeded",
        "{}",
        internal["failure"]
    );
    let csv = app
        .get(&format!("/v1/jobs/{job}/result"))
        .await
        .bytes()
        .await
        .unwrap();
    let sha = hex::encode(Sha256::digest(&csv));
    assert_eq!(internal["release"]["sha256"], sha);
    assert!(internal["risk"]["before"]["population_uniqueness"]["share"].is_number());
    // The risky records' QI values, as the internal report lists them.
    let risky = &internal["riskiest"];
    let strings = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap().to_string())
            .collect()
    };
    let mut combos: Vec<Vec<String>> = Vec::new();
    for c in risky["before"].as_array().unwrap() {
        combos.push(strings(&c["values"]));
    }
    for g in risky["after"].as_array().unwrap() {
        combos.push(strings(&g["labels"]));
    }
    assert!(!combos.is_empty());

    let url = |q: &str| app.url(&format!("/v1/jobs/{job}/report{q}"));
    let Some(page) = crate::browser::render(&url(""), &app.key, PAGE_FIGURES_JS).await else {
        return;
    };
    assert_eq!(page.status, 200);
    assert!(page.console_errors.is_empty(), "{:?}", page.console_errors);
    assert!(
        page.external_requests.is_empty(),
        "{:?}",
        page.external_requests
    );
    assert_eq!(
        page.eval["hash"], sha,
        "the page shows the downloaded file's hash"
    );
    let charts: Vec<u64> = page.eval["charts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect();
    // Risk, the model's figure, group sizes, 3 SA columns, GCP per QI.
    assert!(charts.len() >= 7, "{charts:?}");
    assert!(
        charts.iter().all(|&n| n > 0),
        "every chart has marks: {charts:?}"
    );
    assert!(page.screenshot_png.starts_with(b"\x89PNG"));
    assert!(page.pdf.len() > 1000 && page.pdf.starts_with(b"%PDF"));
    assert_readable(&page, "internal");
    // The query error: median first, in percent, with why the mean is larger.
    let text = page.eval["text"].as_str().unwrap();
    assert!(text.contains("Median error\tMean error"), "{text}");
    assert!(text.contains("dominated by rare queries"), "{text}");
    // The internal page lists the risky combinations.
    let rows: Vec<Vec<String>> = serde_json::from_value(page.eval["rows"].clone()).unwrap();
    assert!(rows.iter().any(|r| row_holds(r, &combos[0])));

    let ext = crate::browser::render(&url("?audience=external"), &app.key, PAGE_FIGURES_JS)
        .await
        .unwrap();
    assert!(ext.console_errors.is_empty(), "{:?}", ext.console_errors);
    assert!(
        ext.external_requests.is_empty(),
        "{:?}",
        ext.external_requests
    );
    assert_eq!(ext.eval["hash"], sha);
    assert!(ext.pdf.starts_with(b"%PDF"));
    assert_readable(&ext, "external");
    let ext_rows: Vec<Vec<String>> = serde_json::from_value(ext.eval["rows"].clone()).unwrap();
    let ext_text = ext.eval["text"].as_str().unwrap();
    for combo in &combos {
        assert!(
            !ext_rows.iter().any(|r| row_holds(r, combo)),
            "the external report shows a risky combination {combo:?}"
        );
        // Words (not numbers, ranges or `*`) must not appear at all.
        for v in combo {
            let generic = v == "*" || v.parse::<f64>().is_ok() || v.starts_with('[');
            assert!(
                generic || !ext_text.contains(v.as_str()),
                "the external report shows {v:?} of a risky record"
            );
        }
    }

    // Kept for the docs (docs/release-report.md) when asked.
    if std::env::var_os("PROXIMA_UPDATE_SCREENSHOTS").is_some() {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/report-screenshots");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("adult-internal.png"), &page.screenshot_png).unwrap();
        std::fs::write(dir.join("adult-external.png"), &ext.screenshot_png).unwrap();
        std::fs::write(dir.join("adult-internal.pdf"), &page.pdf).unwrap();
        // Where each section starts, to cut the docs' images at the rules.
        std::fs::write(
            dir.join("adult-internal-sections.json"),
            page.eval["sections"].to_string(),
        )
        .unwrap();
        eprintln!("screenshots written to {}", dir.display());
    }
}

/// The release report's own example: creditcard publishes BILL_AMT2 raw beside its SA
/// BILL_AMT1. The report measures how much it gives the SA away and warns,
/// in JSON and HTML, for both audiences (it names a column, not a record).
#[tokio::test]
async fn creditcard_report_warns_that_bill_amt2_gives_the_sa_away() {
    let Some(shared) = shared_dir() else { return };
    let app = crate::portal::portal_app().await;
    let ds = crate::portal::upload_creditcard(&app, &shared).await;
    let job = crate::portal::run_job(
        &app,
        json!({"dataset_id": ds["id"], "model":
            {"kind": "dissimilarity", "epsilon": 0.001, "delta": 0.5, "k": 10}}),
    )
    .await;
    assert_eq!(job["status"], "succeeded", "{job}");
    let id = job["id"].as_str().unwrap();
    for audience in ["internal", "external"] {
        let r = report_json(&app, id, &format!("?format=json&audience={audience}")).await;
        let warnings = r["warnings"].as_array().unwrap();
        let bill = warnings
            .iter()
            .find(|w| w["kind"] == "sa_association" && w["column"] == "BILL_AMT2")
            .unwrap_or_else(|| panic!("{audience}: no BILL_AMT2 association in {warnings:?}"));
        let (value, threshold) = (
            bill["value"].as_f64().unwrap(),
            bill["threshold"].as_f64().unwrap(),
        );
        // BILL_AMT2 and BILL_AMT1 are bills of consecutive months: nearly
        // the same number, so the association is close to 1.
        assert!(value >= threshold && value > 0.9, "{bill}");
        assert!(
            bill["message"].as_str().unwrap().contains("BILL_AMT1"),
            "{bill}"
        );
        // Every warning is one of the documented kinds, over its threshold.
        for w in warnings {
            assert!(
                [
                    "sa_association",
                    "fine_grained_column",
                    "ungeneralized_qi",
                    "suppression_concentrated"
                ]
                .contains(&w["kind"].as_str().unwrap()),
                "{w}"
            );
        }
        let html = report_html(&app, id, &format!("?audience={audience}")).await;
        let warned = html
            .split("BILL_AMT2")
            .skip(1)
            .any(|after| after.contains("BILL_AMT1"));
        assert!(
            warned,
            "{audience}: the HTML names neither column in a warning"
        );
    }
}
