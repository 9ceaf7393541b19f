//! The load test: the real `proxima serve` (on a database of its
//! own) under 200 concurrent status pollers plus 10 concurrent upload → job
//! → download loops, driven by `proxima-tools loadtest` for `PROXIMA_LOAD_SECS`
//! seconds (default 60). Asserts no 5xx and no lost or failed job; the
//! latencies are printed, never asserted (they belong in BENCHMARKS.md).

use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::{server_binary, tools_binary, Scratch};
use proxima_test_support::db::fresh_database;

/// A spawned `proxima serve`, killed with its process group on drop (also
/// when the test fails), its log kept in the scratch folder.
struct Server {
    child: Child,
    base: String,
    log: std::path::PathBuf,
}

impl Server {
    fn start(scratch: &Scratch, database_url: &str, key: &str) -> Server {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let log = scratch.path("serve.log");
        let out = std::fs::File::create(&log).unwrap();
        let child = Command::new(server_binary())
            .args(["serve", "--bind", &format!("127.0.0.1:{port}")])
            .args(["--bootstrap-key", key, "--workers", "2"])
            // The ten submitters and 200 pollers are one tenant: give it
            // every upload slot and room for all its requests in flight
            // (the per-tenant shares would refuse the burst with 429).
            .args(["--max-uploads-per-tenant", "16"])
            .args(["--max-requests-per-tenant", "1024"])
            .env("DATABASE_URL", database_url)
            .env("PROXIMA_DATA_DIR", scratch.path("data"))
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(out.try_clone().unwrap())
            .stderr(out)
            .process_group(0)
            .spawn()
            .expect("proxima serve starts");
        Server {
            child,
            base: format!("http://127.0.0.1:{port}"),
            log,
        }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Waits for `/readyz` to answer 200.
    fn wait_ready(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(120);
        let addr = self.base.trim_start_matches("http://").to_string();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                panic!("proxima serve exited ({status}): {}", self.log());
            }
            if ready(&addr) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "the server did not get ready: {}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

/// One plain HTTP/1.1 `GET /readyz` (no client runtime needed here).
fn ready(addr: &str) -> bool {
    use std::io::{Read, Write};
    let Ok(mut s) = std::net::TcpStream::connect(addr) else {
        return false;
    };
    let _ = s.set_read_timeout(Some(Duration::from_secs(5)));
    let request = format!("GET /readyz HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    if s.write_all(request.as_bytes()).is_err() {
        return false;
    }
    let mut response = String::new();
    let _ = s.read_to_string(&mut response);
    response.starts_with("HTTP/1.1 200")
}

impl Drop for Server {
    fn drop(&mut self) {
        // SAFETY: signalling the process group we created for the child.
        unsafe {
            libc::kill(-(self.child.id() as i32), libc::SIGKILL);
        }
        let _ = self.child.wait();
    }
}

fn load_secs() -> u64 {
    std::env::var("PROXIMA_LOAD_SECS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(60)
}

#[test]
fn serve_survives_200_pollers_and_10_submitters() {
    let scratch = Scratch::new();
    let database_url = tokio::runtime::Runtime::new()
        .unwrap()
        .block_on(fresh_database());
    let key = "load-test-key-0123456789";
    let mut server = Server::start(&scratch, &database_url, key);
    server.wait_ready();

    let secs = load_secs();
    let output = Command::new(tools_binary())
        .args(["loadtest", "--base", &server.base, "--key", key])
        .args(["--duration", &secs.to_string()])
        .args(["--pollers", "200", "--submitters", "10", "--json"])
        .args(["--settle", "300"])
        .stdin(Stdio::null())
        .output()
        .expect("proxima-tools loadtest runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let report: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "the loadtest printed no JSON report ({e}); stderr: {stderr}\nserver log: {}",
            server.log()
        )
    });
    println!("{}", serde_json::to_string_pretty(&report).unwrap());
    let context = || format!("report: {report:#}\nserver log: {}", server.log());
    assert_eq!(report["server_errors"], 0, "{}", context());
    assert_eq!(report["jobs_lost"], 0, "{}", context());
    assert_eq!(report["transport_errors"], 0, "{}", context());
    let submitted = report["jobs_submitted"].as_u64().unwrap();
    assert!(submitted > 0, "no job was submitted: {}", context());
    assert_eq!(
        report["jobs_succeeded"].as_u64(),
        Some(submitted),
        "{}",
        context()
    );
    assert_eq!(
        report["results_checked"].as_u64(),
        Some(submitted),
        "{}",
        context()
    );
    let polls = report["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["endpoint"] == "GET /v1/jobs/{id}")
        .expect("the pollers polled");
    assert!(polls["requests"].as_u64().unwrap() > 0, "{}", context());
    assert_eq!(report["passed"], true, "{}", context());
    assert!(
        output.status.success(),
        "exit {:?}: {}",
        output.status,
        context()
    );
}
