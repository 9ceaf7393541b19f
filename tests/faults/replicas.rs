//! Two `proxima serve` replicas on one database share 50 jobs submitted at
//! once: each job completes exactly once, and both replicas did work.

use std::time::Duration;

use crate::support::*;

/// The sum of `proxima_jobs_finished_total` samples with `status`.
fn finished(metrics: &str, status: &str) -> f64 {
    metrics
        .lines()
        .filter(|l| l.starts_with("proxima_jobs_finished_total{"))
        .filter(|l| l.contains(&format!("status=\"{status}\"")))
        .filter_map(|l| l.rsplit_once(' ').and_then(|(_, v)| v.parse::<f64>().ok()))
        .sum()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_replicas_complete_fifty_jobs_exactly_once() {
    let _serial = serial().await;
    let scratch = Scratch::new();
    let url = fresh_database().await;
    let mut serve = Serve::new(&url);
    // A lease no job here comes near: a re-run would show as attempts 2.
    serve.lease_secs = 10;
    let a = Proxima::start(&scratch, "replica-a", &serve).await;
    let b = Proxima::start(&scratch, "replica-b", &serve).await;
    let (api_a, api_b) = (a.api(), b.api());
    let db = Db::connect(&url).await;
    let dataset = api_a.upload(&grid_schema("small"), &grid_csv(200)).await;

    // 50 submissions at once, alternating between the replicas.
    let submits = (0..50).map(|i| {
        let api = if i % 2 == 0 { &api_a } else { &api_b };
        let body = k_job(&dataset);
        async move { api.submit_id(&body).await }
    });
    let ids: Vec<String> = futures_util::future::join_all(submits).await;
    assert_eq!(ids.len(), 50);

    for id in &ids {
        let done = api_a.wait_done(id, Duration::from_secs(120)).await;
        assert_eq!(done["status"], "succeeded", "{done}");
        assert_eq!(done["attempts"], 1, "job {id} ran more than once: {done}");
        assert_eq!(db.results(id).await, 1, "job {id}");
    }
    assert_eq!(db.scalar("SELECT count(*) FROM job_results").await, 50);
    assert_eq!(db.running_without_lease().await, 0);

    // Each replica counts the jobs it settled: together exactly 50, and
    // each did some.
    let done_a = finished(&api_a.metrics().await, "succeeded");
    let done_b = finished(&api_b.metrics().await, "succeeded");
    eprintln!("replica a settled {done_a} jobs, replica b {done_b}");
    assert_eq!(done_a + done_b, 50.0);
    assert!(done_a > 0.0 && done_b > 0.0, "a: {done_a}, b: {done_b}");
}
