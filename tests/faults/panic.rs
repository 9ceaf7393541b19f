//! A job whose body panics becomes `failed` with the `internal` code, and
//! the same worker process keeps serving.

use std::time::Duration;

use crate::support::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_job_fails_and_the_worker_keeps_serving() {
    if !faults_available() {
        return;
    }
    let _serial = serial().await;
    let scratch = Scratch::new();
    let url = fresh_database().await;
    let mut serve = Serve::new(&url).faults("panic-on-dataset-name:boom");
    // One worker: the job after the panic runs in the same slot.
    serve.workers = 1;
    let p = Proxima::start(&scratch, "panicky", &serve).await;
    let api = p.api();
    let db = Db::connect(&url).await;
    let boom = api.upload(&grid_schema("boom"), &grid_csv(200)).await;
    let fine = api.upload(&grid_schema("fine"), &grid_csv(200)).await;

    for round in 0..2 {
        let id = api.submit_id(&k_job(&boom)).await;
        let done = api.wait_done(&id, Duration::from_secs(60)).await;
        assert_eq!(done["status"], "failed", "round {round}: {done}");
        assert_eq!(done["error"]["code"], "internal", "{done}");
        // No retry for a panic, and no internals in the message.
        assert_eq!(done["attempts"], 1, "{done}");
        let message = done["error"]["message"].as_str().unwrap();
        assert!(!message.contains("injected"), "{message}");
        assert_eq!(db.results(&id).await, 0);

        let id = api.submit_id(&k_job(&fine)).await;
        let done = api.wait_done(&id, Duration::from_secs(60)).await;
        assert_eq!(done["status"], "succeeded", "round {round}: {done}");
    }
    assert!(p.alive(), "the panic took the process down");
    // Logged, but redacted: a panic message over uploaded data may quote cells.
    let log = p.log_text();
    assert!(log.contains("panicked (message withheld"), "{log}");
    assert!(!log.contains("injected"), "{log}");
}
