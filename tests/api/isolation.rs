//! Tenant isolation, swept over every `/v1` operation of the committed
//! OpenAPI document: tenant A owns a dataset and a succeeded job (with its
//! release and audit); tenant B, with its own key, gets 404 `not_found` on
//! each of them wherever an id is taken, and lists without them. Every
//! call B makes is made by A too and succeeds (or conflicts), so each 404
//! is about ownership, not about a bad request. The test fails when the
//! document has an operation the sweep does not walk.

use std::collections::BTreeSet;
use std::sync::Arc;

use proxima::worker::core_runner::CoreRunner;
use reqwest::multipart::{Form, Part};
use reqwest::Method;
use serde_json::{json, Value};

use crate::openapi::{committed, documented_v1};
use crate::support::*;

struct Sweep<'a> {
    app: &'a TestApp,
    a: String,
    b: String,
    covered: BTreeSet<(String, String)>,
}

impl Sweep<'_> {
    async fn call(
        &self,
        key: &str,
        method: Method,
        path: &str,
        body: Option<&Value>,
    ) -> reqwest::Response {
        let mut req = self
            .app
            .client
            .request(method, self.app.url(path))
            .bearer_auth(key);
        if let Some(body) = body {
            req = req.json(body);
        }
        req.send().await.unwrap()
    }

    /// B gets 404 `not_found`; then A, with the same request, gets `a_status`.
    async fn only_a(
        &mut self,
        method: Method,
        template: &str,
        path: &str,
        body: Option<Value>,
        a_status: u16,
    ) {
        self.covered
            .insert((method.to_string(), template.to_string()));
        let res = self
            .call(&self.b, method.clone(), path, body.as_ref())
            .await;
        let p = expect_problem(res, 404, "not_found").await;
        for id in path
            .split(['/', '?', '='])
            .filter(|s| s.parse::<uuid::Uuid>().is_ok())
        {
            assert!(
                !p.to_string().contains(id),
                "a 404 does not echo the id: {p}"
            );
        }
        let res = self
            .call(&self.a, method.clone(), path, body.as_ref())
            .await;
        assert_eq!(
            res.status().as_u16(),
            a_status,
            "A: {method} {path}: {}",
            res.text().await.unwrap()
        );
    }

    /// The ids in `path`'s list as seen by `key`.
    async fn listed(&mut self, key: &str, template: &str, path: &str) -> Vec<String> {
        self.covered.insert(("GET".into(), template.to_string()));
        let res = self.call(key, Method::GET, path, None).await;
        assert_eq!(res.status(), 200);
        let page: Value = res.json().await.unwrap();
        page["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["id"].as_str().unwrap().to_string())
            .collect()
    }
}

fn upload_form(name: &str) -> Form {
    Form::new()
        .part(
            "schema",
            Part::bytes(serde_json::to_vec(&people_schema(name)).unwrap())
                .mime_str("application/json")
                .unwrap(),
        )
        .part("data", Part::bytes(PEOPLE_CSV.as_bytes().to_vec()))
        .part(
            "hierarchy:zip",
            Part::bytes(b"1000;*\n2000;*\n3000;*\n".to_vec()),
        )
}

#[tokio::test]
async fn another_tenants_resources_are_404_on_every_v1_operation() {
    let app = TestApp::with(Options {
        runner: Some(Arc::new(CoreRunner)),
        ..Options::default()
    })
    .await;
    let b_key = app.store.create_key("t2").await.unwrap();
    let mut s = Sweep {
        app: &app,
        a: app.key.clone(),
        b: b_key,
        covered: BTreeSet::new(),
    };

    // A uploads (POST /v1/datasets) and runs a job to success; B uploads
    // a dataset of its own.
    s.covered.insert(("POST".into(), "/v1/datasets".into()));
    let upload = |key: String, name: &'static str| {
        let req = app
            .client
            .post(app.url("/v1/datasets"))
            .bearer_auth(key)
            .multipart(upload_form(name));
        async move {
            let res = req.send().await.unwrap();
            assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
            let ds: Value = res.json().await.unwrap();
            ds["id"].as_str().unwrap().to_string()
        }
    };
    let ds = upload(s.a.clone(), "a").await;
    let b_ds = upload(s.b.clone(), "b").await;
    let job_body = json!({"dataset_id": ds, "model": {"kind": "k_anonymity", "k": 2}});
    s.only_a(Method::POST, "/v1/jobs", "/v1/jobs", Some(job_body), 202)
        .await;
    let a_jobs = s.listed(&s.a.clone(), "/v1/jobs", "/v1/jobs").await;
    assert_eq!(a_jobs.len(), 1);
    let job = a_jobs[0].clone();
    let done = app
        .wait_job(&job, |st| !matches!(st, "queued" | "running"))
        .await;
    assert_eq!(done["status"], "succeeded", "{done}");

    // Lists: B sees its own dataset only, no job; A does not see B's.
    let b_sets = s.listed(&s.b.clone(), "/v1/datasets", "/v1/datasets").await;
    assert_eq!(b_sets, vec![b_ds.clone()]);
    let a_sets = s.listed(&s.a.clone(), "/v1/datasets", "/v1/datasets").await;
    assert_eq!(a_sets, vec![ds.clone()]);
    assert!(s
        .listed(&s.b.clone(), "/v1/jobs", "/v1/jobs")
        .await
        .is_empty());
    let by_ds = format!("/v1/jobs?dataset_id={ds}");
    assert!(s.listed(&s.b.clone(), "/v1/jobs", &by_ds).await.is_empty());
    assert_eq!(
        s.listed(&s.a.clone(), "/v1/jobs", &by_ds).await,
        vec![job.clone()]
    );

    // Every operation on one of A's resources.
    let dataset_path = format!("/v1/datasets/{ds}");
    let job_path = format!("/v1/jobs/{job}");
    s.only_a(Method::GET, "/v1/datasets/{id}", &dataset_path, None, 200)
        .await;
    let feasibility = json!({"kind": "epsilon_m", "m": 2, "neighborhood": "absolute"});
    s.only_a(
        Method::POST,
        "/v1/datasets/{id}/feasibility",
        &format!("{dataset_path}/feasibility"),
        Some(feasibility),
        200,
    )
    .await;
    s.only_a(Method::GET, "/v1/jobs/{id}", &job_path, None, 200)
        .await;
    s.only_a(
        Method::GET,
        "/v1/jobs/{id}/result",
        &format!("{job_path}/result"),
        None,
        200,
    )
    .await;
    s.only_a(
        Method::GET,
        "/v1/jobs/{id}/audit",
        &format!("{job_path}/audit"),
        None,
        200,
    )
    .await;
    s.only_a(
        Method::GET,
        "/v1/jobs/{id}/report",
        &format!("{job_path}/report"),
        None,
        200,
    )
    .await;
    s.only_a(
        Method::GET,
        "/v1/jobs/{id}/report",
        &format!("{job_path}/report?format=json&audience=external"),
        None,
        200,
    )
    .await;
    let checks = json!([{"kind": "k_anonymity", "k": 2}]);
    s.only_a(
        Method::POST,
        "/v1/audits",
        "/v1/audits",
        Some(json!({"job_id": job, "checks": checks})),
        200,
    )
    .await;
    s.only_a(
        Method::POST,
        "/v1/audits",
        "/v1/audits",
        Some(json!({"dataset_id": ds, "checks": checks})),
        200,
    )
    .await;
    // Cancel: A's job has finished, so A gets 409; B's 404 changed nothing.
    s.only_a(
        Method::POST,
        "/v1/jobs/{id}/cancel",
        &format!("{job_path}/cancel"),
        None,
        409,
    )
    .await;
    let row = app
        .store
        .get_job("t1", job.parse().unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(row.status.as_str(), "succeeded");
    assert!(!row.cancel_requested);
    // Sweeps: A's sweep is A's only, in every operation and in the lists.
    let sweep_body = json!({"dataset_id": ds, "model": {"kind": "k_anonymity", "k": [1, 2]}});
    s.only_a(
        Method::POST,
        "/v1/sweeps",
        "/v1/sweeps",
        Some(sweep_body),
        202,
    )
    .await;
    let a_sweeps = s.listed(&s.a.clone(), "/v1/sweeps", "/v1/sweeps").await;
    assert_eq!(a_sweeps.len(), 1);
    assert!(s
        .listed(&s.b.clone(), "/v1/sweeps", "/v1/sweeps")
        .await
        .is_empty());
    let sweep_path = format!("/v1/sweeps/{}", a_sweeps[0]);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let res = s.call(&s.a, Method::GET, &sweep_path, None).await;
        let sweep: Value = res.json().await.unwrap();
        if !matches!(sweep["status"].as_str(), Some("queued" | "running")) {
            assert_eq!(sweep["status"], "succeeded", "{sweep}");
            break;
        }
        assert!(std::time::Instant::now() < deadline, "{sweep}");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    s.only_a(Method::GET, "/v1/sweeps/{id}", &sweep_path, None, 200)
        .await;
    s.only_a(
        Method::GET,
        "/v1/sweeps/{id}/report",
        &format!("{sweep_path}/report"),
        None,
        200,
    )
    .await;
    // Finished: A's cancel is a 409; B's 404 changed nothing.
    s.only_a(
        Method::POST,
        "/v1/sweeps/{id}/cancel",
        &format!("{sweep_path}/cancel"),
        None,
        409,
    )
    .await;
    // And the other way round: A cannot reach B's dataset.
    let res = s
        .call(&s.a, Method::GET, &format!("/v1/datasets/{b_ds}"), None)
        .await;
    expect_problem(res, 404, "not_found").await;
    // Approvals: B neither signs nor reads A's. A (which submitted the
    // job) may reject it under four eyes.
    s.only_a(
        Method::POST,
        "/v1/jobs/{id}/approvals",
        &format!("{job_path}/approvals"),
        Some(json!({"decision": "reject", "name": "A", "role": "officer"})),
        201,
    )
    .await;
    // The tenant-wide resources: each tenant has its own.
    for (method, path) in [
        ("GET", "/v1/settings/release-policy"),
        ("PUT", "/v1/settings/release-policy"),
        ("POST", "/v1/keys"),
    ] {
        s.covered.insert((method.into(), path.into()));
    }
    let res = s
        .call(
            &s.b,
            Method::PUT,
            "/v1/settings/release-policy",
            Some(&json!({"four_eyes": false})),
        )
        .await;
    assert_eq!(res.status(), 200);
    let a_policy: Value = s
        .call(&s.a, Method::GET, "/v1/settings/release-policy", None)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(a_policy["source"], "default", "{a_policy}");
    let made: Value = s
        .call(
            &s.b,
            Method::POST,
            "/v1/keys",
            Some(&json!({"role": "reviewer"})),
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(made["tenant"], "t2", "{made}");
    // Delete last: B's delete is a 404 and leaves A's dataset; A's works.
    s.only_a(
        Method::DELETE,
        "/v1/datasets/{id}",
        &dataset_path,
        None,
        204,
    )
    .await;

    // A's approvals outlive the dataset, still A's only.
    s.only_a(
        Method::GET,
        "/v1/jobs/{id}/approvals",
        &format!("{job_path}/approvals"),
        None,
        200,
    )
    .await;

    let documented = documented_v1(&committed());
    let missing: Vec<_> = documented.difference(&s.covered).collect();
    assert!(
        missing.is_empty(),
        "operations the isolation sweep does not walk: {missing:?}"
    );
    assert_eq!(
        s.covered, documented,
        "the sweep walks only documented operations"
    );
}
