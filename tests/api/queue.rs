//! The Postgres queue: claims, leases, expiry, lease-holder-only completion,
//! panics, retries, cancellation and graceful shutdown, with test runners.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use proxima::api::JobParams;
use proxima::store::jobs::{Created, NewJob};
use proxima::store::results::NewResult;
use proxima::store::Store;
use proxima::worker::{self, JobError, JobInput, JobOutput, JobRunner};
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

fn runner<F>(f: F) -> Arc<dyn JobRunner>
where
    F: Fn(JobInput, &(dyn Fn(f64) -> bool + Sync)) -> Result<JobOutput, JobError>
        + Send
        + Sync
        + 'static,
{
    Arc::new(FnRunner(f))
}

/// One group holding every row of the input's CSV.
fn output_for(input: &JobInput) -> JobOutput {
    let rows = input
        .files
        .data
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .count()
        - 1;
    JobOutput {
        summary: fake_summary(rows, input.attempt as u64),
        result: NewResult {
            group_of_rows: vec![0; rows],
            audit: json!({"passed": true}),
            verdict_facts: None,
        },
    }
}

async fn queue_job(store: &Store, max_attempts: i32) -> Uuid {
    let d = insert_dataset(store, "t1", "q").await;
    let new = NewJob {
        tenant: "t1".into(),
        dataset_id: d.id,
        params: k2_mondrian(),
        max_attempts,
        idempotency: None,
        max_active: None,
        submitted_by: None,
    };
    match store.create_job(&new).await.unwrap() {
        Created::New(j) => j.id,
        other => panic!("{other:?}"),
    }
}

const LEASE: Duration = Duration::from_secs(30);

#[tokio::test]
async fn a_claim_is_exclusive_and_counts_the_attempt() {
    let store = fresh_store().await;
    let id = queue_job(&store, 3).await;
    let a = store
        .claim_job("A", LEASE)
        .await
        .unwrap()
        .expect("A claims");
    assert_eq!(a.id, id);
    assert_eq!(a.status.as_str(), "running");
    assert_eq!(a.attempts, 1);
    assert!(a.started_at.is_some());
    // SKIP LOCKED + the lease: nobody else gets it.
    assert!(store.claim_job("B", LEASE).await.unwrap().is_none());
    let owner: Option<String> = sqlx::query_scalar("SELECT lease_owner FROM jobs WHERE id = $1")
        .bind(id)
        .fetch_one(&store.pool)
        .await
        .unwrap();
    assert_eq!(owner.as_deref(), Some("A"));
}

#[tokio::test]
async fn concurrent_claimers_never_share_a_job() {
    let store = fresh_store().await;
    let mut ids = Vec::new();
    for _ in 0..6 {
        ids.push(queue_job(&store, 3).await);
    }
    let mut tasks = Vec::new();
    for w in 0..8 {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            store
                .claim_job(&format!("w{w}"), LEASE)
                .await
                .unwrap()
                .map(|j| j.id)
        }));
    }
    let mut got = Vec::new();
    for t in tasks {
        if let Some(id) = t.await.unwrap() {
            got.push(id);
        }
    }
    got.sort();
    ids.sort();
    assert_eq!(got, ids, "each job claimed exactly once");
}

#[tokio::test]
async fn an_expired_lease_is_claimable_and_only_the_new_holder_completes() {
    let store = fresh_store().await;
    let id = queue_job(&store, 3).await;
    store
        .claim_job("A", Duration::from_millis(200))
        .await
        .unwrap()
        .unwrap();
    tokio::time::sleep(Duration::from_millis(400)).await;
    let b = store
        .claim_job("B", LEASE)
        .await
        .unwrap()
        .expect("expired lease");
    assert_eq!(b.id, id);
    assert_eq!(b.attempts, 2);
    let out = NewResult {
        group_of_rows: vec![0, 0, 0],
        audit: json!({}),
        verdict_facts: None,
    };
    // A's late heartbeat and completion are refused.
    assert_eq!(
        store.heartbeat(id, "A", LEASE, 0.5).await.unwrap(),
        proxima::store::queue::Beat::Lost
    );
    assert!(!store
        .complete_job(id, "A", &fake_summary(3, 65), &out)
        .await
        .unwrap());
    assert!(!store
        .finish_job(id, "A", proxima::api::JobStatus::Failed, None)
        .await
        .unwrap());
    assert!(store.get_result("t1", id).await.unwrap().is_none());
    assert!(store
        .complete_job(id, "B", &fake_summary(3, 66), &out)
        .await
        .unwrap());
    let job = store.get_job("t1", id).await.unwrap().unwrap();
    assert_eq!(job.status.as_str(), "succeeded");
    assert_eq!(job.summary, Some(fake_summary(3, 66)));
    assert_eq!(job.progress, 1.0);
    let stored = store.get_result("t1", id).await.unwrap().unwrap();
    assert_eq!(stored.group_of_rows, vec![0, 0, 0]);
    // Completing twice is refused too (the lease is released).
    assert!(!store
        .complete_job(id, "B", &fake_summary(3, 67), &out)
        .await
        .unwrap());
}

#[tokio::test]
async fn an_expired_lease_on_the_last_attempt_fails_the_job() {
    let store = fresh_store().await;
    let id = queue_job(&store, 1).await;
    store
        .claim_job("A", Duration::from_millis(100))
        .await
        .unwrap()
        .unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(store.claim_job("B", LEASE).await.unwrap().is_none());
    let job = store.get_job("t1", id).await.unwrap().unwrap();
    assert_eq!(job.status.as_str(), "failed");
    assert_eq!(job.error.unwrap().code, "internal");
}

#[tokio::test]
async fn heartbeats_extend_the_lease() {
    let store = fresh_store().await;
    let id = queue_job(&store, 3).await;
    store
        .claim_job("A", Duration::from_millis(300))
        .await
        .unwrap()
        .unwrap();
    for _ in 0..4 {
        tokio::time::sleep(Duration::from_millis(150)).await;
        let beat = store
            .heartbeat(id, "A", Duration::from_millis(300), 0.25)
            .await
            .unwrap();
        assert_eq!(beat, proxima::store::queue::Beat::Held { cancel: false });
    }
    // 600 ms after the claim, beyond the first lease, it is still A's.
    assert!(store.claim_job("B", LEASE).await.unwrap().is_none());
    let job = store.get_job("t1", id).await.unwrap().unwrap();
    assert_eq!(job.progress, 0.25);
}

#[tokio::test]
async fn the_worker_runs_a_job_to_success_with_its_input() {
    let store = fresh_store().await;
    let w = worker::start(
        store.clone(),
        runner(|input, progress| {
            assert!(progress(0.5));
            assert_eq!(input.dataset.name, "q");
            assert_eq!(input.files.hierarchies[0].0, "zip");
            Ok(output_for(&input))
        }),
        test_worker_config(2),
    );
    let id = queue_job(&store, 3).await;
    let done = wait_job_row(&store, &id.to_string(), |s| s == "succeeded").await;
    assert_eq!(done["attempts"], 1);
    let job = store.get_job("t1", id).await.unwrap().unwrap();
    assert_eq!(job.summary.unwrap().rows, 3);
    assert!(job.finished_at.is_some());
    let result = store.get_result("t1", id).await.unwrap().unwrap();
    assert_eq!(result.group_of_rows, vec![0, 0, 0]);
    assert_eq!(
        store.get_audit("t1", id).await.unwrap(),
        Some(json!({"passed": true}))
    );
    w.shutdown().await;
}

#[tokio::test]
async fn a_panic_fails_the_job_and_the_worker_keeps_serving() {
    let store = fresh_store().await;
    // Plant the panicking model before any worker runs, so the job cannot be
    // claimed with its original model first.
    let bad = queue_job(&store, 3).await;
    sqlx::query("UPDATE jobs SET model = '{\"kind\":\"k_anonymity\",\"k\":99}' WHERE id = $1")
        .bind(bad)
        .execute(&store.pool)
        .await
        .unwrap();
    let w = worker::start(
        store.clone(),
        runner(|input, _| {
            if k_of(&input) == Some(99) {
                panic!("boom with secret internals");
            }
            Ok(output_for(&input))
        }),
        test_worker_config(1),
    );
    let failed = wait_job_row(&store, &bad.to_string(), |s| s == "failed").await;
    assert_eq!(failed["error"]["code"], "internal");
    assert!(!failed["error"].to_string().contains("secret"), "{failed}");
    assert_eq!(failed["attempts"], 1, "a panic is not retried");
    let good = queue_job(&store, 3).await;
    wait_job_row(&store, &good.to_string(), |s| s == "succeeded").await;
    w.shutdown().await;
}

#[tokio::test]
async fn a_stored_job_that_no_longer_binds_fails_as_internal_once() {
    let store = fresh_store().await;
    // A row as an older version might have stored it: parameters this
    // version refuses. The job is the service's failure, not the request's:
    // no pointers into a body nobody is sending, and no retry.
    let old = queue_job(&store, 3).await;
    sqlx::query("UPDATE jobs SET model = '{\"kind\":\"k_anonymity\",\"k\":0}' WHERE id = $1")
        .bind(old)
        .execute(&store.pool)
        .await
        .unwrap();
    let w = worker::start(
        store.clone(),
        Arc::new(proxima::worker::core_runner::CoreRunner),
        test_worker_config(1),
    );
    let failed = wait_job_row(&store, &old.to_string(), |s| s == "failed").await;
    assert_eq!(failed["error"]["code"], "internal", "{failed}");
    assert!(!failed["error"].to_string().contains("/model"), "{failed}");
    assert_eq!(failed["attempts"], 1, "{failed}");
    w.shutdown().await;
}

#[tokio::test]
async fn a_row_reads_back_into_the_params_it_was_stored_from() {
    let store = fresh_store().await;
    let id = queue_job(&store, 3).await;
    let mut row = store.get_job("t1", id).await.unwrap().unwrap();
    assert_eq!(JobParams::try_from(&row).unwrap(), k2_mondrian());
    // A value this version refuses (the table's CHECK keeps it out today):
    // the service's failure naming the job, not a request's error.
    row.suppression_limit = 1.5;
    let e = JobParams::try_from(&row).unwrap_err();
    assert_eq!(e.id, id);
    assert!(e.reason.contains("suppression_limit"), "{e}");
}

#[tokio::test]
async fn fatal_errors_fail_at_once_with_their_code() {
    let store = fresh_store().await;
    let w = worker::start(
        store.clone(),
        runner(|_, _| {
            Err(JobError::Fatal {
                code: "model_not_satisfied".into(),
                message: "2 groups violate".into(),
                details: json!({"violating_groups": 2}),
            })
        }),
        test_worker_config(1),
    );
    let id = queue_job(&store, 3).await;
    let failed = wait_job_row(&store, &id.to_string(), |s| s == "failed").await;
    assert_eq!(failed["attempts"], 1);
    assert_eq!(failed["error"]["code"], "model_not_satisfied");
    assert_eq!(failed["error"]["details"]["violating_groups"], 2);
    w.shutdown().await;
}

#[tokio::test]
async fn retryable_errors_back_off_and_retry_until_max_attempts() {
    let store = fresh_store().await;
    let calls = Arc::new(AtomicUsize::new(0));
    let seen = calls.clone();
    let w = worker::start(
        store.clone(),
        runner(move |input, _| {
            seen.fetch_add(1, Ordering::SeqCst);
            // Job A recovers on its second attempt; job B never does.
            if input.attempt >= 2 && input.params == k2_mondrian() {
                Ok(output_for(&input))
            } else {
                Err(JobError::Retryable("database hiccup".into()))
            }
        }),
        test_worker_config(2),
    );
    let a = queue_job(&store, 3).await;
    let done = wait_job_row(&store, &a.to_string(), |s| s == "succeeded").await;
    assert_eq!(done["attempts"], 2);
    let job = store.get_job("t1", a).await.unwrap().unwrap();
    // The summary's marker is the attempt that wrote it.
    assert_eq!(job.summary.unwrap().elapsed_ms, 2);

    let b = queue_job(&store, 2).await;
    sqlx::query("UPDATE jobs SET model = '{\"kind\":\"k_anonymity\",\"k\":5}' WHERE id = $1")
        .bind(b)
        .execute(&store.pool)
        .await
        .unwrap();
    let failed = wait_job_row(&store, &b.to_string(), |s| s == "failed").await;
    assert_eq!(failed["attempts"], 2);
    assert_eq!(failed["error"]["message"], "database hiccup");
    assert_eq!(calls.load(Ordering::SeqCst), 4);
    w.shutdown().await;
}

/// A body that reports progress until told to stop.
fn until_stopped() -> Arc<dyn JobRunner> {
    runner(|_, progress| {
        let mut f = 0.0;
        loop {
            f = (f + 0.01f64).min(0.9);
            if !progress(f) {
                return Err(JobError::Cancelled);
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    })
}

#[tokio::test]
async fn cancelling_a_running_job_stops_it_at_a_checkpoint() {
    let app = TestApp::with(Options {
        runner: Some(until_stopped()),
        ..Options::default()
    })
    .await;
    let d = app.dataset("t1").await;
    let job: Value = app
        .post_json("/v1/jobs", &model_body(d.id))
        .await
        .json()
        .await
        .unwrap();
    let id = job["id"].as_str().unwrap().to_string();
    // Running, with progress written by the heartbeat.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let j: Value = app
            .get(&format!("/v1/jobs/{id}"))
            .await
            .json()
            .await
            .unwrap();
        if j["status"] == "running" && j["progress"].as_f64().unwrap() > 0.0 {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "never ran: {j}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let res = app
        .post_json(&format!("/v1/jobs/{id}/cancel"), &json!({}))
        .await;
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.unwrap();
    assert_eq!(
        body["status"], "running",
        "running jobs stop at a checkpoint"
    );
    let done = app.wait_job(&id, |s| s != "running").await;
    assert_eq!(done["status"], "cancelled");
    let res = app
        .post_json(&format!("/v1/jobs/{id}/cancel"), &json!({}))
        .await;
    expect_problem(res, 409, "job_finished").await;
    app.worker.unwrap().shutdown().await;
}

#[tokio::test]
async fn graceful_shutdown_hands_unfinished_jobs_back() {
    let store = fresh_store().await;
    let mut config = test_worker_config(1);
    config.grace = Duration::from_millis(300);
    let w = worker::start(store.clone(), until_stopped(), config);
    let id = queue_job(&store, 3).await;
    wait_job_row(&store, &id.to_string(), |s| s == "running").await;
    w.shutdown().await;
    let job = store.get_job("t1", id).await.unwrap().unwrap();
    assert_eq!(job.status.as_str(), "queued");
    assert_eq!(job.attempts, 0, "the interrupted attempt is not counted");
    // Another worker picks it up at once.
    let again = store.claim_job("next", LEASE).await.unwrap().unwrap();
    assert_eq!(again.id, id);
}

#[tokio::test]
async fn graceful_shutdown_lets_short_jobs_finish() {
    let store = fresh_store().await;
    let w = worker::start(
        store.clone(),
        runner(|input, _| {
            std::thread::sleep(Duration::from_millis(300));
            Ok(output_for(&input))
        }),
        test_worker_config(1),
    );
    let id = queue_job(&store, 3).await;
    wait_job_row(&store, &id.to_string(), |s| s == "running").await;
    w.shutdown().await;
    let job = store.get_job("t1", id).await.unwrap().unwrap();
    assert_eq!(job.status.as_str(), "succeeded");
}

#[tokio::test]
async fn notify_wakes_an_idle_worker_before_the_poll_interval() {
    let store = fresh_store().await;
    let mut config = test_worker_config(1);
    config.poll = Duration::from_secs(60);
    let w = worker::start(
        store.clone(),
        runner(|input, _| Ok(output_for(&input))),
        config,
    );
    // Let the worker go idle (its first look finds nothing).
    tokio::time::sleep(Duration::from_millis(500)).await;
    let id = queue_job(&store, 3).await;
    // wait_job_row gives up after 20 s, well before the 60 s poll: only
    // the NOTIFY can wake the worker in time.
    wait_job_row(&store, &id.to_string(), |s| s == "succeeded").await;
    w.shutdown().await;
}
