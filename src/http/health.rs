//! `/healthz` (the process is up) and `/readyz` (the database answers and
//! every migration is applied; 503 otherwise).

use axum::extract::State;
use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;

use super::error::{ApiError, PROBLEM_JSON};
use super::path_docs::RequestTimeout;
use super::AppState;

#[utoipa::path(
    get,
    path = "/healthz",
    tag = "operations",
    summary = "The process is up",
    responses(
        (status = 200, description = "Up", body = Status),
        RequestTimeout,
    )
)]
pub async fn healthz() -> Json<Status> {
    Json(Status {
        status: StatusValue::Ok,
    })
}

#[utoipa::path(
    get,
    path = "/readyz",
    tag = "operations",
    summary = "The database answers and every migration is applied",
    responses(
        (status = 200, description = "Ready", body = Status),
        (status = 503, description = "Not ready (`not_ready`), or no answer within the request timeout (`request_timeout`)", body = crate::api::ProblemDto, content_type = PROBLEM_JSON),
    )
)]
pub async fn readyz(State(state): State<AppState>) -> Result<Json<Status>, ApiError> {
    // While the database is down the pool keeps retrying its connect until
    // its acquire timeout; a probe must answer sooner than that.
    match tokio::time::timeout(READY_TIMEOUT, state.store.ready()).await {
        Ok(Ok(true)) => Ok(Json(Status {
            status: StatusValue::Ready,
        })),
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

/// `{"status": "ok"}` (`/healthz`) or `{"status": "ready"}` (`/readyz`).
#[derive(Debug, Serialize, ToSchema)]
pub struct Status {
    pub status: StatusValue,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum StatusValue {
    Ok,
    Ready,
}

/// How long `/readyz` waits for the database.
const READY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(2);
