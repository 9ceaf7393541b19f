//! The retention task of `proxima serve --retention-secs`: purges expired
//! datasets, jobs and results (`store::retention`) every
//! min(TTL / 4, 60 s) until the server stops. Every replica may run it;
//! the deletes are idempotent.

use std::time::Duration;

use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::store::Store;

/// Starts the task; it ends when `stop` turns true.
pub fn start(store: Store, ttl: Duration, mut stop: watch::Receiver<bool>) -> JoinHandle<()> {
    let period = (ttl / 4).clamp(Duration::from_secs(1), Duration::from_secs(60));
    tokio::spawn(async move {
        tracing::info!(ttl_secs = ttl.as_secs_f64(), "retention enabled");
        loop {
            match store.purge_expired(ttl).await {
                Ok(p) if p.jobs + p.datasets > 0 => {
                    tracing::info!(
                        jobs = p.jobs,
                        datasets = p.datasets,
                        "retention purged expired data"
                    )
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "retention pass failed; will retry"),
            }
            tokio::select! {
                _ = tokio::time::sleep(period) => {}
                _ = stop.wait_for(|v| *v) => return,
            }
        }
    })
}
