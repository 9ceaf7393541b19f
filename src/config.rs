//! Service configuration: clap flags with `PROXIMA_*` environment twins.

use proxima_core::parallel::Threads;
use std::net::SocketAddr;
use std::path::PathBuf;

use clap::Args;

/// Where the database is: `DATABASE_URL`, or a private cluster under
/// `<data-dir>/pg` when unset (docs/design.md §5).
#[derive(Debug, Clone, Args)]
pub struct DbArgs {
    /// PostgreSQL URL; when unset a private cluster runs under <data-dir>/pg.
    #[arg(long, env = "DATABASE_URL")]
    pub database_url: Option<String>,
    /// Directory for the private PostgreSQL cluster.
    #[arg(long, env = "PROXIMA_DATA_DIR", default_value = "./data")]
    pub data_dir: PathBuf,
}

/// `proxima serve`.
#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    #[command(flatten)]
    pub db: DbArgs,
    /// Address to listen on.
    #[arg(long, env = "PROXIMA_BIND", default_value = "127.0.0.1:8080")]
    pub bind: SocketAddr,
    /// Jobs run at once (default: the number of cores).
    #[arg(long, env = "PROXIMA_WORKERS")]
    pub workers: Option<usize>,
    /// Threads one job (or audit, feasibility check, report) may use
    /// (default: the number of cores). Jobs running at once share the cores.
    #[arg(long, env = "PROXIMA_JOB_THREADS", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub job_threads: Option<u32>,
    /// Largest accepted request body, in bytes (default 1 GiB).
    #[arg(long, env = "PROXIMA_MAX_BODY", default_value_t = 1 << 30)]
    pub max_body: usize,
    /// A key made to exist for tenant `default` at start-up.
    #[arg(long, env = "PROXIMA_BOOTSTRAP_KEY", hide_env_values = true)]
    pub bootstrap_key: Option<String>,
    /// Log format: `text` or `json`.
    #[arg(long, env = "PROXIMA_LOG_FORMAT", default_value = "text")]
    pub log_format: String,
    /// Seconds a graceful shutdown waits for running jobs.
    #[arg(long, env = "PROXIMA_SHUTDOWN_GRACE", default_value_t = 30)]
    pub shutdown_grace_secs: u64,
    /// Attempts a job gets before it fails for good (retryable errors, lost workers).
    #[arg(long, env = "PROXIMA_MAX_ATTEMPTS", default_value_t = 3)]
    pub max_attempts: i32,
    /// Seconds a request may take until its response starts (503
    /// `request_timeout`); not applied to result downloads, and uploads have
    /// their own limit.
    #[arg(long, env = "PROXIMA_REQUEST_TIMEOUT_SECS", default_value_t = 60,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub request_timeout_secs: u64,
    /// Seconds an upload may take, body and validation included (408
    /// `upload_timeout`).
    #[arg(long, env = "PROXIMA_UPLOAD_TIMEOUT_SECS", default_value_t = 3600,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub upload_timeout_secs: u64,
    /// Uploads in progress at once; more are refused (503 `too_many_uploads`).
    #[arg(long, env = "PROXIMA_MAX_CONCURRENT_UPLOADS", default_value_t = 16,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_concurrent_uploads: u64,
    /// Uploads one tenant may have in progress at once; more get 429
    /// `too_many_uploads`.
    #[arg(long, env = "PROXIMA_MAX_UPLOADS_PER_TENANT", default_value_t = crate::http::limits::DEFAULT_MAX_UPLOADS_PER_TENANT as u64,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_uploads_per_tenant: u64,
    /// Seconds an upload may send nothing before it is ended (408
    /// `upload_timeout`).
    #[arg(long, env = "PROXIMA_UPLOAD_IDLE_TIMEOUT_SECS", default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub upload_idle_timeout_secs: u64,
    /// Largest `hierarchy:<column>` part of an upload, in bytes (each is
    /// held in memory; larger parts get 413 `payload_too_large`).
    #[arg(long, env = "PROXIMA_MAX_HIERARCHY_BYTES", default_value_t = crate::http::limits::DEFAULT_MAX_HIERARCHY_BYTES)]
    pub max_hierarchy_bytes: usize,
    /// Columns a table may have (schema and CSV header); more is 422
    /// `invalid_parameters`.
    #[arg(long, env = "PROXIMA_MAX_COLUMNS", default_value_t = crate::http::limits::DEFAULT_MAX_COLUMNS as u64,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_columns: u64,
    /// Largest decompressed size of a gzip-compressed `data` part, in bytes
    /// (default: --max-body); larger is 413 `payload_too_large`.
    #[arg(long, env = "PROXIMA_MAX_DECOMPRESSED_BYTES")]
    pub max_decompressed_bytes: Option<u64>,
    /// Largest cell of an uploaded CSV, in bytes; larger is 413
    /// `record_too_large` naming the line and column.
    #[arg(long, env = "PROXIMA_MAX_CELL_BYTES", default_value_t = proxima_core::ingest::MAX_CELL_BYTES,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub max_cell_bytes: usize,
    /// Largest record (row) of an uploaded CSV, in bytes, checked as the
    /// bytes stream in; larger is 413 `record_too_large` naming the line.
    #[arg(long, env = "PROXIMA_MAX_RECORD_BYTES", default_value_t = proxima_core::ingest::MAX_RECORD_BYTES,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub max_record_bytes: usize,
    /// Checks one `POST /v1/audits` may ask for; more is 422
    /// `invalid_parameters`.
    #[arg(long, env = "PROXIMA_MAX_AUDIT_CHECKS", default_value_t = crate::http::limits::DEFAULT_MAX_AUDIT_CHECKS,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub max_audit_checks: usize,
    /// A token `GET /metrics` requires as `Authorization: Bearer <token>`
    /// (unset: /metrics is open; it shows counts over all tenants, no ids).
    #[arg(long, env = "PROXIMA_METRICS_TOKEN", hide_env_values = true)]
    pub metrics_token: Option<String>,
    /// Seconds a client has to send a request's header, from the
    /// connection's start or the end of the previous response (so also the
    /// idle keep-alive timeout); slower connections are closed.
    #[arg(long, env = "PROXIMA_HEADER_READ_TIMEOUT_SECS", default_value_t = 10,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub header_read_timeout_secs: u64,
    /// Connections kept open at once; a new one over the cap evicts the
    /// oldest connection with no request in flight.
    #[arg(long, env = "PROXIMA_MAX_CONNECTIONS", default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_connections: u64,
    /// The least average rate, in bytes per second, at which a request body
    /// must arrive once the grace period is over; slower bodies are ended
    /// with 408 `body_too_slow` (0: no minimum).
    #[arg(long, env = "PROXIMA_MIN_BODY_RATE", default_value_t = crate::http::body_rate::DEFAULT_MIN_BODY_RATE)]
    pub min_body_rate: u64,
    /// Seconds a request body may take before --min-body-rate applies.
    #[arg(long, env = "PROXIMA_BODY_RATE_GRACE_SECS", default_value_t = crate::http::body_rate::DEFAULT_BODY_RATE_GRACE_SECS)]
    pub body_rate_grace_secs: u64,
    /// Requests one tenant (all its API keys) may have in flight, from
    /// authentication until the response body is sent; more get 429
    /// `too_many_requests` before their body is read.
    #[arg(long, env = "PROXIMA_MAX_REQUESTS_PER_TENANT", default_value_t = crate::http::inflight::DEFAULT_MAX_REQUESTS_PER_TENANT as u64,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_requests_per_tenant: u64,
    /// Bytes the attacker's view of one audit (`POST /v1/audits`) may take
    /// for its candidate sets, checked before allocating; beyond is 422
    /// `attacker_view_too_large`.
    #[arg(long, env = "PROXIMA_MAX_ATTACKER_VIEW_BYTES", default_value_t = proxima_core::attacker::DEFAULT_VIEW_BUDGET_BYTES as u64,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_attacker_view_bytes: u64,
    /// Synchronous computations (feasibility, audits, job validation)
    /// running at once (default: the number of cores); more get 503
    /// `too_many_computations`.
    #[arg(long, env = "PROXIMA_MAX_COMPUTATIONS")]
    pub max_computations: Option<usize>,
    /// Synchronous computations one tenant may run at once (default: half
    /// of --max-computations, at least 1).
    #[arg(long, env = "PROXIMA_MAX_COMPUTATIONS_PER_TENANT")]
    pub max_computations_per_tenant: Option<usize>,
    /// Time-to-live of tenant data, in seconds: datasets and finished jobs
    /// (with their results) older than this are deleted by the service
    /// (unset: kept until deleted through the API).
    #[arg(long, env = "PROXIMA_RETENTION_SECS", value_parser = clap::value_parser!(u64).range(1..))]
    pub retention_secs: Option<u64>,
    /// Seconds a computation over a cap waits for a slot before its 503.
    #[arg(long, env = "PROXIMA_COMPUTATION_QUEUE_SECS", default_value_t = crate::http::compute::DEFAULT_QUEUE_WAIT_SECS)]
    pub computation_queue_secs: u64,
    /// Seconds a job may run (per attempt); longer jobs are stopped and fail
    /// with `job_timeout`.
    #[arg(long, env = "PROXIMA_MAX_JOB_SECS", default_value_t = 3600,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_job_secs: u64,
    /// Jobs one tenant may run at once over all replicas (0: no cap); with
    /// a cap below the number of workers, other tenants always find a free
    /// worker.
    #[arg(long, env = "PROXIMA_MAX_RUNNING_JOBS_PER_TENANT", default_value_t = 0)]
    pub max_running_jobs_per_tenant: u64,
    /// Jobs one tenant may have queued or running; more are refused (429
    /// `too_many_jobs`).
    #[arg(long, env = "PROXIMA_MAX_ACTIVE_JOBS_PER_TENANT", default_value_t = 100,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_active_jobs_per_tenant: u64,
    /// Seconds a claimed job stays ours without a heartbeat; after that
    /// another worker may take it over (a crashed worker's jobs resume).
    #[arg(long, env = "PROXIMA_LEASE_SECS", default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub lease_secs: u64,
    /// Milliseconds between heartbeats (lease extension, progress, cancel
    /// check); must be shorter than the lease.
    #[arg(long, env = "PROXIMA_HEARTBEAT_MS", default_value_t = 250,
          value_parser = clap::value_parser!(u64).range(10..))]
    pub heartbeat_ms: u64,
    /// Milliseconds an idle worker waits before looking for work when no
    /// NOTIFY woke it.
    #[arg(long, env = "PROXIMA_POLL_MS", default_value_t = 2000,
          value_parser = clap::value_parser!(u64).range(10..))]
    pub poll_ms: u64,
}

impl ServeArgs {
    /// The HTTP side's timeouts and upload cap.
    pub fn limits(&self) -> crate::http::limits::Limits {
        let mut l = crate::http::limits::Limits::new(
            std::time::Duration::from_secs(self.request_timeout_secs),
            std::time::Duration::from_secs(self.upload_timeout_secs),
            self.max_concurrent_uploads as usize,
        );
        l.max_hierarchy_bytes = self.max_hierarchy_bytes;
        l.max_active_jobs_per_tenant = self.max_active_jobs_per_tenant as usize;
        let computations = self.max_computations.unwrap_or(l.compute.max_global).max(1);
        l.compute = crate::http::compute::ComputeLimits::new(
            computations,
            self.max_computations_per_tenant
                .unwrap_or(computations.div_ceil(2)),
        );
        l.compute.queue_wait = std::time::Duration::from_secs(self.computation_queue_secs);
        l.compute.threads = self.job_threads();
        l.max_uploads_per_tenant = self.max_uploads_per_tenant as usize;
        l.upload_idle_timeout = std::time::Duration::from_secs(self.upload_idle_timeout_secs);
        l.max_columns = self.max_columns as usize;
        l.requests =
            crate::http::inflight::TenantRequests::new(self.max_requests_per_tenant as usize);
        l.max_view_bytes = self.max_attacker_view_bytes as usize;
        l.max_decompressed_bytes = self.max_decompressed_bytes.unwrap_or(self.max_body as u64);
        l.upload_blocks.max_cell = self.max_cell_bytes;
        l.upload_blocks.max_record = self.max_record_bytes;
        l.max_audit_checks = self.max_audit_checks;
        l.metrics_token = self
            .metrics_token
            .as_deref()
            .filter(|t| !t.is_empty())
            .map(Into::into);
        l
    }

    /// The accept loop's header timeout and connection cap.
    pub fn connection_limits(&self) -> crate::http::connections::ConnectionLimits {
        crate::http::connections::ConnectionLimits {
            header_read_timeout: std::time::Duration::from_secs(self.header_read_timeout_secs),
            max_connections: self.max_connections as usize,
            body_rate: crate::http::body_rate::BodyRate {
                min_rate: self.min_body_rate,
                grace: std::time::Duration::from_secs(self.body_rate_grace_secs),
            },
        }
    }

    /// Cross-flag checks clap cannot express: the heartbeat must come well
    /// inside the lease, or every job would lose its lease while running.
    pub fn validate(&self) -> Result<(), String> {
        if self.heartbeat_ms >= self.lease_secs.saturating_mul(1000) {
            return Err(format!(
                "--heartbeat-ms ({}) must be shorter than --lease-secs ({} s)",
                self.heartbeat_ms, self.lease_secs
            ));
        }
        if self.max_attempts < 1 {
            return Err(format!(
                "--max-attempts ({}) must be at least 1",
                self.max_attempts
            ));
        }
        Ok(())
    }

    /// The worker's timings from the flags.
    pub fn worker_config(&self) -> crate::worker::WorkerConfig {
        let mut c = crate::worker::WorkerConfig::new(self.workers());
        c.threads = self.job_threads();
        c.lease = std::time::Duration::from_secs(self.lease_secs);
        c.heartbeat = std::time::Duration::from_millis(self.heartbeat_ms);
        c.poll = std::time::Duration::from_millis(self.poll_ms);
        c.grace = std::time::Duration::from_secs(self.shutdown_grace_secs);
        c.max_run = Some(std::time::Duration::from_secs(self.max_job_secs));
        c.max_running_per_tenant = (self.max_running_jobs_per_tenant > 0)
            .then_some(self.max_running_jobs_per_tenant as usize);
        c
    }

    /// `--job-threads`, or every core.
    pub fn job_threads(&self) -> Threads {
        crate::threads_or_all_cores(self.job_threads)
    }

    pub fn workers(&self) -> usize {
        self.workers
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .max(1)
    }
}

/// `proxima migrate`.
#[derive(Debug, Clone, Args)]
pub struct MigrateArgs {
    #[command(flatten)]
    pub db: DbArgs,
}
