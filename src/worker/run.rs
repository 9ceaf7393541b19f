//! One claimed job: load its input, run the body on the blocking pool with a
//! heartbeat beside it, then settle the job as the lease holder.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde_json::json;

use super::pool::Ctx;
use super::{JobError, JobInput};
use crate::store::jobs::JobRow;
use crate::store::queue::Beat;

/// State shared between the blocking body and the async side.
#[derive(Default)]
pub(crate) struct Shared {
    /// f64 bits of the last reported progress.
    progress: AtomicU64,
    /// Tells the body to stop at its next checkpoint.
    pub(crate) stop: AtomicBool,
    /// The user asked to cancel (as opposed to a lost lease or shutdown).
    user_cancel: AtomicBool,
    /// Another worker owns the job now: write nothing.
    lost: AtomicBool,
    /// The job passed its maximum run time (`WorkerConfig::max_run`).
    pub(crate) timed_out: AtomicBool,
}

/// Backoff for the n-th attempt: base · 2^(n−1), at most five minutes.
pub(crate) fn backoff(base: Duration, attempt: i32) -> Duration {
    let exp = attempt.clamp(1, 16) as u32 - 1;
    (base * 2u32.pow(exp)).min(Duration::from_secs(300))
}

pub(crate) async fn run_job(ctx: Arc<Ctx>, job: JobRow) {
    let owner = ctx.config.owner.as_str();
    let store = &ctx.store;
    let input = match load_input(&ctx, &job).await {
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
    let shared = Arc::new(Shared::default());
    let heartbeat = tokio::spawn(heartbeat(ctx.clone(), job.id, shared.clone()));
    let deadline = super::time_limit::watch(ctx.config.max_run, shared.clone());

    let runner = ctx.runner.clone();
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
        runner.run(input, &progress)
    });

    let mut hand_back = ctx.hand_back.clone();
    let outcome = tokio::select! {
        r = &mut body => r,
        _ = until_set(&mut hand_back) => {
            // Shutdown's grace is over: stop the body and give the job back.
            // The blocking thread finishes on its own; its output is dropped.
            shared.stop.store(true, Ordering::Relaxed);
            heartbeat.abort();
            match store.hand_back_job(job.id, owner).await {
                Ok(true) => tracing::info!(job_id = %job.id, "job handed back to the queue"),
                Ok(false) => {}
                Err(e) => tracing::warn!(job_id = %job.id, error = %e,
                    "handing back failed; the lease will expire"),
            }
            return;
        }
    };
    heartbeat.abort();
    deadline.abort();
    if shared.lost.load(Ordering::Relaxed) {
        tracing::warn!(job_id = %job.id, "lease lost while running; result discarded");
        return;
    }

    let settled = match outcome {
        Ok(Ok(output)) => store
            .complete_job(job.id, owner, &output.summary, &output.result)
            .await
            .map(|done| (done, "succeeded")),
        Ok(Err(JobError::Cancelled)) if shared.timed_out.load(Ordering::Relaxed) => {
            let err = super::time_limit::error(ctx.config.max_run);
            tracing::info!(job_id = %job.id, "job passed its maximum run time");
            store
                .finish_job(job.id, owner, "failed", Some(&err))
                .await
                .map(|d| (d, "failed"))
        }
        Ok(Err(JobError::Cancelled)) => {
            if shared.user_cancel.load(Ordering::Relaxed) {
                store
                    .finish_job(job.id, owner, "cancelled", None)
                    .await
                    .map(|d| (d, "cancelled"))
            } else {
                // Stopped without a user cancel (the body's own decision):
                // treat as a failure so the job does not hang in `running`.
                let err = JobError::Cancelled.to_json();
                store
                    .finish_job(job.id, owner, "failed", Some(&err))
                    .await
                    .map(|d| (d, "failed"))
            }
        }
        Ok(Err(e @ JobError::Fatal { .. })) => {
            tracing::info!(job_id = %job.id, error = %e.to_json()["code"], "job failed");
            store
                .finish_job(job.id, owner, "failed", Some(&e.to_json()))
                .await
                .map(|d| (d, "failed"))
        }
        Ok(Err(JobError::Retryable(message))) => {
            tracing::warn!(job_id = %job.id, %message, "job hit a retryable error");
            settle_retry(&ctx, &job, &message).await;
            return;
        }
        Err(join_error) => {
            // A panic in the body: the worker keeps serving, the job fails
            // with `internal` and no internals in its error.
            // Its message may quote a cell value: logged as a fingerprint.
            let error = crate::telemetry::join_error_summary(join_error);
            tracing::error!(job_id = %job.id, %error, "job body failed");
            let err = json!({
                "code": "internal",
                "message": "the job failed with an internal error",
                "details": null
            });
            store
                .finish_job(job.id, owner, "failed", Some(&err))
                .await
                .map(|d| (d, "failed"))
        }
    };
    match settled {
        Ok((true, status)) => {
            crate::http::metrics::global().job_finished(
                &job.algorithm,
                status,
                started.elapsed(),
                rows,
            );
            tracing::info!(job_id = %job.id, status, "job settled")
        }
        Ok((false, _)) => {
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

async fn load_input(ctx: &Ctx, job: &JobRow) -> anyhow::Result<Option<JobInput>> {
    let Some(dataset) = ctx.store.get_dataset(&job.tenant, job.dataset_id).await? else {
        return Ok(None);
    };
    let files = ctx.store.dataset_files(&job.tenant, job.dataset_id).await?;
    Ok(Some(JobInput {
        job_id: job.id,
        tenant: job.tenant.clone(),
        model: job.model.clone(),
        algorithm: job.algorithm.clone(),
        sensitive_metric: job.sensitive_metric.clone(),
        xcolor: job.xcolor.clone(),
        suppression_limit: job.suppression_limit,
        attempt: job.attempts,
        dataset,
        files,
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
                    shared.user_cancel.store(true, Ordering::Relaxed);
                    shared.stop.store(true, Ordering::Relaxed);
                }
            }
            Ok(Beat::Lost) => {
                shared.lost.store(true, Ordering::Relaxed);
                shared.stop.store(true, Ordering::Relaxed);
                return;
            }
            // A failed beat is not fatal: the next may succeed before the
            // lease runs out. Once it may have run out, the job is no
            // longer ours to finish.
            Err(e) => {
                if held_since.elapsed() >= ctx.config.lease {
                    tracing::warn!(%job_id, error = %e,
                        "heartbeats failed for a whole lease; giving the job up");
                    shared.lost.store(true, Ordering::Relaxed);
                    shared.stop.store(true, Ordering::Relaxed);
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

    #[test]
    fn backoff_doubles_and_caps() {
        let b = Duration::from_secs(2);
        assert_eq!(backoff(b, 1), Duration::from_secs(2));
        assert_eq!(backoff(b, 2), Duration::from_secs(4));
        assert_eq!(backoff(b, 4), Duration::from_secs(16));
        assert_eq!(backoff(b, 40), Duration::from_secs(300));
    }
}
