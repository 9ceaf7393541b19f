//! Cancelling a running job over HTTP takes effect within one second on a
//! large case (sal 500k from the shared data; skipped when absent), and the
//! cancel reaches the job through `NOTIFY` — through either replica, for a
//! sweep's point, and while the job's input still loads — without waiting
//! for a heartbeat.

use std::io::Read;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::support::*;

/// Submits `model` on `dataset`, waits until the job is running, cancels it
/// and returns how long the cancel took to take effect. The cancel goes out
/// as soon as the job is claimed: the whole job (load + partition) takes
/// only a second or two now, and waiting for the algorithm's first progress
/// report could let it finish first. The core's checkpoints cover the load
/// and every phase after it (crates/proxima-core/tests/cancel.rs measures
/// each phase's longest gap).
async fn cancel_latency(api: &Api, db: &Db, dataset: &Value, model: Value) -> Duration {
    let body = json!({"dataset_id": dataset["id"], "model": model});
    let id = api.submit_id(&body).await;
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        let job = api.job(&id).await;
        assert!(
            matches!(job["status"].as_str(), Some("queued" | "running")),
            "the job ended before it could be cancelled: {job}"
        );
        if job["status"] == "running" {
            break;
        }
        assert!(Instant::now() < deadline, "the job was never claimed");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let t = Instant::now();
    let res = api.cancel(&id).await;
    assert_eq!(res.status(), 200);
    let took = until_cancelled(db, &id, t).await;
    let job = api.job(&id).await;
    assert_eq!(job["status"], "cancelled", "{job}");
    assert_eq!(db.results(&id).await, 0);
    took
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_a_large_running_job_takes_effect_within_a_second() {
    let Some(shared) = shared_dir() else { return };
    let _serial = serial().await;
    let scratch = Scratch::new();
    let url = fresh_database().await;
    let mut serve = Serve::new(&url);
    serve.lease_secs = 30;
    // The shipped heartbeat period (the cancel check rides on it): the
    // guarantee must hold with the defaults, not only with test timings.
    serve.heartbeat_ms = 250;
    let p = Proxima::start(&scratch, "canceller", &serve).await;
    let api = p.api();
    let db = Db::connect(&url).await;

    let mut data = Vec::new();
    flate2::read::GzDecoder::new(
        std::fs::File::open(shared.join("data/sal_synthetic/sal_synthetic_500k.csv.gz")).unwrap(),
    )
    .read_to_end(&mut data)
    .unwrap();
    let schema: Value =
        serde_json::from_slice(&std::fs::read(shared.join("examples/sal.schema.json")).unwrap())
            .unwrap();
    let dataset = api.upload(&schema, &data).await;
    assert_eq!(dataset["rows"], 500_000);

    let cases = [
        (
            "epsilon_m",
            json!({"kind": "epsilon_m", "epsilon": 4500, "m": 5, "neighborhood": "absolute"}),
        ),
        (
            "xcolor",
            json!({"kind": "dissimilarity", "epsilon": 0.001, "delta": 0.5, "k": 10}),
        ),
    ];
    for (name, model) in cases {
        let took = cancel_latency(&api, &db, &dataset, model).await;
        eprintln!("sal 500k {name}: cancel took effect after {took:?}");
        assert!(
            took < Duration::from_secs(1),
            "{name}: cancel took {took:?} (guarantee: within 1 s)"
        );
    }
    assert!(p.alive());
}

/// Polls the job's stored status until it is `cancelled`; how long that
/// took from `since`.
async fn until_cancelled(db: &Db, id: &str, since: Instant) -> Duration {
    loop {
        let (status, ..) = db.job(id).await;
        if status == "cancelled" {
            return since.elapsed();
        }
        assert_eq!(status, "running", "job {id}");
        assert!(since.elapsed() < Duration::from_secs(30), "never cancelled");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// The cancel reaches the running body when it is asked, not at the
/// worker's next heartbeat: with a heartbeat every ten seconds, a job
/// stops within a second of its cancel — also when the cancel is sent to
/// another replica than the one running it — and so does a sweep's
/// running point when the sweep is cancelled. (Without the notification
/// each would wait for a heartbeat, up to ten seconds.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancel_reaches_the_running_job_before_its_next_heartbeat() {
    if !faults_available() {
        return;
    }
    let _serial = serial().await;
    let scratch = Scratch::new();
    let url = fresh_database().await;
    // One worker, bodies that wait ten minutes at a checkpoint every 10 ms
    // unless stopped, and heartbeats too rare to carry a cancel in time.
    let mut serve = Serve::new(&url)
        .faults("job-delay-ms:600000")
        .rare_heartbeats();
    serve.workers = 1;
    let runner = Proxima::start(&scratch, "runner", &serve).await;
    let api = runner.api();
    let db = Db::connect(&url).await;
    let ds = api.upload(&grid_schema("stopped"), &grid_csv(200)).await;

    // A job cancelled on the replica that runs it.
    let id = api.submit_id(&k_job(&ds)).await;
    db.wait_status(&id, "running", Duration::from_secs(30))
        .await;
    let t = Instant::now();
    assert_eq!(api.cancel(&id).await.status(), 200);
    let took = until_cancelled(&db, &id, t).await;
    eprintln!("cancel on the running replica took effect after {took:?}");
    assert!(took < Duration::from_secs(1), "took {took:?}");

    // A job cancelled through another replica (whose own worker is idle).
    let other = Proxima::start(&scratch, "other", &serve).await;
    let id = api.submit_id(&k_job(&ds)).await;
    db.wait_status(&id, "running", Duration::from_secs(30))
        .await;
    let owner: String = sqlx::query_scalar("SELECT lease_owner FROM jobs WHERE id = $1::uuid")
        .bind(&id)
        .fetch_one(&db.store.pool)
        .await
        .unwrap();
    // Sent to the replica that does not hold the job, whichever claimed it.
    let elsewhere = if owner.contains(&format!(":{}:", runner.pid())) {
        other.api()
    } else {
        runner.api()
    };
    let t = Instant::now();
    assert_eq!(elsewhere.cancel(&id).await.status(), 200);
    let took = until_cancelled(&db, &id, t).await;
    eprintln!("cancel through the other replica took effect after {took:?}");
    assert!(took < Duration::from_secs(1), "took {took:?}");
    drop(other);

    // A sweep cancelled while one of its points runs.
    let sweep = api
        .submit_sweep(
            &json!({"dataset_id": ds["id"], "model": {"kind": "k_anonymity", "k": [2, 3, 4]}}),
        )
        .await;
    let sweep_id = sweep["id"].as_str().unwrap().to_string();
    let asked = Instant::now();
    let point = loop {
        let running: Option<String> = sqlx::query_scalar(
            "SELECT id::text FROM jobs WHERE sweep_id = $1::uuid AND status = 'running'",
        )
        .bind(&sweep_id)
        .fetch_optional(&db.store.pool)
        .await
        .unwrap();
        if let Some(id) = running {
            break id;
        }
        assert!(asked.elapsed() < Duration::from_secs(60), "no point ran");
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let t = Instant::now();
    assert_eq!(api.cancel_sweep(&sweep_id).await.status(), 200);
    let took = until_cancelled(&db, &point, t).await;
    eprintln!("the sweep's running point was cancelled after {took:?}");
    assert!(took < Duration::from_secs(1), "took {took:?}");
    assert!(runner.alive());
}

/// A cancel heard while the claimed job's input still loads: the body
/// never starts and the job ends `cancelled` as soon as the load is done —
/// with heartbeats ten seconds apart, it does not wait for one. (Without
/// the job reachable from its claim, the notification would find no job
/// and the cancel would wait for the first heartbeat, after the body had
/// started.) A deletion of the dataset meanwhile: the load finds it gone
/// and the body never starts either.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_stopped_while_its_input_loads_never_starts() {
    if !faults_available() {
        return;
    }
    let _serial = serial().await;
    let scratch = Scratch::new();
    let url = fresh_database().await;
    // Every claimed job waits three seconds before reading its input, and
    // its body would then wait ten minutes.
    let mut serve = Serve::new(&url)
        .faults("input-load-delay-ms:3000,job-delay-ms:600000")
        .rare_heartbeats();
    serve.workers = 1;
    let p = Proxima::start(&scratch, "early", &serve).await;
    let api = p.api();
    let db = Db::connect(&url).await;

    let ds = api.upload(&grid_schema("early"), &grid_csv(200)).await;
    let id = api.submit_id(&k_job(&ds)).await;
    db.wait_status(&id, "running", Duration::from_secs(30))
        .await;
    p.wait_log(
        "injected fault: input load delayed",
        Duration::from_secs(30),
    )
    .await;
    let t = Instant::now();
    assert_eq!(api.cancel(&id).await.status(), 200);
    // The load's three seconds, then no body: well before any heartbeat.
    let took = until_cancelled(&db, &id, t).await;
    eprintln!("cancelled during its input load: settled after {took:?}");
    assert!(took < Duration::from_secs(4), "took {took:?}");
    assert!(!p.log_text().contains("injected fault: job body delayed"));

    let id = api.submit_id(&k_job(&ds)).await;
    db.wait_status(&id, "running", Duration::from_secs(30))
        .await;
    let res = api.delete_dataset(&ds).await;
    assert_eq!(res.status(), 204);
    p.wait_log(
        "job's dataset is gone; dropping the job",
        Duration::from_secs(5),
    )
    .await;
    assert!(!p.log_text().contains("injected fault: job body delayed"));
    assert!(p.alive());
}
