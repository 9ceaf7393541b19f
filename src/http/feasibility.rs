//! `POST /v1/datasets/{id}/feasibility`: parameter guidance before a job
//! (Theorem 1, Theorem 2 / find-e-max, XColor's Inequality 4).

use axum::extract::State;
use axum::{Extension, Json};
use serde_json::Value;

use super::auth::Tenant;
use super::error::{ApiError, PROBLEM_JSON};
use super::id::DatasetId;
use super::json::ApiJson;
use super::path_docs::{
    ComputationBusy, DatasetIdParam, Internal, MalformedJson, NoSuchDataset, NotJson,
    PayloadTooLarge, Unauthorized,
};
use super::AppState;
use crate::api::feasibility::{answer_with_progress, FeasibilityRequestDto};
use crate::app::tables::load_stored_with_progress;

#[utoipa::path(
    post,
    path = "/v1/datasets/{id}/feasibility",
    operation_id = "dataset_feasibility",
    tag = "datasets",
    summary = "Parameter guidance before a job",
    security(("bearer" = [])),
    params(
        DatasetIdParam,
    ),
    request_body(content = crate::api::FeasibilityRequestDto, content_type = "application/json"),
    responses(
        (status = 200, description = "The answer for the question asked", body = crate::api::FeasibilityResponseDto),
        MalformedJson,
        PayloadTooLarge,
        NotJson,
        Unauthorized,
        NoSuchDataset,
        (status = 422, description = "Invalid question (`invalid_parameters`, `unknown_column`)", body = crate::api::ProblemDto, content_type = PROBLEM_JSON),
        Internal,
        ComputationBusy,
    )
)]
pub async fn feasibility(
    State(state): State<AppState>,
    Extension(tenant): Extension<Tenant>,
    DatasetId(id): DatasetId,
    ApiJson(body): ApiJson<Value>,
) -> Result<Json<Value>, ApiError> {
    let dataset = state
        .store
        .get_dataset(&tenant.0, id)
        .await?
        .ok_or_else(|| ApiError::not_found("dataset"))?;
    let bytes = serde_json::to_vec(&body).map_err(|e| ApiError::internal(e.into()))?;
    // Parameter errors before the (costly) table load.
    let question = FeasibilityRequestDto::from_json(&bytes)?.to_question()?;
    let computation = super::compute::begin(&state, &tenant.0).await?;
    let files = state.store.dataset_files(&tenant.0, id).await?;
    let response = computation
        .run("feasibility", move |progress| {
            let table = load_stored_with_progress(&dataset.schema, &files, progress.sub(0.0, 0.2))?;
            answer_with_progress(&question, &table, progress.sub(0.2, 1.0))
        })
        .await?;
    Ok(Json(
        serde_json::to_value(response).map_err(|e| ApiError::internal(e.into()))?,
    ))
}
