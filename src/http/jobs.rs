//! `/v1/jobs`: create (with `Idempotency-Key`), read, list, cancel.

use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde_json::Value;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use super::auth::Tenant;
use super::error::{ApiError, PROBLEM_JSON};
use super::id::JobId;
use super::json::ApiJson;
use super::list::{ListPage, ListQuery};
use super::path_docs::{
    ComputationBusy, IdempotencyConflict, Internal, JobIdParam, MalformedSubmission, NoSuchDataset,
    NoSuchJob, NotJson, PageParams, PayloadTooLarge, RepeatedQueryParameter, RequestTimeout,
    Unauthorized,
};
use super::resource::{self, Cancel, Resource};
use super::AppState;
use crate::api::JobStatus;
use crate::api::{JobDto, JobListDto, JobRequest, JobRequestDto, JobWarningDto};
use crate::app::jobs::{self, Checked};
use crate::store::datasets::DatasetRow;
use crate::store::jobs::{Cancelled, Created, JobFilter, JobRow, NewJob};
use crate::store::Page;
use proxima_core::CoreError;

/// The `Job` resource of a stored job.
pub fn job_dto(j: &JobRow) -> JobDto {
    JobDto {
        id: j.id,
        dataset_id: j.dataset_id,
        model: j.model.clone(),
        algorithm: j.algorithm,
        sensitive_metric: j.sensitive_metric.clone(),
        status: j.status,
        progress: j.progress,
        attempts: j.attempts.max(0) as u32,
        created_at: j.created_at,
        started_at: j.started_at,
        finished_at: j.finished_at,
        // A retryable error on a job that will run again is
        // bookkeeping, not the job's outcome.
        error: (j.status == JobStatus::Failed)
            .then(|| j.error.clone())
            .flatten(),
        summary: j.summary.clone(),
        suppression_limit: j.suppression_limit,
        xcolor: j.xcolor,
        sweep_id: j.sweep_id,
        warnings: Vec::new(),
    }
}

/// Prepares requests on one dataset (`app::jobs`) under the computation
/// caps: the slot is taken before the table is read. One answer per
/// request, in order; the error of the whole call is what every request
/// shares (the slot, the load).
pub async fn prepare(
    state: &AppState,
    requests: Vec<JobRequest>,
    dataset: DatasetRow,
) -> Result<Vec<Result<Checked, CoreError>>, ApiError> {
    let computation = super::compute::begin(state, &dataset.tenant).await?;
    let inputs = jobs::read_inputs(&state.store, dataset, &requests).await?;
    computation
        .run("validating a job", move |progress| {
            jobs::check(&inputs, &requests, progress)
        })
        .await
}

/// The request's `dataset_id` (a 422 at `/dataset_id` when it is not a
/// UUID), after checking that the body is an object.
pub fn dataset_id_of(body: &Value) -> Result<Uuid, ApiError> {
    if !body.is_object() {
        return Err(ApiError::invalid_parameters(
            "",
            "the body must be a JSON object",
        ));
    }
    body.get("dataset_id")
        .and_then(Value::as_str)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| {
            ApiError::invalid_parameters("/dataset_id", "dataset_id must be a dataset's UUID")
        })
}

/// The `Idempotency-Key` header with the hash of the body it came with.
pub fn idempotency_of(
    headers: &HeaderMap,
    body: &Value,
) -> Result<Option<(String, String)>, ApiError> {
    let mut values = headers.get_all("idempotency-key").iter();
    let Some(v) = values.next() else {
        return Ok(None);
    };
    // Two keys are refused rather than one of them picked (a proxy and the
    // service could disagree on which one names the request).
    if values.next().is_some() {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "malformed_request",
            "more than one Idempotency-Key header; send at most one",
        )
        .with_error(
            "/headers/Idempotency-Key",
            "more than one Idempotency-Key header",
        ));
    }
    let key = v
        .to_str()
        .ok()
        .filter(|k| !k.is_empty() && k.len() <= 255)
        .ok_or_else(|| {
            ApiError::invalid_parameters(
                "/headers/Idempotency-Key",
                "Idempotency-Key must be 1 to 255 visible ASCII characters",
            )
        })?;
    // serde_json's maps are ordered, so equal bodies hash equally
    // whatever their key order or whitespace.
    let hash = hex::encode(Sha256::digest(body.to_string().as_bytes()));
    Ok(Some((key.to_string(), hash)))
}

fn created(job: &JobRow, status: StatusCode, warnings: Vec<JobWarningDto>) -> Response {
    let mut dto = job_dto(job);
    dto.warnings = warnings;
    let mut res = (status, Json(dto)).into_response();
    if let Ok(loc) = HeaderValue::from_str(&format!("/v1/jobs/{}", job.id)) {
        res.headers_mut().insert(header::LOCATION, loc);
    }
    res
}

#[utoipa::path(
    post,
    path = "/v1/jobs",
    operation_id = "create_job",
    tag = "jobs",
    summary = "Queue an anonymization job",
    security(("bearer" = [])),
    params(
        ("Idempotency-Key" = Option<String>, Header, description = "The same key with the same body returns the original job (200); with another body, 409. 1 to 255 visible ASCII characters", min_length = 1, max_length = 255, pattern = "^[!-~]+$"),
    ),
    request_body(content = crate::api::JobRequestDto, content_type = "application/json"),
    responses(
        (status = 202, description = "Queued", body = JobDto,
            headers(("Location" = String, description = "/v1/jobs/{id}"))),
        (status = 200, description = "The original job of this Idempotency-Key", body = JobDto,
            headers(("Location" = String, description = "/v1/jobs/{id}"))),
        MalformedSubmission,
        PayloadTooLarge,
        NotJson,
        Unauthorized,
        NoSuchDataset,
        IdempotencyConflict,
        (status = 422, description = "Invalid or infeasible parameters; `errors` say the reachable values (`invalid_parameters`, `infeasible_parameters`, `unknown_column`)", body = crate::api::ProblemDto, content_type = PROBLEM_JSON),
        (status = 429, description = "The tenant has as many jobs queued or running as its limit (`too_many_jobs`, the limit in `details`); retry after `Retry-After` seconds", body = crate::api::ProblemDto, content_type = PROBLEM_JSON,
            headers(("Retry-After" = u64, description = "Seconds to wait before retrying"))),
        Internal,
        ComputationBusy,
    )
)]
pub async fn create(
    State(state): State<AppState>,
    Extension(tenant): Extension<Tenant>,
    Extension(caller): Extension<super::auth::Caller>,
    headers: HeaderMap,
    ApiJson(body): ApiJson<Value>,
) -> Result<Response, ApiError> {
    let dataset_id = dataset_id_of(&body)?;
    let idempotency = idempotency_of(&headers, &body)?;
    // Parsed here, once; a bad shape is answered after the checks that
    // come first in the contract (a replay, the dataset's 404, the quota).
    let request = JobRequestDto::parse(&body);
    // A replay answers with the original job even if the dataset changed
    // since; look it up before validating.
    if let Some((key, hash)) = &idempotency {
        if let Some(found) = state.store.find_idempotent(&tenant.0, key).await? {
            return if &found.1 == hash {
                Ok(created(&found.0, StatusCode::OK, Vec::new()))
            } else {
                Err(ApiError::idempotency_conflict())
            };
        }
    }
    let dataset = state
        .store
        .get_dataset(&tenant.0, dataset_id)
        .await?
        .ok_or_else(|| ApiError::not_found("dataset"))?;
    super::limits::check_job_quota(&state, &tenant.0).await?;
    let mut checked = prepare(&state, vec![request?], dataset).await?;
    let Checked { params, warnings } = checked.pop().expect("one answer per request")?;
    let new = NewJob {
        tenant: tenant.0.clone(),
        dataset_id,
        params,
        max_attempts: state.max_attempts,
        idempotency,
        max_active: Some(state.limits.max_active_jobs_per_tenant.max(1)),
        submitted_by: Some(caller.key_id),
    };
    match state.store.create_job(&new).await? {
        Created::New(job) => Ok(created(&job, StatusCode::ACCEPTED, warnings)),
        Created::Replayed(job) => Ok(created(&job, StatusCode::OK, warnings)),
        Created::Conflict => Err(ApiError::idempotency_conflict()),
        Created::OverQuota => Err(super::limits::too_many_jobs(
            state.limits.max_active_jobs_per_tenant.max(1),
        )),
    }
}

#[utoipa::path(
    get,
    path = "/v1/jobs/{id}",
    operation_id = "get_job",
    tag = "jobs",
    summary = "Read a job",
    security(("bearer" = [])),
    params(
        JobIdParam,
    ),
    responses(
        (status = 200, description = "The job", body = JobDto),
        Unauthorized,
        NoSuchJob,
        Internal,
        RequestTimeout,
    )
)]
pub async fn get(
    State(state): State<AppState>,
    Extension(tenant): Extension<Tenant>,
    JobId(id): JobId,
) -> Result<Json<JobDto>, ApiError> {
    resource::get::<JobRow>(&state, &tenant, id).await
}

#[utoipa::path(
    get,
    path = "/v1/jobs",
    operation_id = "list_jobs",
    tag = "jobs",
    summary = "List jobs",
    security(("bearer" = [])),
    params(
        ("status" = Option<JobStatus>, Query, description = "Only jobs in this status"),
        ("dataset_id" = Option<uuid::Uuid>, Query, description = "Only jobs of this dataset"),
        PageParams,
    ),
    responses(
        RepeatedQueryParameter,
        (status = 200, description = "A page of jobs", body = JobListDto),
        Unauthorized,
        (status = 422, description = "Bad `status`, `dataset_id`, `limit` or `cursor` (`invalid_parameters`)", body = crate::api::ProblemDto, content_type = PROBLEM_JSON),
        Internal,
        RequestTimeout,
    )
)]
pub async fn list(
    State(state): State<AppState>,
    Extension(tenant): Extension<Tenant>,
    q: ListQuery,
) -> Result<Json<ListPage<JobDto>>, ApiError> {
    resource::list::<JobRow>(&state, &tenant, &q).await
}

#[utoipa::path(
    post,
    path = "/v1/jobs/{id}/cancel",
    operation_id = "cancel_job",
    tag = "jobs",
    summary = "Cancel a job",
    security(("bearer" = [])),
    params(
        JobIdParam,
    ),
    responses(
        (status = 200, description = "Cancelled (queued) or stopping at the next checkpoint (running)", body = JobDto),
        Unauthorized,
        NoSuchJob,
        (status = 409, description = "The job already finished (`job_finished`)", body = crate::api::ProblemDto, content_type = PROBLEM_JSON),
        Internal,
        RequestTimeout,
    )
)]
pub async fn cancel(
    State(state): State<AppState>,
    Extension(tenant): Extension<Tenant>,
    JobId(id): JobId,
) -> Result<Json<JobDto>, ApiError> {
    resource::cancel::<JobRow>(&state, &tenant, id).await
}

impl Resource for JobRow {
    const NAME: &'static str = "job";
    type Dto = JobDto;

    async fn load(state: &AppState, tenant: &str, id: Uuid) -> Result<Option<Self>, ApiError> {
        Ok(state.store.get_job(tenant, id).await?)
    }

    async fn page(state: &AppState, tenant: &str, q: &ListQuery) -> Result<Page<Self>, ApiError> {
        let status = match q.param("status").filter(|s| !s.is_empty()) {
            None => None,
            Some(s) => Some(
                s.parse::<JobStatus>()
                    .map_err(|e| ApiError::invalid_parameters("/query/status", e))?
                    .as_str()
                    .to_owned(),
            ),
        };
        let filter = JobFilter {
            status,
            dataset_id: q.uuid_param("dataset_id")?,
        };
        Ok(state
            .store
            .list_jobs(tenant, &filter, q.limit, q.cursor)
            .await?)
    }

    async fn dtos(_: &AppState, jobs: &[Self]) -> Result<Vec<JobDto>, ApiError> {
        Ok(jobs.iter().map(job_dto).collect())
    }
}

impl Cancel for JobRow {
    async fn cancel(
        state: &AppState,
        tenant: &str,
        id: Uuid,
    ) -> Result<resource::Cancelled<Self>, ApiError> {
        Ok(match state.store.cancel_job(tenant, id).await? {
            Cancelled::Done(job) => resource::Cancelled::Done(job),
            Cancelled::Finished(job) => resource::Cancelled::Finished(job),
            Cancelled::NotFound => resource::Cancelled::NotFound,
        })
    }

    fn finished(&self) -> ApiError {
        ApiError::job_finished(self.status.as_str())
    }
}
