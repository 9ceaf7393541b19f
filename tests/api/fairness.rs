//! Jobs between tenants (fair sharing): a maximum run time per job,
//! a per-tenant quota of queued and running jobs, a per-tenant cap on
//! running jobs, and a claim order that does not starve a tenant with one
//! small job behind another tenant's backlog.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use proxima::store::jobs::{Created, NewJob};
use proxima::store::results::NewResult;
use proxima::store::Store;
use proxima::worker::{self, JobError, JobInput, JobOutput, JobRunner};
use serde_json::json;
use uuid::Uuid;

use crate::support::*;

/// Runs `f` for every job.
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

fn output(rows: usize) -> JobOutput {
    JobOutput {
        summary: fake_summary(rows, 0),
        result: NewResult {
            group_of_rows: vec![0; rows],
            audit: json!({"passed": true}),
            verdict_facts: None,
        },
    }
}

async fn queue(store: &Store, tenant: &str, n: usize) -> Vec<Uuid> {
    let d = insert_dataset(store, tenant, "f").await;
    let mut ids = Vec::new();
    for _ in 0..n {
        let new = NewJob {
            tenant: tenant.into(),
            dataset_id: d.id,
            params: k2_mondrian(),
            max_attempts: 1,
            idempotency: None,
            max_active: None,
            submitted_by: None,
        };
        match store.create_job(&new).await.unwrap() {
            Created::New(j) => ids.push(j.id),
            other => panic!("{other:?}"),
        }
    }
    ids
}

/// A runner that works `millis` (checking its checkpoint every 5 ms) and
/// logs `(tenant, "start" | "end")` events.
fn logging_runner(millis: u64, log: Arc<Mutex<Vec<(String, &'static str)>>>) -> Arc<dyn JobRunner> {
    Arc::new(FnRunner(
        move |input: JobInput, progress: &(dyn Fn(f64) -> bool + Sync)| {
            log.lock().unwrap().push((input.tenant.clone(), "start"));
            let until = std::time::Instant::now() + Duration::from_millis(millis);
            while std::time::Instant::now() < until {
                if !progress(0.5) {
                    return Err(JobError::Cancelled);
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            log.lock().unwrap().push((input.tenant.clone(), "end"));
            Ok(output(3))
        },
    ))
}

/// A job that never ends on its own is stopped at the maximum run time and
/// fails with `job_timeout` and the limit; it is not retried.
#[tokio::test]
async fn a_job_over_its_maximum_run_time_fails_with_job_timeout() {
    let store = fresh_store().await;
    let id = queue(&store, "t1", 1).await[0];
    let forever = Arc::new(FnRunner(
        |_: JobInput, progress: &(dyn Fn(f64) -> bool + Sync)| {
            while progress(0.1) {
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(JobError::Cancelled)
        },
    ));
    let mut config = test_worker_config(1);
    config.max_run = Some(Duration::from_secs(1));
    let w = worker::start(store.clone(), forever, config);
    let done = wait_job_row(&store, &id.to_string(), |s| s != "queued" && s != "running").await;
    assert_eq!(done["status"], "failed", "{done}");
    assert_eq!(done["error"]["code"], "job_timeout", "{done}");
    assert_eq!(done["error"]["details"]["limit_secs"], 1.0, "{done}");
    assert_eq!(done["attempts"], 1, "{done}");
    w.shutdown().await;
}

/// Tenant A queues a backlog of 8 jobs, then tenant B one: with a single
/// worker B's job is the second one to run, not the ninth.
#[tokio::test]
async fn a_tenant_with_one_job_is_not_starved_by_another_tenants_backlog() {
    let store = fresh_store().await;
    queue(&store, "a", 8).await;
    let b = queue(&store, "b", 1).await[0];
    let log = Arc::new(Mutex::new(Vec::new()));
    let w = worker::start(
        store.clone(),
        logging_runner(50, log.clone()),
        test_worker_config(1),
    );
    let done = wait_job_row(&store, &b.to_string(), |s| s == "succeeded").await;
    assert_eq!(done["status"], "succeeded");
    let starts: Vec<String> = log
        .lock()
        .unwrap()
        .iter()
        .filter(|(_, e)| *e == "start")
        .map(|(t, _)| t.clone())
        .collect();
    let b_at = starts.iter().position(|t| t == "b").unwrap();
    assert!(
        b_at <= 1,
        "b's job started as number {}: {starts:?}",
        b_at + 1
    );
    w.shutdown().await;
}

/// With a cap of one running job per tenant and two workers, tenant A's
/// long jobs run one at a time, and B's job runs beside A's first.
#[tokio::test]
async fn a_tenant_runs_at_most_its_cap_and_leaves_workers_to_others() {
    let store = fresh_store().await;
    queue(&store, "a", 3).await;
    let b = queue(&store, "b", 1).await[0];
    let log = Arc::new(Mutex::new(Vec::new()));
    let mut config = test_worker_config(2);
    config.max_running_per_tenant = Some(1);
    let w = worker::start(store.clone(), logging_runner(400, log.clone()), config);
    wait_job_row(&store, &b.to_string(), |s| s == "succeeded").await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while log
        .lock()
        .unwrap()
        .iter()
        .filter(|(_, e)| *e == "end")
        .count()
        < 4
    {
        assert!(
            tokio::time::Instant::now() < deadline,
            "{:?}",
            log.lock().unwrap()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let events = log.lock().unwrap().clone();
    let mut running_a = 0i32;
    for (t, e) in &events {
        if t == "a" {
            running_a += if *e == "start" { 1 } else { -1 };
            assert!(running_a <= 1, "two of a's jobs ran at once: {events:?}");
        }
    }
    // b started before a's first job ended.
    let b_start = events
        .iter()
        .position(|(t, e)| t == "b" && *e == "start")
        .unwrap();
    let a_end = events
        .iter()
        .position(|(t, e)| t == "a" && *e == "end")
        .unwrap();
    assert!(b_start < a_end, "{events:?}");
    w.shutdown().await;
}

/// Over the quota of queued and running jobs, a tenant's job creation is
/// 429 `too_many_jobs` with the limit; another tenant is not affected.
#[tokio::test]
async fn job_creation_over_the_tenant_quota_is_429() {
    let mut limits = proxima::http::limits::Limits::default();
    limits.max_active_jobs_per_tenant = 3;
    let app = TestApp::with(Options {
        limits,
        ..Options::default()
    })
    .await;
    let d = app.dataset("t1").await;
    for _ in 0..3 {
        assert_eq!(
            app.post_json("/v1/jobs", &model_body(d.id)).await.status(),
            202
        );
    }
    let res = app.post_json("/v1/jobs", &model_body(d.id)).await;
    assert!(res.headers().contains_key("retry-after"));
    let p = expect_problem(res, 429, "too_many_jobs").await;
    assert_eq!(p["details"]["max_active_jobs_per_tenant"], 3, "{p}");

    let other = app.store.create_key("t2").await.unwrap();
    let d2 = app.dataset("t2").await;
    let res = app
        .client
        .post(app.url("/v1/jobs"))
        .bearer_auth(&other)
        .json(&model_body(d2.id))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 202);
}
