//! `/healthz` (the process is up) and `/readyz` (the database answers and
//! every migration is applied; 503 otherwise).

use axum::extract::State;
use axum::Json;
use serde_json::{json, Value};

use super::error::ApiError;
use super::AppState;

pub async fn healthz() -> Json<Value> {
    Json(json!({"status": "ok"}))
}

pub async fn readyz(State(state): State<AppState>) -> Result<Json<Value>, ApiError> {
    match state.store.ready().await {
        Ok(true) => Ok(Json(json!({"status": "ready"}))),
        Ok(false) => Err(ApiError::not_ready("database migrations are not applied")),
        Err(e) => {
            tracing::warn!(error = %e, "readiness check failed");
            Err(ApiError::not_ready("the database is unreachable"))
        }
    }
}
