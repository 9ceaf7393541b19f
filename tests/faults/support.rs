//! Harness for the process-level fault tests: the real `proxima` binary in
//! its own process group (killed with the whole group by a Drop guard and,
//! should the test binary exit early, by an `atexit` hook), its stderr in a
//! file whose tail is printed when a test fails, readiness by polling
//! `/readyz`, a small HTTP client, private PostgreSQL clusters for the tests
//! that restart the database, and direct SQL checks.

use std::io::Read;
use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use proxima::pg_embedded::EmbeddedPostgres;
use proxima::store::Store;
use reqwest::multipart::{Form, Part};
use serde_json::{json, Value};
use uuid::Uuid;

pub use proxima_testdata::shared_dir;

pub use proxima_test_support::db::fresh_database;

/// The key every spawned server is bootstrapped with (tenant `default`).
pub const KEY: &str = "faults-test-key-0123456789abcdef";

/// The fault tests spawn processes and measure time on a shared 2-core
/// machine: they run one at a time.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

pub async fn serial() -> tokio::sync::MutexGuard<'static, ()> {
    SERIAL.lock().await
}

// ---------------------------------------------------------------- processes

/// Process groups still alive, killed at exit if a guard never ran.
static GROUPS: Mutex<Vec<i32>> = Mutex::new(Vec::new());

extern "C" fn kill_leftovers() {
    if let Ok(groups) = GROUPS.lock() {
        for &pgid in groups.iter() {
            // SAFETY: kill(2) on a process group we created.
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
        }
    }
}

fn register(pgid: i32) {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        // SAFETY: registering a plain extern "C" fn with no captured state.
        unsafe {
            libc::atexit(kill_leftovers);
        }
    });
    GROUPS.lock().unwrap().push(pgid);
}

fn unregister(pgid: i32) {
    GROUPS.lock().unwrap().retain(|&p| p != pgid);
}

/// A port free right now on 127.0.0.1.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A test's scratch directory (logs, the servers' TMPDIR, clusters).
pub struct Scratch {
    pub dir: tempfile::TempDir,
}

impl Scratch {
    pub fn new() -> Scratch {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::Builder::new()
            .prefix("proxima-faults-")
            .tempdir()
            .unwrap();
        // A private cluster inside runs as an unprivileged account.
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        Scratch { dir }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// A fresh subdirectory.
    pub fn sub(&self, name: &str) -> PathBuf {
        let p = self.dir.path().join(name);
        std::fs::create_dir_all(&p).unwrap();
        p
    }
}

/// How to run one `proxima serve`.
#[derive(Clone, Debug)]
pub struct Serve {
    pub database_url: String,
    pub workers: usize,
    pub lease_secs: u64,
    pub heartbeat_ms: u64,
    pub poll_ms: u64,
    pub grace_secs: u64,
    pub max_attempts: i32,
    pub max_body: usize,
    /// `PROXIMA_FAULT_INJECT`.
    pub faults: Option<String>,
    /// More environment (limit flags' env twins).
    pub env: Vec<(String, String)>,
}

impl Serve {
    /// Short queue timings: a 2 s lease, 200 ms heartbeats and polls.
    pub fn new(database_url: &str) -> Serve {
        Serve {
            database_url: database_url.to_string(),
            workers: 2,
            lease_secs: 2,
            heartbeat_ms: 200,
            poll_ms: 200,
            grace_secs: 10,
            max_attempts: 3,
            max_body: 64 << 20,
            faults: None,
            env: Vec::new(),
        }
    }

    pub fn env(mut self, name: &str, value: &str) -> Serve {
        self.env.push((name.to_string(), value.to_string()));
        self
    }

    /// Heartbeats ten seconds apart (a lease of a minute): what reaches a
    /// running job within a second did not wait for a beat.
    pub fn rare_heartbeats(mut self) -> Serve {
        self.lease_secs = 60;
        self.heartbeat_ms = 10_000;
        self
    }

    pub fn faults(mut self, spec: &str) -> Serve {
        self.faults = Some(spec.to_string());
        self
    }
}

/// A running `proxima serve` in its own process group.
pub struct Proxima {
    pub name: String,
    child: Option<Child>,
    pgid: i32,
    pub base: String,
    pub log: PathBuf,
    /// The server's TMPDIR (upload spools).
    pub tmp: PathBuf,
}

impl Proxima {
    /// Spawns the server and waits until `/readyz` answers 200.
    pub async fn start(scratch: &Scratch, name: &str, serve: &Serve) -> Proxima {
        let p = Proxima::spawn(scratch, name, serve);
        p.wait_ready(Duration::from_secs(60)).await;
        p
    }

    /// Spawns the server without waiting.
    pub fn spawn(scratch: &Scratch, name: &str, serve: &Serve) -> Proxima {
        let port = free_port();
        let log = scratch.path().join(format!("{name}.log"));
        let tmp = scratch.sub(&format!("{name}-tmp"));
        let stderr = std::fs::File::create(&log).unwrap();
        let stdout = stderr.try_clone().unwrap();
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_proxima"));
        cmd.arg("serve")
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("RUST_LOG", "info,sqlx=warn")
            .env("TMPDIR", &tmp)
            .env("DATABASE_URL", &serve.database_url)
            .env("PROXIMA_BIND", format!("127.0.0.1:{port}"))
            .env("PROXIMA_BOOTSTRAP_KEY", KEY)
            .env("PROXIMA_WORKERS", serve.workers.to_string())
            .env("PROXIMA_LEASE_SECS", serve.lease_secs.to_string())
            .env("PROXIMA_HEARTBEAT_MS", serve.heartbeat_ms.to_string())
            .env("PROXIMA_POLL_MS", serve.poll_ms.to_string())
            .env("PROXIMA_SHUTDOWN_GRACE", serve.grace_secs.to_string())
            .env("PROXIMA_MAX_ATTEMPTS", serve.max_attempts.to_string())
            .env("PROXIMA_MAX_BODY", serve.max_body.to_string())
            .stdin(Stdio::null())
            .stdout(stdout)
            .stderr(stderr)
            .process_group(0);
        if let Some(f) = &serve.faults {
            cmd.env("PROXIMA_FAULT_INJECT", f);
        }
        for (k, v) in &serve.env {
            cmd.env(k, v);
        }
        let child = cmd.spawn().expect("spawning proxima serve");
        let pgid = child.id() as i32;
        register(pgid);
        Proxima {
            name: name.to_string(),
            child: Some(child),
            pgid,
            base: format!("http://127.0.0.1:{port}"),
            log,
            tmp,
        }
    }

    /// Polls `/readyz` until 200; panics (with the log) if the process
    /// exits or `timeout` passes.
    pub async fn wait_ready(&self, timeout: Duration) {
        let client = reqwest::Client::new();
        let deadline = Instant::now() + timeout;
        loop {
            if let Ok(r) = client
                .get(format!("{}/readyz", self.base))
                .timeout(Duration::from_secs(2))
                .send()
                .await
            {
                if r.status() == 200 {
                    return;
                }
            }
            assert!(self.alive(), "{} exited before it was ready", self.name);
            assert!(
                Instant::now() < deadline,
                "{} never became ready",
                self.name
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// The server's process id.
    pub fn pid(&self) -> i32 {
        self.pgid
    }

    /// Whether the process still runs (not exited, not a zombie).
    pub fn alive(&self) -> bool {
        if self.child.is_none() {
            return false;
        }
        match std::fs::read_to_string(format!("/proc/{}/stat", self.pgid)) {
            // The state follows the parenthesized command name.
            Ok(stat) => stat
                .rsplit_once(')')
                .map(|(_, rest)| !rest.trim_start().starts_with(['Z', 'X']))
                .unwrap_or(false),
            Err(_) => false,
        }
    }

    /// SIGKILL to the whole process group, then reap.
    pub fn kill9(&mut self) {
        if let Some(mut child) = self.child.take() {
            // SAFETY: kill(2) on the process group we created.
            unsafe {
                libc::kill(-self.pgid, libc::SIGKILL);
            }
            let _ = child.wait();
            unregister(self.pgid);
        }
    }

    /// SIGTERM to the server (a graceful shutdown request).
    pub fn sigterm(&self) {
        // SAFETY: kill(2) on our child.
        unsafe {
            libc::kill(self.pgid, libc::SIGTERM);
        }
    }

    /// Waits for the process to exit; panics after `timeout`.
    pub async fn wait_exit(&mut self, timeout: Duration) -> ExitStatus {
        let deadline = Instant::now() + timeout;
        loop {
            let child = self.child.as_mut().expect("the process was already reaped");
            if let Some(status) = child.try_wait().unwrap() {
                self.child = None;
                unregister(self.pgid);
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "{} did not exit within {timeout:?}",
                self.name
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// The log so far.
    pub fn log_text(&self) -> String {
        let mut s = String::new();
        if let Ok(mut f) = std::fs::File::open(&self.log) {
            let _ = f.read_to_string(&mut s);
        }
        s
    }

    /// Waits until the log holds `needle`.
    pub async fn wait_log(&self, needle: &str, timeout: Duration) {
        let deadline = Instant::now() + timeout;
        while !self.log_text().contains(needle) {
            assert!(self.alive(), "{} exited", self.name);
            assert!(
                Instant::now() < deadline,
                "{} never logged {needle:?}",
                self.name
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    pub fn api(&self) -> Api {
        Api {
            base: self.base.clone(),
            client: reqwest::Client::new(),
        }
    }
}

impl Drop for Proxima {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let text = self.log_text();
            let lines: Vec<&str> = text.lines().collect();
            let tail = &lines[lines.len().saturating_sub(40)..];
            eprintln!(
                "---- last {} log lines of {} ({}) ----\n{}\n----",
                tail.len(),
                self.name,
                self.log.display(),
                tail.join("\n")
            );
        }
        self.kill9();
    }
}

// ------------------------------------------------------------------- client

/// The HTTP API of one server, as tenant `default`.
pub struct Api {
    pub base: String,
    pub client: reqwest::Client,
}

impl Api {
    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base, path)
    }

    /// Uploads `csv` under `schema`; returns the 201 Dataset.
    pub async fn upload(&self, schema: &Value, csv: &[u8]) -> Value {
        let form = Form::new()
            .part(
                "schema",
                Part::bytes(serde_json::to_vec(schema).unwrap())
                    .mime_str("application/json")
                    .unwrap(),
            )
            .part("data", Part::bytes(csv.to_vec()).file_name("data.csv"));
        let res = self
            .client
            .post(self.url("/v1/datasets"))
            .bearer_auth(KEY)
            .multipart(form)
            .send()
            .await
            .unwrap();
        let status = res.status();
        let body = res.text().await.unwrap();
        assert_eq!(status, 201, "{body}");
        serde_json::from_str(&body).unwrap()
    }

    /// POSTs `body` to `path`; asserts 202 and returns the accepted
    /// resource.
    async fn post_accepted(&self, path: &str, body: &Value) -> Value {
        let res = self
            .client
            .post(self.url(path))
            .bearer_auth(KEY)
            .json(body)
            .send()
            .await
            .unwrap();
        let status = res.status();
        let text = res.text().await.unwrap();
        assert_eq!(status, 202, "{text}");
        serde_json::from_str(&text).unwrap()
    }

    /// POSTs a job; returns the 202 Job.
    pub async fn submit(&self, body: &Value) -> Value {
        self.post_accepted("/v1/jobs", body).await
    }

    /// POSTs a job; returns its id.
    pub async fn submit_id(&self, body: &Value) -> String {
        self.submit(body).await["id"].as_str().unwrap().to_string()
    }

    /// POSTs a sweep; returns the 202 Sweep.
    pub async fn submit_sweep(&self, body: &Value) -> Value {
        self.post_accepted("/v1/sweeps", body).await
    }

    pub async fn job(&self, id: &str) -> Value {
        let res = self
            .client
            .get(self.url(&format!("/v1/jobs/{id}")))
            .bearer_auth(KEY)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200);
        res.json().await.unwrap()
    }

    /// POSTs to `path` with no body; the response, whatever its status.
    async fn post_empty(&self, path: &str) -> reqwest::Response {
        self.client
            .post(self.url(path))
            .bearer_auth(KEY)
            .send()
            .await
            .unwrap()
    }

    pub async fn cancel(&self, id: &str) -> reqwest::Response {
        self.post_empty(&format!("/v1/jobs/{id}/cancel")).await
    }

    pub async fn cancel_sweep(&self, id: &str) -> reqwest::Response {
        self.post_empty(&format!("/v1/sweeps/{id}/cancel")).await
    }

    /// `DELETE /v1/datasets/{id}` of an uploaded dataset.
    pub async fn delete_dataset(&self, dataset: &Value) -> reqwest::Response {
        let id = dataset["id"].as_str().unwrap();
        self.client
            .delete(self.url(&format!("/v1/datasets/{id}")))
            .bearer_auth(KEY)
            .send()
            .await
            .unwrap()
    }

    /// Polls the job until it leaves queued/running (or `timeout`).
    pub async fn wait_done(&self, id: &str, timeout: Duration) -> Value {
        let deadline = Instant::now() + timeout;
        loop {
            let job = self.job(id).await;
            if !matches!(job["status"].as_str(), Some("queued" | "running")) {
                return job;
            }
            assert!(Instant::now() < deadline, "job {id} not done: {job}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// The release as CSV (with row ids, so two releases compare row by row).
    pub async fn result_csv(&self, id: &str) -> String {
        let res = self
            .client
            .get(self.url(&format!("/v1/jobs/{id}/result?format=csv&row_id=true")))
            .bearer_auth(KEY)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200);
        res.text().await.unwrap()
    }

    /// `/readyz`'s status, or None when the request failed.
    pub async fn readyz(&self) -> Option<u16> {
        self.client
            .get(self.url("/readyz"))
            .timeout(Duration::from_secs(15))
            .send()
            .await
            .ok()
            .map(|r| r.status().as_u16())
    }

    pub async fn metrics(&self) -> String {
        self.client
            .get(self.url("/metrics"))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap()
    }
}

// --------------------------------------------------------------------- data

/// A generated table: two numeric QIs and a numeric SA, `rows` rows,
/// deterministic.
pub fn grid_csv(rows: usize) -> Vec<u8> {
    let mut s = String::from("age,hours,salary\n");
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    for _ in 0..rows {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let age = 18 + x % 60;
        let hours = 10 + (x >> 8) % 50;
        let salary = 1000 + (x >> 16) % 9000;
        s.push_str(&format!("{age},{hours},{salary}\n"));
    }
    s.into_bytes()
}

pub fn grid_schema(name: &str) -> Value {
    json!({"name": name, "columns": [
        {"name": "age", "role": "quasi_identifier", "type": "numeric"},
        {"name": "hours", "role": "quasi_identifier", "type": "numeric"},
        {"name": "salary", "role": "sensitive", "type": "numeric"}
    ]})
}

/// A k-anonymity (Mondrian) job over `dataset`.
pub fn k_job(dataset: &Value) -> Value {
    json!({"dataset_id": dataset["id"], "model": {"kind": "k_anonymity", "k": 5}})
}

// ----------------------------------------------------------------- database

/// Direct SQL checks on the service's database.
pub struct Db {
    pub store: Store,
}

impl Db {
    pub async fn connect(url: &str) -> Db {
        Db {
            store: Store::connect(url, 2).await.unwrap(),
        }
    }

    pub async fn scalar(&self, sql: &'static str) -> i64 {
        sqlx::query_scalar(sql)
            .fetch_one(&self.store.pool)
            .await
            .unwrap()
    }

    /// (status, attempts, lease_owner) of a job.
    pub async fn job(&self, id: &str) -> (String, i32, Option<String>) {
        let id: Uuid = id.parse().unwrap();
        sqlx::query_as("SELECT status, attempts, lease_owner FROM jobs WHERE id = $1")
            .bind(id)
            .fetch_one(&self.store.pool)
            .await
            .unwrap()
    }

    /// Stored results of a job.
    pub async fn results(&self, id: &str) -> i64 {
        let id: Uuid = id.parse().unwrap();
        sqlx::query_scalar("SELECT count(*) FROM job_results WHERE job_id = $1")
            .bind(id)
            .fetch_one(&self.store.pool)
            .await
            .unwrap()
    }

    /// Jobs `running` without a live lease (must be none once a server is
    /// gone or has settled its work).
    pub async fn running_without_lease(&self) -> i64 {
        self.scalar(
            "SELECT count(*) FROM jobs WHERE status = 'running'
               AND (lease_owner IS NULL OR lease_expires_at IS NULL OR lease_expires_at < now())",
        )
        .await
    }

    /// Polls until the job's status is `status` (or `timeout`).
    pub async fn wait_status(&self, id: &str, status: &str, timeout: Duration) {
        let deadline = Instant::now() + timeout;
        loop {
            let (s, ..) = self.job(id).await;
            if s == status {
                return;
            }
            assert!(Instant::now() < deadline, "job {id} is {s}, never {status}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// A PostgreSQL cluster owned by one test (so it can restart it), under the
/// test's scratch directory; stopped when dropped.
pub struct PrivatePg {
    pub pg: EmbeddedPostgres,
}

impl PrivatePg {
    pub async fn start(scratch: &Scratch) -> PrivatePg {
        let dir = scratch.path().join("pg");
        let pg = tokio::task::spawn_blocking(move || EmbeddedPostgres::start(&dir))
            .await
            .unwrap()
            .unwrap_or_else(|e| panic!("these tests need PostgreSQL: {e:#}"));
        proxima::store::Store::create_database_if_missing(&pg.url("postgres"), "proxima")
            .await
            .unwrap();
        PrivatePg { pg }
    }

    pub fn url(&self) -> String {
        self.pg.url("proxima")
    }

    /// `pg_ctl stop -m fast` (the server's connections are cut).
    pub async fn stop(&mut self) {
        tokio::task::block_in_place(|| self.pg.stop()).unwrap();
    }

    /// Starts it again on the same port.
    pub async fn start_again(&mut self) {
        tokio::task::block_in_place(|| self.pg.start_again()).unwrap();
    }
}

/// Whether the binary under test honours `PROXIMA_FAULT_INJECT`: built
/// with the `fault-injection` feature, which the package's dev-dependency
/// on itself turns on for every `cargo test` build (debug or release);
/// prints why a test skips otherwise.
pub fn faults_available() -> bool {
    if !cfg!(feature = "fault-injection") {
        eprintln!("skipped: this build has no fault-injection feature");
    }
    cfg!(feature = "fault-injection")
}

/// Opens a raw TCP connection and writes a `POST /v1/datasets` whose
/// `Content-Length` promises the whole multipart body but only the first
/// `fraction` of it (the schema part, then part of the data part); the
/// stream is returned open, for the caller to cut.
pub async fn partial_upload(
    base: &str,
    schema: &Value,
    csv: &[u8],
    fraction: f64,
) -> tokio::net::TcpStream {
    use tokio::io::AsyncWriteExt;
    let boundary = "proxima-faults-boundary-7f3a";
    let mut body = Vec::new();
    body.extend_from_slice(
        format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"schema\"\r\n\
             Content-Type: application/json\r\n\r\n"
        )
        .as_bytes(),
    );
    body.extend_from_slice(&serde_json::to_vec(schema).unwrap());
    body.extend_from_slice(
        format!(
            "\r\n--{boundary}\r\nContent-Disposition: form-data; name=\"data\"; \
             filename=\"data.csv\"\r\nContent-Type: text/csv\r\n\r\n"
        )
        .as_bytes(),
    );
    let data_start = body.len();
    body.extend_from_slice(csv);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    let cut = data_start + ((csv.len() as f64) * fraction) as usize;
    let addr = base.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST /v1/datasets HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {KEY}\r\n\
         Content-Type: multipart/form-data; boundary={boundary}\r\n\
         Content-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(&body[..cut]).await.unwrap();
    stream.flush().await.unwrap();
    stream
}

/// Files left in a directory (recursively).
pub fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(files_in(&p));
            } else {
                out.push(p);
            }
        }
    }
    out
}
