//! Offline cases: `proxima anonymize` as a user runs it, a whole process
//! from spawn to exit — reading the CSV, the job (partition, generalize,
//! self-audit in the attacker's view) and writing the release. The input is
//! written to plain files first (untimed): the CSV decompressed, the schema
//! as its JSON document, one file per hierarchy.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{anyhow, bail, Context, Result};
use serde_json::Value;

use super::cases::{Case, Work};
use super::data::{self, Upload};
use super::results::CaseResult;
use super::runner::{blank, Plan};
use super::stats::Stats;

/// The files `proxima anonymize` reads, and a folder of their own (the
/// release is written there; the folder is removed on drop).
pub(super) struct Inputs {
    dir: PathBuf,
    data: PathBuf,
    schema: PathBuf,
    hierarchies: Vec<(String, PathBuf)>,
}

impl Inputs {
    /// Files already on disk; `dir` (created, removed on drop) takes the
    /// release.
    pub(super) fn existing(
        dir: PathBuf,
        data: PathBuf,
        schema: PathBuf,
        hierarchies: Vec<(String, PathBuf)>,
    ) -> Inputs {
        Inputs {
            dir,
            data,
            schema,
            hierarchies,
        }
    }

    fn write(up: &Upload) -> Result<Inputs> {
        let dir =
            std::env::temp_dir().join(format!("proxima-bench-offline-{}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        let data = dir.join("data.csv");
        std::fs::write(&data, &up.csv)?;
        let schema = dir.join("schema.json");
        std::fs::write(&schema, up.schema_json()?)?;
        let mut hierarchies = Vec::new();
        for (i, (column, bytes)) in up.hierarchies.iter().enumerate() {
            let path = dir.join(format!("hierarchy-{i}.csv"));
            std::fs::write(&path, bytes)?;
            hierarchies.push((column.clone(), path));
        }
        Ok(Inputs {
            dir,
            data,
            schema,
            hierarchies,
        })
    }
}

impl Drop for Inputs {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// One run: wall seconds, the child's peak RSS and its summary line.
pub(super) struct Run {
    pub(super) seconds: f64,
    pub(super) peak_rss_bytes: Option<u64>,
    pub(super) summary: Value,
}

/// `proxima anonymize` once, from spawn to exit.
pub(super) fn run_once(exe: &Path, inputs: &Inputs, model: &Value, threads: usize) -> Result<Run> {
    let out = inputs.dir.join("release.csv");
    let mut cmd = Command::new(exe);
    cmd.arg("anonymize")
        .arg("--data")
        .arg(&inputs.data)
        .arg("--schema")
        .arg(&inputs.schema)
        .arg("--model")
        .arg(model.to_string())
        .arg("--out")
        .arg(&out)
        .arg("--threads")
        .arg(threads.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    for (column, path) in &inputs.hierarchies {
        cmd.arg("--hierarchy")
            .arg(format!("{column}={}", path.display()));
    }
    let start = Instant::now();
    let mut child = cmd
        .spawn()
        .with_context(|| format!("spawning {}", exe.display()))?;
    // The summary line is short: read stderr to its end (the child's
    // exit), then reap the child with its resource usage.
    let mut stderr = String::new();
    if let Some(mut pipe) = child.stderr.take() {
        use std::io::Read;
        pipe.read_to_string(&mut stderr)?;
    }
    let pid = child.id() as libc::pid_t;
    let (status, peak_rss_bytes) = wait_with_rusage(pid)?;
    let seconds = start.elapsed().as_secs_f64();
    if !status {
        bail!("proxima anonymize failed: {}", stderr.trim());
    }
    let summary = stderr
        .lines()
        .rev()
        .find_map(|l| serde_json::from_str::<Value>(l).ok())
        .ok_or_else(|| anyhow!("no summary line on stderr: {}", stderr.trim()))?;
    Ok(Run {
        seconds,
        peak_rss_bytes,
        summary,
    })
}

/// Waits for `pid` and returns (exited with 0, its peak RSS): `wait4`
/// gives the child's own `ru_maxrss`, which reading /proc cannot after
/// exit.
fn wait_with_rusage(pid: libc::pid_t) -> Result<(bool, Option<u64>)> {
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value to be overwritten.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waiting for our own child with valid out-pointers.
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    if r != pid {
        bail!("wait4 failed: {}", std::io::Error::last_os_error());
    }
    let ok = libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0;
    Ok((ok, Some(usage.ru_maxrss as u64 * 1024)))
}

/// Runs an offline case: warm-up and timed runs of the whole process.
pub fn run_offline(
    case: &Case,
    plan: Plan,
    server_binary: Option<&Path>,
    threads: proxima_core::parallel::Threads,
) -> CaseResult {
    let mut r = blank(case, plan);
    let outcome = (|| -> Result<()> {
        let Work::Offline { model } = &case.work else {
            bail!("not an offline case");
        };
        let exe = super::server_binary(server_binary)?;
        let up = data::upload(case.source)?;
        let inputs = Inputs::write(&up)?;
        let mut seconds = Vec::new();
        let mut peak = 0u64;
        let mut last = None;
        for i in 0..plan.warmup + plan.runs {
            let run = run_once(&exe, &inputs, model, threads.get())?;
            peak = peak.max(run.peak_rss_bytes.unwrap_or(0));
            if i >= plan.warmup {
                seconds.push(run.seconds);
            }
            last = Some(run.summary);
        }
        r.peak_rss_bytes = Some(peak);
        r.rss_scope = Some("the `proxima anonymize` process (largest run)".to_string());
        if let Some(s) = Stats::of(&seconds) {
            (r.median_s, r.min_s, r.max_s) = (Some(s.median), Some(s.min), Some(s.max));
        }
        r.seconds = seconds;
        let summary = last.expect("at least one run");
        let count = |k: &str| summary[k].as_u64().map(|v| v as usize);
        r.rows = count("rows");
        r.groups = count("groups");
        r.min_group_size = count("min_group_size");
        r.gcp = summary["information_loss"].as_f64();
        r.suppressed_by_model = count("suppressed_by_model");
        let over = summary["attacker_view"]["over_bound"].as_u64();
        r.attacker_over_bound = over.map(|v| v as usize);
        r.attacker_worst = summary["attacker_view"]["worst"].as_f64();
        // The CLI publishes only a release that passed its own audit.
        r.model_satisfied = Some(over == Some(0));
        r.notes.push(format!(
            "elapsed_ms of the last run's summary (the CLI's own clock, load to last byte): {}",
            summary["elapsed_ms"]
        ));
        Ok(())
    })();
    if let Err(e) = outcome {
        r.error = Some(format!("{e:#}"));
    }
    r.settle();
    r
}
