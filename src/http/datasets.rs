//! `/v1/datasets`: list, read, delete (purging jobs and results), and the
//! upload (see `upload.rs`).

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::{Extension, Json};
use serde_json::{json, Value};
use uuid::Uuid;

use super::auth::Tenant;
use super::error::ApiError;
use super::list::{ListPage, ListQuery};
use super::AppState;
use crate::store::datasets::DatasetRow;

/// The `Dataset` resource.
pub fn dataset_json(d: &DatasetRow) -> Value {
    json!({
        "id": d.id,
        "name": d.name,
        "rows": d.rows,
        "suppressed_rows": d.suppressed_rows,
        "size_bytes": d.size_bytes,
        "sha256": d.sha256,
        "created_at": d.created_at,
        "columns": d.columns,
    })
}

/// A path id that is not a UUID names nothing: 404, like a missing one.
pub fn parse_id(id: &str, what: &str) -> Result<Uuid, ApiError> {
    id.parse().map_err(|_| ApiError::not_found(what))
}

#[utoipa::path(
    get,
    path = "/v1/datasets",
    operation_id = "list_datasets",
    tag = "datasets",
    summary = "List datasets",
    security(("bearer" = [])),
    params(
        ("limit" = Option<i64>, Query, minimum = 1, maximum = 500, description = "Page size (default 50)"),
        ("cursor" = Option<String>, Query, description = "`next_cursor` of the previous page"),
    ),
    responses(
        (status = 200, description = "A page of datasets", body = crate::http::openapi::DatasetList),
        (status = 401, response = crate::http::openapi::Unauthorized),
        (status = 422, description = "Bad `limit` or `cursor` (`invalid_parameters`)", body = crate::spec::ProblemDto, content_type = "application/problem+json"),
        (status = 500, response = crate::http::openapi::Internal),
        (status = 503, response = crate::http::openapi::RequestTimeout),
    )
)]
pub async fn list(
    State(state): State<AppState>,
    Extension(tenant): Extension<Tenant>,
    q: ListQuery,
) -> Result<Json<ListPage<Value>>, ApiError> {
    let page = state
        .store
        .list_datasets(&tenant.0, q.limit, q.cursor)
        .await?;
    Ok(Json(ListPage {
        items: page.items.iter().map(dataset_json).collect(),
        next_cursor: page.next_cursor.map(|c| c.encode()),
    }))
}

#[utoipa::path(
    get,
    path = "/v1/datasets/{id}",
    operation_id = "get_dataset",
    tag = "datasets",
    summary = "Read a dataset",
    security(("bearer" = [])),
    params(
        ("id" = uuid::Uuid, Path, description = "The dataset's id; an id of another tenant, or not a UUID, is a 404"),
    ),
    responses(
        (status = 200, description = "The dataset", body = crate::http::openapi::Dataset),
        (status = 401, response = crate::http::openapi::Unauthorized),
        (status = 404, description = "No such dataset (`not_found`)", body = crate::spec::ProblemDto, content_type = "application/problem+json"),
        (status = 500, response = crate::http::openapi::Internal),
        (status = 503, response = crate::http::openapi::RequestTimeout),
    )
)]
pub async fn get(
    State(state): State<AppState>,
    Extension(tenant): Extension<Tenant>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let id = parse_id(&id, "dataset")?;
    let d = state
        .store
        .get_dataset(&tenant.0, id)
        .await?
        .ok_or_else(|| ApiError::not_found("dataset"))?;
    Ok(Json(dataset_json(&d)))
}

#[utoipa::path(
    delete,
    path = "/v1/datasets/{id}",
    operation_id = "delete_dataset",
    tag = "datasets",
    summary = "Delete a dataset with its jobs and results",
    security(("bearer" = [])),
    params(
        ("id" = uuid::Uuid, Path, description = "The dataset's id; an id of another tenant, or not a UUID, is a 404"),
    ),
    responses(
        (status = 204, description = "Deleted, with every job and result made from it"),
        (status = 401, response = crate::http::openapi::Unauthorized),
        (status = 404, description = "No such dataset (`not_found`)", body = crate::spec::ProblemDto, content_type = "application/problem+json"),
        (status = 500, response = crate::http::openapi::Internal),
        (status = 503, response = crate::http::openapi::RequestTimeout),
    )
)]
pub async fn delete(
    State(state): State<AppState>,
    Extension(tenant): Extension<Tenant>,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let id = parse_id(&id, "dataset")?;
    if state.store.delete_dataset(&tenant.0, id).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::not_found("dataset"))
    }
}
