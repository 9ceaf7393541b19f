//! `proxima loadtest`: drives a running server the way a busy portal does.
//!
//! `--submitters` tasks loop: upload a dataset (a generated table, or the
//! given CSV + schema) → `POST /v1/jobs` → wait for the job → download the
//! result and check its row count. `--pollers` tasks hammer
//! `GET /v1/jobs/{id}` on the jobs submitted so far. Every request's
//! latency is recorded (exact percentiles over all samples) with its
//! status. When the time is up, every submitted job must have succeeded
//! (none lost, none failed, every result of the right size); the command
//! prints a table (or `--json`) and exits 1 on any 5xx, request without
//! response, unexpected status, lost or failed job, or wrong result.

pub mod stats;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use clap::Args;
use rand::Rng;
use reqwest::multipart::{Form, Part};
use serde::Serialize;
use serde_json::{json, Value};

use stats::{Samples, Summary};

/// `proxima loadtest`.
#[derive(Debug, Clone, Args)]
pub struct LoadtestArgs {
    /// The server's base URL.
    #[arg(
        long,
        env = "PROXIMA_LOADTEST_BASE",
        default_value = "http://127.0.0.1:8080"
    )]
    pub base: String,
    /// An API key of the server.
    #[arg(long, env = "PROXIMA_LOADTEST_KEY", hide_env_values = true)]
    pub key: String,
    /// Seconds of load; jobs still running then are waited for (`--settle`).
    #[arg(long, default_value_t = 60)]
    pub duration: u64,
    /// Concurrent `GET /v1/jobs/{id}` pollers.
    #[arg(long, default_value_t = 200)]
    pub pollers: usize,
    /// Concurrent upload → job → wait → download loops.
    #[arg(long, default_value_t = 10)]
    pub submitters: usize,
    /// Rows of the generated table (when no --data is given).
    #[arg(long, default_value_t = 200)]
    pub rows: usize,
    /// A CSV to upload instead of the generated table (with --schema).
    #[arg(long, requires = "schema")]
    pub data: Option<PathBuf>,
    /// The schema document of --data.
    #[arg(long, requires = "data")]
    pub schema: Option<PathBuf>,
    /// The job's model (JSON).
    #[arg(long, default_value = r#"{"kind": "k_anonymity", "k": 5}"#)]
    pub model: String,
    /// Seconds to wait, after the load, for submitted jobs to finish.
    #[arg(long, default_value_t = 300)]
    pub settle: u64,
    /// Print the report as JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

const POLL: &str = "GET /v1/jobs/{id}";
const WAIT: &str = "GET /v1/jobs/{id} (submitter wait)";
const UPLOAD: &str = "POST /v1/datasets";
const CREATE: &str = "POST /v1/jobs";
const RESULT: &str = "GET /v1/jobs/{id}/result";
const VERIFY: &str = "GET /v1/jobs/{id} (final check)";

/// Problems listed in the report (the rest are only counted).
const LISTED_FAILURES: usize = 20;

/// The load test's verdict and figures.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub base: String,
    pub duration_s: f64,
    pub pollers: usize,
    pub submitters: usize,
    pub endpoints: Vec<Summary>,
    pub uploads: u64,
    pub jobs_submitted: u64,
    pub jobs_succeeded: u64,
    /// Jobs that ended in another terminal state, by status.
    pub jobs_failed: BTreeMap<String, u64>,
    /// Jobs that were accepted but are gone (404) or never finished.
    pub jobs_lost: u64,
    pub results_checked: u64,
    pub server_errors: u64,
    pub transport_errors: u64,
    /// Problems found (the first few, described), counted in `problems`.
    pub problems: u64,
    pub failures: Vec<String>,
    pub passed: bool,
}

struct Input {
    schema: Vec<u8>,
    data: Vec<u8>,
    hierarchies: Vec<(String, Vec<u8>)>,
    model: Value,
}

struct Shared {
    client: reqwest::Client,
    base: String,
    key: String,
    input: Input,
    /// Jobs submitted so far (the pollers' targets).
    jobs: Mutex<Vec<String>>,
    samples: Mutex<BTreeMap<&'static str, Samples>>,
    problems: AtomicU64,
    failures: Mutex<Vec<String>>,
    uploads: AtomicU64,
    results_checked: AtomicU64,
}

impl Shared {
    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base.trim_end_matches('/'))
    }

    fn problem(&self, what: String) {
        self.problems.fetch_add(1, Ordering::Relaxed);
        let mut f = self.failures.lock().unwrap();
        if f.len() < LISTED_FAILURES {
            f.push(what);
        }
    }

    fn record(&self, endpoint: &'static str, samples: Samples) {
        self.samples
            .lock()
            .unwrap()
            .entry(endpoint)
            .or_default()
            .merge(samples);
    }

    /// Sends a request, reads the whole body, records latency and status.
    async fn send(
        &self,
        endpoint: &'static str,
        request: reqwest::RequestBuilder,
        local: Option<&mut Samples>,
    ) -> Option<(u16, bytes::Bytes)> {
        let started = Instant::now();
        let outcome = match request.bearer_auth(&self.key).send().await {
            Ok(res) => {
                let status = res.status().as_u16();
                res.bytes().await.map(|b| (status, b))
            }
            Err(e) => Err(e),
        };
        let latency = started.elapsed();
        let status = outcome.as_ref().ok().map(|(s, _)| *s);
        match local {
            Some(samples) => samples.record(latency, status),
            None => {
                let mut one = Samples::default();
                one.record(latency, status);
                self.record(endpoint, one);
            }
        }
        match outcome {
            Ok(r) => Some(r),
            Err(e) => {
                self.problem(format!("{endpoint}: no response: {e}"));
                None
            }
        }
    }

    /// `send` that expects one status and a JSON body.
    async fn expect_json(
        &self,
        endpoint: &'static str,
        request: reqwest::RequestBuilder,
        expected: u16,
    ) -> Option<Value> {
        let (status, body) = self.send(endpoint, request, None).await?;
        if status != expected {
            self.problem(format!(
                "{endpoint}: status {status} (expected {expected}): {}",
                String::from_utf8_lossy(&body[..body.len().min(300)])
            ));
            return None;
        }
        match serde_json::from_slice(&body) {
            Ok(v) => Some(v),
            Err(e) => {
                self.problem(format!("{endpoint}: the body is not JSON: {e}"));
                None
            }
        }
    }
}

fn is_terminal(status: &str) -> bool {
    matches!(status, "succeeded" | "failed" | "cancelled")
}

/// One submitter: upload → job → wait → download, until `deadline`.
async fn submitter(shared: Arc<Shared>, deadline: Instant, settle_until: Instant) {
    while Instant::now() < deadline {
        if submit_once(&shared, settle_until).await.is_none() {
            // Something went wrong (already recorded): don't spin on it.
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
}

async fn submit_once(shared: &Shared, settle_until: Instant) -> Option<()> {
    let input = &shared.input;
    let mut form = Form::new()
        .part(
            "schema",
            Part::bytes(input.schema.clone())
                .mime_str("application/json")
                .ok()?,
        )
        .part(
            "data",
            Part::bytes(input.data.clone()).file_name("data.csv"),
        );
    for (column, bytes) in &input.hierarchies {
        form = form.part(format!("hierarchy:{column}"), Part::bytes(bytes.clone()));
    }
    let request = shared
        .client
        .post(shared.url("/v1/datasets"))
        .multipart(form);
    let dataset = shared.expect_json(UPLOAD, request, 201).await?;
    shared.uploads.fetch_add(1, Ordering::Relaxed);
    let dataset_id = dataset["id"].as_str()?.to_string();
    let published = dataset["rows"].as_u64()? - dataset["suppressed_rows"].as_u64()?;

    let body = json!({"dataset_id": dataset_id, "model": input.model});
    let request = shared.client.post(shared.url("/v1/jobs")).json(&body);
    let job = shared.expect_json(CREATE, request, 202).await?;
    let id = job["id"].as_str()?.to_string();
    shared.jobs.lock().unwrap().push(id.clone());

    let path = format!("/v1/jobs/{id}");
    let status = loop {
        let request = shared.client.get(shared.url(&path));
        let job = shared.expect_json(WAIT, request, 200).await?;
        let status = job["status"].as_str().unwrap_or("").to_string();
        if is_terminal(&status) || Instant::now() > settle_until {
            break status;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    if status != "succeeded" {
        // The final check counts it; nothing to download.
        return Some(());
    }
    let request = shared
        .client
        .get(shared.url(&format!("/v1/jobs/{id}/result?format=json")));
    let result = shared.expect_json(RESULT, request, 200).await?;
    let rows = result["rows"].as_array().map_or(0, Vec::len) as u64;
    if rows == published {
        shared.results_checked.fetch_add(1, Ordering::Relaxed);
    } else {
        shared.problem(format!(
            "job {id}: the result has {rows} rows, the dataset publishes {published}"
        ));
    }
    Some(())
}

/// One poller: `GET /v1/jobs/{id}` on a random submitted job, as fast as
/// the server answers, until `deadline`.
async fn poller(shared: Arc<Shared>, deadline: Instant) {
    let mut samples = Samples::default();
    while Instant::now() < deadline {
        let id = {
            let jobs = shared.jobs.lock().unwrap();
            (!jobs.is_empty()).then(|| jobs[rand::thread_rng().gen_range(0..jobs.len())].clone())
        };
        let Some(id) = id else {
            tokio::time::sleep(Duration::from_millis(20)).await;
            continue;
        };
        let request = shared.client.get(shared.url(&format!("/v1/jobs/{id}")));
        if let Some((status, body)) = shared.send(POLL, request, Some(&mut samples)).await {
            if status != 200 {
                shared.problem(format!(
                    "{POLL}: status {status} for job {id}: {}",
                    String::from_utf8_lossy(&body[..body.len().min(300)])
                ));
            }
        }
    }
    shared.record(POLL, samples);
}

/// After the load: every submitted job must exist and have succeeded.
async fn verify(shared: &Shared, settle_until: Instant) -> (u64, BTreeMap<String, u64>, u64) {
    let ids = shared.jobs.lock().unwrap().clone();
    let (mut succeeded, mut failed, mut lost) = (0, BTreeMap::new(), 0);
    for id in ids {
        let path = format!("/v1/jobs/{id}");
        loop {
            let request = shared.client.get(shared.url(&path));
            let Some((status, body)) = shared.send(VERIFY, request, None).await else {
                lost += 1;
                break;
            };
            if status != 200 {
                shared.problem(format!("job {id} is lost: GET {path} returned {status}"));
                lost += 1;
                break;
            }
            let job: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
            let state = job["status"].as_str().unwrap_or("").to_string();
            if state == "succeeded" {
                succeeded += 1;
                break;
            }
            if is_terminal(&state) {
                shared.problem(format!("job {id} ended {state}: {}", job["error"]));
                *failed.entry(state).or_insert(0) += 1;
                break;
            }
            if Instant::now() > settle_until {
                shared.problem(format!("job {id} is still {state:?} after the settle time"));
                lost += 1;
                break;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
    (succeeded, failed, lost)
}

fn load_input(args: &LoadtestArgs) -> anyhow::Result<Input> {
    let model: Value = serde_json::from_str(&args.model).context("--model is not JSON")?;
    let (schema, data, hierarchies) = match (&args.data, &args.schema) {
        (Some(data), Some(schema)) => (
            std::fs::read(schema).with_context(|| format!("reading {}", schema.display()))?,
            std::fs::read(data).with_context(|| format!("reading {}", data.display()))?,
            Vec::new(),
        ),
        _ => proxima_testdata::sample::people(args.rows.max(1), false),
    };
    Ok(Input {
        schema,
        data,
        hierarchies,
        model,
    })
}

/// Runs the load test and builds its report.
pub async fn run(args: &LoadtestArgs) -> anyhow::Result<Report> {
    if args.submitters == 0 {
        bail!("--submitters must be at least 1 (the pollers poll the submitted jobs)");
    }
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(120))
        .build()
        .context("building the HTTP client")?;
    let shared = Arc::new(Shared {
        client,
        base: args.base.clone(),
        key: args.key.clone(),
        input: load_input(args)?,
        jobs: Mutex::new(Vec::new()),
        samples: Mutex::new(BTreeMap::new()),
        problems: AtomicU64::new(0),
        failures: Mutex::new(Vec::new()),
        uploads: AtomicU64::new(0),
        results_checked: AtomicU64::new(0),
    });
    let started = Instant::now();
    let deadline = started + Duration::from_secs(args.duration);
    let settle_until = deadline + Duration::from_secs(args.settle);
    let mut tasks = Vec::new();
    for _ in 0..args.submitters {
        tasks.push(tokio::spawn(submitter(
            shared.clone(),
            deadline,
            settle_until,
        )));
    }
    for _ in 0..args.pollers {
        tasks.push(tokio::spawn(poller(shared.clone(), deadline)));
    }
    for t in tasks {
        t.await.context("a load task panicked")?;
    }
    let duration_s = started.elapsed().as_secs_f64();
    let (jobs_succeeded, jobs_failed, jobs_lost) = verify(&shared, settle_until).await;

    let samples = shared.samples.lock().unwrap().clone();
    let order = [POLL, UPLOAD, CREATE, WAIT, RESULT, VERIFY];
    let endpoints: Vec<Summary> = order
        .iter()
        .filter_map(|e| samples.get(e).map(|s| s.summary(e)))
        .collect();
    let server_errors = endpoints.iter().map(Summary::server_errors).sum();
    let transport_errors = endpoints.iter().map(Summary::transport_errors).sum();
    let problems = shared.problems.load(Ordering::Relaxed);
    let jobs_submitted = shared.jobs.lock().unwrap().len() as u64;
    let failures = shared.failures.lock().unwrap().clone();
    Ok(Report {
        base: args.base.clone(),
        duration_s,
        pollers: args.pollers,
        submitters: args.submitters,
        endpoints,
        uploads: shared.uploads.load(Ordering::Relaxed),
        jobs_submitted,
        jobs_succeeded,
        passed: problems == 0 && server_errors == 0 && jobs_lost == 0 && jobs_failed.is_empty(),
        jobs_failed,
        jobs_lost,
        results_checked: shared.results_checked.load(Ordering::Relaxed),
        server_errors,
        transport_errors,
        problems,
        failures,
    })
}

impl Report {
    /// The human-readable report.
    pub fn table(&self) -> String {
        let mut out = format!(
            "load test of {} for {:.1} s: {} pollers, {} submitters\n\n",
            self.base, self.duration_s, self.pollers, self.submitters
        );
        out.push_str(&format!(
            "{:<36} {:>9} {:>9} {:>9} {:>9} {:>9}  statuses\n",
            "endpoint", "requests", "p50 ms", "p90 ms", "p99 ms", "max ms"
        ));
        for e in &self.endpoints {
            let statuses: Vec<String> =
                e.statuses.iter().map(|(k, v)| format!("{k}:{v}")).collect();
            out.push_str(&format!(
                "{:<36} {:>9} {:>9.2} {:>9.2} {:>9.2} {:>9.2}  {}\n",
                e.endpoint,
                e.requests,
                e.p50_ms,
                e.p90_ms,
                e.p99_ms,
                e.max_ms,
                statuses.join(" ")
            ));
        }
        out.push_str(&format!(
            "\nuploads {}, jobs submitted {}, succeeded {}, failed {:?}, lost {}, results checked {}\n\
             5xx responses {}, requests without response {}, problems {}\n",
            self.uploads,
            self.jobs_submitted,
            self.jobs_succeeded,
            self.jobs_failed,
            self.jobs_lost,
            self.results_checked,
            self.server_errors,
            self.transport_errors,
            self.problems
        ));
        for f in &self.failures {
            out.push_str(&format!("  problem: {f}\n"));
        }
        out.push_str(if self.passed { "PASSED\n" } else { "FAILED\n" });
        out
    }
}

/// The command: 0 when the run passed, 1 otherwise.
pub fn main(args: &LoadtestArgs, runtime: tokio::runtime::Runtime) -> ExitCode {
    match runtime.block_on(run(args)) {
        Ok(report) => {
            if args.json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&report).expect("a report serializes")
                );
            } else {
                print!("{}", report.table());
            }
            if report.passed {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(e) => {
            eprintln!("proxima loadtest: {e:#}");
            ExitCode::from(1)
        }
    }
}
