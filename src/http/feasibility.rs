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

#[utoipa::path(
    post,
    path = "/v1/datasets/{id}/feasibility",
    operation_id = "dataset_feasibility",
    tag = "datasets",
    summary = "Parameter guidance before a job",
    security(("bearer" = [])),
    params(
        ("id" = uuid::Uuid, Path, description = "The dataset's id; an id of another tenant, or not a UUID, is a 404"),
    ),
    request_body(content = crate::spec::FeasibilityRequestDto, content_type = "application/json"),
    responses(
        (status = 200, description = "The answer for the question asked", body = crate::spec::FeasibilityResponseDto),
        (status = 400, description = "Unparseable JSON (`malformed_json`)", body = crate::spec::ProblemDto, content_type = "application/problem+json"),
        (status = 413, description = "Body over the configured limit (`payload_too_large`)", body = crate::spec::ProblemDto, content_type = "application/problem+json"),
        (status = 415, description = "Not `application/json` (`unsupported_media_type`)", body = crate::spec::ProblemDto, content_type = "application/problem+json"),
        (status = 401, response = crate::http::openapi::Unauthorized),
        (status = 404, description = "No such dataset (`not_found`)", body = crate::spec::ProblemDto, content_type = "application/problem+json"),
        (status = 422, description = "Invalid question (`invalid_parameters`, `unknown_column`)", body = crate::spec::ProblemDto, content_type = "application/problem+json"),
        (status = 500, response = crate::http::openapi::Internal),
        (status = 503, response = crate::http::openapi::RequestTimeout),
    )
)]
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
    let response = crate::telemetry::spawn_blocking_redacted(move || {
        let table = load_stored(&dataset, &files)?;
        answer(&question, &table)
    })
    .await
    .map_err(|e| ApiError::join(e, "feasibility"))??;
    Ok(Json(
        serde_json::to_value(response).map_err(|e| ApiError::internal(e.into()))?,
    ))
}
