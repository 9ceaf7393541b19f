//! One tenant cannot take every connection with slow bodies: with a cap of
//! 5 connections, 8 authenticated `POST /v1/jobs` declaring a 100,000-byte
//! body and sending it a byte at a time keep at most the tenant's share of
//! requests in flight busy (the rest are refused with 429 at once and their
//! connections closed), so `/healthz` and another tenant are answered; and
//! a body below the minimum rate is ended with 408 `body_too_slow` after
//! the grace period.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::support::*;

fn addr(p: &Proxima) -> String {
    p.base.trim_start_matches("http://").to_string()
}

/// A key for tenant `other`, made with `proxima keys create`.
fn key_for_other(database_url: &str) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_proxima"))
        .args(["keys", "create", "--tenant", "other"])
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("DATABASE_URL", database_url)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    stdout.lines().last().unwrap().trim().to_string()
}

/// Opens a connection and sends an authenticated `POST /v1/jobs` head
/// declaring a 100,000-byte body, then its first byte.
async fn slow_post(p: &Proxima) -> TcpStream {
    let mut s = TcpStream::connect(addr(p)).await.unwrap();
    let head = format!(
        "POST /v1/jobs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {KEY}\r\n\
         Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{{"
    );
    s.write_all(head.as_bytes()).await.unwrap();
    s
}

/// What the server sent on `s` within `wait` (until it closed or went
/// quiet).
async fn read_answer(s: &mut TcpStream, wait: Duration) -> String {
    let mut got = Vec::new();
    let mut b = [0u8; 4096];
    let _ = tokio::time::timeout(wait, async {
        loop {
            match s.read(&mut b).await {
                Ok(0) | Err(_) => return,
                Ok(n) => got.extend_from_slice(&b[..n]),
            }
        }
    })
    .await;
    String::from_utf8_lossy(&got).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_bodies_of_one_tenant_leave_healthz_and_other_tenants_served() {
    let _serial = serial().await;
    let scratch = Scratch::new();
    let url = fresh_database().await;
    // No minimum rate: the tenant's cap alone must keep the listener free.
    let serve = Serve::new(&url)
        .env("PROXIMA_MAX_CONNECTIONS", "5")
        .env("PROXIMA_MAX_REQUESTS_PER_TENANT", "2")
        .env("PROXIMA_MIN_BODY_RATE", "0");
    let p = Proxima::start(&scratch, "slowbodies", &serve).await;
    let other = key_for_other(&url);

    let mut slow = Vec::new();
    for _ in 0..8 {
        slow.push(slow_post(&p).await);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // The tenant's share is busy; the others were told so and let go.
    let mut refused = 0;
    for s in slow.iter_mut() {
        let answer = read_answer(s, Duration::from_millis(300)).await;
        if answer.starts_with("HTTP/1.1 429") {
            assert!(answer.contains("too_many_requests"), "{answer}");
            refused += 1;
        }
    }
    assert!(
        refused >= 6,
        "only {refused} of 8 slow requests were refused"
    );

    let client = reqwest::Client::new();
    for _ in 0..3 {
        let res = client
            .get(format!("{}/healthz", p.base))
            .timeout(Duration::from_secs(10))
            .send()
            .await
            .expect("/healthz answers while one tenant's slow bodies are in flight");
        assert_eq!(res.status(), 200);
        let res = client
            .get(format!("{}/v1/datasets", p.base))
            .bearer_auth(&other)
            .timeout(Duration::from_secs(10))
            .send()
            .await
            .expect("another tenant is answered while one tenant's slow bodies are in flight");
        assert_eq!(res.status(), 200);
    }
    // The slow tenant itself is refused while its share is busy, not hung.
    let res = client
        .get(format!("{}/v1/datasets", p.base))
        .bearer_auth(KEY)
        .timeout(Duration::from_secs(10))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 429);
    drop(slow);
    assert!(p.alive());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_below_the_minimum_rate_is_ended_with_408() {
    let _serial = serial().await;
    let scratch = Scratch::new();
    let url = fresh_database().await;
    let serve = Serve::new(&url)
        .env("PROXIMA_MIN_BODY_RATE", "1000")
        .env("PROXIMA_BODY_RATE_GRACE_SECS", "1");
    let p = Proxima::start(&scratch, "slowbody", &serve).await;

    let mut s = slow_post(&p).await;
    // A byte every 300 ms, for at most 30 s; the server must answer long
    // before.
    let mut answer = String::new();
    for _ in 0..100 {
        tokio::time::sleep(Duration::from_millis(300)).await;
        answer = read_answer(&mut s, Duration::from_millis(1)).await;
        if !answer.is_empty() || s.write_all(b" ").await.is_err() {
            break;
        }
    }
    if answer.is_empty() {
        answer = read_answer(&mut s, Duration::from_secs(2)).await;
    }
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer:?}");
    assert!(answer.contains("body_too_slow"), "{answer}");
    assert!(
        answer.to_ascii_lowercase().contains("connection: close"),
        "{answer}"
    );

    // A body at a normal rate is unaffected.
    let res = reqwest::Client::new()
        .post(format!("{}/v1/jobs", p.base))
        .bearer_auth(KEY)
        .json(
            &serde_json::json!({"dataset_id": "00000000-0000-0000-0000-000000000000",
                                  "model": {"kind": "k_anonymity", "k": 2}}),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 404);
    assert!(p.alive());
}
