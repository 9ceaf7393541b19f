//! The cap on one tenant's requests in flight (`--max-requests-per-tenant`).
//!
//! A request counts from its authentication until its response body has
//! been sent (a streamed download counts for as long as it streams), so a
//! tenant holding many connections with slow bodies, or many long
//! downloads, holds at most this many of the server's connections busy:
//! its further requests get 429 `too_many_requests` at once, before their
//! body is read, and their connections close — the accept loop may then
//! evict them (`http::connections`), so `/healthz` and other tenants keep
//! being served.

use std::collections::HashMap;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use http_body::{Frame, SizeHint};
use serde_json::json;

use super::error::ApiError;

/// Default requests one tenant may have in flight.
pub const DEFAULT_MAX_REQUESTS_PER_TENANT: usize = 64;

/// Seconds a refused request is told to wait.
pub const REQUESTS_RETRY_AFTER_SECS: u32 = 1;

/// Requests in flight per tenant.
#[derive(Debug, Clone)]
pub struct TenantRequests {
    pub max_per_tenant: usize,
    counts: Arc<Mutex<HashMap<String, usize>>>,
}

impl TenantRequests {
    pub fn new(max_per_tenant: usize) -> Self {
        TenantRequests {
            max_per_tenant: max_per_tenant.max(1),
            counts: Arc::default(),
        }
    }

    /// A hold on one of `tenant`'s request slots, or the 429.
    pub fn admit(&self, tenant: &str) -> Result<RequestPermit, ApiError> {
        let mut counts = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        let held = counts.get(tenant).copied().unwrap_or(0);
        if held >= self.max_per_tenant {
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "too_many_requests",
                format!(
                    "this tenant already has {held} requests in flight, its limit; retry when \
                     one has finished"
                ),
            )
            .with_details(json!({"max_requests_per_tenant": self.max_per_tenant}))
            .with_retry_after(REQUESTS_RETRY_AFTER_SECS));
        }
        *counts.entry(tenant.to_string()).or_insert(0) += 1;
        Ok(RequestPermit {
            tenant: tenant.to_string(),
            counts: self.counts.clone(),
        })
    }

    /// Requests `tenant` has in flight now.
    pub fn in_flight(&self, tenant: &str) -> usize {
        let counts = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        counts.get(tenant).copied().unwrap_or(0)
    }
}

impl Default for TenantRequests {
    fn default() -> Self {
        TenantRequests::new(DEFAULT_MAX_REQUESTS_PER_TENANT)
    }
}

/// One request's slot, given back when dropped.
pub struct RequestPermit {
    tenant: String,
    counts: Arc<Mutex<HashMap<String, usize>>>,
}

impl Drop for RequestPermit {
    fn drop(&mut self) {
        let mut counts = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = counts.get_mut(&self.tenant) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                counts.remove(&self.tenant);
            }
        }
    }
}

/// A refusal whose connection is closed after it: the client may still be
/// sending the body nobody will read.
pub fn refuse_and_close(e: ApiError) -> Response {
    let mut res = e.into_response();
    res.headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    res
}

/// A response body that holds `T` until it has been sent (or dropped).
pub struct Holding<T> {
    inner: Body,
    _held: T,
}

impl<T: Send + Unpin + 'static> Holding<T> {
    /// `res` with `held` kept until its body is done.
    pub fn response(res: Response, held: T) -> Response {
        res.map(|inner| Body::new(Holding { inner, _held: held }))
    }
}

impl<T: Unpin> http_body::Body for Holding<T> {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_tenant_has_its_own_slots() {
        let r = TenantRequests::new(2);
        let a1 = r.admit("a").unwrap();
        let _a2 = r.admit("a").unwrap();
        let e = r.admit("a").err().unwrap();
        assert_eq!((e.status.as_u16(), e.code), (429, "too_many_requests"));
        assert_eq!(e.retry_after, Some(REQUESTS_RETRY_AFTER_SECS));
        let _b = r.admit("b").unwrap();
        drop(a1);
        assert_eq!(r.in_flight("a"), 1);
        assert!(r.admit("a").is_ok());
    }
}
