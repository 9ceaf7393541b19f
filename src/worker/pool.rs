//! The claim loop: one per process, running up to `workers` jobs at once.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{watch, Notify, Semaphore};
use tokio::task::JoinSet;

use super::config::WorkerConfig;
use super::run::{attempt_job, Ctx};
use super::running::{RunningJobs, StopReason};

use super::JobRunner;
use crate::store::{JobWakeups, Store, Wakeup};

/// A running worker; [`WorkerHandle::shutdown`] stops it gracefully.
pub struct WorkerHandle {
    shutdown: watch::Sender<bool>,
    task: tokio::task::JoinHandle<()>,
}

impl WorkerHandle {
    /// Stops claiming, lets running jobs finish within the grace period,
    /// hands back the rest, and returns when all job tasks are done.
    pub async fn shutdown(self) {
        let _ = self.shutdown.send(true);
        if let Err(e) = self.task.await {
            tracing::error!(error = %e, "the worker loop ended abnormally");
        }
    }
}

/// Starts the claim loop and the LISTEN task.
pub fn start(store: Store, runner: Arc<dyn JobRunner>, config: WorkerConfig) -> WorkerHandle {
    let (shutdown_tx, shutdown_rx) = watch::channel(false);
    let task = tokio::spawn(claim_loop(store, runner, config, shutdown_rx));
    WorkerHandle {
        shutdown: shutdown_tx,
        task,
    }
}

async fn claim_loop(
    store: Store,
    runner: Arc<dyn JobRunner>,
    config: WorkerConfig,
    mut shutdown: watch::Receiver<bool>,
) {
    let (hand_back_tx, hand_back_rx) = watch::channel(false);
    let wake = Arc::new(Notify::new());
    let running_jobs = Arc::new(RunningJobs::default());
    // Listening before the first claim: a cancel's notification reaches
    // every job claimed here (if LISTEN fails, polls and heartbeats carry
    // the news until the listener reconnects).
    let first = store.job_wakeups().await;
    let listener = tokio::spawn(listen(
        (store.clone(), first),
        (wake.clone(), running_jobs.clone()),
        shutdown.clone(),
    ));
    let slots = Arc::new(Semaphore::new(config.workers));
    let ctx = Arc::new(Ctx {
        store: store.clone(),
        runner,
        config: config.clone(),
        hand_back: hand_back_rx,
        running: running_jobs,
    });
    let mut running = JoinSet::new();
    let mut recent = crate::store::fairness::RecentTenants::default();
    tracing::info!(owner = %config.owner, workers = config.workers, "worker started");
    if let Some(delay) = crate::fault::get().claim_delay {
        tracing::warn!(?delay, "injected fault: delaying the first claim");
        tokio::select! {
            _ = tokio::time::sleep(delay) => {}
            _ = shutdown.changed() => {}
        }
    }
    loop {
        while running.try_join_next().is_some() {}
        if *shutdown.borrow() {
            break;
        }
        let permit = tokio::select! {
            p = slots.clone().acquire_owned() => p.expect("the semaphore is never closed"),
            _ = shutdown.changed() => break,
        };
        match store
            .claim_job_fairly(
                &config.owner,
                config.lease,
                config.max_running_per_tenant,
                &recent.order(),
            )
            .await
        {
            Ok(Some(job)) => {
                recent.served(&job.tenant);
                tracing::info!(job_id = %job.id, attempt = job.attempts, "job claimed");
                let ctx = ctx.clone();
                running.spawn(async move {
                    attempt_job(ctx, job).await;
                    drop(permit);
                });
                // There may be more work: look again at once.
                continue;
            }
            Ok(None) => drop(permit),
            Err(e) => {
                drop(permit);
                tracing::warn!(error = %e, "claiming a job failed; will retry");
            }
        }
        tokio::select! {
            _ = wake.notified() => {}
            _ = tokio::time::sleep(config.poll) => {}
            _ = shutdown.changed() => break,
        }
    }
    listener.abort();
    tracing::info!(running = running.len(), "worker stopping: no new claims");
    let drain = async { while running.join_next().await.is_some() {} };
    tokio::pin!(drain);
    tokio::select! {
        _ = &mut drain => {}
        _ = tokio::time::sleep(config.grace) => {
            tracing::warn!("grace period over: handing running jobs back to the queue");
            let _ = hand_back_tx.send(true);
            drain.await;
        }
    }
    tracing::info!("worker stopped");
}

/// Wakes the claim loop on `NOTIFY proxima_jobs` and stops a job running
/// here on `NOTIFY proxima_cancels` (cancelled) or `proxima_jobs_gone`
/// (deleted: nothing written); the poll interval and the heartbeat cover
/// any notification lost while reconnecting.
async fn listen(
    (store, first): (Store, anyhow::Result<JobWakeups>),
    (wake, running): (Arc<Notify>, Arc<RunningJobs>),
    mut shutdown: watch::Receiver<bool>,
) {
    let mut first = Some(first);
    loop {
        let connected = match first.take() {
            Some(first) => first,
            None => store.job_wakeups().await,
        };
        let mut wakeups = match connected {
            Ok(w) => w,
            Err(e) => {
                tracing::warn!(error = %e, "LISTEN failed; polling only");
                tokio::select! {
                    _ = tokio::time::sleep(Duration::from_secs(5)) => continue,
                    _ = shutdown.changed() => return,
                }
            }
        };
        loop {
            tokio::select! {
                n = wakeups.next() => match n {
                    Ok(Wakeup::Claimable) => wake.notify_one(),
                    Ok(Wakeup::Cancel(job)) => {
                        if running.stop(job, StopReason::UserCancel) {
                            tracing::info!(job_id = %job, "cancel heard; stopping the job");
                        }
                    }
                    Ok(Wakeup::Gone(job)) => {
                        if running.stop(job, StopReason::Lost) {
                            tracing::info!(job_id = %job, "the job was deleted; stopping it");
                        }
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "LISTEN connection lost; reconnecting");
                        break;
                    }
                },
                _ = shutdown.changed() => return,
            }
        }
    }
}
