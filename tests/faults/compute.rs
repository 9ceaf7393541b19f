//! Synchronous computations (a client that asks for heavy work): a feasibility request
//! that outlives the request timeout gets its 503 and its CPU work stops at
//! the next checkpoint (the process's CPU time stops growing), and requests
//! over the per-tenant computation cap are refused at once with
//! `Retry-After`.

use std::time::Duration;

use serde_json::{json, Value};

use crate::support::*;

/// utime + stime of the process, in clock ticks (1/100 s).
fn cpu_ticks(pid: i32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // Fields after the parenthesised command name; utime and stime are the
    // 14th and 15th fields of the whole line.
    let rest = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

/// 100,000 rows with five distinct numeric sensitive columns: the
/// dissimilarity degree index over them is quadratic (minutes of CPU).
fn wide_sa_table() -> (Value, Vec<u8>) {
    let mut csv = String::from("age,s1,s2,s3,s4,s5\n");
    for i in 0u64..100_000 {
        csv.push_str(&format!(
            "{},{},{},{},{},{}\n",
            18 + i % 70,
            (i * 7919) % 100_003,
            (i * 104_729) % 100_019,
            (i * 1_299_709) % 100_043,
            (i * 15_485_863) % 100_049,
            (i * 32_452_843) % 100_057
        ));
    }
    let mut columns = vec![json!({"name": "age", "role": "quasi_identifier", "type": "numeric"})];
    for s in 1..=5 {
        columns.push(json!({"name": format!("s{s}"), "role": "sensitive", "type": "numeric"}));
    }
    (
        json!({"name": "wide-sa", "columns": columns}),
        csv.into_bytes(),
    )
}

async fn ask(client: &reqwest::Client, p: &Proxima, dataset: &str) -> reqwest::Response {
    client
        .post(format!("{}/v1/datasets/{dataset}/feasibility", p.base))
        .bearer_auth(KEY)
        .json(&json!({"kind": "dissimilarity", "epsilon": 1.0}))
        .timeout(Duration::from_secs(30))
        .send()
        .await
        .unwrap()
}

/// The CPU the process uses over `window` once `settle` has passed.
async fn cpu_over(pid: i32, settle: Duration, window: Duration) -> f64 {
    tokio::time::sleep(settle).await;
    let before = cpu_ticks(pid);
    tokio::time::sleep(window).await;
    (cpu_ticks(pid) - before) as f64 / 100.0
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timed_out_feasibility_request_stops_computing() {
    let _serial = serial().await;
    let scratch = Scratch::new();
    let url = fresh_database().await;
    let serve = Serve::new(&url)
        .env("PROXIMA_REQUEST_TIMEOUT_SECS", "1")
        .env("PROXIMA_MAX_COMPUTATIONS", "4")
        .env("PROXIMA_MAX_COMPUTATIONS_PER_TENANT", "1")
        .env("PROXIMA_COMPUTATION_QUEUE_SECS", "0");
    let p = Proxima::start(&scratch, "compute", &serve).await;
    let (schema, csv) = wide_sa_table();
    let ds = p.api().upload(&schema, &csv).await;
    let id = ds["id"].as_str().unwrap().to_string();
    let client = reqwest::Client::new();

    let res = ask(&client, &p, &id).await;
    assert_eq!(res.status(), 503);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["code"], "request_timeout", "{body}");
    // Within 2 s of the timeout the work has stopped: the next 3 s cost
    // (almost) no CPU. Left running it would take one core throughout.
    let used = cpu_over(p.pid(), Duration::from_secs(2), Duration::from_secs(3)).await;
    assert!(
        used < 0.5,
        "{used} s of CPU in 3 s after the request timed out"
    );

    // Two at once from one tenant with a cap of one: the second is refused
    // at once with Retry-After; the first times out and stops as well.
    let (first, second) = tokio::join!(ask(&client, &p, &id), async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        ask(&client, &p, &id).await
    });
    assert_eq!(second.status(), 503);
    assert!(second.headers().contains_key("retry-after"));
    let body: Value = second.json().await.unwrap();
    assert_eq!(body["code"], "too_many_computations", "{body}");
    assert_eq!(body["details"]["max_computations_per_tenant"], 1, "{body}");
    assert_eq!(first.status(), 503);
    let used = cpu_over(p.pid(), Duration::from_secs(2), Duration::from_secs(3)).await;
    assert!(
        used < 0.5,
        "{used} s of CPU in 3 s after the request timed out"
    );
    assert!(p.alive());
}

/// A report of a large release that outlives the request timeout gets its
/// 503, and its CPU work stops at the report's next checkpoint, as an
/// audit's does (before, it computed on for seconds after the answer).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timed_out_report_stops_computing() {
    let _serial = serial().await;
    let scratch = Scratch::new();
    let url = fresh_database().await;
    let serve = Serve::new(&url)
        .env("PROXIMA_REQUEST_TIMEOUT_SECS", "1")
        .env("PROXIMA_MAX_BODY", &(64u64 << 20).to_string());
    let p = Proxima::start(&scratch, "report", &serve).await;
    let api = p.api();
    let ds = api
        .upload(&grid_schema("report"), &grid_csv(REPORT_ROWS))
        .await;
    let job = api.submit(&k_job(&ds)).await;
    let id = job["id"].as_str().unwrap().to_string();
    let done = api.wait_done(&id, Duration::from_secs(300)).await;
    assert_eq!(done["status"], "succeeded", "{done}");

    let started = std::time::Instant::now();
    let res = api
        .client
        .get(api.url(&format!("/v1/jobs/{id}/report?format=json")))
        .bearer_auth(KEY)
        .timeout(Duration::from_secs(300))
        .send()
        .await
        .unwrap();
    eprintln!(
        "report answered {} after {:?}",
        res.status(),
        started.elapsed()
    );
    assert_eq!(res.status(), 503);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["code"], "request_timeout", "{body}");
    let used = cpu_over(p.pid(), Duration::from_secs(2), Duration::from_secs(3)).await;
    assert!(
        used < 0.5,
        "{used} s of CPU in 3 s after the report timed out"
    );
    assert!(p.alive());
}

/// Rows of the report test's table: its report takes about 5.7 s (two
/// threads) in the test build, far more than the 1 s timeout; left running
/// after the 503 it used 1.6 s of CPU in the measured window.
const REPORT_ROWS: usize = 2_000_000;
