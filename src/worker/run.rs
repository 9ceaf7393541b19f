//! One claimed job: load its input, run the body on the blocking pool with a
//! heartbeat beside it, then settle the job as the lease holder.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use super::config::WorkerConfig;
use super::running::{RunningJobs, Stop, StopReason};
use super::{JobError, JobInput, JobOutput, JobRunner};
use crate::api::job_error::{JobErrorBody, INTERNAL_JOB_MESSAGE};
use crate::api::{JobParams, JobStatus};
use crate::store::jobs::JobRow;
use crate::store::queue::Beat;
use crate::store::Store;

/// State shared between the blocking body and the async side.
#[derive(Default)]
struct Shared {
    /// f64 bits of the last reported progress.
    progress: AtomicU64,
    /// Tells the body to stop at its next checkpoint.
    stop: AtomicBool,
    /// The user asked to cancel (as opposed to a lost lease or shutdown).
    user_cancel: AtomicBool,
    /// Another worker owns the job now: write nothing.
    lost: AtomicBool,
    /// The job passed its maximum run time (`WorkerConfig::max_run`).
    timed_out: AtomicBool,
}

impl Stop for Shared {
    fn stop(&self, why: StopReason) {
        match why {
            StopReason::UserCancel => self.user_cancel.store(true, Ordering::Relaxed),
            // Another worker may own the job's next attempt, or nobody (it
            // was deleted): either way this attempt writes nothing.
            StopReason::Lost => self.lost.store(true, Ordering::Relaxed),
        }
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Shared by the claim loop and the job tasks.
pub(crate) struct Ctx {
    pub store: Store,
    pub runner: Arc<dyn JobRunner>,
    pub config: WorkerConfig,
    /// Set after the grace period: running jobs hand themselves back.
    pub hand_back: tokio::sync::watch::Receiver<bool>,
    /// The jobs running here, for the cancels and deletions heard on
    /// `NOTIFY`.
    pub running: Arc<RunningJobs>,
}

/// Backoff for the n-th attempt: base · 2^(n−1), at most five minutes.
pub(crate) fn backoff(base: Duration, attempt: i32) -> Duration {
    let exp = attempt.clamp(1, 16) as u32 - 1;
    (base * 2u32.pow(exp)).min(Duration::from_secs(300))
}

/// One claimed job, from its input to its settlement: read its parameters
/// back from its row (a row that does not read back fails the job), load
/// the input, [`execute`] the body beside its heartbeat, decide the
/// [`verdict`], write the settlement as the lease holder, and [`record`]
/// it.
pub(crate) async fn attempt_job(ctx: Arc<Ctx>, job: JobRow) {
    let params = match JobParams::try_from(&job) {
        Ok(params) => params,
        Err(e) => {
            // Running it again would read the same row: the job fails.
            tracing::error!(
                job_id = %job.id,
                error = %e,
                "the job's stored parameters do not read back"
            );
            let settlement = Settlement::Failed(unreadable());
            let written = write_settlement(&ctx, &job, settlement).await;
            record(
                &job,
                JobStatus::Failed,
                written,
                std::time::Instant::now(),
                0,
            );
            return;
        }
    };
    // Reachable by a cancel or a deletion from the claim on: one heard
    // while the input loads is not lost (the heartbeat starts with the
    // body, a beat later).
    let shared = Arc::new(Shared::default());
    let _entered = ctx.running.enter(job.id, shared.clone());
    crate::fault::before_input_load().await;
    let input = match load_input(&ctx, &job, params).await {
        Ok(Some(input)) => input,
        Ok(None) => {
            // The dataset (and with it the job) was deleted meanwhile.
            tracing::info!(job_id = %job.id, "job's dataset is gone; dropping the job");
            return;
        }
        Err(e) => {
            tracing::warn!(job_id = %job.id, error = %e, "loading the job's input failed");
            settle_retry(&ctx, &job, "could not load the dataset; will retry").await;
            return;
        }
    };
    let rows = input.dataset.rows.max(0) as u64;
    let started = std::time::Instant::now();
    let Some((outcome, shared)) = execute(&ctx, &job, input, shared).await else {
        return;
    };
    match verdict(outcome, &shared, ctx.config.max_run, job.id) {
        Verdict::Retry(message) => settle_retry(&ctx, &job, &message).await,
        Verdict::Settle(settlement) => {
            let status = settlement.status();
            let written = write_settlement(&ctx, &job, settlement).await;
            record(&job, status, written, started, rows);
        }
    }
}

/// What the body returned: its output or error, or how its thread ended.
type Outcome = Result<Result<JobOutput, JobError>, tokio::task::JoinError>;

/// Runs the body on the blocking pool with the heartbeat and the run-time
/// limit beside it. `None` when there is nothing to write: shutdown handed
/// the job back, or the lease was lost (another worker owns the job).
async fn execute(
    ctx: &Arc<Ctx>,
    job: &JobRow,
    input: JobInput,
    shared: Arc<Shared>,
) -> Option<(Outcome, Arc<Shared>)> {
    if shared.stop.load(Ordering::Relaxed) {
        // Told to stop while the input loaded: the body does not start.
        drop(input);
        if shared.lost.load(Ordering::Relaxed) {
            tracing::warn!(job_id = %job.id, "job gone before its body started; nothing written");
            return None;
        }
        return Some((Ok(Err(JobError::Cancelled)), shared));
    }
    let heartbeat = tokio::spawn(heartbeat(ctx.clone(), job.id, shared.clone()));
    let deadline = super::time_limit::watch(ctx.config.max_run, {
        let shared = shared.clone();
        move || {
            shared.timed_out.store(true, Ordering::Relaxed);
            shared.stop.store(true, Ordering::Relaxed);
        }
    });

    let runner = ctx.runner.clone();
    let threads = ctx.config.threads;
    let body_shared = shared.clone();
    // Under the redacting panic hook: a panic message may quote a cell.
    let mut body = crate::telemetry::spawn_blocking_redacted(move || {
        let progress = |f: f64| {
            body_shared.progress.store(f.to_bits(), Ordering::Relaxed);
            !body_shared.stop.load(Ordering::Relaxed)
        };
        if !crate::fault::job_body_start(&input.dataset.name, &progress) {
            return Err(JobError::Cancelled);
        }
        // The core's forks run on a pool of the job's threads.
        proxima_core::parallel::with_threads(threads, || runner.run(input, &progress))
    });

    let mut hand_back = ctx.hand_back.clone();
    let outcome = tokio::select! {
        r = &mut body => r,
        _ = until_set(&mut hand_back) => {
            // Shutdown's grace is over: stop the body and give the job back.
            // The blocking thread finishes on its own; its output is dropped.
            shared.stop.store(true, Ordering::Relaxed);
            heartbeat.abort();
            deadline.abort();
            match ctx.store.hand_back_job(job.id, &ctx.config.owner).await {
                Ok(true) => tracing::info!(job_id = %job.id, "job handed back to the queue"),
                Ok(false) => {}
                Err(e) => tracing::warn!(job_id = %job.id, error = %e,
                    "handing back failed; the lease will expire"),
            }
            return None;
        }
    };
    heartbeat.abort();
    deadline.abort();
    if shared.lost.load(Ordering::Relaxed) {
        tracing::warn!(job_id = %job.id, "lease lost while running; result discarded");
        return None;
    }
    Some((outcome, shared))
}

/// How an attempt ends, decided before anything is written.
#[derive(Debug)]
enum Verdict {
    /// The job ends with this status.
    Settle(Settlement),
    /// A retryable error: back to the queue with backoff.
    Retry(String),
}

/// A job's final status and what is written with it.
#[derive(Debug)]
enum Settlement {
    Succeeded(Box<JobOutput>),
    /// Failed with this `Job.error`.
    Failed(serde_json::Value),
    /// The user asked to cancel.
    Cancelled,
}

impl Settlement {
    fn status(&self) -> JobStatus {
        match self {
            Settlement::Succeeded(_) => JobStatus::Succeeded,
            Settlement::Failed(_) => JobStatus::Failed,
            Settlement::Cancelled => JobStatus::Cancelled,
        }
    }
}

/// What the body's end means, from its outcome and the flags the
/// heartbeat and the time limit set.
fn verdict(
    outcome: Outcome,
    shared: &Shared,
    max_run: Option<Duration>,
    job_id: uuid::Uuid,
) -> Verdict {
    let settle = Verdict::Settle;
    match outcome {
        Ok(Ok(output)) => settle(Settlement::Succeeded(Box::new(output))),
        Ok(Err(JobError::Cancelled)) if shared.timed_out.load(Ordering::Relaxed) => {
            tracing::info!(%job_id, "job passed its maximum run time");
            settle(Settlement::Failed(super::time_limit::error(max_run)))
        }
        Ok(Err(JobError::Cancelled)) if shared.user_cancel.load(Ordering::Relaxed) => {
            settle(Settlement::Cancelled)
        }
        // Stopped without a user cancel (the body's own decision): a
        // failure, so that the job does not hang in `running`.
        Ok(Err(JobError::Cancelled)) => settle(Settlement::Failed(JobError::Cancelled.to_json())),
        Ok(Err(e @ JobError::Fatal { .. })) => {
            let error = e.to_json();
            tracing::info!(%job_id, error = %error["code"], "job failed");
            settle(Settlement::Failed(error))
        }
        Ok(Err(JobError::Retryable(message))) => {
            tracing::warn!(%job_id, %message, "job hit a retryable error");
            Verdict::Retry(message)
        }
        Err(join_error) => {
            // A panic in the body: the worker keeps serving, the job fails
            // with `internal` and no internals in its error. Its message may
            // quote a cell value: logged as a fingerprint.
            let error = crate::telemetry::join_error_summary(join_error);
            tracing::error!(%job_id, %error, "job body failed");
            settle(Settlement::Failed(
                JobErrorBody::internal(INTERNAL_JOB_MESSAGE).to_value(),
            ))
        }
    }
}

/// Writes the settlement as the lease holder: `Ok(false)` when the lease
/// was lost before the write (nothing written).
async fn write_settlement(ctx: &Ctx, job: &JobRow, settlement: Settlement) -> anyhow::Result<bool> {
    let (store, owner) = (&ctx.store, ctx.config.owner.as_str());
    match settlement {
        Settlement::Succeeded(output) => {
            store
                .complete_job(job.id, owner, &output.summary, &output.result)
                .await
        }
        Settlement::Failed(error) => {
            store
                .finish_job(job.id, owner, JobStatus::Failed, Some(&error))
                .await
        }
        Settlement::Cancelled => {
            store
                .finish_job(job.id, owner, JobStatus::Cancelled, None)
                .await
        }
    }
}

/// The settlement's log line and metrics.
fn record(
    job: &JobRow,
    status: JobStatus,
    written: anyhow::Result<bool>,
    started: std::time::Instant,
    rows: u64,
) {
    match written {
        Ok(true) => {
            crate::metrics::global().job_finished(
                job.algorithm.as_str(),
                status.as_str(),
                started.elapsed(),
                rows,
            );
            tracing::info!(job_id = %job.id, %status, "job settled")
        }
        Ok(false) => {
            tracing::warn!(job_id = %job.id, "lease lost before completion; nothing written")
        }
        Err(e) => tracing::warn!(job_id = %job.id, error = %e,
            "settling the job failed; its lease will expire and it will run again"),
    }
}

/// Resolves once the watch holds `true` (never if its sender is gone).
async fn until_set(rx: &mut tokio::sync::watch::Receiver<bool>) {
    if rx.wait_for(|v| *v).await.is_err() {
        std::future::pending::<()>().await;
    }
}

async fn settle_retry(ctx: &Ctx, job: &JobRow, message: &str) {
    let err = JobError::Retryable(message.to_string()).to_json();
    let delay = backoff(ctx.config.retry_base, job.attempts);
    match ctx
        .store
        .retry_job(job.id, &ctx.config.owner, &err, delay)
        .await
    {
        Ok(Some(status)) => tracing::info!(job_id = %job.id, %status, ?delay, "job rescheduled"),
        Ok(None) => tracing::warn!(job_id = %job.id, "lease lost before retry"),
        Err(e) => tracing::warn!(job_id = %job.id, error = %e, "rescheduling failed"),
    }
}

/// The `Job.error` of a job this version cannot run as stored: `internal`,
/// with no internals.
fn unreadable() -> serde_json::Value {
    JobErrorBody::internal(INTERNAL_JOB_MESSAGE).to_value()
}

async fn load_input(
    ctx: &Ctx,
    job: &JobRow,
    params: JobParams,
) -> anyhow::Result<Option<JobInput>> {
    let Some(dataset) = ctx.store.get_dataset(&job.tenant, job.dataset_id).await? else {
        return Ok(None);
    };
    let started = std::time::Instant::now();
    let crate::app::tables::Stored { files, population } =
        crate::app::tables::read(&ctx.store, &dataset, params.model.needs_population()).await?;
    tracing::info!(
        job_id = %job.id,
        bytes = files.table.as_ref().map_or(files.data.len(), Vec::len),
        ms = started.elapsed().as_secs_f64() * 1e3,
        "job input read"
    );
    Ok(Some(JobInput {
        job_id: job.id,
        tenant: job.tenant.clone(),
        params,
        population,
        sweep_id: job.sweep_id,
        attempt: job.attempts,
        dataset,
        files,
        job: job.clone(),
    }))
}

/// Extends the lease, writes progress, and watches for cancellation until
/// aborted. When no beat has succeeded for a whole lease (the database is
/// unreachable), the lease may have lapsed and another worker may own the
/// job: the body is stopped and its output discarded; the job runs again on
/// a new attempt once its lease has expired.
async fn heartbeat(ctx: Arc<Ctx>, job_id: uuid::Uuid, shared: Arc<Shared>) {
    let mut tick = tokio::time::interval(ctx.config.heartbeat);
    tick.tick().await;
    // When the last successful beat was sent (the claim counts as one: it
    // set the lease); the lease runs from the database's clock at about
    // that moment, so this errs on the safe side.
    let mut held_since = tokio::time::Instant::now();
    loop {
        tick.tick().await;
        let progress = f64::from_bits(shared.progress.load(Ordering::Relaxed));
        let sent = tokio::time::Instant::now();
        let beat = ctx
            .store
            .heartbeat(job_id, &ctx.config.owner, ctx.config.lease, progress);
        // A beat that cannot finish before the lease runs out is as good as
        // a failed one.
        let deadline = (held_since + ctx.config.lease).max(sent + ctx.config.heartbeat);
        let beat = match tokio::time::timeout_at(deadline, beat).await {
            Ok(b) => b,
            Err(_) => Err(anyhow::anyhow!("the heartbeat timed out")),
        };
        match beat {
            Ok(Beat::Held { cancel }) => {
                held_since = sent;
                if cancel {
                    shared.stop(StopReason::UserCancel);
                }
            }
            Ok(Beat::Lost) => {
                shared.stop(StopReason::Lost);
                return;
            }
            // A failed beat is not fatal: the next may succeed before the
            // lease runs out. Once it may have run out, the job is no
            // longer ours to finish.
            Err(e) => {
                if held_since.elapsed() >= ctx.config.lease {
                    tracing::warn!(%job_id, error = %e,
                        "heartbeats failed for a whole lease; giving the job up");
                    shared.stop(StopReason::Lost);
                    return;
                }
                tracing::warn!(%job_id, error = %e, "heartbeat failed")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cancelled() -> Outcome {
        Ok(Err(JobError::Cancelled))
    }

    fn failed_code(v: Verdict) -> String {
        match v {
            Verdict::Settle(Settlement::Failed(e)) => e["code"].as_str().unwrap().to_owned(),
            other => panic!("expected a failure, got {other:?}"),
        }
    }

    #[test]
    fn a_stop_is_a_timeout_a_cancel_or_a_failure_by_who_asked() {
        let id = uuid::Uuid::nil();
        let limit = Some(Duration::from_secs(5));
        let timed_out = Shared::default();
        timed_out.timed_out.store(true, Ordering::Relaxed);
        timed_out.user_cancel.store(true, Ordering::Relaxed);
        assert_eq!(
            failed_code(verdict(cancelled(), &timed_out, limit, id)),
            "job_timeout"
        );
        let user = Shared::default();
        user.user_cancel.store(true, Ordering::Relaxed);
        assert!(matches!(
            verdict(cancelled(), &user, limit, id),
            Verdict::Settle(Settlement::Cancelled)
        ));
        // The body stopped on its own: failed, never left `running`.
        let nobody = Shared::default();
        assert_eq!(
            failed_code(verdict(cancelled(), &nobody, limit, id)),
            "cancelled"
        );
    }

    #[test]
    fn errors_keep_their_code_and_retryable_ones_go_back() {
        let id = uuid::Uuid::nil();
        let fatal = JobError::Fatal {
            code: "model_not_satisfied".into(),
            message: "m".into(),
            details: serde_json::Value::Null,
        };
        let shared = Shared::default();
        assert_eq!(
            failed_code(verdict(Ok(Err(fatal)), &shared, None, id)),
            "model_not_satisfied"
        );
        let retry = verdict(Ok(Err(JobError::Retryable("db".into()))), &shared, None, id);
        assert!(matches!(retry, Verdict::Retry(m) if m == "db"));
    }

    #[tokio::test]
    async fn a_panic_is_an_internal_failure_without_its_message() {
        let join_error = tokio::spawn(async { panic!("cell value 4711") })
            .await
            .unwrap_err();
        let v = verdict(Err(join_error), &Shared::default(), None, uuid::Uuid::nil());
        match v {
            Verdict::Settle(Settlement::Failed(e)) => {
                assert_eq!(e["code"], "internal");
                assert!(!e.to_string().contains("4711"), "{e}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn backoff_doubles_and_caps() {
        let b = Duration::from_secs(2);
        assert_eq!(backoff(b, 1), Duration::from_secs(2));
        assert_eq!(backoff(b, 2), Duration::from_secs(4));
        assert_eq!(backoff(b, 4), Duration::from_secs(16));
        assert_eq!(backoff(b, 40), Duration::from_secs(300));
    }
}
