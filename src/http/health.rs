//! `/healthz` (the process is up) and `/readyz` (the database answers and
//! every migration is applied; 503 otherwise).

use axum::extract::State;
use axum::Json;
use serde_json::{json, Value};

use super::error::ApiError;
use super::AppState;

#[utoipa::path(
    get,
    path = "/healthz",
    tag = "operations",
    summary = "The process is up",
    responses(
        (status = 200, description = "Up", body = crate::http::openapi::Status),
        (status = 503, response = crate::http::openapi::RequestTimeout),
    )
)]
pub async fn healthz() -> Json<Value> {
    Json(json!({"status": "ok"}))
}

#[utoipa::path(
    get,
    path = "/readyz",
    tag = "operations",
    summary = "The database answers and every migration is applied",
    responses(
        (status = 200, description = "Ready", body = crate::http::openapi::Status),
        (status = 503, description = "Not ready (`not_ready`), or no answer within the request timeout (`request_timeout`)", body = crate::spec::ProblemDto, content_type = "application/problem+json"),
    )
)]
pub async fn readyz(State(state): State<AppState>) -> Result<Json<Value>, ApiError> {
    // While the database is down the pool keeps retrying its connect until
    // its acquire timeout; a probe must answer sooner than that.
    match tokio::time::timeout(READY_TIMEOUT, state.store.ready()).await {
        Ok(Ok(true)) => Ok(Json(json!({"status": "ready"}))),
        Ok(Ok(false)) => Err(ApiError::not_ready("database migrations are not applied")),
        Ok(Err(e)) => {
            tracing::warn!(error = %e, "readiness check failed");
            Err(ApiError::not_ready("the database is unreachable"))
        }
        Err(_) => {
            tracing::warn!(timeout = ?READY_TIMEOUT, "readiness check timed out");
            Err(ApiError::not_ready("the database is unreachable"))
        }
    }
}

/// How long `/readyz` waits for the database.
const READY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(2);
