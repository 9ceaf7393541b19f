//! The worker's tuning, read by the claim loop and by every job task.

use std::time::Duration;

use proxima_core::parallel::Threads;

/// Worker tuning; the defaults suit production, tests shorten the times.
#[derive(Debug, Clone)]
pub struct WorkerConfig {
    /// Jobs run at once (the blocking pool's width).
    pub workers: usize,
    /// Threads each job's core work may use (`--job-threads`).
    pub threads: Threads,
    /// How long a claim is valid without a heartbeat.
    pub lease: Duration,
    /// How often the lease is extended and progress written.
    pub heartbeat: Duration,
    /// How often an idle worker looks for work when no NOTIFY came.
    pub poll: Duration,
    /// How long graceful shutdown waits for running jobs before handing
    /// them back to the queue.
    pub grace: Duration,
    /// The first retry's delay; doubled per attempt, capped at 5 minutes.
    pub retry_base: Duration,
    /// This worker's identity in `lease_owner` (unique per process).
    pub owner: String,
    /// A job running longer than this is stopped and fails with
    /// `job_timeout` (None: no limit).
    pub max_run: Option<Duration>,
    /// Jobs one tenant may run at once over all replicas (None: no cap);
    /// see `store::fairness`.
    pub max_running_per_tenant: Option<usize>,
}

impl WorkerConfig {
    pub fn new(workers: usize) -> Self {
        WorkerConfig {
            workers: workers.max(1),
            threads: Threads::ONE,
            lease: Duration::from_secs(30),
            // Also the cancel check: a cancel lands within one beat plus the
            // core's next checkpoint, so well under a second.
            heartbeat: Duration::from_millis(250),
            poll: Duration::from_secs(2),
            grace: Duration::from_secs(30),
            retry_base: Duration::from_secs(2),
            owner: format!(
                "{}:{}:{}",
                hostname(),
                std::process::id(),
                uuid::Uuid::new_v4()
            ),
            max_run: None,
            max_running_per_tenant: None,
        }
    }
}

fn hostname() -> String {
    std::fs::read_to_string("/etc/hostname")
        .map(|s| s.trim().to_string())
        .ok()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "host".to_string())
}
