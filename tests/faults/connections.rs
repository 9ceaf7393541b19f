//! Connections before authentication (slow or silent clients): idle
//! connections over the cap do not exhaust the server's file descriptors
//! nor starve `/healthz`, and a client trickling its header or idling on a
//! keep-alive connection is disconnected at the header-read timeout.

use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::support::*;

/// Sockets the process has open (`/proc/<pid>/fd` links to `socket:[…]`).
fn open_sockets(pid: i32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .map(|d| {
            d.filter_map(|e| std::fs::read_link(e.ok()?.path()).ok())
                .filter(|t| t.to_string_lossy().starts_with("socket:"))
                .count()
        })
        .unwrap_or(0)
}

fn addr(p: &Proxima) -> String {
    p.base.trim_start_matches("http://").to_string()
}

/// 400 idle connections against a cap of 40 (and a header timeout far
/// longer than the test): the server keeps at most the cap open, and a
/// health check from a new client is answered at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_connections_are_capped_and_healthz_still_answers() {
    let _serial = serial().await;
    let scratch = Scratch::new();
    let url = fresh_database().await;
    let serve = Serve::new(&url)
        .env("PROXIMA_MAX_CONNECTIONS", "40")
        .env("PROXIMA_HEADER_READ_TIMEOUT_SECS", "120");
    let p = Proxima::start(&scratch, "conns", &serve).await;
    let before = open_sockets(p.pid());

    let mut idle = Vec::new();
    for _ in 0..400 {
        idle.push(TcpStream::connect(addr(&p)).await.unwrap());
    }
    // Let the server accept (and evict) them all.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let client = reqwest::Client::new();
    for _ in 0..5 {
        let res = client
            .get(format!("{}/healthz", p.base))
            .timeout(Duration::from_secs(10))
            .send()
            .await
            .expect("/healthz answers while idle connections flood the server");
        assert_eq!(res.status(), 200);
    }
    let during = open_sockets(p.pid());
    assert!(
        during <= before + 40 + 5,
        "{during} sockets open with a cap of 40 (before the flood: {before})"
    );
    // The evicted ones were closed by the server: reads see the end.
    let mut closed = 0;
    for s in idle.iter_mut() {
        let mut b = [0u8; 1];
        if let Ok(Ok(0)) = tokio::time::timeout(Duration::from_millis(5), s.read(&mut b)).await {
            closed += 1;
        }
    }
    assert!(
        closed >= 400 - 40,
        "only {closed} of 400 idle connections were closed"
    );
    assert!(p.alive());
}

/// A header sent one line every 200 ms is cut at the 2 s header timeout,
/// and so is a keep-alive connection left idle after its response.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trickled_header_and_an_idle_keep_alive_are_cut_at_the_header_timeout() {
    let _serial = serial().await;
    let scratch = Scratch::new();
    let url = fresh_database().await;
    let serve = Serve::new(&url).env("PROXIMA_HEADER_READ_TIMEOUT_SECS", "2");
    let p = Proxima::start(&scratch, "trickle", &serve).await;

    let mut s = TcpStream::connect(addr(&p)).await.unwrap();
    s.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    let started = Instant::now();
    let mut cut = false;
    for i in 0..100 {
        // 20 s of trickling at most; the server must hang up long before.
        tokio::time::sleep(Duration::from_millis(200)).await;
        if s.write_all(format!("X-Trickle-{i}: y\r\n").as_bytes())
            .await
            .is_err()
        {
            cut = true;
            break;
        }
        let mut b = [0u8; 512];
        if let Ok(r) = tokio::time::timeout(Duration::from_millis(1), s.read(&mut b)).await {
            // EOF, a reset, or the server's 408 before closing.
            let _ = r;
            cut = true;
            break;
        }
    }
    assert!(
        cut,
        "a trickled header kept its connection for {:?}",
        started.elapsed()
    );

    let mut s = TcpStream::connect(addr(&p)).await.unwrap();
    s.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let mut got = Vec::new();
    let mut b = [0u8; 4096];
    // The response, then (idle) the end of the connection, within 20 s.
    let closed = tokio::time::timeout(Duration::from_secs(20), async {
        loop {
            match s.read(&mut b).await {
                Ok(0) | Err(_) => return,
                Ok(n) => got.extend_from_slice(&b[..n]),
            }
        }
    })
    .await;
    assert!(String::from_utf8_lossy(&got).starts_with("HTTP/1.1 200"));
    assert!(
        closed.is_ok(),
        "an idle keep-alive connection was never closed"
    );
    assert!(p.alive());
}
