//! `POST /v1/datasets/{id}/feasibility`: parameter guidance before a job
//! (Theorem 1, Theorem 2 / find-e-max, XColor's Inequality 4).

use axum::extract::{Path, State};
use axum::{Extension, Json};
use serde_json::Value;

use super::auth::Tenant;
use super::datasets::parse_id;
use super::error::ApiError;
use super::json::ApiJson;
use super::AppState;
use crate::spec::feasibility::{answer, FeasibilityRequestDto};
use crate::worker::dataset::load_stored;

pub async fn feasibility(
    State(state): State<AppState>,
    Extension(tenant): Extension<Tenant>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<Value>,
) -> Result<Json<Value>, ApiError> {
    let id = parse_id(&id, "dataset")?;
    let dataset = state
        .store
        .get_dataset(&tenant.0, id)
        .await?
        .ok_or_else(|| ApiError::not_found("dataset"))?;
    let bytes = serde_json::to_vec(&body).map_err(|e| ApiError::internal(e.into()))?;
    // Parameter errors before the (costly) table load.
    let question = FeasibilityRequestDto::from_json(&bytes)?.to_question()?;
    let files = state.store.dataset_files(&tenant.0, id).await?;
    let response = tokio::task::spawn_blocking(move || {
        let table = load_stored(&dataset, &files)?;
        answer(&question, &table)
    })
    .await
    .map_err(|e| ApiError::internal(anyhow::anyhow!("feasibility panicked: {e}")))??;
    Ok(Json(
        serde_json::to_value(response).map_err(|e| ApiError::internal(e.into()))?,
    ))
}
