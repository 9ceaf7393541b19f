//! The HTTP cases: upload → job → poll → download the CSV, against a
//! server given by `--base`/`--key` or a `proxima serve` spawned on a
//! private database (its own temporary data directory), whose peak RSS is
//! then read from `/proc/<pid>/status`.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use reqwest::multipart::{Form, Part};
use serde_json::{json, Value};

use super::cases::{Case, Work};
use super::data::{self, Upload};
use super::results::{CaseResult, CheckOutcome, StatedFigure};
use super::rss;
use super::runner::{blank, Plan};
use super::stats::Stats;

/// A server to talk to.
#[derive(Debug, Clone)]
pub struct Endpoint {
    pub base: String,
    pub key: String,
}

/// A `proxima serve` child on a private cluster in a temporary directory.
/// Dropping it stops the server (SIGTERM, which also stops its cluster),
/// killing it if it does not exit within a minute, and removes the
/// directory.
pub struct SpawnedServer {
    child: Child,
    dir: PathBuf,
    pub endpoint: Endpoint,
}

impl SpawnedServer {
    /// Starts `proxima serve` (the binary of [`super::server_binary`]) and
    /// waits (up to 3 minutes: the first start runs initdb) until `/readyz`
    /// answers 200.
    pub fn start(
        server_binary: Option<&Path>,
        threads: proxima_core::parallel::Threads,
    ) -> Result<SpawnedServer> {
        let exe = super::server_binary(server_binary)?;
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .context("finding a free port")?
            .port();
        let key = format!("bench-{:032x}", rand::random::<u128>());
        let dir = std::env::temp_dir().join(format!(
            "proxima-bench-{}-{}",
            std::process::id(),
            rand::random::<u32>()
        ));
        std::fs::create_dir_all(&dir)?;
        // The cluster runs as an unprivileged account when we are root: it
        // must be able to enter the directory.
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755))?;
        }
        let log = std::fs::File::create(dir.join("server.log"))?;
        let child = Command::new(&exe)
            .arg("serve")
            .arg("--bind")
            .arg(format!("127.0.0.1:{port}"))
            .arg("--data-dir")
            .arg(dir.join("data"))
            .arg("--bootstrap-key")
            .arg(&key)
            .arg("--job-threads")
            .arg(threads.get().to_string())
            .env_remove("DATABASE_URL")
            .env("PROXIMA_LOG_FORMAT", "text")
            .stdin(Stdio::null())
            .stdout(log.try_clone()?)
            .stderr(log)
            .spawn()
            .with_context(|| format!("spawning {} serve", exe.display()))?;
        let server = SpawnedServer {
            child,
            dir,
            endpoint: Endpoint {
                base: format!("http://127.0.0.1:{port}"),
                key,
            },
        };
        server.wait_ready(Duration::from_secs(180))?;
        Ok(server)
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The server's peak RSS so far.
    pub fn peak_rss(&self) -> Option<u64> {
        rss::peak_rss(&self.pid().to_string())
    }

    fn log_tail(&self) -> String {
        let log = std::fs::read_to_string(self.dir.join("server.log")).unwrap_or_default();
        let lines: Vec<&str> = log.lines().collect();
        lines[lines.len().saturating_sub(15)..].join("\n")
    }

    fn wait_ready(&self, limit: Duration) -> Result<()> {
        let url = format!("{}/readyz", self.endpoint.base);
        let start = Instant::now();
        while start.elapsed() < limit {
            if let Ok(Some(status)) = status_of(&url) {
                if status == 200 {
                    return Ok(());
                }
            }
            if let Some(pid_status) = self.exited() {
                bail!(
                    "the spawned server exited ({pid_status}) before it was ready:\n{}",
                    self.log_tail()
                );
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        bail!(
            "the spawned server was not ready within {:?}:\n{}",
            limit,
            self.log_tail()
        )
    }

    fn exited(&self) -> Option<String> {
        // try_wait needs &mut; /proc tells whether the pid still runs.
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.pid())).ok();
        match stat {
            None => Some("gone".to_string()),
            Some(s) if s.split_whitespace().nth(2) == Some("Z") => Some("exited".to_string()),
            Some(_) => None,
        }
    }
}

impl Drop for SpawnedServer {
    fn drop(&mut self) {
        // SAFETY: signalling our own child by its pid.
        unsafe {
            libc::kill(self.child.id() as libc::pid_t, libc::SIGTERM);
        }
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) => break,
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(100))
                }
                _ => {
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    break;
                }
            }
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A blocking HTTP/1.1 status probe (no async runtime while waiting);
/// `None` while nothing answers.
fn status_of(url: &str) -> Result<Option<u16>> {
    let rest = url
        .strip_prefix("http://")
        .ok_or_else(|| anyhow!("not http"))?;
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    use std::io::{Read, Write};
    let mut s = match std::net::TcpStream::connect(host) {
        Ok(s) => s,
        Err(_) => return Ok(None),
    };
    s.set_read_timeout(Some(Duration::from_secs(5)))?;
    write!(
        s,
        "GET /{path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )?;
    let mut head = [0u8; 12];
    if s.read_exact(&mut head).is_err() {
        return Ok(None);
    }
    let code = std::str::from_utf8(&head[9..12])
        .ok()
        .and_then(|c| c.parse().ok());
    Ok(code)
}

/// One timed pass: the seconds from the upload's first byte to the last
/// byte of the downloaded CSV, and what the server said.
struct Pass {
    seconds: f64,
    /// The pass's phases as the client saw them: upload (until the
    /// dataset's answer), job (until the poll sees it settled), download.
    phases: [f64; 3],
    dataset: Value,
    job: Value,
    csv_rows: usize,
}

async fn expect_json(res: reqwest::Response, what: &str) -> Result<Value> {
    let status = res.status();
    let body = res.text().await?;
    if !status.is_success() {
        bail!("{what}: HTTP {status}: {body}");
    }
    serde_json::from_str(&body).with_context(|| format!("{what}: not JSON: {body}"))
}

async fn pass(
    client: &reqwest::Client,
    ep: &Endpoint,
    up: &Upload,
    schema: &[u8],
    model: &Value,
    metric: Option<&Value>,
    suppression_limit: f64,
) -> Result<Pass> {
    let auth = format!("Bearer {}", ep.key);
    // Build the form (copies of the bytes) before the clock starts.
    let mut form = Form::new()
        .part(
            "schema",
            Part::bytes(schema.to_vec()).mime_str("application/json")?,
        )
        .part(
            "data",
            Part::bytes(up.csv.clone())
                .file_name("data.csv")
                .mime_str("text/csv")?,
        );
    for (column, bytes) in &up.hierarchies {
        form = form.part(
            format!("hierarchy:{column}"),
            Part::bytes(bytes.clone())
                .file_name(format!("{column}.csv"))
                .mime_str("text/csv")?,
        );
    }
    let start = Instant::now();
    let res = client
        .post(format!("{}/v1/datasets", ep.base))
        .header("Authorization", &auth)
        .multipart(form)
        .send()
        .await?;
    let dataset = expect_json(res, "upload").await?;
    let uploaded = start.elapsed().as_secs_f64();
    let dataset_id = dataset["id"]
        .as_str()
        .ok_or_else(|| anyhow!("upload: no id in {dataset}"))?
        .to_string();
    let mut body = json!({"dataset_id": dataset_id, "model": model});
    if let Some(m) = metric {
        body["sensitive_metric"] = m.clone();
    }
    if suppression_limit > 0.0 {
        body["suppression_limit"] = json!(suppression_limit);
    }
    let res = client
        .post(format!("{}/v1/jobs", ep.base))
        .header("Authorization", &auth)
        .json(&body)
        .send()
        .await?;
    let job = expect_json(res, "job").await?;
    let job_id = job["id"]
        .as_str()
        .ok_or_else(|| anyhow!("job: no id in {job}"))?
        .to_string();
    let job = loop {
        let res = client
            .get(format!("{}/v1/jobs/{job_id}", ep.base))
            .header("Authorization", &auth)
            .send()
            .await?;
        let job = expect_json(res, "poll").await?;
        match job["status"].as_str() {
            Some("queued" | "running") => {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            _ => break job,
        }
    };
    let settled = start.elapsed().as_secs_f64();
    if job["status"] != "succeeded" {
        return Ok(Pass {
            seconds: settled,
            phases: [uploaded, settled - uploaded, 0.0],
            dataset,
            job,
            csv_rows: 0,
        });
    }
    let res = client
        .get(format!("{}/v1/jobs/{job_id}/result", ep.base))
        .header("Authorization", &auth)
        .header("Accept", "text/csv")
        .send()
        .await?;
    let status = res.status();
    let csv = res.bytes().await?;
    let seconds = start.elapsed().as_secs_f64();
    if !status.is_success() {
        bail!("result: HTTP {status}");
    }
    let csv_rows = csv
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        .saturating_sub(1);
    Ok(Pass {
        seconds,
        phases: [uploaded, settled - uploaded, seconds - settled],
        dataset,
        job,
        csv_rows,
    })
}

/// A pass's phases in seconds, with the server's own account of the job
/// (the worker's clock, from claim to settlement): the service-side
/// figure for comparing thread counts.
fn phases_of(p: &Pass) -> String {
    let at = |k: &str| {
        p.job[k]
            .as_str()
            .and_then(|t| chrono::DateTime::parse_from_rfc3339(t).ok())
    };
    let own = match (at("started_at"), at("finished_at")) {
        (Some(a), Some(b)) => format!("{:.3} s", (b - a).num_milliseconds() as f64 / 1e3),
        _ => "-".to_string(),
    };
    let [u, j, d] = p.phases;
    format!("{u:.3} / {j:.3} / {d:.3} s, {own}")
}

/// The job's audit (untimed): whether its own model and k-anonymity passed.
async fn audit_of(client: &reqwest::Client, ep: &Endpoint, job_id: &str) -> Result<Value> {
    let res = client
        .get(format!("{}/v1/jobs/{job_id}/audit", ep.base))
        .header("Authorization", format!("Bearer {}", ep.key))
        .send()
        .await?;
    expect_json(res, "audit").await
}

async fn delete_dataset(client: &reqwest::Client, ep: &Endpoint, id: &str) {
    let _ = client
        .delete(format!("{}/v1/datasets/{id}", ep.base))
        .header("Authorization", format!("Bearer {}", ep.key))
        .send()
        .await;
}

/// Runs an HTTP case against `external`, or against a server spawned
/// from `server_binary` (see [`super::server_binary`]) for this case alone (so its peak RSS is this case's).
pub fn run_http(
    case: &Case,
    plan: Plan,
    external: Option<&Endpoint>,
    server_binary: Option<&Path>,
    threads: proxima_core::parallel::Threads,
) -> CaseResult {
    let mut r = blank(case, plan);
    let outcome = (|| -> Result<()> {
        let Work::Http {
            model,
            metric,
            spec,
        } = &case.work
        else {
            bail!("not an HTTP case");
        };
        let up = data::upload(case.source)?;
        let schema = up.schema_json()?;
        let spawned = match external {
            Some(_) => None,
            None => Some(SpawnedServer::start(server_binary, threads)?),
        };
        let ep = external
            .cloned()
            .or_else(|| spawned.as_ref().map(|s| s.endpoint.clone()))
            .expect("an endpoint");
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        rt.block_on(async {
            let client = reqwest::Client::builder()
                .timeout(Duration::from_secs(600))
                .build()?;
            let mut seconds = Vec::new();
            let mut phases: Vec<String> = Vec::new();
            let mut last = None;
            for i in 0..plan.warmup + plan.runs {
                let p = pass(
                    &client,
                    &ep,
                    &up,
                    &schema,
                    model,
                    metric.as_ref(),
                    spec.suppression_limit.get(),
                )
                .await?;
                if i >= plan.warmup {
                    seconds.push(p.seconds);
                    phases.push(phases_of(&p));
                }
                if let Some(prev) = last.replace(p) {
                    let prev: Pass = prev;
                    if let Some(id) = prev.dataset["id"].as_str() {
                        delete_dataset(&client, &ep, id).await;
                    }
                }
            }
            let p = last.expect("at least one pass");
            if let Some(s) = Stats::of(&seconds) {
                r.median_s = Some(s.median);
                r.min_s = Some(s.min);
                r.max_s = Some(s.max);
            }
            r.seconds = seconds;
            r.notes.push(format!(
                "each timed pass: upload / job / download, and the job's own \
                 started_at → finished_at: {}",
                phases.join("; ")
            ));
            r.rows = p.dataset["rows"].as_u64().map(|n| n as usize);
            if let Some(rows) = case.stated.rows {
                let got = r.rows.unwrap_or(0);
                r.stated.push(StatedFigure {
                    figure: "rows".to_string(),
                    stated: rows as f64,
                    computed: got as f64,
                    matches: rows == got,
                });
            }
            let job_id = p.job["id"].as_str().unwrap_or_default().to_string();
            if p.job["status"] == "succeeded" {
                let s = &p.job["summary"];
                r.groups = s["groups"].as_u64().map(|n| n as usize);
                r.min_group_size = s["min_group_size"].as_u64().map(|n| n as usize);
                r.gcp = s["information_loss"].as_f64();
                let published = s["published_rows"].as_u64().unwrap_or(0) as usize;
                if published != p.csv_rows {
                    r.notes.push(format!(
                        "the CSV has {} rows, the summary says {published}",
                        p.csv_rows
                    ));
                }
                let audit = audit_of(&client, &ep, &job_id).await?;
                let checks = audit["checks"].as_array().cloned().unwrap_or_default();
                r.checks = checks
                    .iter()
                    .map(|c| CheckOutcome {
                        kind: c["kind"].as_str().unwrap_or("?").to_string(),
                        passed: c["passed"] == true,
                    })
                    .collect();
                r.model_satisfied =
                    Some(!r.checks.is_empty() && r.checks.iter().take(2).all(|c| c.passed));
                r.notes.push(
                    "query error is not measured over HTTP (see the in-process twin)".to_string(),
                );
            } else {
                let err = &p.job["error"];
                if err["code"] == "model_not_satisfied" {
                    r.model_satisfied = Some(false);
                }
                r.error = Some(format!("job {}: {}", p.job["status"], err));
            }
            if let Some(id) = p.dataset["id"].as_str() {
                delete_dataset(&client, &ep, id).await;
            }
            anyhow::Ok(())
        })?;
        if let Some(server) = &spawned {
            r.peak_rss_bytes = server.peak_rss();
            r.rss_scope = Some(format!(
                "server process (spawned `proxima serve`, {} upload+job passes)",
                plan.warmup + plan.runs
            ));
        } else {
            r.notes
                .push("external server: its peak RSS is not measured".to_string());
        }
        Ok(())
    })();
    if let Err(e) = outcome {
        r.error = Some(format!("{e:#}"));
    }
    r.settle();
    r
}
