//! The `special_uniques` audit check (SUDA2) over HTTP: on an uploaded
//! table over the QIs and over every published column, on a job's release
//! (read through its labels, in the attacker's view beside a per-victim
//! check), and every invalid input refused with a pointer into the check.

use reqwest::multipart::{Form, Part};
use serde_json::{json, Value};

use crate::portal::{portal_app, run_job};
use crate::support::*;

/// Rows 3 and 6 are the only ones whose (age, sex) no other row shares;
/// their age and their sex alone are shared. The salary is unique in every
/// row; (sex, town) singles out rows 3 and 6 too.
const CSV: &[u8] = b"age,sex,town,salary\n30,M,A,100\n30,M,A,200\n30,F,A,300\n\
                     40,F,B,400\n40,F,B,500\n40,M,B,600\n";

fn schema() -> Value {
    json!({"name": "towns", "columns": [
        {"name": "age", "role": "quasi_identifier", "type": "numeric"},
        {"name": "sex", "role": "quasi_identifier", "type": "categorical"},
        {"name": "town", "role": "insensitive"},
        {"name": "salary", "role": "sensitive", "type": "numeric"}]})
}

async fn upload(app: &TestApp) -> String {
    let form = Form::new()
        .part(
            "schema",
            Part::bytes(serde_json::to_vec(&schema()).unwrap())
                .mime_str("application/json")
                .unwrap(),
        )
        .part("data", Part::bytes(CSV.to_vec()));
    let res = app
        .client
        .post(app.url("/v1/datasets"))
        .bearer_auth(&app.key)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    let ds: Value = res.json().await.unwrap();
    ds["id"].as_str().unwrap().to_string()
}

async fn audit(app: &TestApp, body: Value) -> Value {
    let res = app.post_json("/v1/audits", &body).await;
    assert_eq!(res.status(), 200, "{}", res.text().await.unwrap());
    res.json().await.unwrap()
}

#[tokio::test]
async fn special_uniques_of_an_uploaded_table_over_the_qis_and_every_column() {
    let app = portal_app().await;
    let id = upload(&app).await;
    let report = audit(
        &app,
        json!({"dataset_id": id, "checks": [{"kind": "special_uniques"}]}),
    )
    .await;
    let check = &report["checks"][0];
    assert_eq!(check["kind"], "special_uniques");
    assert_eq!(check["passed"], false, "{check}");
    assert_eq!(
        check["params"],
        json!({"max_size": 4, "columns": "quasi_identifiers", "dis_fraction": 0.01})
    );
    let value = &check["value"];
    assert_eq!(value["records_with_msu"], 2, "{value}");
    assert_eq!(value["sample_uniques"], 2, "{value}");
    assert_eq!(value["columns_scanned"], 2, "{value}");
    // Two columns: the search stops at size 2, where a 2-MSU scores 1.
    assert_eq!(value["max_size_searched"], 2, "{value}");
    assert_eq!(value["max_suda_score"], 1.0, "{value}");
    // DIS-SUDA: 1 / (1 + P(1 − f) / (f s^Q Σ s^−Q)) with P = 4 records in
    // pairs, f = 0.01, both scores 1: 1 / (1 + 4 · 0.99 / 0.02).
    let dis = value["dis_suda"].as_f64().unwrap();
    assert!((dis - 1.0 / 199.0).abs() < 1e-12, "{dis}");
    assert_eq!(check["violating_rows"], 2);
    assert_eq!(check["msus_by_size"], json!([0, 2]));
    let records: Vec<(u64, Vec<String>)> = check["worst_records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let columns = r["columns"].as_array().unwrap().iter();
            let columns = columns.map(|c| c.as_str().unwrap().to_string()).collect();
            (r["record"].as_u64().unwrap(), columns)
        })
        .collect();
    let both = vec!["age".to_string(), "sex".to_string()];
    assert_eq!(records, vec![(3, both.clone()), (6, both)]);
    assert_eq!(
        check["column_contributions"],
        json!([{"column": "age", "percent": 100.0}, {"column": "sex", "percent": 100.0}])
    );

    // Every published column: the salary singles out every record, and
    // (sex, town) is a second 2-MSU of rows 3 and 6: with ATT = M = 4 a
    // 1-MSU scores 3! = 6 and a 2-MSU 2! = 2, so rows 3 and 6 score 10.
    let report = audit(
        &app,
        json!({"dataset_id": id, "checks": [
            {"kind": "special_uniques", "columns": "published", "max_size": 4}]}),
    )
    .await;
    let check = &report["checks"][0];
    assert_eq!(check["value"]["records_with_msu"], 6, "{check}");
    assert_eq!(check["value"]["columns_scanned"], 4);
    assert_eq!(check["value"]["max_suda_score"], 10.0);
    assert_eq!(check["msus_by_size"], json!([6, 4, 0, 0]));
    let first = &check["worst_records"][0];
    assert_eq!(first["record"], 3);
    assert_eq!(first["score"], 10.0);
    assert_eq!(first["msus"], 3);
    assert_eq!(first["columns"], json!(["salary"]));
    // Names, never values.
    let listed = check["worst_records"].to_string();
    for value in ["300", "\"F\"", "\"A\"", "\"30\""] {
        assert!(!listed.contains(value), "{value} in {listed}");
    }
}

#[tokio::test]
async fn special_uniques_of_a_release_read_its_labels_beside_the_attackers_view() {
    let app = portal_app().await;
    let id = upload(&app).await;
    let job = run_job(
        &app,
        json!({"dataset_id": id, "model": {"kind": "k_anonymity", "k": 2}}),
    )
    .await;
    // The release is 2-anonymous over its published labels: no combination
    // of QIs singles a record out, while the upload had two.
    let report = audit(
        &app,
        json!({"job_id": job["id"], "checks": [
            {"kind": "special_uniques"}, {"kind": "k_anonymity", "k": 2}]}),
    )
    .await;
    assert_eq!(report["view"], "attacker");
    let suda = &report["checks"][0];
    assert_eq!(suda["value"]["records_with_msu"], 0, "{suda}");
    assert_eq!(suda["passed"], true);
    assert_eq!(suda["worst_records"], json!([]));
    assert!(suda.get("attacker").is_none(), "a table-wide scan: {suda}");
    let k = &report["checks"][1];
    assert!(k["attacker"].is_object(), "{k}");
    assert_eq!(report["passed"], k["passed"]);
    // Every published column of the release: the salaries still single
    // every record out.
    let report = audit(
        &app,
        json!({"job_id": job["id"], "view": "groups", "checks": [
            {"kind": "special_uniques", "columns": "published"}]}),
    )
    .await;
    assert_eq!(report["checks"][0]["value"]["records_with_msu"], 6);
    assert_eq!(report["passed"], false);
}

#[tokio::test]
async fn invalid_special_uniques_checks_are_refused_naming_the_field() {
    let app = portal_app().await;
    let id = upload(&app).await;
    let cases = [
        (
            json!({"kind": "special_uniques", "max_size": 0}),
            "/checks/0/max_size",
        ),
        (
            json!({"kind": "special_uniques", "max_size": 17}),
            "/checks/0/max_size",
        ),
        (
            json!({"kind": "special_uniques", "max_size": 2.5}),
            "/checks/0/max_size",
        ),
        (
            json!({"kind": "special_uniques", "max_size": -1}),
            "/checks/0/max_size",
        ),
        (
            json!({"kind": "special_uniques", "max_size": "4"}),
            "/checks/0/max_size",
        ),
        (
            json!({"kind": "special_uniques", "columns": "all"}),
            "/checks/0/columns",
        ),
        (
            json!({"kind": "special_uniques", "columns": 3}),
            "/checks/0/columns",
        ),
        (
            json!({"kind": "special_uniques", "dis_fraction": 0}),
            "/checks/0/dis_fraction",
        ),
        (
            json!({"kind": "special_uniques", "dis_fraction": 1.5}),
            "/checks/0/dis_fraction",
        ),
        (
            json!({"kind": "special_uniques", "dis_fraction": "x"}),
            "/checks/0/dis_fraction",
        ),
        (json!({"kind": "special_uniques", "k": 2}), "/checks/0/k"),
    ];
    for (check, pointer) in cases {
        let res = app
            .post_json("/v1/audits", &json!({"dataset_id": id, "checks": [check]}))
            .await;
        let p = expect_problem(res, 422, "invalid_parameters").await;
        assert_eq!(p["errors"][0]["pointer"], pointer, "{check}: {p}");
    }
}

async fn report(app: &TestApp, job: &str, audience: &str) -> Value {
    let res = app
        .get(&format!(
            "/v1/jobs/{job}/report?format=json&audience={audience}"
        ))
        .await;
    assert_eq!(res.status(), 200, "{}", res.text().await.unwrap());
    res.json().await.unwrap()
}

#[tokio::test]
async fn the_report_lists_records_at_risk_through_combinations_of_columns() {
    let app = portal_app().await;
    let id = upload(&app).await;
    let job = run_job(
        &app,
        json!({"dataset_id": id, "model": {"kind": "k_anonymity", "k": 2}}),
    )
    .await;
    let job = job["id"].as_str().unwrap();
    let internal = report(&app, job, "internal").await;
    let section = &internal["combinations"];
    assert_eq!(section["max_size"], 4);
    assert_eq!(section["dis_fraction"], 0.01);
    let scans = section["scans"].as_array().unwrap();
    let what: Vec<(&str, &str, u64)> = scans
        .iter()
        .map(|s| {
            (
                s["table"].as_str().unwrap(),
                s["columns"].as_str().unwrap(),
                s["records_with_msu"].as_u64().unwrap(),
            )
        })
        .collect();
    // The same figures as the audit check: 2 records on the upload's QIs,
    // none on the 2-anonymous release's labels, all 6 through the salary.
    assert_eq!(
        what,
        [
            ("upload", "quasi_identifiers", 2),
            ("release", "quasi_identifiers", 0),
            ("release", "published", 6)
        ]
    );
    let upload_worst = &scans[0]["worst"];
    assert_eq!(upload_worst[0]["record"], 3, "{upload_worst}");
    assert_eq!(upload_worst[0]["columns"], json!(["age", "sex"]));
    assert_eq!(upload_worst[0]["values"], json!(["30", "F"]));
    let involved = &scans[2]["columns_involved"];
    assert_eq!(involved[0]["column"], "salary", "{involved}");
    // The external report: figures and columns, no record and no value.
    let external = report(&app, job, "external").await;
    let section = &external["combinations"];
    assert_eq!(section["scans"].as_array().unwrap().len(), 3);
    for scan in section["scans"].as_array().unwrap() {
        assert!(scan["worst"].is_null(), "{scan}");
    }
    let text = section.to_string();
    for value in ["\"30\"", "\"F\"", "300", "\"A\""] {
        assert!(!text.contains(value), "{value} in {text}");
    }
    assert_eq!(
        section["scans"][0]["records_with_msu"],
        internal["combinations"]["scans"][0]["records_with_msu"]
    );
    // The HTML page has the section.
    let res = app
        .get(&format!("/v1/jobs/{job}/report?audience=external"))
        .await;
    let html = res.text().await.unwrap();
    assert!(html.contains("Records at risk through combinations of columns"));
}
