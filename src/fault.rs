//! Fault injection for the process-level fault tests (`tests/faults`).
//!
//! `PROXIMA_FAULT_INJECT` holds comma-separated faults:
//!
//! * `panic-on-dataset-name:<name>` — a job over the dataset named `<name>`
//!   panics in its body (on the blocking pool, like a bug in the core);
//! * `job-delay-ms:<ms>` — every job body waits `<ms>` before running,
//!   reporting progress 0 and stopping early when told to (cancel, lost
//!   lease, shutdown), so a test can act while a job is `running`;
//! * `result-commit-delay-ms:<ms>` — the completion transaction waits `<ms>`
//!   after writing the result and before committing, so a test can kill the
//!   process while the result is being stored;
//! * `claim-delay-ms:<ms>` — the worker waits `<ms>` after start-up before
//!   its first claim, so a test can kill it while a job is still `queued`;
//! * `input-load-delay-ms:<ms>` — a claimed job waits `<ms>` before its
//!   input is read, so a test can act while a job is `running` but its body
//!   has not started.
//!
//! It is honoured only in builds with the `fault-injection` cargo feature,
//! which the package's dev-dependency on itself turns on for `cargo test`
//! (so the binary the fault tests spawn has it). `cargo build` and release
//! builds do not: they ignore the variable and say so in their log, and the
//! hooks below compile to nothing, so production cannot trigger a fault.

use std::sync::OnceLock;
use std::time::Duration;

/// The environment variable read.
pub const ENV: &str = "PROXIMA_FAULT_INJECT";

/// The faults in force (all off by default).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Faults {
    pub panic_on_dataset_name: Option<String>,
    pub job_delay: Option<Duration>,
    pub result_commit_delay: Option<Duration>,
    pub claim_delay: Option<Duration>,
    pub input_load_delay: Option<Duration>,
}

impl Faults {
    /// Parses a `PROXIMA_FAULT_INJECT` value.
    pub fn parse(spec: &str) -> Result<Faults, String> {
        let mut f = Faults::default();
        for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (key, value) = item
                .split_once(':')
                .ok_or_else(|| format!("fault {item:?} has no `:<value>`"))?;
            let ms = || {
                value
                    .parse::<u64>()
                    .map(Duration::from_millis)
                    .map_err(|_| format!("fault {key:?} wants milliseconds, got {value:?}"))
            };
            match key {
                "panic-on-dataset-name" if !value.is_empty() => {
                    f.panic_on_dataset_name = Some(value.to_string())
                }
                "job-delay-ms" => f.job_delay = Some(ms()?),
                "result-commit-delay-ms" => f.result_commit_delay = Some(ms()?),
                "claim-delay-ms" => f.claim_delay = Some(ms()?),
                "input-load-delay-ms" => f.input_load_delay = Some(ms()?),
                _ => return Err(format!("unknown fault {item:?}")),
            }
        }
        Ok(f)
    }

    pub fn any(&self) -> bool {
        *self != Faults::default()
    }
}

fn read_env() -> Result<Faults, String> {
    let Some(spec) = std::env::var_os(ENV) else {
        return Ok(Faults::default());
    };
    if !cfg!(feature = "fault-injection") {
        return Ok(Faults::default());
    }
    Faults::parse(&spec.to_string_lossy())
}

static FAULTS: OnceLock<Result<Faults, String>> = OnceLock::new();

/// Reads the variable once; an invalid value is an error for `serve` to
/// report at start-up.
pub fn init() -> anyhow::Result<()> {
    let faults = FAULTS.get_or_init(read_env);
    match faults {
        Err(e) => anyhow::bail!("{ENV}: {e}"),
        Ok(f) if f.any() => {
            tracing::warn!(faults = ?f, "FAULT INJECTION ACTIVE (fault-injection feature, tests only)")
        }
        Ok(_) if std::env::var_os(ENV).is_some() => {
            tracing::warn!("{ENV} is ignored: this build has no fault-injection feature")
        }
        Ok(_) => {}
    }
    Ok(())
}

/// The faults in force (none when [`init`] found an invalid value).
pub fn get() -> &'static Faults {
    static NONE: Faults = Faults {
        panic_on_dataset_name: None,
        job_delay: None,
        result_commit_delay: None,
        claim_delay: None,
        input_load_delay: None,
    };
    if !cfg!(feature = "fault-injection") {
        return &NONE;
    }
    match FAULTS.get_or_init(read_env) {
        Ok(f) => f,
        Err(_) => &NONE,
    }
}

/// Called at the start of a job body (blocking). Returns false when the
/// job was told to stop during an injected delay.
pub fn job_body_start(dataset_name: &str, progress: &dyn Fn(f64) -> bool) -> bool {
    let f = get();
    if f.panic_on_dataset_name.as_deref() == Some(dataset_name) {
        panic!("injected fault: panic on dataset {dataset_name:?}");
    }
    if let Some(delay) = f.job_delay {
        // Tests wait for this line to know the body (not the input load) is
        // what is running when they inject their fault.
        tracing::warn!(?delay, "injected fault: job body delayed");
        let until = std::time::Instant::now() + delay;
        while std::time::Instant::now() < until {
            if !progress(0.0) {
                return false;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
    true
}

/// Called before a claimed job's input is read.
pub async fn before_input_load() {
    if let Some(d) = get().input_load_delay {
        // Tests wait for this line to know the job is claimed and loading.
        tracing::warn!(delay = ?d, "injected fault: input load delayed");
        tokio::time::sleep(d).await;
    }
}

/// Called inside the completion transaction, after the result is written
/// and before the commit.
pub async fn before_result_commit() {
    if let Some(d) = get().result_commit_delay {
        tracing::warn!(delay = ?d, "injected fault: delaying the result commit");
        tokio::time::sleep(d).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::assertions_on_constants)] // the constant is the build's configuration
    fn test_builds_carry_the_feature_through_the_self_dev_dependency() {
        // If this fails, `cargo test` builds the fault tests' binary
        // without fault injection and they would test nothing.
        assert!(cfg!(feature = "fault-injection"));
    }

    #[test]
    fn parses_every_fault_and_rejects_garbage() {
        let f = Faults::parse(
            "panic-on-dataset-name:boom, job-delay-ms:1500,result-commit-delay-ms:20,claim-delay-ms:7,input-load-delay-ms:9",
        )
        .unwrap();
        assert_eq!(f.panic_on_dataset_name.as_deref(), Some("boom"));
        assert_eq!(f.job_delay, Some(Duration::from_millis(1500)));
        assert_eq!(f.result_commit_delay, Some(Duration::from_millis(20)));
        assert_eq!(f.claim_delay, Some(Duration::from_millis(7)));
        assert_eq!(f.input_load_delay, Some(Duration::from_millis(9)));
        assert!(f.any());
        assert!(!Faults::parse("").unwrap().any());
        assert!(Faults::parse("job-delay-ms:soon").is_err());
        assert!(Faults::parse("reboot:now").is_err());
        assert!(Faults::parse("panic-on-dataset-name").is_err());
        assert!(Faults::parse("panic-on-dataset-name:").is_err());
    }
}
