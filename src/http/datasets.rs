//! `/v1/datasets`: list, read, delete (purging jobs and results), and the
//! upload (see `upload.rs`).

use axum::extract::State;
use axum::http::StatusCode;
use axum::{Extension, Json};

use super::auth::Tenant;
use super::error::{ApiError, PROBLEM_JSON};
use super::id::DatasetId;
use super::list::{ListPage, ListQuery};
use super::path_docs::{
    BadPage, DatasetIdParam, Internal, NoSuchDataset, PageParams, RepeatedQueryParameter,
    RequestTimeout, Unauthorized,
};
use super::resource::{self, Resource};
use super::AppState;
use crate::api::dataset::{DatasetDto, DatasetListDto};
use crate::store::datasets::DatasetRow;
use crate::store::Page;
use uuid::Uuid;

/// The `Dataset` resource.
/// The `Dataset` resource of a stored dataset.
pub fn dataset_dto(d: &DatasetRow) -> DatasetDto {
    DatasetDto {
        id: d.id,
        name: d.name.clone(),
        rows: d.rows.max(0) as u64,
        suppressed_rows: d.suppressed_rows.max(0) as u64,
        size_bytes: d.size_bytes.max(0) as u64,
        sha256: d.sha256.clone(),
        created_at: d.created_at,
        columns: d.columns.clone(),
        population: d.population,
    }
}

#[utoipa::path(
    get,
    path = "/v1/datasets",
    operation_id = "list_datasets",
    tag = "datasets",
    summary = "List datasets",
    security(("bearer" = [])),
    params(
        PageParams,
    ),
    responses(
        RepeatedQueryParameter,
        (status = 200, description = "A page of datasets", body = DatasetListDto),
        Unauthorized,
        BadPage,
        Internal,
        RequestTimeout,
    )
)]
pub async fn list(
    State(state): State<AppState>,
    Extension(tenant): Extension<Tenant>,
    q: ListQuery,
) -> Result<Json<ListPage<DatasetDto>>, ApiError> {
    resource::list::<DatasetRow>(&state, &tenant, &q).await
}

#[utoipa::path(
    get,
    path = "/v1/datasets/{id}",
    operation_id = "get_dataset",
    tag = "datasets",
    summary = "Read a dataset",
    security(("bearer" = [])),
    params(
        DatasetIdParam,
    ),
    responses(
        (status = 200, description = "The dataset", body = DatasetDto),
        Unauthorized,
        NoSuchDataset,
        Internal,
        RequestTimeout,
    )
)]
pub async fn get(
    State(state): State<AppState>,
    Extension(tenant): Extension<Tenant>,
    DatasetId(id): DatasetId,
) -> Result<Json<DatasetDto>, ApiError> {
    resource::get::<DatasetRow>(&state, &tenant, id).await
}

#[utoipa::path(
    delete,
    path = "/v1/datasets/{id}",
    operation_id = "delete_dataset",
    tag = "datasets",
    summary = "Delete a dataset with its jobs and results",
    security(("bearer" = [])),
    params(
        DatasetIdParam,
    ),
    responses(
        (status = 204, description = "Deleted, with every job and result made from it"),
        (status = 409, description = "The dataset is the population table of other datasets (`population_in_use`, their ids in `details.samples`): delete them first", body = crate::api::ProblemDto, content_type = PROBLEM_JSON),
        Unauthorized,
        NoSuchDataset,
        Internal,
        RequestTimeout,
    )
)]
pub async fn delete(
    State(state): State<AppState>,
    Extension(tenant): Extension<Tenant>,
    DatasetId(id): DatasetId,
) -> Result<StatusCode, ApiError> {
    // A population table stays while a sample names it: the sample's
    // k-map and δ-presence would otherwise fail only at job time.
    let samples = state.store.samples_of(&tenant.0, id, 20).await?;
    if !samples.is_empty() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "population_in_use",
            format!(
                "the dataset is the population table of {} dataset(s){}; delete them first",
                samples.len(),
                if samples.len() == 20 { " or more" } else { "" }
            ),
        )
        .with_details(serde_json::json!({ "samples": samples })));
    }
    if state.store.delete_dataset(&tenant.0, id).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::not_found("dataset"))
    }
}

impl Resource for DatasetRow {
    const NAME: &'static str = "dataset";
    type Dto = DatasetDto;

    async fn load(state: &AppState, tenant: &str, id: Uuid) -> Result<Option<Self>, ApiError> {
        Ok(state.store.get_dataset(tenant, id).await?)
    }

    /// Datasets are listed without filters.
    async fn page(state: &AppState, tenant: &str, q: &ListQuery) -> Result<Page<Self>, ApiError> {
        Ok(state.store.list_datasets(tenant, q.limit, q.cursor).await?)
    }

    async fn dtos(_: &AppState, datasets: &[Self]) -> Result<Vec<DatasetDto>, ApiError> {
        Ok(datasets.iter().map(dataset_dto).collect())
    }
}
