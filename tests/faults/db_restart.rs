//! Database restarts, on a PostgreSQL cluster each test owns (never the
//! machine's shared server): the service reconnects, `/readyz` reports the
//! outage and the recovery, and a job running across the outage completes
//! (on a new attempt when its lease lapsed) with nothing lost.

use std::time::{Duration, Instant};

use crate::support::*;

/// Polls `/readyz` until it answers `want`; returns how long that took and
/// the slowest single answer.
async fn readyz_until(api: &Api, want: u16, timeout: Duration) -> (Duration, Duration) {
    let start = Instant::now();
    let mut slowest = Duration::ZERO;
    loop {
        let t = Instant::now();
        let got = api.readyz().await;
        slowest = slowest.max(t.elapsed());
        if got == Some(want) {
            return (start.elapsed(), slowest);
        }
        assert!(
            start.elapsed() < timeout,
            "/readyz never answered {want} (last: {got:?})"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_service_survives_a_database_restart() {
    let _serial = serial().await;
    let scratch = Scratch::new();
    let mut pg = PrivatePg::start(&scratch).await;
    let p = Proxima::start(&scratch, "idle", &Serve::new(&pg.url())).await;
    let api = p.api();
    let before = api.upload(&grid_schema("before"), &grid_csv(300)).await;

    pg.stop().await;
    let (down, slowest) = readyz_until(&api, 503, Duration::from_secs(30)).await;
    eprintln!("database down: /readyz said 503 after {down:?} (slowest answer {slowest:?})");
    // The readiness probe must answer while the database is gone, not hang.
    assert!(slowest < Duration::from_secs(5), "{slowest:?}");
    assert!(p.alive());

    pg.start_again().await;
    let (up, _) = readyz_until(&api, 200, Duration::from_secs(30)).await;
    eprintln!("database back: /readyz said 200 after {up:?}");

    // Everything works again and nothing stored before the outage is lost.
    let after = api.upload(&grid_schema("after"), &grid_csv(300)).await;
    for ds in [&before, &after] {
        let job = api.submit(&k_job(ds)).await;
        let id = job["id"].as_str().unwrap();
        let done = api.wait_done(id, Duration::from_secs(60)).await;
        assert_eq!(done["status"], "succeeded", "{done}");
        assert_eq!(done["attempts"], 1);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_running_across_a_database_restart_completes() {
    if !faults_available() {
        return;
    }
    let _serial = serial().await;
    let scratch = Scratch::new();
    let mut pg = PrivatePg::start(&scratch).await;
    let csv = grid_csv(2000);

    // The reference release, from a clean server.
    let expected = {
        let p = Proxima::start(&scratch, "clean", &Serve::new(&pg.url())).await;
        let api = p.api();
        let ds = api.upload(&grid_schema("grid"), &csv).await;
        let id = api.submit_id(&k_job(&ds)).await;
        let done = api.wait_done(&id, Duration::from_secs(60)).await;
        assert_eq!(done["status"], "succeeded", "{done}");
        (ds, api.result_csv(&id).await)
    };
    let (dataset, expected) = expected;

    // The job body takes 4 s; the database goes away for longer than the
    // 2 s lease while it runs.
    let serve = Serve::new(&pg.url()).faults("job-delay-ms:4000");
    let p = Proxima::start(&scratch, "busy", &serve).await;
    let api = p.api();
    let db = Db::connect(&pg.url()).await;
    let id = api.submit_id(&k_job(&dataset)).await;
    db.wait_status(&id, "running", Duration::from_secs(30))
        .await;
    // "running" is set at claim, before the input loads: stop the database
    // only once the body is in its delay, or the outage hits the load (a
    // plain retry) instead of the heartbeats this test is about.
    p.wait_log("injected fault: job body delayed", Duration::from_secs(30))
        .await;
    db.store.pool.close().await;

    pg.stop().await;
    let stopped = Instant::now();
    readyz_until(&api, 503, Duration::from_secs(30)).await;
    let outage = Duration::from_secs(3);
    if let Some(rest) = outage.checked_sub(stopped.elapsed()) {
        tokio::time::sleep(rest).await;
    }
    pg.start_again().await;
    eprintln!("database was down for {:?}", stopped.elapsed());
    readyz_until(&api, 200, Duration::from_secs(30)).await;

    let done = api.wait_done(&id, Duration::from_secs(90)).await;
    assert_eq!(done["status"], "succeeded", "{done}");
    let attempts = done["attempts"].as_i64().unwrap();
    eprintln!("the job survived the restart on attempt {attempts}");
    // Its heartbeats failed for a whole lease: the worker gave the job up
    // and took it again as a new attempt.
    assert_eq!(attempts, 2, "{done}");
    assert!(
        p.log_text().contains("heartbeats failed for a whole lease"),
        "the worker never gave the job up"
    );
    let db = Db::connect(&pg.url()).await;
    assert_eq!(db.results(&id).await, 1);
    assert_eq!(api.result_csv(&id).await, expected);
    assert_eq!(db.running_without_lease().await, 0);
    assert_eq!(db.scalar("SELECT count(*) FROM datasets").await, 1);
    assert!(p.alive());
}
