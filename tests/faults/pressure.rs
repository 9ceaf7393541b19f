//! Memory under concurrency: every audit loads its
//! table, so 40 concurrent audits on a 300,000-row table would hold 40
//! tables at once. With the computation cap at 2 the server's peak RSS
//! stays within a few single audits' worth, and no request is a 500 (those
//! over the cap are 503 `too_many_computations` with `Retry-After`).

use std::time::Duration;

use serde_json::{json, Value};

use crate::support::*;

/// Resident set size of the process, in bytes.
fn rss(pid: i32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap();
    kb * 1024
}

/// Samples the process's RSS every 10 ms while `work` runs; the peak.
async fn peak_rss_during<F: std::future::Future>(pid: i32, work: F) -> (u64, F::Output) {
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let sampler = {
        let stop = stop.clone();
        tokio::spawn(async move {
            let mut peak = rss(pid);
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                peak = peak.max(rss(pid));
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            peak.max(rss(pid))
        })
    };
    let out = work.await;
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    (sampler.await.unwrap(), out)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_audits_keep_memory_bounded_and_never_500() {
    let _serial = serial().await;
    let scratch = Scratch::new();
    let url = fresh_database().await;
    let serve = Serve::new(&url)
        .env("PROXIMA_MAX_COMPUTATIONS", "2")
        .env("PROXIMA_MAX_COMPUTATIONS_PER_TENANT", "2")
        .env("PROXIMA_COMPUTATION_QUEUE_SECS", "0");
    let p = Proxima::start(&scratch, "pressure", &serve).await;
    let ds = p
        .api()
        .upload(&grid_schema("big"), &grid_csv(300_000))
        .await;
    let body = json!({"dataset_id": ds["id"], "groups": {"by": "quasi_identifiers"},
                      "checks": [{"kind": "k_anonymity", "k": 2}]});
    let client = reqwest::Client::new();
    let audit = || {
        client
            .post(format!("{}/v1/audits", p.base))
            .bearer_auth(KEY)
            .json(&body)
            .timeout(Duration::from_secs(60))
            .send()
    };
    // Warm up (allocator arenas, caches), then one audit alone.
    assert_eq!(audit().await.unwrap().status(), 200);
    let before = rss(p.pid());
    let (peak_one, res) = peak_rss_during(p.pid(), audit()).await;
    assert_eq!(res.unwrap().status(), 200);
    let one = peak_one.saturating_sub(before).max(8 << 20);

    let before = rss(p.pid());
    let (peak_many, results) = peak_rss_during(p.pid(), async {
        futures_util::future::join_all((0..40).map(|_| audit())).await
    })
    .await;
    let mut ok = 0;
    for r in results {
        let r = r.unwrap();
        let status = r.status().as_u16();
        if status == 200 {
            ok += 1;
            continue;
        }
        assert!(r.headers().contains_key("retry-after"));
        let p: Value = r.json().await.unwrap();
        assert_eq!(
            (status, p["code"].as_str()),
            (503, Some("too_many_computations")),
            "{p}"
        );
    }
    assert!(ok >= 2, "only {ok} audits were served");
    let grew = peak_many.saturating_sub(before);
    eprintln!(
        "RSS: one audit +{} MiB; 40 concurrent audits (cap 2) +{} MiB, {ok} served",
        one >> 20,
        grew >> 20
    );
    assert!(
        grew <= 4 * one + (64 << 20),
        "40 concurrent audits grew RSS by {} MiB; one audit alone by {} MiB",
        grew >> 20,
        one >> 20
    );
    assert!(p.alive());
}
