//! A sweep across two `proxima serve` replicas on one database, one of
//! them killed with SIGKILL while it runs points: the other finishes the
//! sweep, and every point completes exactly once — one job per point, one
//! result per job, and one "job settled" line per job over both replicas'
//! logs (a point that ran twice to completion would settle twice; the one
//! the kill interrupted is claimed again, so its `attempts` is 2).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use uuid::Uuid;

use crate::support::*;

/// `job_id` of every "job settled" line of a replica's log.
fn settled(log: &str) -> Vec<String> {
    log.lines()
        .filter(|l| l.contains("job settled"))
        .filter_map(|l| {
            let at = l.find("job_id=")? + "job_id=".len();
            Some(l[at..].chars().take(36).collect())
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_a_replica_mid_sweep_and_every_point_completes_once() {
    if !faults_available() {
        return;
    }
    let _serial = serial().await;
    let scratch = Scratch::new();
    let url = fresh_database().await;
    // Every point takes at least a second, so the kill lands mid-run.
    let serve = Serve::new(&url).faults("job-delay-ms:1000");
    let mut a = Proxima::start(&scratch, "replica-a", &serve).await;
    let b = Proxima::start(&scratch, "replica-b", &serve).await;
    let (api_a, api_b) = (a.api(), b.api());
    let db = Db::connect(&url).await;
    let dataset = api_a.upload(&grid_schema("sweep"), &grid_csv(2000)).await;

    let ks: Vec<u64> = (2..14).collect();
    let sweep = api_a
        .submit_sweep(&json!({"dataset_id": dataset["id"],
                              "model": {"kind": "k_anonymity", "k": ks}}))
        .await;
    let id = sweep["id"].as_str().unwrap().to_string();

    // Kill A while it holds a point.
    let owner = format!("%:{}:%", a.pid());
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let mine: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM jobs WHERE status = 'running' AND lease_owner LIKE $1",
        )
        .bind(&owner)
        .fetch_one(&db.store.pool)
        .await
        .unwrap();
        if mine > 0 {
            break;
        }
        assert!(Instant::now() < deadline, "replica a never ran a point");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    a.kill9();

    // B finishes the sweep (A's points once their lease expires).
    let deadline = Instant::now() + Duration::from_secs(180);
    let done = loop {
        let res = api_b
            .client
            .get(api_b.url(&format!("/v1/sweeps/{id}")))
            .bearer_auth(KEY)
            .send()
            .await
            .unwrap();
        let s: Value = res.json().await.unwrap();
        if !matches!(s["status"].as_str(), Some("queued" | "running")) {
            break s;
        }
        assert!(Instant::now() < deadline, "sweep not done: {s}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(done["status"], "succeeded", "{done}");
    assert_eq!(done["counts"]["succeeded"], 12, "{done}");
    assert_eq!(done["progress"], 1.0);

    let sweep_id: Uuid = id.parse().unwrap();
    let jobs: Vec<(Uuid, i32, i32)> = sqlx::query_as(
        "SELECT id, sweep_point, attempts FROM jobs WHERE sweep_id = $1 ORDER BY sweep_point",
    )
    .bind(sweep_id)
    .fetch_all(&db.store.pool)
    .await
    .unwrap();
    assert_eq!(jobs.len(), 12, "one job per point");
    let points: Vec<i32> = jobs.iter().map(|j| j.1).collect();
    assert_eq!(points, (0..12).collect::<Vec<_>>());
    for (job, _, _) in &jobs {
        assert_eq!(db.results(&job.to_string()).await, 1, "job {job}");
    }
    assert!(
        jobs.iter().any(|j| j.2 == 2),
        "the killed point ran again: {jobs:?}"
    );
    assert!(jobs.iter().all(|j| j.2 <= 2), "{jobs:?}");
    assert_eq!(db.running_without_lease().await, 0);

    // Exactly one completion per point over both replicas' logs.
    let mut times: HashMap<String, usize> = HashMap::new();
    for log in [a.log_text(), b.log_text()] {
        for job in settled(&log) {
            *times.entry(job).or_default() += 1;
        }
    }
    for (job, _, _) in &jobs {
        assert_eq!(
            times.get(&job.to_string()),
            Some(&1),
            "job {job}: {times:?}"
        );
    }
    assert_eq!(times.len(), 12, "{times:?}");
}
