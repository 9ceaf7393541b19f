//! Request timeouts and the cap on concurrent uploads.
//!
//! Timeouts bound the time until a response's head is ready:
//! * ordinary requests get `request_timeout` (503 `request_timeout`);
//! * `POST /v1/datasets` gets the longer `upload_timeout` instead, since its
//!   handler streams the whole body in before answering (408
//!   `upload_timeout`);
//! * `GET /v1/jobs/{id}/result` gets none: rebuilding a large release comes
//!   before its first byte, and the streamed body itself is sent after the
//!   handler returned, so no timeout here could cut a long download anyway.
//!
//! Uploads hold one of `max_uploads` permits from the moment they are
//! authenticated until their answer; with none left the upload is refused
//! at once (503 `too_many_uploads`, `Retry-After`) before its body is read,
//! so a burst of large uploads cannot fill the disk and memory. One tenant
//! holds at most `max_uploads_per_tenant` of them (429 beyond), and an
//! upload that sends nothing for `upload_idle_timeout` is ended (408), so a
//! tenant's slow or stalled uploads cannot keep the others out.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{MatchedPath, Request, State};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde_json::json;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::error::ApiError;
use super::AppState;

/// The download route: no timeout.
pub const RESULT_ROUTE: &str = "/v1/jobs/{id}/result";
/// The upload route: the upload timeout.
pub const UPLOAD_ROUTE: &str = "/v1/datasets";
/// Seconds a refused upload is told to wait before trying again.
pub const UPLOAD_RETRY_AFTER_SECS: u32 = 5;

/// The largest `schema` part of an upload (a schema is a few KiB; a
/// larger one is not a schema).
pub const MAX_SCHEMA_BYTES: usize = 1 << 20;

/// The configurable limits of the HTTP side.
#[derive(Debug, Clone)]
pub struct Limits {
    pub request_timeout: Duration,
    pub upload_timeout: Duration,
    /// Uploads in progress at once (at least 1).
    pub max_uploads: usize,
    uploads: Arc<Semaphore>,
    /// The largest `hierarchy:<column>` part (each is held in memory).
    pub max_hierarchy_bytes: usize,
    /// Columns a table (schema and CSV header) may have.
    pub max_columns: usize,
    /// The largest decompressed size of a gzip-compressed `data` part.
    pub max_decompressed_bytes: u64,
    /// When set, `GET /metrics` needs `Authorization: Bearer <token>`.
    pub metrics_token: Option<Arc<str>>,
    /// Uploads one tenant may have in progress at once (at most
    /// `max_uploads`), so one tenant cannot take every upload slot.
    pub max_uploads_per_tenant: usize,
    /// An upload that sends nothing for this long is 408 `upload_timeout`
    /// (and frees its slot): a stalled client cannot hold a slot for the
    /// whole upload timeout.
    pub upload_idle_timeout: Duration,
    tenant_uploads: Arc<std::sync::Mutex<std::collections::HashMap<String, usize>>>,
    /// Jobs one tenant may have queued or running (`store::fairness`).
    pub max_active_jobs_per_tenant: usize,
    /// The memory budget of one attacker's view judged for `POST
    /// /v1/audits`, in bytes (`proxima_core::attacker::evaluate_within`).
    pub max_view_bytes: usize,
    /// Requests one tenant may have in flight (`http::inflight`).
    pub requests: super::inflight::TenantRequests,
    /// Caps on synchronous computations (`http::compute`).
    pub compute: super::compute::ComputeLimits,
    /// Where an upload's validation cuts the table into blocks (the block
    /// is what it holds in memory at once; not a flag: the default suits
    /// every table, tests make blocks small and count them with a tally),
    /// and the largest cell and record of an upload (`--max-cell-bytes`,
    /// `--max-record-bytes`).
    pub upload_blocks: proxima_core::ingest::BlockLimits,
    /// Checks one audit request may ask for (`--max-audit-checks`).
    pub max_audit_checks: usize,
}

/// Default cap on the checks of one audit request: far more than a
/// release is ever judged by, far fewer than would make one request run
/// for minutes.
pub const DEFAULT_MAX_AUDIT_CHECKS: usize = 64;

/// Default per-tenant upload cap.
pub const DEFAULT_MAX_UPLOADS_PER_TENANT: usize = 4;

/// One upload's hold on the global and its tenant's slots.
pub struct UploadPermit {
    _global: OwnedSemaphorePermit,
    tenant: String,
    counts: Arc<std::sync::Mutex<std::collections::HashMap<String, usize>>>,
}

impl Drop for UploadPermit {
    fn drop(&mut self) {
        let mut counts = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = counts.get_mut(&self.tenant) {
            *n -= 1;
            if *n == 0 {
                counts.remove(&self.tenant);
            }
        }
    }
}

/// Default cap on a hierarchy part (16 MiB: the largest shared hierarchy is
/// a few hundred KiB).
pub const DEFAULT_MAX_HIERARCHY_BYTES: usize = 16 << 20;
/// Default cap on the columns of a table.
pub const DEFAULT_MAX_COLUMNS: usize = 2048;

impl Limits {
    pub fn new(request_timeout: Duration, upload_timeout: Duration, max_uploads: usize) -> Self {
        let max_uploads = max_uploads.max(1);
        Limits {
            request_timeout,
            upload_timeout,
            max_uploads,
            uploads: Arc::new(Semaphore::new(max_uploads)),
            max_hierarchy_bytes: DEFAULT_MAX_HIERARCHY_BYTES,
            max_columns: DEFAULT_MAX_COLUMNS,
            max_decompressed_bytes: 1 << 30,
            metrics_token: None,
            max_uploads_per_tenant: DEFAULT_MAX_UPLOADS_PER_TENANT,
            upload_idle_timeout: Duration::from_secs(30),
            tenant_uploads: Arc::default(),
            max_active_jobs_per_tenant: 100,
            max_view_bytes: proxima_core::attacker::DEFAULT_VIEW_BUDGET_BYTES,
            requests: super::inflight::TenantRequests::default(),
            compute: super::compute::ComputeLimits::default(),
            upload_blocks: proxima_core::ingest::BlockLimits::default(),
            max_audit_checks: DEFAULT_MAX_AUDIT_CHECKS,
        }
    }

    /// A permit for one upload of `tenant`: refused (503) when every slot
    /// is taken, else (429) when the tenant has its share in progress.
    pub fn tenant_upload_permit(&self, tenant: &str) -> Result<UploadPermit, ApiError> {
        let per_tenant = self.max_uploads_per_tenant.max(1);
        let global = self.upload_permit()?;
        let mut counts = self
            .tenant_uploads
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        let held = counts.get(tenant).copied().unwrap_or(0);
        if held >= per_tenant {
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "too_many_uploads",
                format!(
                    "this tenant already has {held} uploads in progress, its limit; retry when \
                     one has finished"
                ),
            )
            .with_details(json!({"max_uploads_per_tenant": per_tenant}))
            .with_retry_after(UPLOAD_RETRY_AFTER_SECS));
        }
        *counts.entry(tenant.to_string()).or_insert(0) += 1;
        Ok(UploadPermit {
            _global: global,
            tenant: tenant.to_string(),
            counts: self.tenant_uploads.clone(),
        })
    }

    /// Uploads in progress now.
    pub fn uploads_in_progress(&self) -> usize {
        self.max_uploads - self.uploads.available_permits()
    }

    /// A permit for one upload, or the refusal.
    pub fn upload_permit(&self) -> Result<OwnedSemaphorePermit, ApiError> {
        self.uploads
            .clone()
            .try_acquire_owned()
            .map_err(|_| too_many_uploads(self.max_uploads))
    }
}

impl Default for Limits {
    /// 60 s per request, an hour per upload, 4 uploads at once (the
    /// defaults of `proxima serve`).
    fn default() -> Self {
        Limits::new(Duration::from_secs(60), Duration::from_secs(3600), 16)
    }
}

/// Refuses a new job when `tenant` has its quota of queued and running
/// jobs (checked before the costly validation).
pub async fn check_job_quota(state: &AppState, tenant: &str) -> Result<(), ApiError> {
    let max = state.limits.max_active_jobs_per_tenant.max(1);
    if state.store.active_jobs(tenant).await? >= max as i64 {
        return Err(too_many_jobs(max));
    }
    Ok(())
}

/// Refuses `n` new jobs (a sweep's points) when they would take `tenant`
/// over its quota of queued and running jobs.
pub async fn check_jobs_quota(state: &AppState, tenant: &str, n: usize) -> Result<(), ApiError> {
    let max = state.limits.max_active_jobs_per_tenant.max(1);
    if state.store.active_jobs(tenant).await? + n as i64 > max as i64 {
        return Err(too_many_jobs(max));
    }
    Ok(())
}

/// A job creation over the tenant's quota of queued and running jobs.
pub fn too_many_jobs(max: usize) -> ApiError {
    ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        "too_many_jobs",
        format!("this tenant already has {max} jobs queued or running, its limit; retry when some have finished"),
    )
    .with_details(json!({"max_active_jobs_per_tenant": max}))
    .with_retry_after(UPLOAD_RETRY_AFTER_SECS)
}

fn too_many_uploads(max: usize) -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "too_many_uploads",
        format!("{max} uploads are already in progress; retry later"),
    )
    .with_details(json!({"max_concurrent_uploads": max}))
    .with_retry_after(UPLOAD_RETRY_AFTER_SECS)
}

/// Which timeout applies to a request.
fn timeout_for(limits: &Limits, method: &Method, route: Option<&str>) -> Option<(Duration, bool)> {
    match (method, route) {
        (&Method::GET, Some(RESULT_ROUTE)) => None,
        (&Method::POST, Some(UPLOAD_ROUTE)) => Some((limits.upload_timeout, true)),
        _ => Some((limits.request_timeout, false)),
    }
}

/// The timeout middleware (a route layer: it sees the route template).
pub async fn timeout(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let route = req.extensions().get::<MatchedPath>().map(|p| p.as_str());
    let Some((limit, upload)) = timeout_for(&state.limits, req.method(), route) else {
        return next.run(req).await;
    };
    match tokio::time::timeout(limit, next.run(req)).await {
        Ok(res) => res,
        Err(_) => {
            let secs = limit.as_secs_f64();
            tracing::warn!(limit_secs = secs, upload, "request timed out");
            let e = if upload {
                ApiError::new(
                    StatusCode::REQUEST_TIMEOUT,
                    "upload_timeout",
                    format!("the upload did not complete within {secs} s"),
                )
            } else {
                ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "request_timeout",
                    format!("the request did not complete within {secs} s"),
                )
            };
            e.with_details(json!({"limit_secs": secs})).into_response()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn downloads_have_no_timeout_and_uploads_their_own() {
        let l = Limits::new(Duration::from_secs(1), Duration::from_secs(9), 2);
        assert_eq!(timeout_for(&l, &Method::GET, Some(RESULT_ROUTE)), None);
        assert_eq!(
            timeout_for(&l, &Method::POST, Some(UPLOAD_ROUTE)),
            Some((Duration::from_secs(9), true))
        );
        assert_eq!(
            timeout_for(&l, &Method::GET, Some(UPLOAD_ROUTE)),
            Some((Duration::from_secs(1), false))
        );
        assert_eq!(
            timeout_for(&l, &Method::GET, None),
            Some((Duration::from_secs(1), false))
        );
    }

    #[test]
    fn permits_are_capped_and_released() {
        let l = Limits::new(Duration::from_secs(1), Duration::from_secs(1), 1);
        let p = l.upload_permit().unwrap();
        assert_eq!(l.uploads_in_progress(), 1);
        let refused = l.upload_permit().unwrap_err();
        assert_eq!(refused.code, "too_many_uploads");
        assert_eq!(refused.retry_after, Some(UPLOAD_RETRY_AFTER_SECS));
        drop(p);
        assert!(l.upload_permit().is_ok());
    }
}
