//! Deleting a dataset stops its running job: the job row goes with the
//! dataset, the deletion notifies the worker running it, which stops the
//! body at its next checkpoint (the core's checkpoints are measured in
//! crates/proxima-core/tests/checkpoints.rs) and writes nothing, and the
//! worker is free for the next job instead of computing a release nobody
//! can fetch. (Were the notification lost, the next heartbeat would find
//! the lease gone.)

use std::time::{Duration, Instant};

use crate::support::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deleting_the_dataset_of_a_running_job_stops_it() {
    if !faults_available() {
        return;
    }
    let _serial = serial().await;
    let scratch = Scratch::new();
    let url = fresh_database().await;
    // One worker; every job body takes ten minutes unless stopped; beats
    // too rare to carry the news within the second asserted below.
    let mut serve = Serve::new(&url)
        .faults("job-delay-ms:600000")
        .rare_heartbeats();
    serve.workers = 1;
    let p = Proxima::start(&scratch, "deleter", &serve).await;
    let api = p.api();
    let db = Db::connect(&url).await;

    let ds = api.upload(&grid_schema("doomed"), &grid_csv(200)).await;
    let id = api.submit_id(&k_job(&ds)).await;
    db.wait_status(&id, "running", Duration::from_secs(30))
        .await;
    p.wait_log("injected fault: job body delayed", Duration::from_secs(30))
        .await;

    let asked = Instant::now();
    let res = api.delete_dataset(&ds).await;
    assert_eq!(res.status(), 204);
    assert_eq!(
        db.scalar("SELECT count(*) FROM jobs WHERE status = 'running'")
            .await,
        0
    );
    // The body stops (long before its ten minutes, and before any
    // heartbeat) and writes nothing.
    p.wait_log(
        "lease lost while running; result discarded",
        Duration::from_secs(60),
    )
    .await;
    let took = asked.elapsed();
    eprintln!("the deleted job stopped after {took:?}");
    assert!(took < Duration::from_secs(1), "took {took:?}");
    assert_eq!(db.results(&id).await, 0);
    assert!(p.alive());
}
