//! `proxima-tools bench`: the benchmark suite of `shared/BENCHMARKS.md`.
//!
//! * `cases`: every case (standard suite, colouring comparison, utility
//!   bar, server memory, peer counterparts, a tiny test case) and selection.
//! * `data`: a case's table (through `ingest::shared`) and upload bytes.
//! * `runner`: one in-process case (load, stated-figure checks, warm-up,
//!   timed runs of `run::run_job` or `audit::audit`, GCP and query error).
//! * `http`: the end-to-end cases over HTTP against a spawned server.
//! * `arx`: the ARX peer cases, ARX and `proxima anonymize` alternately.
//! * `peer`: a peer's pairs and ratios, the ARX cases' tables.
//! * `rss`: peak RSS from `/proc/<pid>/status`.
//! * `stats`, `report`: median/min/max, the table and the JSON document.
//!
//! Each case runs in its own child process (`proxima-tools bench --child`),
//! so its peak RSS is its own; `--in-process` runs them all here instead.
//! The HTTP cases spawn the `proxima` server binary ([`server_binary`]).

pub mod arx;
pub mod cases;
pub mod data;
pub mod http;
pub mod offline;
pub mod peer;
pub mod results;
pub mod rss;
pub mod runner;
pub mod stats;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;

use cases::{Case, Work};
use http::Endpoint;
use results::{CaseResult, Document, Machine};
use runner::Plan;

#[derive(Debug, Clone, Args)]
pub struct BenchArgs {
    /// A case to run (repeatable; see --list). Default: the suite (the
    /// standard cases, the colouring comparison, the utility bar, memory).
    #[arg(long = "case", value_name = "NAME")]
    pub cases: Vec<String>,
    /// Timed runs per case.
    #[arg(long, default_value_t = 5)]
    pub runs: usize,
    /// Untimed warm-up runs per case.
    #[arg(long, default_value_t = 1)]
    pub warmup: usize,
    /// Write the results as JSON here.
    #[arg(long, value_name = "PATH")]
    pub json: Option<PathBuf>,
    /// An external server for the HTTP cases (default: a `proxima serve`
    /// spawned per case on a private database).
    #[arg(long, value_name = "URL", requires = "key")]
    pub base: Option<String>,
    /// The `proxima` binary the HTTP cases spawn (without --base). Default:
    /// the `proxima` next to this executable, as `cargo build -p proxima -p
    /// proxima-tools` leaves them in one target directory.
    #[arg(long, value_name = "PATH", conflicts_with = "base")]
    pub server_binary: Option<PathBuf>,
    /// The API key for --base.
    #[arg(long, env = "PROXIMA_BENCH_KEY", hide_env_values = true)]
    pub key: Option<String>,
    /// Seconds a case may take in all before it is stopped and failed.
    #[arg(long, default_value_t = 1200)]
    pub timeout: u64,
    /// Run every case in this process (the peak RSS is then the process's
    /// running peak, not the case's own).
    #[arg(long)]
    pub in_process: bool,
    /// Threads per job: the in-process cases run inside a pool of this
    /// many threads, the spawned server gets `--job-threads`, the offline
    /// cases `--threads` (default: every core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// ARX for the peer cases (arx-*): the `classpath.txt` that
    /// `../shared/peers/arx/build.sh` writes, or its DEST folder. Without
    /// it (default /tmp/arx/classpath.txt absent) those cases are skipped.
    #[arg(long, value_name = "PATH", env = "PROXIMA_ARX_CLASSPATH")]
    pub arx: Option<PathBuf>,
    /// List the cases and exit.
    #[arg(long)]
    pub list: bool,
    /// Internal: run the one named case here and write its result to --json.
    #[arg(long, hide = true)]
    pub child: bool,
}

impl BenchArgs {
    fn plan(&self) -> Plan {
        Plan {
            warmup: self.warmup,
            runs: self.runs.max(1),
        }
    }

    /// `--threads`, or every core.
    pub fn threads(&self) -> proxima_core::parallel::Threads {
        proxima::threads_or_all_cores(self.threads)
    }

    fn endpoint(&self) -> Option<Endpoint> {
        self.base.as_ref().map(|base| Endpoint {
            base: base.trim_end_matches('/').to_string(),
            key: self.key.clone().unwrap_or_default(),
        })
    }
}

/// The `proxima` server binary the HTTP cases spawn: `explicit` (from
/// --server-binary) or the `proxima` next to this executable. An error that
/// says how to get one when it is absent.
pub fn server_binary(explicit: Option<&Path>) -> Result<PathBuf> {
    let path = match explicit {
        Some(p) => p.to_path_buf(),
        None => std::env::current_exe()
            .context("locating this executable")?
            .with_file_name("proxima"),
    };
    if !path.is_file() {
        bail!(
            "no proxima server binary at {}: build it next to this tool (`cargo build \
             --release -p proxima -p proxima-tools`), pass --server-binary PATH, or give \
             a running server with --base and --key",
            path.display()
        );
    }
    Ok(path)
}

/// Runs one case here, whatever its kind.
pub fn run_case(case: &Case, args: &BenchArgs) -> CaseResult {
    let threads = args.threads();
    let mut r = run_case_with(case, args, threads);
    r.threads = Some(threads.get());
    r
}

fn run_case_with(
    case: &Case,
    args: &BenchArgs,
    threads: proxima_core::parallel::Threads,
) -> CaseResult {
    match case.work {
        Work::Http { .. } => http::run_http(
            case,
            args.plan(),
            args.endpoint().as_ref(),
            args.server_binary.as_deref(),
            threads,
        ),
        Work::Arx(table) => arx::run_arx(
            case,
            table,
            args.plan(),
            args.arx.as_deref(),
            args.server_binary.as_deref(),
            threads,
        ),
        Work::Offline { .. } => {
            offline::run_offline(case, args.plan(), args.server_binary.as_deref(), threads)
        }
        _ => {
            // Loading, the warm-up and the runs, all on the job's pool.
            let mut r = proxima_core::parallel::with_threads(threads, || {
                runner::run_in_process(case, args.plan())
            });
            r.peak_rss_bytes = rss::own_peak_rss();
            r.rss_scope = Some(if args.in_process {
                "bench process (running peak over the cases so far)".to_string()
            } else {
                "case process (load + warm-up + runs)".to_string()
            });
            r
        }
    }
}

/// Runs a case in a child process (its own process group) with a time
/// limit, and reads the result it writes.
fn run_child(case: &Case, args: &BenchArgs, exe: &Path) -> CaseResult {
    let failed = |message: String| {
        let mut r = runner::blank(case, args.plan());
        r.error = Some(message);
        r.settle();
        r
    };
    let out = std::env::temp_dir().join(format!(
        "proxima-bench-{}-{}.json",
        std::process::id(),
        case.name.replace('/', "_")
    ));
    let _ = std::fs::remove_file(&out);
    let mut cmd = Command::new(exe);
    cmd.arg("bench")
        .arg("--child")
        .arg("--case")
        .arg(case.name)
        .arg("--runs")
        .arg(args.runs.to_string())
        .arg("--warmup")
        .arg(args.warmup.to_string())
        .arg("--json")
        .arg(&out);
    if let Some(base) = &args.base {
        cmd.arg("--base").arg(base);
    }
    if let Some(server) = &args.server_binary {
        cmd.arg("--server-binary").arg(server);
    }
    if let Some(arx) = &args.arx {
        cmd.arg("--arx").arg(arx);
    }
    if let Some(threads) = args.threads {
        cmd.arg("--threads").arg(threads.to_string());
    }
    if let Some(key) = &args.key {
        cmd.env("PROXIMA_BENCH_KEY", key);
    }
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => return failed(format!("spawning the case process: {e}")),
    };
    let pgid = child.id() as libc::pid_t;
    let limit = Duration::from_secs(args.timeout);
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if start.elapsed() < limit => std::thread::sleep(Duration::from_millis(100)),
            _ => break None,
        }
    };
    let Some(status) = status else {
        // SIGTERM first so a spawned server stops its database, then kill.
        // SAFETY: signalling the process group we created for this case.
        unsafe {
            libc::kill(-pgid, libc::SIGTERM);
        }
        let grace = Instant::now();
        while grace.elapsed() < Duration::from_secs(60) {
            if let Ok(Some(_)) = child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        // SAFETY: as above.
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
        let _ = child.wait();
        return failed(format!(
            "stopped after the {} s time limit (--timeout)",
            args.timeout
        ));
    };
    let read = std::fs::read(&out)
        .map_err(|e| anyhow!("{e}"))
        .and_then(|b| serde_json::from_slice::<CaseResult>(&b).map_err(|e| anyhow!("{e}")));
    let _ = std::fs::remove_file(&out);
    match read {
        Ok(r) => r,
        Err(e) => failed(format!(
            "the case process ended ({status}) without a result: {e}"
        )),
    }
}

fn commit() -> Option<String> {
    let out = Command::new("git")
        .args(["describe", "--always", "--dirty", "--abbrev=12"])
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn write_json(path: &Path, value: &impl serde::Serialize) -> Result<()> {
    let text = serde_json::to_string_pretty(value)?;
    std::fs::write(path, text + "\n").with_context(|| format!("writing {}", path.display()))
}

fn list() {
    for c in cases::all() {
        let target = c
            .target_seconds
            .map_or(String::new(), |t| format!(" (target ≤ {t} s)"));
        println!("{:<22} {:<10?} {}{target}", c.name, c.group, c.about);
    }
}

/// `proxima-tools bench`.
pub fn main(args: BenchArgs) -> ExitCode {
    match run(&args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("proxima-tools bench: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// Runs the selected cases; `Ok(false)` when any failed.
pub fn run(args: &BenchArgs) -> Result<bool> {
    if args.list {
        list();
        return Ok(true);
    }
    let selected = cases::select(&args.cases).map_err(|e| anyhow!(e))?;
    // A missing server binary fails the run up front, not case by case.
    let spawns_servers =
        args.base.is_none() && selected.iter().any(|c| matches!(c.work, Work::Http { .. }));
    if spawns_servers {
        server_binary(args.server_binary.as_deref())?;
    }
    if args.child {
        let [case] = selected.as_slice() else {
            bail!("--child runs exactly one --case");
        };
        let json = args.json.as_ref().context("--child needs --json")?;
        let r = run_case(case, args);
        write_json(json, &r)?;
        return Ok(r.passed);
    }
    if cfg!(debug_assertions) {
        eprintln!(
            "proxima-tools bench: this is a debug build; timings are not representative \
             (`cargo build --release -p proxima -p proxima-tools`, then \
             target/release/proxima-tools bench)"
        );
    }
    let exe = std::env::current_exe().context("locating the proxima-tools binary")?;
    let mut results = Vec::with_capacity(selected.len());
    for case in &selected {
        eprintln!(
            "proxima-tools bench: {} ({} warm-up + {} runs) …",
            case.name,
            args.warmup,
            args.plan().runs
        );
        let r = if args.in_process {
            run_case(case, args)
        } else {
            run_child(case, args, &exe)
        };
        match &r.skipped {
            Some(reason) => eprintln!("proxima-tools bench: {}: skipped: {reason}", r.case),
            None => eprintln!(
                "proxima-tools bench: {}: median {} s, {}",
                r.case,
                r.median_s.map_or("-".to_string(), |m| format!("{m:.4}")),
                if r.passed { "passed" } else { "FAILED" }
            ),
        }
        results.push(r);
    }
    println!("{}", results::table(&results));
    if let Some(path) = &args.json {
        let doc = Document {
            generated_at: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            command: std::env::args().collect::<Vec<_>>().join(" "),
            commit: commit(),
            machine: Machine::here(),
            cases: results.clone(),
        };
        write_json(path, &doc)?;
        eprintln!("proxima-tools bench: wrote {}", path.display());
    }
    Ok(results.iter().all(|r| r.passed))
}
