//! Population tables: a sample naming its population at upload (checked
//! against the population's columns, types, ranges and hierarchies), a
//! population in use refused on delete, `k_map` and `delta_presence` as
//! audit checks (figures by hand, every error with its pointer) and as
//! Mondrian models end to end, each class's population count checked here
//! by brute force over the downloaded release's labels.

use reqwest::multipart::{Form, Part};
use serde_json::{json, Value};
use uuid::Uuid;

use crate::release_report::{app_with_worker, finished_job, upload};
use crate::support::*;

const SEX: &str = r#"[["M", "*"], ["F", "*"]]"#;

fn schema(name: &str, age_type: &str, sex_hierarchy: &str, population: Option<Value>) -> Value {
    let mut s = json!({"name": name, "columns": [
        {"name": "age", "role": "quasi_identifier", "type": age_type},
        {"name": "sex", "role": "quasi_identifier", "type": "categorical",
         "hierarchy": serde_json::from_str::<Value>(sex_hierarchy).unwrap()},
        {"name": "zip", "role": "quasi_identifier", "type": "categorical"},
        {"name": "salary", "role": "sensitive", "type": "numeric"}
    ]});
    if let Some(p) = population {
        s["population"] = p;
    }
    s
}

fn form(schema: &Value, csv: &str) -> Form {
    Form::new()
        .part(
            "schema",
            Part::bytes(serde_json::to_vec(schema).unwrap())
                .mime_str("application/json")
                .unwrap(),
        )
        .part("data", Part::bytes(csv.as_bytes().to_vec()))
}

/// `(age, sex, zip)` rows as CSV (salary = the row's index).
fn csv(rows: &[(u32, &str, &str)]) -> String {
    let mut out = String::from("age,sex,zip,salary\n");
    for (i, (a, s, z)) in rows.iter().enumerate() {
        out.push_str(&format!("{a},{s},{z},{i}\n"));
    }
    out
}

fn times(
    row: (u32, &'static str, &'static str),
    n: usize,
) -> Vec<(u32, &'static str, &'static str)> {
    vec![row; n]
}

/// 9 population rows: (30,M,100)×3, (40,F,200)×4, (50,F,300)×2.
fn population_rows() -> Vec<(u32, &'static str, &'static str)> {
    let mut p = times((30, "M", "100"), 3);
    p.extend(times((40, "F", "200"), 4));
    p.extend(times((50, "F", "300"), 2));
    p
}

/// 3 sample rows: (30,M,100)×2, (40,F,200).
fn sample_rows() -> Vec<(u32, &'static str, &'static str)> {
    let mut s = times((30, "M", "100"), 2);
    s.push((40, "F", "200"));
    s
}

async fn created(app: &TestApp, schema: &Value, data: &str) -> Value {
    let res = upload(app, form(schema, data)).await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    res.json().await.unwrap()
}

fn id(v: &Value) -> String {
    v["id"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn a_population_table_is_checked_at_upload() {
    let app = TestApp::start().await;
    let pop = created(
        &app,
        &schema("pop", "numeric", SEX, None),
        &csv(&population_rows()),
    )
    .await;
    let named = json!({"dataset_id": id(&pop)});
    let sample = created(
        &app,
        &schema("sample", "numeric", SEX, Some(named.clone())),
        &csv(&sample_rows()),
    )
    .await;
    assert_eq!(sample["population"], named, "{sample}");
    let read: Value = app
        .get(&format!("/v1/datasets/{}", id(&sample)))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(read["population"], named, "{read}");

    // Another tenant's dataset is no dataset of ours.
    let other_key = app.store.create_key("t2").await.unwrap();
    let res = app
        .client
        .post(app.url("/v1/datasets"))
        .bearer_auth(&other_key)
        .multipart(form(
            &schema("theirs", "numeric", SEX, None),
            &csv(&population_rows()),
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    let theirs: Value = res.json().await.unwrap();
    for missing in [Uuid::new_v4().to_string(), id(&theirs)] {
        let s = schema("s", "numeric", SEX, Some(json!({"dataset_id": missing})));
        let p = expect_problem(
            upload(&app, form(&s, &csv(&sample_rows()))).await,
            422,
            "invalid_schema",
        )
        .await;
        assert_eq!(p["errors"][0]["pointer"], "/population/dataset_id", "{p}");
    }
    // Not a UUID, or beside a size: the schema's own error.
    for bad in [
        json!({"dataset_id": "x"}),
        json!({"dataset_id": id(&pop), "size": 10}),
    ] {
        let s = schema("s", "numeric", SEX, Some(bad));
        expect_problem(
            upload(&app, form(&s, &csv(&sample_rows()))).await,
            422,
            "invalid_schema",
        )
        .await;
    }

    // Populations that cannot hold the sample: each mismatch named.
    let wrong_type = created(
        &app,
        &schema("p1", "categorical", SEX, None),
        &csv(&population_rows()),
    )
    .await;
    let other_tree = created(
        &app,
        &schema(
            "p2",
            "numeric",
            r#"[["M", "X", "*"], ["F", "Y", "*"]]"#,
            None,
        ),
        &csv(&population_rows()),
    )
    .await;
    let tiny = created(
        &app,
        &schema("p3", "numeric", SEX, None),
        &csv(&[(30, "M", "100"), (40, "F", "200")]),
    )
    .await;
    let no_zip = created(
        &app,
        &json!({"name": "p4", "columns": [
            {"name": "age", "role": "quasi_identifier", "type": "numeric"},
            {"name": "sex", "role": "quasi_identifier", "type": "categorical",
             "hierarchy": serde_json::from_str::<Value>(SEX).unwrap()},
            {"name": "zip", "role": "insensitive"},
            {"name": "salary", "role": "sensitive", "type": "numeric"}]}),
        &csv(&population_rows()),
    )
    .await;
    for (population, data, pointer) in [
        (&wrong_type, csv(&sample_rows()), "/columns/0/type"),
        (&other_tree, csv(&sample_rows()), "/columns/1/hierarchy"),
        (&tiny, csv(&sample_rows()), "/population/dataset_id"),
        (&no_zip, csv(&sample_rows()), "/columns/2"),
        (
            &pop,
            csv(&[(30, "M", "100"), (90, "F", "200")]),
            "/columns/0",
        ),
    ] {
        let s = schema(
            "s",
            "numeric",
            SEX,
            Some(json!({"dataset_id": id(population)})),
        );
        let p = expect_problem(
            upload(&app, form(&s, &data)).await,
            422,
            "population_mismatch",
        )
        .await;
        assert_eq!(p["errors"][0]["pointer"], pointer, "{p}");
    }
    // Nothing refused was stored: the populations, theirs not listed, and
    // the one sample.
    let listed: Value = app.get("/v1/datasets").await.json().await.unwrap();
    assert_eq!(listed["items"].as_array().unwrap().len(), 6, "{listed}");
}

#[tokio::test]
async fn a_population_in_use_cannot_be_deleted() {
    let app = TestApp::start().await;
    let pop = created(
        &app,
        &schema("pop", "numeric", SEX, None),
        &csv(&population_rows()),
    )
    .await;
    let s = schema("s", "numeric", SEX, Some(json!({"dataset_id": id(&pop)})));
    let sample = created(&app, &s, &csv(&sample_rows())).await;
    let app = &app;
    let delete = |path: String| {
        let req = app.client.delete(app.url(&path)).bearer_auth(&app.key);
        async move { req.send().await.unwrap() }
    };
    let p = expect_problem(
        delete(format!("/v1/datasets/{}", id(&pop))).await,
        409,
        "population_in_use",
    )
    .await;
    assert_eq!(p["details"]["samples"], json!([id(&sample)]), "{p}");
    assert_eq!(
        delete(format!("/v1/datasets/{}", id(&sample)))
            .await
            .status(),
        204
    );
    assert_eq!(
        delete(format!("/v1/datasets/{}", id(&pop))).await.status(),
        204
    );

    // Retention keeps a population while a sample names it, and takes it
    // on the pass after its last sample has gone.
    let pop = created(
        app,
        &schema("pop", "numeric", SEX, None),
        &csv(&population_rows()),
    )
    .await;
    let s = schema("s", "numeric", SEX, Some(json!({"dataset_id": id(&pop)})));
    created(app, &s, &csv(&sample_rows())).await;
    let ttl = std::time::Duration::ZERO;
    assert_eq!(app.store.purge_expired(ttl).await.unwrap().datasets, 1);
    let listed: Value = app.get("/v1/datasets").await.json().await.unwrap();
    assert_eq!(listed["items"][0]["id"], json!(id(&pop)), "{listed}");
    assert_eq!(app.store.purge_expired(ttl).await.unwrap().datasets, 1);
    let listed: Value = app.get("/v1/datasets").await.json().await.unwrap();
    assert_eq!(listed["items"], json!([]), "{listed}");
}

#[tokio::test]
async fn k_map_and_delta_presence_audits() {
    let app = TestApp::start().await;
    let pop = created(
        &app,
        &schema("pop", "numeric", SEX, None),
        &csv(&population_rows()),
    )
    .await;
    let sample = created(
        &app,
        &schema("s", "numeric", SEX, None),
        &csv(&sample_rows()),
    )
    .await;
    let pid = id(&pop);
    let app = &app;
    let audit = |checks: Value, dataset: String| {
        let body = json!({"dataset_id": dataset, "checks": checks});
        async move { app.post_json("/v1/audits", &body).await }
    };
    // Classes by identical QIs: (30,M,100) 2 rows over 3 population
    // records, (40,F,200) 1 row over 4.
    let res = audit(
        json!([
            {"kind": "k_anonymity", "k": 1},
            {"kind": "k_map", "k": 4, "population_dataset_id": pid},
            {"kind": "delta_presence", "delta_min": 0.0, "delta_max": 0.5,
             "population_dataset_id": pid}
        ]),
        id(&sample),
    )
    .await;
    let status = res.status();
    let r: Value = res.json().await.unwrap();
    assert_eq!(status, 200, "{r}");
    assert_eq!(r["passed"], false, "{r}");
    let kinds: Vec<&str> = r["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["k_anonymity", "k_map", "delta_presence"]);
    let k_map = &r["checks"][1];
    assert_eq!(k_map["passed"], false);
    assert_eq!(k_map["value"], json!({"min_population_count": 3}));
    assert_eq!(k_map["params"], json!({"k": 4}));
    assert_eq!(
        (
            k_map["violating_groups"].as_u64(),
            k_map["violating_rows"].as_u64()
        ),
        (Some(1), Some(2))
    );
    assert_eq!(
        k_map["worst_groups"][0],
        json!({"group_id": "1", "size": 2, "value": 3.0})
    );
    let dp = &r["checks"][2];
    assert_eq!(dp["passed"], false);
    assert_eq!(dp["value"]["min_delta"], 0.25);
    assert!((dp["value"]["max_delta"].as_f64().unwrap() - 2.0 / 3.0).abs() < 1e-12);
    // Passing bounds pass.
    let r: Value = audit(
        json!([{"kind": "k_map", "k": 3, "population_dataset_id": pid},
               {"kind": "delta_presence", "delta_min": 0.2, "delta_max": 0.7,
                "population_dataset_id": pid}]),
        id(&sample),
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(r["passed"], true, "{r}");

    // Errors, each at its check.
    for (checks, code, pointer) in [
        (
            json!([{"kind": "k_map", "k": 2, "population_dataset_id": Uuid::new_v4()}]),
            "invalid_parameters",
            "/checks/0/population_dataset_id",
        ),
        (
            json!([{"kind": "k_anonymity", "k": 1},
                   {"kind": "k_map", "k": 2, "population_dataset_id": "nope"}]),
            "invalid_parameters",
            "/checks/1/population_dataset_id",
        ),
        (
            json!([{"kind": "k_map", "k": 0, "population_dataset_id": pid}]),
            "invalid_parameters",
            "/checks/0/k",
        ),
        (
            json!([{"kind": "delta_presence", "delta_min": 0.6, "delta_max": 0.5,
                    "population_dataset_id": pid}]),
            "invalid_parameters",
            "/checks/0/delta_min",
        ),
        (
            json!([{"kind": "delta_presence", "delta_min": 0, "delta_max": 1.5,
                    "population_dataset_id": pid}]),
            "invalid_parameters",
            "/checks/0/delta_max",
        ),
        // A table check after a population check keeps its own index.
        (
            json!([{"kind": "k_map", "k": 2, "population_dataset_id": pid},
                   {"kind": "k_anonymity", "k": 0}]),
            "invalid_parameters",
            "/checks/1/k",
        ),
    ] {
        let p = expect_problem(audit(checks.clone(), id(&sample)).await, 422, code).await;
        assert_eq!(p["errors"][0]["pointer"], pointer, "{checks}: {p}");
    }
    // δ-presence needs a subset: four (30,M,100) rows where the
    // population has three. k-map does not.
    let outsider = created(
        app,
        &schema("o", "numeric", SEX, None),
        &csv(&times((30, "M", "100"), 4)),
    )
    .await;
    let p = expect_problem(
        audit(
            json!([{"kind": "delta_presence", "delta_min": 0, "delta_max": 1,
                    "population_dataset_id": pid}]),
            id(&outsider),
        )
        .await,
        422,
        "population_mismatch",
    )
    .await;
    assert_eq!(
        p["errors"][0]["pointer"], "/checks/0/population_dataset_id",
        "{p}"
    );
    assert_eq!(p["details"]["unmatched_records"], 1, "{p}");
    let res = audit(
        json!([{"kind": "k_map", "k": 3, "population_dataset_id": pid}]),
        id(&outsider),
    )
    .await;
    assert_eq!(res.status(), 200);
    // A population without one of the audited table's QIs.
    let narrow = created(
        app,
        &json!({"name": "n", "columns": [
            {"name": "age", "role": "quasi_identifier", "type": "numeric"},
            {"name": "sex", "role": "insensitive"},
            {"name": "zip", "role": "insensitive"},
            {"name": "salary", "role": "sensitive", "type": "numeric"}]}),
        &csv(&population_rows()),
    )
    .await;
    let p = expect_problem(
        audit(
            json!([{"kind": "k_map", "k": 1, "population_dataset_id": id(&narrow)}]),
            id(&sample),
        )
        .await,
        422,
        "population_mismatch",
    )
    .await;
    assert!(p["detail"].as_str().unwrap().contains("'sex'"), "{p}");
}

/// Whether a release label covers a value: `[lo-hi]` or a number for age,
/// `*` or the value itself for the categorical QIs.
fn covers(label: &str, value: &str, numeric: bool) -> bool {
    if numeric {
        let v: f64 = value.parse().unwrap();
        match label.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            Some(range) => {
                let (lo, hi) = range.split_once('-').unwrap();
                lo.parse::<f64>().unwrap() <= v && v <= hi.parse::<f64>().unwrap()
            }
            None => label.parse::<f64>().unwrap() == v,
        }
    } else {
        label == "*" || label == value
    }
}

/// A sample of 24 rows and a population holding it three times over plus
/// 12 rows the sample lacks (ages 60-71, zip 900 unknown to the sample).
fn job_tables() -> (String, String) {
    let sample: Vec<(u32, &str, &str)> = (0..24)
        .map(|i| {
            (
                20 + i,
                if i % 2 == 0 { "M" } else { "F" },
                if i % 3 == 0 { "100" } else { "200" },
            )
        })
        .collect();
    let mut pop = Vec::new();
    for _ in 0..3 {
        pop.extend(sample.iter().copied());
    }
    pop.extend((0..12).map(|i| (60 + i, "F", "900")));
    (csv(&sample), csv(&pop))
}

#[tokio::test]
async fn k_map_and_delta_presence_jobs_end_to_end() {
    let app = app_with_worker().await;
    let (sample_csv, pop_csv) = job_tables();
    let pop = created(&app, &schema("pop", "numeric", SEX, None), &pop_csv).await;
    let s = schema("s", "numeric", SEX, Some(json!({"dataset_id": id(&pop)})));
    let sample = created(&app, &s, &sample_csv).await;
    let pop_rows: Vec<Vec<String>> = pop_csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();

    for (model, check) in [
        (json!({"kind": "k_map", "k": 7}), "k_map"),
        (
            json!({"kind": "delta_presence", "delta_min": 0.2, "delta_max": 0.34}),
            "delta_presence",
        ),
    ] {
        let job = finished_job(&app, json!({"dataset_id": id(&sample), "model": model})).await;
        let j: Value = app
            .get(&format!("/v1/jobs/{job}"))
            .await
            .json()
            .await
            .unwrap();
        assert_eq!(j["status"], "succeeded", "{j}");
        assert_eq!(j["algorithm"], "mondrian", "{j}");
        let audit: Value = app
            .get(&format!("/v1/jobs/{job}/audit"))
            .await
            .json()
            .await
            .unwrap();
        assert_eq!(audit["checks"][0]["kind"], check, "{audit}");
        assert_eq!(audit["checks"][0]["passed"], true, "{audit}");
        // The same check through POST /v1/audits on the job's release.
        let mut checked = model.clone();
        checked["population_dataset_id"] = json!(id(&pop));
        let again: Value = app
            .post_json("/v1/audits", &json!({"job_id": job, "checks": [checked]}))
            .await
            .json()
            .await
            .unwrap();
        assert_eq!(
            again["checks"][0]["value"], audit["checks"][0]["value"],
            "{again}"
        );
        // Brute force over the release: each class's labels cover enough
        // population records (counted over every record they cover).
        let release = app
            .get(&format!("/v1/jobs/{job}/result"))
            .await
            .text()
            .await
            .unwrap();
        let mut classes: std::collections::BTreeMap<String, (Vec<String>, usize)> =
            Default::default();
        for line in release.lines().skip(1) {
            let cells: Vec<String> = line.split(',').map(str::to_string).collect();
            let entry = classes
                .entry(cells[0].clone())
                .or_insert((cells[1..4].to_vec(), 0));
            entry.1 += 1;
        }
        assert!(classes.len() > 1, "Mondrian cut: {release}");
        let mut min = u64::MAX;
        let mut max_delta: f64 = 0.0;
        for (labels, size) in classes.values() {
            let covered = pop_rows
                .iter()
                .filter(|r| (0..3).all(|d| covers(&labels[d], &r[d], d == 0)))
                .count();
            min = min.min(covered as u64);
            max_delta = max_delta.max(*size as f64 / covered as f64);
            match check {
                "k_map" => assert!(covered >= 7, "{labels:?}: {covered}"),
                _ => {
                    let delta = *size as f64 / covered as f64;
                    assert!(
                        (0.2..=0.34).contains(&delta),
                        "{labels:?}: {size}/{covered}"
                    );
                }
            }
        }
        // The report counts journalist risk in the population table:
        // before, every sample row's own point (three copies each); after,
        // the classes' labels.
        let report: Value = app
            .get(&format!("/v1/jobs/{job}/report?format=json"))
            .await
            .json()
            .await
            .unwrap();
        let before = &report["risk"]["before"];
        assert_eq!(
            before["population_table"]["min_population_count"], 3,
            "{before}"
        );
        assert_eq!(
            before["population_table"]["population_rows"], 84,
            "{before}"
        );
        assert!((before["journalist_max"].as_f64().unwrap() - 1.0 / 3.0).abs() < 1e-12);
        let after = &report["risk"]["after"];
        assert_eq!(
            after["population_table"]["min_population_count"], min,
            "{after}"
        );
        assert!((after["journalist_max"].as_f64().unwrap() - 1.0 / min as f64).abs() < 1e-12);
        match check {
            "k_map" => assert_eq!(audit["checks"][0]["value"]["min_population_count"], min),
            _ => assert!(
                (audit["checks"][0]["value"]["max_delta"].as_f64().unwrap() - max_delta).abs()
                    < 1e-12
            ),
        }
    }

    // Refused before queueing: k beyond what the whole table covers (its
    // labels, ages 20-43 and "*", cover the 72 copies), bounds the whole
    // table misses (24/72), and a dataset without a population table.
    let p = expect_problem(
        app.post_json(
            "/v1/jobs",
            &json!({"dataset_id": id(&sample), "model": {"kind": "k_map", "k": 73}}),
        )
        .await,
        422,
        "infeasible_parameters",
    )
    .await;
    assert_eq!(p["details"]["max_k"], 72, "{p}");
    assert_eq!(p["errors"][0]["pointer"], "/model/k", "{p}");
    let p = expect_problem(
        app.post_json(
            "/v1/jobs",
            &json!({"dataset_id": id(&sample), "model": {"kind": "delta_presence", "delta_min": 0.5, "delta_max": 1}}),
        )
        .await,
        422,
        "infeasible_parameters",
    )
    .await;
    assert_eq!(p["errors"][0]["pointer"], "/model/delta_min", "{p}");
    let alone = created(&app, &schema("alone", "numeric", SEX, None), &sample_csv).await;
    let p = expect_problem(
        app.post_json(
            "/v1/jobs",
            &json!({"dataset_id": id(&alone), "model": {"kind": "k_map", "k": 2}}),
        )
        .await,
        422,
        "invalid_parameters",
    )
    .await;
    assert_eq!(p["errors"][0]["pointer"], "/model", "{p}");
    let p = expect_problem(
        app.post_json(
            "/v1/jobs",
            &json!({"dataset_id": id(&sample), "model": {"kind": "k_map", "k": 2}, "algorithm": "xcolor"}),
        )
        .await,
        422,
        "invalid_parameters",
    )
    .await;
    assert_eq!(p["errors"][0]["pointer"], "/algorithm", "{p}");
}
