//! Risk–utility sweeps (docs/api.md §Sweeps): a grid of ordinary jobs in one
//! request — validation per point, infeasible points recorded, idempotency,
//! cancel, dataset deletion, a failed point that does not fail the sweep,
//! and on creditcard, points whose releases equal single jobs'.

use std::sync::Arc;
use std::time::Duration;

use proxima::store::results::NewResult;
use proxima::sweep::frontier::{frontier, Figures, Safer};
use proxima::worker::core_runner::CoreRunner;
use proxima::worker::{JobError, JobInput, JobOutput, JobRunner};
use reqwest::multipart::{Form, Part};
use serde_json::{json, Value};
use uuid::Uuid;

use crate::support::*;

/// A runner from a closure.
struct FnRunner<F>(F);

impl<F> JobRunner for FnRunner<F>
where
    F: Fn(JobInput, &(dyn Fn(f64) -> bool + Sync)) -> Result<JobOutput, JobError>
        + Send
        + Sync
        + 'static,
{
    fn run(
        &self,
        input: JobInput,
        progress: &(dyn Fn(f64) -> bool + Sync),
    ) -> Result<JobOutput, JobError> {
        (self.0)(input, progress)
    }
}

/// A release of the 3-row people table in one group, with a summary whose
/// figures come from k: risk 1/k, loss 1/k (so every point is on the front),
/// and verdict facts that make k = 1 not publishable (prosecutor risk 1),
/// k = 2 publishable and any other k publishable with conditions (a
/// median query error of 90 %), under the default policy.
fn fake_output(input: &JobInput) -> JobOutput {
    let proxima::api::ModelDto::KAnonymity { k } = &input.params.model else {
        panic!("the fake runner serves k-anonymity sweeps");
    };
    let k = k.as_f64().unwrap();
    JobOutput {
        summary: serde_json::from_value(
            json!({"rows": 3, "published_rows": 3, "suppressed_rows": 0, "groups": 1,
            "min_group_size": 3, "information_loss": 1.0 / k, "elapsed_ms": 1,
            "suppressed_by_model": 0,
            "attacker_view": {"victims": 3, "over_bound": 0, "worst": 1.0 / k,
                              "candidate_groups": {"median": 1, "max": 1}},
            "query_error": 0.5, "query_error_median": 0.25}),
        )
        .unwrap(),
        result: NewResult {
            group_of_rows: vec![0; 3],
            audit: json!({"passed": true}),
            verdict_facts: Some(json!({
                "failed": null, "model": ["k_anonymity", true],
                "prosecutor_max": if k == 1.0 { 1.0 } else { 0.05 },
                "population_uniques_share": null, "warnings": [],
                "suppressed_share": 0.0,
                "median_query_error": [2, if k <= 2.0 { 0.25 } else { 0.9 }]})),
        },
    }
}

async fn app_with(runner: Option<Arc<dyn JobRunner>>) -> TestApp {
    TestApp::with(Options {
        max_body: 64 << 20,
        runner,
        ..Options::default()
    })
    .await
}

async fn post_sweep(app: &TestApp, body: &Value) -> reqwest::Response {
    app.post_json("/v1/sweeps", body).await
}

async fn sweep_of(app: &TestApp, id: &str) -> Value {
    let res = app.get(&format!("/v1/sweeps/{id}")).await;
    assert_eq!(res.status(), 200);
    res.json().await.unwrap()
}

/// Polls the sweep until no point is queued or running (120 s at most).
async fn wait_sweep(app: &TestApp, id: &str) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(120);
    loop {
        let s = sweep_of(app, id).await;
        if !matches!(s["status"].as_str(), Some("queued" | "running")) {
            return s;
        }
        assert!(tokio::time::Instant::now() < deadline, "sweep stuck: {s}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn count(app: &TestApp, sql: &'static str) -> i64 {
    sqlx::query_scalar(sql)
        .fetch_one(&app.store.pool)
        .await
        .unwrap()
}

async fn nothing_stored(app: &TestApp) {
    assert_eq!(count(app, "SELECT count(*) FROM sweeps").await, 0);
    assert_eq!(count(app, "SELECT count(*) FROM jobs").await, 0);
}

fn k_sweep(dataset: Uuid, ks: Value) -> Value {
    json!({"dataset_id": dataset, "model": {"kind": "k_anonymity", "k": ks}})
}

#[tokio::test]
async fn a_bad_value_names_its_point_and_nothing_is_stored() {
    let app = app_with(None).await;
    let d = app.dataset("t1").await;

    let many: Vec<u64> = (1..=65).collect();
    let p = expect_problem(
        post_sweep(&app, &k_sweep(d.id, json!(many))).await,
        422,
        "too_many_points",
    )
    .await;
    assert_eq!(p["details"]["points"], 65, "{p}");
    assert_eq!(p["details"]["max_points"], 64, "{p}");

    let p = expect_problem(
        post_sweep(&app, &k_sweep(d.id, json!([2, 0, 3]))).await,
        422,
        "invalid_parameters",
    )
    .await;
    assert_eq!(p["errors"][0]["pointer"], "/model/k/1", "{p}");
    assert_eq!(p["details"]["point"], 1, "{p}");
    assert_eq!(p["details"]["params"], json!({"k": 0}), "{p}");
    assert!(
        p["detail"].as_str().unwrap().contains("point 1 (k=0)"),
        "{p}"
    );

    let p = expect_problem(
        post_sweep(&app, &k_sweep(d.id, json!([2, "3"]))).await,
        422,
        "invalid_parameters",
    )
    .await;
    assert_eq!(p["errors"][0]["pointer"], "/model/k/1", "{p}");

    // A list on a parameter that takes one value.
    let body = json!({"dataset_id": d.id, "model": {"kind": "epsilon_m", "epsilon": 10,
        "m": 2, "neighborhood": ["absolute", "relative"]}});
    let p = expect_problem(post_sweep(&app, &body).await, 422, "invalid_parameters").await;
    assert_eq!(p["errors"][0]["pointer"], "/model/neighborhood", "{p}");

    // The job parser's own errors, with the sweep's pointers.
    let body = json!({"dataset_id": d.id, "model": {"kind": "k_anonymity", "k": [2, 3]},
        "algoritm": "mondrian"});
    let p = expect_problem(post_sweep(&app, &body).await, 422, "invalid_parameters").await;
    assert_eq!(p["errors"][0]["pointer"], "/algoritm", "{p}");
    let body = json!({"dataset_id": d.id, "model": {"kind": "k_anonymity", "k": 2},
        "suppression_limit": [0, 1.5]});
    let p = expect_problem(post_sweep(&app, &body).await, 422, "invalid_parameters").await;
    assert_eq!(p["errors"][0]["pointer"], "/suppression_limit/1", "{p}");

    // Every point infeasible (k above the table's 3 rows): one 422.
    let p = expect_problem(
        post_sweep(&app, &k_sweep(d.id, json!([5, 10]))).await,
        422,
        "infeasible_parameters",
    )
    .await;
    assert_eq!(p["details"]["points"].as_array().unwrap().len(), 2, "{p}");

    let res = post_sweep(&app, &k_sweep(Uuid::new_v4(), json!([2, 3]))).await;
    expect_problem(res, 404, "not_found").await;
    nothing_stored(&app).await;
}

#[tokio::test]
async fn infeasible_points_are_recorded_and_the_rest_queued_in_one_go() {
    let app = app_with(None).await;
    let d = app.dataset("t1").await;
    let res = post_sweep(&app, &k_sweep(d.id, json!([2, 5, 3]))).await;
    assert_eq!(res.status(), 202);
    let loc = res.headers()["location"].to_str().unwrap().to_string();
    let s: Value = res.json().await.unwrap();
    let id = s["id"].as_str().unwrap();
    assert_eq!(loc, format!("/v1/sweeps/{id}"));
    assert_eq!(s["status"], "queued", "{s}");
    let points = s["points"].as_array().unwrap();
    assert_eq!(points.len(), 3);
    assert_eq!(points[1]["status"], "infeasible", "{s}");
    assert_eq!(points[1]["job_id"], Value::Null);
    assert_eq!(points[1]["error"]["code"], "infeasible_parameters");
    assert_eq!(points[1]["params"], json!({"k": 5}));
    // Progress counts the settled infeasible point.
    assert!(
        (s["progress"].as_f64().unwrap() - 1.0 / 3.0).abs() < 1e-9,
        "{s}"
    );
    for i in [0, 2] {
        assert_eq!(points[i]["status"], "queued");
        let job = app
            .get(&format!(
                "/v1/jobs/{}",
                points[i]["job_id"].as_str().unwrap()
            ))
            .await
            .json::<Value>()
            .await
            .unwrap();
        assert_eq!(job["sweep_id"], s["id"], "{job}");
        assert_eq!(job["model"]["k"], points[i]["params"]["k"]);
        assert_eq!(
            points[i]["report"],
            format!("/v1/jobs/{}/report", job["id"].as_str().unwrap())
        );
    }
    assert_eq!(count(&app, "SELECT count(*) FROM jobs").await, 2);
    assert_eq!(s["axes"], json!([{"name": "k", "values": [2.0, 5.0, 3.0]}]));
    assert_eq!(s["risk"]["name"], "min_candidates");
    assert_eq!(s["risk"]["safer"], "higher");

    // Lists: the sweep, and by dataset.
    let list: Value = app.get("/v1/sweeps").await.json().await.unwrap();
    assert_eq!(list["items"][0]["id"], s["id"]);
    assert_eq!(list["next_cursor"], Value::Null);
    let other: Value = app
        .get(&format!("/v1/sweeps?dataset_id={}", Uuid::new_v4()))
        .await
        .json()
        .await
        .unwrap();
    assert!(other["items"].as_array().unwrap().is_empty());
}

#[tokio::test]
async fn idempotency_key_replays_or_conflicts() {
    let app = app_with(None).await;
    let d = app.dataset("t1").await;
    let body = k_sweep(d.id, json!([2, 3]));
    let post = |body: Value| {
        app.client
            .post(app.url("/v1/sweeps"))
            .bearer_auth(&app.key)
            .header("Idempotency-Key", "sweep-1")
            .json(&body)
            .send()
    };
    let first = post(body.clone()).await.unwrap();
    assert_eq!(first.status(), 202);
    let first: Value = first.json().await.unwrap();
    let again = post(body.clone()).await.unwrap();
    assert_eq!(again.status(), 200);
    let again: Value = again.json().await.unwrap();
    assert_eq!(again["id"], first["id"]);
    assert_eq!(again["points"], first["points"]);
    let other = post(k_sweep(d.id, json!([2, 3, 4]))).await.unwrap();
    expect_problem(other, 409, "idempotency_conflict").await;
    assert_eq!(count(&app, "SELECT count(*) FROM sweeps").await, 1);
    assert_eq!(count(&app, "SELECT count(*) FROM jobs").await, 2);
}

#[tokio::test]
async fn cancel_stops_queued_and_running_points() {
    // Two workers: points 0 and 1 run until told to stop; point 2 waits.
    let runner: Arc<dyn JobRunner> = Arc::new(FnRunner(
        |_: JobInput, progress: &(dyn Fn(f64) -> bool + Sync)| {
            let deadline = std::time::Instant::now() + Duration::from_secs(30);
            while progress(0.5) && std::time::Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(JobError::Cancelled)
        },
    ));
    let app = app_with(Some(runner)).await;
    let d = app.dataset("t1").await;
    let s: Value = post_sweep(&app, &k_sweep(d.id, json!([1, 2, 3])))
        .await
        .json()
        .await
        .unwrap();
    let id = s["id"].as_str().unwrap();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while count(&app, "SELECT count(*) FROM jobs WHERE status = 'running'").await < 2 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "points never started"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Retention leaves a sweep alone while a point runs.
    let purged = app.store.purge_expired(Duration::ZERO).await.unwrap();
    assert_eq!(purged.jobs, 0);
    assert_eq!(count(&app, "SELECT count(*) FROM jobs").await, 3);
    let res = app
        .client
        .post(app.url(&format!("/v1/sweeps/{id}/cancel")))
        .bearer_auth(&app.key)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let s: Value = res.json().await.unwrap();
    // The queued point is cancelled at once; the running ones stop at their
    // next checkpoint, which on a busy machine may come before this answer.
    let cancelled = s["counts"]["cancelled"].as_u64().unwrap();
    assert!(
        (1..=3).contains(&cancelled),
        "the queued point at once: {s}"
    );
    assert_eq!(s["counts"]["queued"], 0, "{s}");
    let done = wait_sweep(&app, id).await;
    assert_eq!(done["status"], "cancelled", "{done}");
    assert_eq!(done["counts"]["cancelled"], 3, "{done}");
    assert_eq!(done["progress"], 1.0);
    assert!(done["frontier"].as_array().unwrap().is_empty());
    let res = app
        .client
        .post(app.url(&format!("/v1/sweeps/{id}/cancel")))
        .bearer_auth(&app.key)
        .send()
        .await
        .unwrap();
    expect_problem(res, 409, "sweep_finished").await;
}

#[tokio::test]
async fn a_failed_point_does_not_fail_the_sweep() {
    let runner: Arc<dyn JobRunner> = Arc::new(FnRunner(
        |input: JobInput, _: &(dyn Fn(f64) -> bool + Sync)| {
            if k_of(&input) == Some(2) {
                return Err(JobError::Fatal {
                    code: "model_not_satisfied".into(),
                    message: "no release".into(),
                    details: Value::Null,
                });
            }
            Ok(fake_output(&input))
        },
    ));
    let app = app_with(Some(runner)).await;
    let d = app.dataset("t1").await;
    let s: Value = post_sweep(&app, &k_sweep(d.id, json!([1, 2, 3])))
        .await
        .json()
        .await
        .unwrap();
    let done = wait_sweep(&app, s["id"].as_str().unwrap()).await;
    assert_eq!(done["status"], "succeeded", "{done}");
    assert_eq!(done["progress"], 1.0);
    assert!(done["finished_at"].is_string(), "{done}");
    let p = &done["points"];
    assert_eq!(p[1]["status"], "failed");
    assert_eq!(p[1]["error"]["code"], "model_not_satisfied");
    assert_eq!(p[1]["summary"], Value::Null);
    // The failed point's verdict is its failure; the others are judged on
    // their facts.
    assert_eq!(p[1]["verdict"]["decision"], "not_publishable", "{done}");
    assert_eq!(p[1]["verdict"]["reasons"][0]["kind"], "job_failed");
    assert_eq!(p[1]["verdict"]["reasons"][0]["anchor"], "#failure");
    assert_eq!(p[0]["verdict"]["decision"], "not_publishable");
    assert_eq!(p[0]["verdict"]["reasons"][0]["kind"], "prosecutor_risk");
    assert_eq!(p[2]["verdict"]["decision"], "publishable_with_conditions");
    assert_eq!(p[2]["verdict"]["reasons"][0]["kind"], "query_error");
    assert_eq!(p[0]["summary"]["risk"], 1.0);
    assert_eq!(p[2]["summary"]["information_loss"], 1.0 / 3.0);
    assert_eq!(p[2]["summary"]["query_error"], 0.5);
    assert_eq!(p[2]["summary"]["query_error_median"], 0.25);
    // k's figure is a size: higher is safer, so k = 3 (risk 1/3 read as a
    // smaller candidate set) trades against k = 1. Both are on the front;
    // the failed point is on neither.
    let mut front: Vec<u64> = done["frontier"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    front.sort();
    assert_eq!(front, [0, 2], "{done}");

    // Retention takes a finished sweep whole, its jobs with it.
    let purged = app.store.purge_expired(Duration::ZERO).await.unwrap();
    assert_eq!(purged.jobs, 3);
    nothing_stored(&app).await;
}

#[tokio::test]
async fn deleting_the_dataset_removes_its_sweeps() {
    let app = app_with(None).await;
    let d = app.dataset("t1").await;
    let s: Value = post_sweep(&app, &k_sweep(d.id, json!([2, 3])))
        .await
        .json()
        .await
        .unwrap();
    let id = s["id"].as_str().unwrap();
    let res = app
        .client
        .delete(app.url(&format!("/v1/datasets/{}", d.id)))
        .bearer_auth(&app.key)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 204);
    expect_problem(app.get(&format!("/v1/sweeps/{id}")).await, 404, "not_found").await;
    expect_problem(
        app.get(&format!("/v1/sweeps/{id}/report")).await,
        404,
        "not_found",
    )
    .await;
    nothing_stored(&app).await;
}

/// The figures a fake runner reports for one point (`None` in a plan: the
/// point's job fails).
#[derive(Debug, Clone, Copy)]
struct Chosen {
    /// `attacker_view.worst` (`None`: the summary has no finite figure).
    risk: Option<f64>,
    /// GCP.
    loss: f64,
    query_error: Option<f64>,
}

const fn chosen(risk: f64, loss: f64, query_error: f64) -> Option<Chosen> {
    Some(Chosen {
        risk: Some(risk),
        loss,
        query_error: Some(query_error),
    })
}

/// Point i's job summary: the chosen figures, and groups and suppressed
/// counts that differ from point to point, so the test can tell that each
/// point shows its own job's.
fn chosen_summary(i: usize, c: Chosen) -> Value {
    let suppressed_rows = (i % 2) as u64;
    let suppressed_by_model = ((i / 2) % 2) as u64;
    json!({"rows": 3, "published_rows": 3 - suppressed_rows - suppressed_by_model,
           "suppressed_rows": suppressed_rows, "suppressed_by_model": suppressed_by_model,
           "groups": i as u64 + 1, "min_group_size": 1, "information_loss": c.loss,
           "elapsed_ms": 100 + i as u64,
           "attacker_view": {"victims": 3, "over_bound": 0, "worst": c.risk,
                             "candidate_groups": {"median": 1, "max": 1}},
           "query_error": c.query_error,
           // A median that differs from the mean, so each is seen in its place.
           "query_error_median": c.query_error.map(|m| m / 2.0)})
}

/// A runner that answers point `point_of(input)` with `plan`'s figures, or
/// fails it (`model_not_satisfied`) where the plan says `None`.
fn plan_runner(
    point_of: fn(&JobInput) -> usize,
    plan: &'static [Option<Chosen>],
) -> Arc<dyn JobRunner> {
    Arc::new(FnRunner(
        move |input: JobInput, _: &(dyn Fn(f64) -> bool + Sync)| {
            let i = point_of(&input);
            let Some(c) = plan[i] else {
                return Err(JobError::Fatal {
                    code: "model_not_satisfied".into(),
                    message: format!("point {i} fails by design"),
                    details: Value::Null,
                });
            };
            Ok(JobOutput {
                summary: serde_json::from_value(chosen_summary(i, c)).unwrap(),
                result: NewResult {
                    group_of_rows: vec![0; 3],
                    audit: json!({"passed": true}),
                    verdict_facts: None,
                },
            })
        },
    ))
}

fn indexes(v: &Value) -> Vec<usize> {
    v.as_array()
        .unwrap_or_else(|| panic!("not a list: {v}"))
        .iter()
        .map(|i| i.as_u64().unwrap() as usize)
        .collect()
}

/// The `points` attribute of every `<polyline class="frontier">`, as pixel
/// pairs.
fn frontier_polylines(html: &str) -> Vec<Vec<(f64, f64)>> {
    html.split("<polyline class=\"frontier\" points=\"")
        .skip(1)
        .map(|rest| {
            rest[..rest.find('"').unwrap()]
                .split_whitespace()
                .map(|xy| {
                    let (x, y) = xy.split_once(',').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                })
                .collect()
        })
        .collect()
}

/// Checks a finished sweep run on `plan` end to end: every point's status
/// and figures are its job's; `frontier` and `query_error_frontier` are
/// the hand-derived `front` and `query_front`; the JSON report's maps carry
/// the same fronts and one mark per point with both figures; the HTML
/// report draws each front as one polyline through exactly its points,
/// fills exactly their marks, and says "yes" in the table for exactly the
/// front's rows.
async fn assert_fronts(
    app: &TestApp,
    done: &Value,
    plan: &[Option<Chosen>],
    safer: &str,
    front: &[usize],
    query_front: &[usize],
) {
    let id = done["id"].as_str().unwrap();
    assert_eq!(done["status"], "succeeded", "{done}");
    assert_eq!(done["risk"]["safer"], safer, "{done}");
    let failed = plan.iter().filter(|c| c.is_none()).count();
    assert_eq!(done["counts"]["failed"], failed, "{done}");
    assert_eq!(done["counts"]["succeeded"], plan.len() - failed, "{done}");
    let points = done["points"].as_array().unwrap();
    assert_eq!(points.len(), plan.len(), "{done}");
    for (i, (p, c)) in points.iter().zip(plan).enumerate() {
        assert_eq!(p["index"], i, "{p}");
        match c {
            None => {
                assert_eq!(p["status"], "failed", "{p}");
                assert_eq!(p["error"]["code"], "model_not_satisfied", "{p}");
                assert_eq!(p["summary"], Value::Null, "{p}");
            }
            Some(c) => {
                assert_eq!(p["status"], "succeeded", "{p}");
                let want = chosen_summary(i, *c);
                let s = &p["summary"];
                assert_eq!(s["risk"], json!(c.risk), "point {i}: {p}");
                assert_eq!(s["information_loss"], json!(c.loss), "point {i}: {p}");
                assert_eq!(s["query_error"], json!(c.query_error), "point {i}: {p}");
                assert_eq!(
                    s["query_error_median"],
                    json!(c.query_error.map(|m| m / 2.0)),
                    "point {i}: {p}"
                );
                for field in [
                    "groups",
                    "suppressed_rows",
                    "suppressed_by_model",
                    "elapsed_ms",
                ] {
                    assert_eq!(s[field], want[field], "point {i}, {field}: {p}");
                }
            }
        }
    }
    assert_eq!(indexes(&done["frontier"]), front, "frontier: {done}");
    assert_eq!(
        indexes(&done["query_error_frontier"]),
        query_front,
        "query_error_frontier: {done}"
    );

    // The JSON report: the same sweep, and maps whose marks are the points
    // with both figures and whose fronts are the sweep's.
    let res = app
        .get(&format!("/v1/sweeps/{id}/report?format=json"))
        .await;
    assert_eq!(res.status(), 200);
    let report: Value = res.json().await.unwrap();
    assert_eq!(&report["sweep"], done);
    let maps = report["maps"].as_array().unwrap();
    assert_eq!(maps.len(), 2, "{report}");
    type Utility = fn(&Chosen) -> Option<f64>;
    let utilities: [(Utility, &[usize]); 2] =
        [(|c| Some(c.loss), front), (|c| c.query_error, query_front)];
    let mut mark_counts = Vec::new();
    for (map, (utility, map_front)) in maps.iter().zip(utilities) {
        assert_eq!(indexes(&map["frontier"]), map_front, "{map}");
        let want: Vec<Value> = plan
            .iter()
            .enumerate()
            .filter_map(|(i, c)| {
                let c = c.as_ref()?;
                Some(json!({"point": i, "x": c.risk?, "y": utility(c)?,
                            "label": points[i]["label"],
                            "on_frontier": map_front.contains(&i),
                            // This runner stores no verdict facts.
                            "decision": null}))
            })
            .collect();
        assert_eq!(map["marks"], json!(want), "{map}");
        mark_counts.push(want.len());
    }

    // The HTML report: one polyline per map through exactly the front's
    // points, ordered by risk (x) and falling in loss the way the front
    // trades: lower risk costs more loss when lower is safer, less when
    // higher is.
    let html = app.get(&format!("/v1/sweeps/{id}/report")).await;
    assert_eq!(html.status(), 200);
    let html = html.text().await.unwrap();
    let lines = frontier_polylines(&html);
    assert_eq!(
        lines.iter().map(Vec::len).collect::<Vec<_>>(),
        [front.len(), query_front.len()],
        "{lines:?}"
    );
    for line in &lines {
        for w in line.windows(2) {
            assert!(w[0].0 <= w[1].0, "x not ascending: {line:?}");
            // SVG y grows downwards: more loss is a smaller y.
            if safer == "lower" {
                assert!(w[0].1 <= w[1].1, "loss not falling with risk: {line:?}");
            } else {
                assert!(w[0].1 >= w[1].1, "loss not rising with risk: {line:?}");
            }
        }
    }
    assert_eq!(
        html.matches("class=\"mark").count(),
        mark_counts.iter().sum::<usize>(),
        "marks"
    );
    assert_eq!(
        html.matches("class=\"mark highlighted\"").count(),
        front.len() + query_front.len(),
        "filled marks"
    );
    assert_eq!(
        html.matches("<span class=\"ok\">yes</span>").count(),
        front.len(),
        "table rows on the front"
    );
}

/// The t of a t-closeness job, as a point index of [`T_PLAN`]'s sweep
/// (t = 0.1 → 0, …, t = 1.0 → 9).
fn t_point(input: &JobInput) -> usize {
    let proxima::api::ModelDto::TCloseness { t, .. } = &input.params.model else {
        panic!("this runner serves t-closeness sweeps");
    };
    (t.as_f64().unwrap() * 10.0).round() as usize - 1
}

/// Figures chosen per point of a t-closeness sweep (risk: the worst EMD,
/// lower is safer). Risk against information loss:
///
/// ```text
///  loss
///  0.90 | 0
///  0.70 |          2
///  0.60 |      1
///  0.35 |                  6
///  0.30 |                  3=4
///  0.10 |                               7    8
///       +----------------------------------------- risk (worst EMD)
///        0.1  0.2  0.25   0.4           0.7  0.8
/// ```
///
/// * 0, 1, 7: on the front (each trades risk for loss with its neighbours);
/// * 2: dominated by 1 (riskier and lossier);
/// * 3 and 4: a tie — identical figures do not dominate each other, so
///   both are on the front, 3 before 4 (equal risk and loss: by index);
/// * 6: as risky as 3 and 4 but lossier: dominated;
/// * 8: as lossy as 7 but riskier: dominated;
/// * 5: its job fails — not on the front (and not drawn);
/// * 9: succeeded, but without a finite risk figure (null): not a
///   candidate, although its loss (0.05) would beat every point.
///
/// So the front, safest first, is 0, 1, 3, 4, 7.
///
/// Against the query error (7 has none):
///
/// ```text
///  query error
///  0.50 | 0    1
///  0.30 |                  3
///  0.20 |          2
///  0.10 |                  4=6
///  0.05 |                                    8
///       +----------------------------------------- risk
/// ```
///
/// 1 is dominated by 0 (same error, riskier), 3 by 4 and 6 (same risk,
/// more error); 4 and 6 tie. The front: 0, 2, 4, 6, 8.
const T_PLAN: [Option<Chosen>; 10] = [
    chosen(0.10, 0.90, 0.50),
    chosen(0.20, 0.60, 0.50),
    chosen(0.25, 0.70, 0.20),
    chosen(0.40, 0.30, 0.30),
    chosen(0.40, 0.30, 0.10),
    None,
    chosen(0.40, 0.35, 0.10),
    Some(Chosen {
        risk: Some(0.70),
        loss: 0.10,
        query_error: None,
    }),
    chosen(0.80, 0.10, 0.05),
    Some(Chosen {
        risk: None,
        loss: 0.05,
        query_error: Some(0.01),
    }),
];

/// The frontier end to end on hand-chosen figures (lower is safer):
/// dominated points, a tie, a failed point and a point without a risk
/// figure; the sweep's fronts, the JSON report's maps and the HTML
/// report's lines agree with the list drawn by hand.
#[tokio::test]
async fn the_frontier_is_the_hand_drawn_one_end_to_end() {
    let app = app_with(Some(plan_runner(t_point, &T_PLAN))).await;
    let d = app.dataset("t1").await;
    let ts = json!([0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]);
    let res = post_sweep(
        &app,
        &json!({"dataset_id": d.id, "model": {"kind": "t_closeness", "t": ts}}),
    )
    .await;
    assert_eq!(res.status(), 202, "{}", res.text().await.unwrap());
    let s: Value = res.json().await.unwrap();
    let done = wait_sweep(&app, s["id"].as_str().unwrap()).await;
    assert_eq!(done["risk"]["name"], "max_emd", "{done}");
    assert_eq!(done["points"][9]["summary"]["risk"], Value::Null, "{done}");
    assert_fronts(
        &app,
        &done,
        &T_PLAN,
        "lower",
        &[0, 1, 3, 4, 7],
        &[0, 2, 4, 6, 8],
    )
    .await;
    // The tie is drawn as two marks on one spot, both on the line: its
    // third and fourth vertices coincide.
    let html = app
        .get(&format!(
            "/v1/sweeps/{}/report",
            done["id"].as_str().unwrap()
        ))
        .await
        .text()
        .await
        .unwrap();
    let line = &frontier_polylines(&html)[0];
    assert_eq!(line[2], line[3], "{line:?}");
    assert_ne!(line[1], line[2], "{line:?}");
}

/// The point index of a k × suppression_limit sweep over k in {1, 2, 3}
/// and limit in {0, 0.25} (the limit varies fastest).
fn k_limit_point(input: &JobInput) -> usize {
    let k = k_of(input).expect("a k-anonymity job") as usize;
    (k - 1) * 2 + usize::from(input.params.suppression_limit.get() > 0.0)
}

/// Figures chosen for a k-anonymity sweep, whose risk figure (the smallest
/// candidate set) is safer when higher:
///
/// ```text
///  loss
///  0.40 |                 4
///  0.30 |         2
///  0.20 |         3
///  0.10 | 1
///  0.05 | 0
///       +------------------- smallest candidate set (higher is safer)
///         1       2       3
/// ```
///
/// 4 is the safest; 3 is less safe but cheaper; 0 the cheapest. 2 is
/// dominated by 3 (as safe, lossier), 1 by 0 (as safe, lossier); 5 fails.
/// The front, safest first: 4, 3, 0. (Read as "lower is safer", 0 would
/// dominate every other point: the front would be just 0.) The query error
/// equals the loss, so its front is the same.
const K_PLAN: [Option<Chosen>; 6] = [
    chosen(1.0, 0.05, 0.05),
    chosen(1.0, 0.10, 0.10),
    chosen(2.0, 0.30, 0.30),
    chosen(2.0, 0.20, 0.20),
    chosen(3.0, 0.40, 0.40),
    None,
];

#[tokio::test]
async fn the_frontier_reads_higher_as_safer_for_k() {
    let app = app_with(Some(plan_runner(k_limit_point, &K_PLAN))).await;
    let d = app.dataset("t1").await;
    let res = post_sweep(
        &app,
        &json!({"dataset_id": d.id, "model": {"kind": "k_anonymity", "k": [1, 2, 3]},
                "suppression_limit": [0, 0.25]}),
    )
    .await;
    assert_eq!(res.status(), 202, "{}", res.text().await.unwrap());
    let s: Value = res.json().await.unwrap();
    let done = wait_sweep(&app, s["id"].as_str().unwrap()).await;
    assert_eq!(done["risk"]["name"], "min_candidates", "{done}");
    assert_eq!(
        done["points"][3]["params"],
        json!({"k": 2, "suppression_limit": 0.25})
    );
    assert_fronts(&app, &done, &K_PLAN, "higher", &[4, 3, 0], &[4, 3, 0]).await;
}

/// Uploads creditcard with its example schema.
async fn upload_creditcard(app: &TestApp, shared: &std::path::Path) -> Value {
    let schema = std::fs::read(shared.join("examples/creditcard.schema.json")).unwrap();
    let data = std::fs::read(shared.join("data/creditcard/creditcard.csv")).unwrap();
    let form = Form::new()
        .part(
            "schema",
            Part::bytes(schema).mime_str("application/json").unwrap(),
        )
        .part("data", Part::bytes(data));
    let res = app
        .client
        .post(app.url("/v1/datasets"))
        .bearer_auth(&app.key)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    res.json().await.unwrap()
}

async fn release_csv(app: &TestApp, job: &str) -> String {
    let res = app.get(&format!("/v1/jobs/{job}/result")).await;
    assert_eq!(res.status(), 200);
    res.text().await.unwrap()
}

/// A sweep over m on creditcard: one job per feasible point, each release
/// equal to a single job's with the same parameters; the infeasible point
/// recorded; figures (suppressed rows included) from the job summaries; the
/// front as defined. A 3 % suppression limit lets m = 6 succeed by leaving
/// rows out (767 of 30,000), so the suppressed counts are not all zero.
#[tokio::test]
async fn creditcard_sweep_over_m_matches_single_jobs() {
    let Some(shared) = shared_dir() else { return };
    let app = app_with(Some(Arc::new(CoreRunner))).await;
    let ds = upload_creditcard(&app, &shared).await;
    let body = json!({"dataset_id": ds["id"],
        "model": {"kind": "epsilon_m", "epsilon": 1000, "m": [2, 3, 4, 6, 100000]},
        "suppression_limit": 0.03});
    let res = post_sweep(&app, &body).await;
    assert_eq!(res.status(), 202, "{}", res.text().await.unwrap());
    let s: Value = res.json().await.unwrap();
    let id = s["id"].as_str().unwrap().to_string();
    assert_eq!(s["points"][4]["status"], "infeasible", "{s}");
    let done = wait_sweep(&app, &id).await;
    assert_eq!(done["status"], "succeeded", "{done}");
    let jobs: i64 = sqlx::query_scalar("SELECT count(*) FROM jobs WHERE sweep_id = $1")
        .bind(id.parse::<Uuid>().unwrap())
        .fetch_one(&app.store.pool)
        .await
        .unwrap();
    assert_eq!(jobs, 4);
    let points = done["points"].as_array().unwrap();
    let mut figures = Vec::new();
    for (i, m) in [2, 3, 4, 6].into_iter().enumerate() {
        let p = &points[i];
        assert_eq!(p["params"], json!({"m": m}));
        assert_eq!(p["status"], "succeeded", "{p}");
        let job_id = p["job_id"].as_str().unwrap();
        let job: Value = app
            .get(&format!("/v1/jobs/{job_id}"))
            .await
            .json()
            .await
            .unwrap();
        // The point's figures are its job summary's.
        let summary = &job["summary"];
        assert_eq!(p["summary"]["risk"], summary["attacker_view"]["worst"]);
        assert_eq!(
            p["summary"]["information_loss"],
            summary["information_loss"]
        );
        assert_eq!(p["summary"]["groups"], summary["groups"]);
        assert_eq!(p["summary"]["elapsed_ms"], summary["elapsed_ms"]);
        let qe = p["summary"]["query_error"].as_f64().unwrap();
        assert!(qe.is_finite() && qe >= 0.0, "{p}");
        assert_eq!(summary["query_error"], p["summary"]["query_error"]);
        let median = p["summary"]["query_error_median"].as_f64().unwrap();
        assert!(median.is_finite() && median >= 0.0, "{p}");
        assert_eq!(
            summary["query_error_median"],
            p["summary"]["query_error_median"]
        );
        figures.push(Some(Figures {
            risk: p["summary"]["risk"].as_f64().unwrap(),
            loss: p["summary"]["information_loss"].as_f64().unwrap(),
        }));

        // The same parameters as a single job: the same release.
        let single = app
            .post_json(
                "/v1/jobs",
                &json!({"dataset_id": ds["id"],
                        "model": {"kind": "epsilon_m", "epsilon": 1000, "m": m},
                        "suppression_limit": 0.03}),
            )
            .await;
        assert_eq!(single.status(), 202);
        let single: Value = single.json().await.unwrap();
        let single_id = single["id"].as_str().unwrap();
        let ended = app
            .wait_job(single_id, |s| !matches!(s, "queued" | "running"))
            .await;
        assert_eq!(ended["status"], "succeeded", "{ended}");
        assert_eq!(
            release_csv(&app, job_id).await,
            release_csv(&app, single_id).await,
            "point {i} (m={m})"
        );
        // Its figures, suppressed rows included, are the single job's too.
        let single_job: Value = app
            .get(&format!("/v1/jobs/{single_id}"))
            .await
            .json()
            .await
            .unwrap();
        let single_summary = &single_job["summary"];
        for field in ["suppressed_rows", "suppressed_by_model"] {
            assert!(summary[field].is_u64(), "point {i}, {field}: {summary}");
            assert_eq!(p["summary"][field], summary[field], "point {i}, {field}");
            assert_eq!(
                p["summary"][field], single_summary[field],
                "point {i} (m={m}), {field}: {single_summary}"
            );
        }
        for field in ["groups", "information_loss"] {
            assert_eq!(
                p["summary"][field], single_summary[field],
                "point {i} (m={m}), {field}: {single_summary}"
            );
        }
        assert_eq!(
            p["summary"]["risk"], single_summary["attacker_view"]["worst"],
            "point {i} (m={m}): {single_summary}"
        );
        assert!(single.get("sweep_id").is_none(), "{single}");
    }
    // The limit was used: m = 6 left rows out, and the point says so.
    assert!(
        points[3]["summary"]["suppressed_by_model"]
            .as_u64()
            .unwrap()
            > 0,
        "{}",
        points[3]
    );
    figures.push(None);
    let front: Vec<usize> = done["frontier"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as usize)
        .collect();
    assert_eq!(front, frontier(&figures, Safer::Lower), "{done}");
    assert!(!front.is_empty());

    // The report as JSON: the sweep and two maps of one mark per finished point.
    let res = app
        .client
        .get(app.url(&format!("/v1/sweeps/{id}/report")))
        .bearer_auth(&app.key)
        .header("accept", "application/json")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let report: Value = res.json().await.unwrap();
    assert_eq!(report["sweep"]["id"], done["id"]);
    assert_eq!(report["maps"].as_array().unwrap().len(), 2);
    assert_eq!(report["maps"][0]["marks"].as_array().unwrap().len(), 4);
    assert_eq!(report["maps"][0]["frontier"], done["frontier"]);
    // The front by parameters: each index's point label, in the same order.
    let labels: Vec<Value> = done["frontier"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| points[i.as_u64().unwrap() as usize]["label"].clone())
        .collect();
    assert!(!labels.is_empty());
    assert_eq!(report["maps"][0]["frontier_labels"], json!(labels));
    let html = app.get(&format!("/v1/sweeps/{id}/report")).await;
    assert_eq!(html.status(), 200);
    assert!(html.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    let html = html.text().await.unwrap();
    assert_eq!(html.matches("class=\"mark").count(), 8, "4 marks on 2 maps");
    assert!(html.contains("class=\"frontier\""));
    for p in &points[..4] {
        assert!(html.contains(&format!(
            "/v1/jobs/{}/report",
            p["job_id"].as_str().unwrap()
        )));
    }
}

/// The HTML report in headless Chromium: one mark per finished point on
/// each map, the front's line, a link per point to its job report, no
/// console errors and nothing loaded from elsewhere.
#[tokio::test]
async fn the_report_renders_in_chromium() {
    let runner: Arc<dyn JobRunner> = Arc::new(FnRunner(
        |input: JobInput, _: &(dyn Fn(f64) -> bool + Sync)| Ok(fake_output(&input)),
    ));
    let app = app_with(Some(runner)).await;
    let d = app.dataset("t1").await;
    // k = 5 is infeasible on 3 rows: recorded, listed, not drawn.
    let s: Value = post_sweep(&app, &k_sweep(d.id, json!([1, 2, 3, 5])))
        .await
        .json()
        .await
        .unwrap();
    let id = s["id"].as_str().unwrap();
    let done = wait_sweep(&app, id).await;
    assert_eq!(done["counts"]["succeeded"], 3, "{done}");
    let js = "({marks: Array.from(document.querySelectorAll('svg')).map(s => s.querySelectorAll('.mark').length), \
               fronts: document.querySelectorAll('svg polyline.frontier').length, \
               links: Array.from(document.querySelectorAll('a')).map(a => a.getAttribute('href')) \
                        .filter(h => h.endsWith('/report')), \
               front: document.getElementById('front').innerText, \
               verdicts: Array.from(document.querySelectorAll('tbody tr')) \
                        .map(r => r.cells[3].innerText), \
               labels: Array.from(document.querySelectorAll('svg .point-label')) \
                        .map(t => t.textContent), \
               rows: document.querySelectorAll('tbody tr').length})";
    let Some(page) =
        crate::browser::render(&app.url(&format!("/v1/sweeps/{id}/report")), &app.key, js).await
    else {
        return;
    };
    assert_eq!(page.status, 200);
    assert!(page.console_errors.is_empty(), "{:?}", page.console_errors);
    assert!(
        page.external_requests.is_empty(),
        "{:?}",
        page.external_requests
    );
    assert_eq!(page.eval["marks"], json!([3, 3]), "{}", page.eval);
    assert_eq!(page.eval["fronts"], 2, "{}", page.eval);
    // Absolute links: a saved copy of the page still reaches the reports.
    let links = page.eval["links"].as_array().unwrap();
    assert_eq!(links.len(), 3, "{}", page.eval);
    for l in links {
        let l = l.as_str().unwrap();
        assert!(l.starts_with(&app.url("/v1/jobs/")), "{l} is not absolute");
    }
    // The front by parameters, not by indexes.
    let front = page.eval["front"].as_str().unwrap();
    assert!(front.contains("k=3"), "{front}");
    assert_eq!(page.eval["rows"], 4, "{}", page.eval);
    // Each point's decision in words in the table (the reasons after it,
    // linked), and beside its mark on both maps.
    let verdicts: Vec<String> = serde_json::from_value(page.eval["verdicts"].clone()).unwrap();
    assert!(
        verdicts[0].starts_with("not publishable: prosecutor risk"),
        "{verdicts:?}"
    );
    assert_eq!(verdicts[1], "publishable", "{verdicts:?}");
    assert!(
        verdicts[2].starts_with("publishable with conditions: query error"),
        "{verdicts:?}"
    );
    assert_eq!(
        verdicts[3], "—",
        "the infeasible point has no verdict: {verdicts:?}"
    );
    let labels: Vec<String> = serde_json::from_value(page.eval["labels"].clone()).unwrap();
    for label in [
        "k=1: not publishable",
        "k=2: publishable",
        "k=3: publishable with conditions",
    ] {
        assert_eq!(
            labels.iter().filter(|l| *l == label).count(),
            2,
            "{label:?} on both maps: {labels:?}"
        );
    }
    assert!(page.clipped_labels.is_empty(), "{:?}", page.clipped_labels);
    assert!(
        page.too_wide_for_a4.is_empty(),
        "{:?}",
        page.too_wide_for_a4
    );
    assert!(page.pdf.starts_with(b"%PDF"));
    if std::env::var_os("PROXIMA_UPDATE_SCREENSHOTS").is_some() {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/report-screenshots");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("sweep.png"), &page.screenshot_png).unwrap();
    }
}
