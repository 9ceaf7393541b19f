//! Graceful shutdown: SIGTERM stops claiming, lets a running job finish
//! within the grace period or hands it back to the queue, and exits 0; no
//! job is left `running` without a live lease.

use std::time::{Duration, Instant};

use crate::support::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_lets_the_running_job_finish_and_claims_nothing_more() {
    if !faults_available() {
        return;
    }
    let _serial = serial().await;
    let scratch = Scratch::new();
    let url = fresh_database().await;
    let mut serve = Serve::new(&url).faults("job-delay-ms:2500");
    serve.workers = 1;
    serve.grace_secs = 30;
    let mut p = Proxima::start(&scratch, "graceful", &serve).await;
    let api = p.api();
    let db = Db::connect(&url).await;
    let dataset = api.upload(&grid_schema("grid"), &grid_csv(500)).await;
    let first = api.submit_id(&k_job(&dataset)).await;
    let second = api.submit_id(&k_job(&dataset)).await;
    db.wait_status(&first, "running", Duration::from_secs(30))
        .await;
    // One worker: the second job waits in the queue.
    assert_eq!(db.job(&second).await.0, "queued");

    let t = Instant::now();
    p.sigterm();
    let status = p.wait_exit(Duration::from_secs(60)).await;
    let took = t.elapsed();
    assert!(status.success(), "exit status {status:?}");
    eprintln!("SIGTERM with a running job: exited 0 after {took:?}");

    // The running job finished inside the grace period…
    let (s, attempts, owner) = db.job(&first).await;
    assert_eq!((s.as_str(), attempts, owner), ("succeeded", 1, None));
    assert_eq!(db.results(&first).await, 1);
    // …and the queued one was not claimed after the signal.
    let (s, attempts, owner) = db.job(&second).await;
    assert_eq!((s.as_str(), attempts, owner), ("queued", 0, None));
    assert_eq!(db.running_without_lease().await, 0);
    assert!(
        p.log_text().contains("shutdown requested"),
        "{}",
        p.log_text()
    );

    // The next server runs what was left.
    let next = Proxima::start(&scratch, "next", &Serve::new(&url)).await;
    let done = next.api().wait_done(&second, Duration::from_secs(60)).await;
    assert_eq!(done["status"], "succeeded", "{done}");
    assert_eq!(done["attempts"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_hands_back_a_job_that_outlives_the_grace_period() {
    if !faults_available() {
        return;
    }
    let _serial = serial().await;
    let scratch = Scratch::new();
    let url = fresh_database().await;
    let mut serve = Serve::new(&url).faults("job-delay-ms:600000");
    serve.grace_secs = 1;
    let mut p = Proxima::start(&scratch, "impatient", &serve).await;
    let api = p.api();
    let db = Db::connect(&url).await;
    let dataset = api.upload(&grid_schema("grid"), &grid_csv(500)).await;
    let id = api.submit_id(&k_job(&dataset)).await;
    db.wait_status(&id, "running", Duration::from_secs(30))
        .await;

    let t = Instant::now();
    p.sigterm();
    let status = p.wait_exit(Duration::from_secs(30)).await;
    let took = t.elapsed();
    assert!(status.success(), "exit status {status:?}");
    eprintln!("SIGTERM with a job outliving a 1 s grace: exited 0 after {took:?}");
    assert!(
        took < Duration::from_secs(10),
        "shutdown took {took:?} with a 1 s grace"
    );

    // Handed back: queued again, the interrupted attempt not counted, no
    // lease, no result.
    let (s, attempts, owner) = db.job(&id).await;
    assert_eq!((s.as_str(), attempts, owner), ("queued", 0, None));
    assert_eq!(db.results(&id).await, 0);
    assert_eq!(db.running_without_lease().await, 0);

    let next = Proxima::start(&scratch, "next", &Serve::new(&url)).await;
    let done = next.api().wait_done(&id, Duration::from_secs(60)).await;
    assert_eq!(done["status"], "succeeded", "{done}");
    assert_eq!(done["attempts"], 1);
    assert_eq!(db.results(&id).await, 1);
}
