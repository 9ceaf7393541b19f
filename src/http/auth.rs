//! Bearer authentication: every `/v1` route needs `Authorization: Bearer
//! <key>`; the key's tenant scopes every query of the request.

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap};
use axum::middleware::Next;
use axum::response::Response;

use super::error::ApiError;
use super::AppState;

/// The authenticated tenant, set by [`require_key`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tenant(pub String);

/// The key that made the request (its id, never the key) and its role,
/// set by [`require_key`] beside [`Tenant`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caller {
    pub key_id: uuid::Uuid,
    pub role: crate::api::access::KeyRole,
}

pub async fn require_key(
    State(state): State<AppState>,
    mut req: Request,
    next: Next,
) -> Result<Response, ApiError> {
    let key = bearer_key(req.headers())?;
    let identity = state
        .store
        .key_identity(key)
        .await?
        .ok_or_else(|| ApiError::unauthorized("unknown or revoked API key"))?;
    let tenant = identity.tenant;
    // One of the tenant's request slots, held until the response body has
    // been sent (`http::inflight`); refused before the body is read.
    let permit = match state.limits.requests.admit(&tenant) {
        Ok(p) => p,
        Err(e) => {
            tracing::warn!(
                max = state.limits.requests.max_per_tenant,
                "a tenant's requests in flight reached the cap; refusing one"
            );
            return Ok(super::inflight::refuse_and_close(e));
        }
    };
    req.extensions_mut().insert(Tenant(tenant));
    req.extensions_mut().insert(Caller {
        key_id: identity.id,
        role: identity.role,
    });
    let res = next.run(req).await;
    Ok(super::inflight::Holding::response(res, permit))
}

/// The key of the request's one `Authorization: Bearer <key>` header. The
/// scheme is case-insensitive (RFC 9110 §11.1); two `Authorization` headers
/// are refused rather than one of them picked (a proxy and a client may
/// disagree on which one counts).
fn bearer_key(headers: &HeaderMap) -> Result<&str, ApiError> {
    let mut values = headers.get_all(header::AUTHORIZATION).iter();
    let value = values
        .next()
        .ok_or_else(|| ApiError::unauthorized("missing Authorization: Bearer <key>"))?;
    if values.next().is_some() {
        return Err(ApiError::unauthorized(
            "more than one Authorization header; send exactly one",
        ));
    }
    let malformed = || ApiError::unauthorized("the Authorization header must be `Bearer <key>`");
    let value = value.to_str().map_err(|_| malformed())?;
    let (scheme, key) = value.split_once(' ').ok_or_else(malformed)?;
    let key = key.trim();
    if !scheme.eq_ignore_ascii_case("bearer") || key.is_empty() {
        return Err(malformed());
    }
    Ok(key)
}

/// Whether the request carries exactly `Bearer <expected>`, compared in
/// constant time (the metrics token is a shared secret, not a hashed key).
pub fn bearer_matches(headers: &HeaderMap, expected: &str) -> bool {
    let Ok(given) = bearer_key(headers) else {
        return false;
    };
    let (a, b) = (given.as_bytes(), expected.as_bytes());
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(values: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for v in values {
            h.append(header::AUTHORIZATION, HeaderValue::from_str(v).unwrap());
        }
        h
    }

    #[test]
    fn the_scheme_is_case_insensitive_and_one_header_is_required() {
        for v in ["Bearer k1", "bearer k1", "BEARER k1", "bEaReR  k1 "] {
            assert_eq!(bearer_key(&headers(&[v])).unwrap(), "k1", "{v}");
        }
        for bad in [
            &["Basic k1"][..],
            &["Bearer "],
            &["Bearerk1"],
            &[],
            &["Bearer a", "Bearer b"],
        ] {
            assert_eq!(
                bearer_key(&headers(bad)).unwrap_err().code,
                "unauthorized",
                "{bad:?}"
            );
        }
    }
}
