//! Bearer authentication: every `/v1` route needs `Authorization: Bearer
//! <key>`; the key's tenant scopes every query of the request.

use axum::extract::{Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::Response;

use super::error::ApiError;
use super::AppState;

/// The authenticated tenant, set by [`require_key`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tenant(pub String);

pub async fn require_key(
    State(state): State<AppState>,
    mut req: Request,
    next: Next,
) -> Result<Response, ApiError> {
    let header = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| ApiError::unauthorized("missing Authorization: Bearer <key>"))?;
    let key = header
        .strip_prefix("Bearer ")
        .or_else(|| header.strip_prefix("bearer "))
        .map(str::trim)
        .filter(|k| !k.is_empty())
        .ok_or_else(|| ApiError::unauthorized("the Authorization header must be `Bearer <key>`"))?;
    let tenant = state
        .store
        .tenant_for_key(key)
        .await?
        .ok_or_else(|| ApiError::unauthorized("unknown or revoked API key"))?;
    req.extensions_mut().insert(Tenant(tenant));
    Ok(next.run(req).await)
}
