//! Synchronous computations of a request (a feasibility answer, an audit,
//! a job's validation): bounded in number, and given up when nobody waits
//! for them any more.
//!
//! * **Caps**: at most `max_computations` run at once over the server and
//!   `max_computations_per_tenant` for one tenant; a request over either
//!   cap waits up to `queue_wait` for a slot (a burst of job creations is
//!   served in turn), then gets 503 `too_many_computations` with
//!   `Retry-After` instead of queueing on the blocking pool. A slot is held until the
//!   work has really stopped, not merely until the request is answered, so
//!   the caps bound the CPU and memory in use.
//! * **Cancellation**: the work runs with the core's progress callback; when
//!   the request's future is dropped — the request timeout fired, or the
//!   client went away — the callback starts answering "stop", and the work
//!   ends at its next checkpoint (the core checks a few times a second).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use axum::http::StatusCode;
use proxima_core::Progress;
use serde_json::json;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::error::ApiError;
use super::AppState;

/// Seconds a refused computation is told to wait.
pub const COMPUTE_RETRY_AFTER_SECS: u32 = 2;

/// Default seconds a computation over a cap waits for a slot.
pub const DEFAULT_QUEUE_WAIT_SECS: u64 = 10;

/// The caps on synchronous computations.
#[derive(Debug, Clone)]
pub struct ComputeLimits {
    pub max_global: usize,
    pub max_per_tenant: usize,
    /// How long a request over a cap waits for a slot before its 503.
    pub queue_wait: std::time::Duration,
    /// Threads one computation's core work may use (`--job-threads`).
    pub threads: proxima_core::parallel::Threads,
    global: Arc<Semaphore>,
    tenants: Arc<Mutex<HashMap<String, usize>>>,
}

impl ComputeLimits {
    pub fn new(max_global: usize, max_per_tenant: usize) -> Self {
        let max_global = max_global.max(1);
        ComputeLimits {
            max_global,
            max_per_tenant: max_per_tenant.max(1),
            queue_wait: std::time::Duration::from_secs(DEFAULT_QUEUE_WAIT_SECS),
            threads: proxima_core::parallel::Threads::ONE,
            global: Arc::new(Semaphore::new(max_global)),
            tenants: Arc::default(),
        }
    }

    /// Computations running now.
    pub fn running(&self) -> usize {
        self.max_global - self.global.available_permits()
    }

    /// A slot for one computation of `tenant`, or the refusal.
    fn slot(&self, tenant: &str) -> Result<Slot, ApiError> {
        let global = self
            .global
            .clone()
            .try_acquire_owned()
            .map_err(|_| busy(self.max_global, "max_computations"))?;
        let mut tenants = self.tenants.lock().unwrap_or_else(|p| p.into_inner());
        if tenants
            .get(tenant)
            .is_some_and(|&n| n >= self.max_per_tenant)
        {
            return Err(busy(self.max_per_tenant, "max_computations_per_tenant"));
        }
        *tenants.entry(tenant.to_string()).or_insert(0) += 1;
        Ok(Slot {
            _global: global,
            tenant: tenant.to_string(),
            tenants: self.tenants.clone(),
        })
    }
}

impl ComputeLimits {
    /// A slot of `tenant` held outside any request until the guard is
    /// dropped (tests take the caps' slots this way), or the refusal.
    pub fn hold(&self, tenant: &str) -> Result<impl Drop + Send, ApiError> {
        self.slot(tenant)
    }
}

impl Default for ComputeLimits {
    /// The defaults of `proxima serve`: as many as the machine has cores,
    /// half of them for one tenant (at least one).
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let mut limits = ComputeLimits::new(cores, cores.div_ceil(2));
        limits.threads = crate::all_cores();
        limits
    }
}

fn busy(limit: usize, name: &str) -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "too_many_computations",
        format!("{limit} computations of this kind are already running; retry shortly"),
    )
    .with_details(json!({ name: limit }))
    .with_retry_after(COMPUTE_RETRY_AFTER_SECS)
}

/// One running computation's hold on the caps.
struct Slot {
    _global: OwnedSemaphorePermit,
    tenant: String,
    tenants: Arc<Mutex<HashMap<String, usize>>>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut tenants = self.tenants.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = tenants.get_mut(&self.tenant) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                tenants.remove(&self.tenant);
            }
        }
    }
}

/// Sets the flag when the request's future is dropped.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// A computation admitted under the caps, not yet started. Take it
/// before loading the dataset: the load is most of a computation's memory,
/// so the caps bound memory only if nothing is loaded without a slot.
pub struct Computation {
    slot: Slot,
    threads: proxima_core::parallel::Threads,
}

/// Admits one computation of `tenant`, waiting up to the queue wait for a
/// slot, or refuses it (503). Waiting holds nothing but the request.
pub async fn begin(state: &AppState, tenant: &str) -> Result<Computation, ApiError> {
    let limits = &state.limits.compute;
    let deadline = tokio::time::Instant::now() + limits.queue_wait;
    loop {
        match limits.slot(tenant) {
            Ok(slot) => {
                return Ok(Computation {
                    slot,
                    threads: limits.threads,
                })
            }
            Err(refused) if tokio::time::Instant::now() >= deadline => return Err(refused),
            Err(_) => tokio::time::sleep(std::time::Duration::from_millis(25)).await,
        }
    }
}

/// A computation's slot, held by whatever still uses its memory (a
/// release being rendered into a download) and given back when dropped.
pub struct Held {
    _slot: Slot,
}

impl Computation {
    /// The slot alone, for work that outlives one blocking call (a
    /// download renders while the client reads).
    pub fn into_held(self) -> Held {
        Held { _slot: self.slot }
    }

    /// Runs `work` on the blocking pool (under the redacting panic hook);
    /// `work` gets the progress handle to pass to the core. `what` names
    /// the computation in logs.
    pub async fn run<T, E, F>(self, what: &'static str, work: F) -> Result<T, ApiError>
    where
        F: FnOnce(Progress<'_>) -> Result<T, E> + Send + 'static,
        T: Send + 'static,
        E: Into<ApiError> + Send + 'static,
    {
        let threads = self.threads;
        let slot = self.slot;
        let cancelled = Arc::new(AtomicBool::new(false));
        let _cancel_on_drop = CancelOnDrop(cancelled.clone());
        let done = crate::telemetry::spawn_blocking_redacted(move || {
            let _slot = slot;
            let keep_going = move |_: f64| !cancelled.load(Ordering::Relaxed);
            proxima_core::parallel::with_threads(threads, || work(Progress::new(&keep_going)))
        })
        .await
        .map_err(|e| ApiError::join(e, what))?;
        done.map_err(Into::into)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_capped_globally_and_per_tenant() {
        let c = ComputeLimits::new(3, 2);
        let a1 = c.slot("a").unwrap();
        let _a2 = c.slot("a").unwrap();
        let e = c.slot("a").err().unwrap();
        assert_eq!((e.status.as_u16(), e.code), (503, "too_many_computations"));
        assert_eq!(e.retry_after, Some(COMPUTE_RETRY_AFTER_SECS));
        let _b1 = c.slot("b").unwrap();
        assert_eq!(c.running(), 3);
        assert!(c.slot("b").is_err());
        drop(a1);
        assert!(c.slot("b").is_ok());
    }
}
