//! `/v1/jobs`: create (with `Idempotency-Key`), read, list, cancel.

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use uuid::Uuid;

use super::auth::Tenant;
use super::datasets::parse_id;
use super::error::ApiError;
use super::json::ApiJson;
use super::list::{ListPage, ListQuery};
use super::AppState;
use crate::spec::{JobRequestDto, MetricDto};
use crate::store::datasets::DatasetRow;
use crate::store::jobs::{Cancelled, Created, JobFilter, JobRow, NewJob};
use crate::worker::dataset::{job_spec, load_stored_with_progress};

pub const STATUSES: [&str; 5] = ["queued", "running", "succeeded", "failed", "cancelled"];

/// The `Job` resource.
pub fn job_json(j: &JobRow) -> Value {
    let mut v = json!({
        "id": j.id,
        "dataset_id": j.dataset_id,
        "model": j.model,
        "algorithm": j.algorithm,
        "sensitive_metric": j.sensitive_metric,
        "status": j.status,
        "progress": j.progress,
        "attempts": j.attempts,
        "created_at": j.created_at,
        "started_at": j.started_at,
        "finished_at": j.finished_at,
        // A retryable error on a job that will run again is bookkeeping,
        // not the job's outcome.
        "error": if j.status == "failed" { j.error.clone() } else { None },
        "summary": j.summary,
        "suppression_limit": j.suppression_limit,
    });
    // API extension, shown only when the request used it.
    if let Some(x) = &j.xcolor {
        v["xcolor"] = x.clone();
    }
    v
}

/// What a job request becomes once checked against its dataset.
#[derive(Debug, Clone, PartialEq)]
pub struct ValidatedJob {
    pub model: Value,
    /// The algorithm that will run (the model's default when none was named).
    pub algorithm: String,
    pub sensitive_metric: Option<Value>,
    pub xcolor: Option<Value>,
    pub suppression_limit: f64,
}

/// Parses the request (unknown fields and bad values → 422 with pointers)
/// and checks it against the dataset's table before queueing: the pair of
/// model and algorithm, the SA's type, and feasibility (Theorem 1, k ≤ rows
/// …) with the reachable values in the error's details.
pub async fn validate_job(
    state: &AppState,
    body: &Value,
    dataset: DatasetRow,
) -> Result<ValidatedJob, ApiError> {
    let bytes = serde_json::to_vec(body).map_err(|e| ApiError::internal(e.into()))?;
    let suppression_limit = JobRequestDto::from_json(&bytes)?.suppression_limit()?.get();
    let computation = super::compute::begin(state, &dataset.tenant).await?;
    let files = state
        .store
        .dataset_files(&dataset.tenant, dataset.id)
        .await?;
    let opt = |k: &str| body.get(k).filter(|v| !v.is_null()).cloned();
    let model = opt("model").unwrap_or(Value::Null);
    let algorithm = opt("algorithm");
    let sensitive_metric = opt("sensitive_metric");
    let xcolor = opt("xcolor");
    let checked = {
        let (model, algorithm, metric, xcolor) = (
            model.clone(),
            algorithm.clone(),
            sensitive_metric.clone(),
            xcolor.clone(),
        );
        // Returns the algorithm and, for the dissimilarity model (the one model
        // that takes a metric), the metric in force — the requested one or
        // the SA's default — so the job shows what is applied.
        computation
            .run(
                "validating a job",
                move |progress| -> Result<(String, Option<Value>), proxima_core::CoreError> {
                    let table = load_stored_with_progress(&dataset, &files, progress)?;
                    let spec = job_spec(
                        &model,
                        algorithm.as_ref().and_then(Value::as_str),
                        metric.as_ref(),
                        xcolor.as_ref(),
                        suppression_limit,
                        table.schema(),
                    )?;
                    proxima_core::run::validate(&table, &spec)?;
                    let metric = match spec.model {
                        proxima_core::params::PrivacyModel::Dissimilarity(_) => {
                            let resolved = spec.resolved_metric(&table)?;
                            Some(
                                serde_json::to_value(MetricDto::from_spec(&resolved)).map_err(
                                    |e| {
                                        proxima_core::CoreError::internal(format!(
                                            "serializing a metric: {e}"
                                        ))
                                    },
                                )?,
                            )
                        }
                        _ => None,
                    };
                    Ok((spec.algorithm.name().to_string(), metric))
                },
            )
            .await
    };
    let (algorithm, resolved_metric) = checked?;
    Ok(ValidatedJob {
        model,
        algorithm,
        sensitive_metric: resolved_metric.or(sensitive_metric),
        xcolor,
        suppression_limit,
    })
}

fn created(job: &JobRow, status: StatusCode) -> Response {
    let mut res = (status, Json(job_json(job))).into_response();
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
        ("Idempotency-Key" = Option<String>, Header, description = "The same key with the same body returns the original job (200); with another body, 409"),
    ),
    request_body(content = crate::spec::JobRequestDto, content_type = "application/json"),
    responses(
        (status = 202, description = "Queued", body = crate::http::openapi::Job,
            headers(("Location" = String, description = "/v1/jobs/{id}"))),
        (status = 200, description = "The original job of this Idempotency-Key", body = crate::http::openapi::Job,
            headers(("Location" = String, description = "/v1/jobs/{id}"))),
        (status = 400, description = "Unparseable JSON (`malformed_json`)", body = crate::spec::ProblemDto, content_type = "application/problem+json"),
        (status = 413, description = "Body over the configured limit (`payload_too_large`)", body = crate::spec::ProblemDto, content_type = "application/problem+json"),
        (status = 415, description = "Not `application/json` (`unsupported_media_type`)", body = crate::spec::ProblemDto, content_type = "application/problem+json"),
        (status = 401, response = crate::http::openapi::Unauthorized),
        (status = 404, description = "No such dataset (`not_found`)", body = crate::spec::ProblemDto, content_type = "application/problem+json"),
        (status = 409, description = "Idempotency-Key reused with another body (`idempotency_conflict`)", body = crate::spec::ProblemDto, content_type = "application/problem+json"),
        (status = 422, description = "Invalid or infeasible parameters; `errors` say the reachable values (`invalid_parameters`, `infeasible_parameters`, `unknown_column`)", body = crate::spec::ProblemDto, content_type = "application/problem+json"),
        (status = 429, description = "The tenant has as many jobs queued or running as its limit (`too_many_jobs`, the limit in `details`); retry after `Retry-After` seconds", body = crate::spec::ProblemDto, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds to wait before retrying"))),
        (status = 500, response = crate::http::openapi::Internal),
        (status = 503, description = "The response did not start within the request timeout (`request_timeout`; the computation is given up), or too many computations are running over the server or for this tenant (`too_many_computations`, the cap in `details`; retry after `Retry-After` seconds)", body = crate::spec::ProblemDto, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds to wait before retrying (`too_many_computations`)"))),
    )
)]
pub async fn create(
    State(state): State<AppState>,
    Extension(tenant): Extension<Tenant>,
    headers: HeaderMap,
    ApiJson(body): ApiJson<Value>,
) -> Result<Response, ApiError> {
    if !body.is_object() {
        return Err(ApiError::invalid_parameters(
            "",
            "the body must be a JSON object",
        ));
    }
    let dataset_id: Uuid = body
        .get("dataset_id")
        .and_then(Value::as_str)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| {
            ApiError::invalid_parameters("/dataset_id", "dataset_id must be a dataset's UUID")
        })?;
    let idempotency = match headers.get("idempotency-key") {
        None => None,
        Some(v) => {
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
            Some((key.to_string(), hash))
        }
    };
    // A replay answers with the original job even if the dataset changed
    // since; look it up before validating.
    if let Some((key, hash)) = &idempotency {
        if let Some(found) = state.store.find_idempotent(&tenant.0, key).await? {
            return if &found.1 == hash {
                Ok(created(&found.0, StatusCode::OK))
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
    let job = validate_job(&state, &body, dataset).await?;
    let new = NewJob {
        tenant: tenant.0.clone(),
        dataset_id,
        model: job.model,
        algorithm: job.algorithm,
        sensitive_metric: job.sensitive_metric,
        xcolor: job.xcolor,
        suppression_limit: job.suppression_limit,
        max_attempts: state.max_attempts,
        idempotency,
    };
    match state.store.create_job(&new).await? {
        Created::New(job) => Ok(created(&job, StatusCode::ACCEPTED)),
        Created::Replayed(job) => Ok(created(&job, StatusCode::OK)),
        Created::Conflict => Err(ApiError::idempotency_conflict()),
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
        ("id" = uuid::Uuid, Path, description = "The job's id; an id of another tenant, or not a UUID, is a 404"),
    ),
    responses(
        (status = 200, description = "The job", body = crate::http::openapi::Job),
        (status = 401, response = crate::http::openapi::Unauthorized),
        (status = 404, description = "No such job (`not_found`)", body = crate::spec::ProblemDto, content_type = "application/problem+json"),
        (status = 500, response = crate::http::openapi::Internal),
        (status = 503, response = crate::http::openapi::RequestTimeout),
    )
)]
pub async fn get(
    State(state): State<AppState>,
    Extension(tenant): Extension<Tenant>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let id = parse_id(&id, "job")?;
    let job = state
        .store
        .get_job(&tenant.0, id)
        .await?
        .ok_or_else(|| ApiError::not_found("job"))?;
    Ok(Json(job_json(&job)))
}

#[utoipa::path(
    get,
    path = "/v1/jobs",
    operation_id = "list_jobs",
    tag = "jobs",
    summary = "List jobs",
    security(("bearer" = [])),
    params(
        ("status" = Option<crate::http::openapi::JobStatus>, Query, description = "Only jobs in this status"),
        ("dataset_id" = Option<uuid::Uuid>, Query, description = "Only jobs of this dataset"),
        ("limit" = Option<i64>, Query, minimum = 1, maximum = 500, description = "Page size (default 50)"),
        ("cursor" = Option<String>, Query, description = "`next_cursor` of the previous page"),
    ),
    responses(
        (status = 200, description = "A page of jobs", body = crate::http::openapi::JobList),
        (status = 401, response = crate::http::openapi::Unauthorized),
        (status = 422, description = "Bad `status`, `dataset_id`, `limit` or `cursor` (`invalid_parameters`)", body = crate::spec::ProblemDto, content_type = "application/problem+json"),
        (status = 500, response = crate::http::openapi::Internal),
        (status = 503, response = crate::http::openapi::RequestTimeout),
    )
)]
pub async fn list(
    State(state): State<AppState>,
    Extension(tenant): Extension<Tenant>,
    q: ListQuery,
) -> Result<Json<ListPage<Value>>, ApiError> {
    let status = match q.param("status").filter(|s| !s.is_empty()) {
        None => None,
        Some(s) if STATUSES.contains(&s) => Some(s.to_string()),
        Some(s) => {
            return Err(ApiError::invalid_parameters(
                "/query/status",
                format!("status must be one of {}, got {s:?}", STATUSES.join(", ")),
            ))
        }
    };
    let dataset_id = match q.param("dataset_id").filter(|s| !s.is_empty()) {
        None => None,
        Some(s) => Some(s.parse::<Uuid>().map_err(|_| {
            ApiError::invalid_parameters("/query/dataset_id", "dataset_id must be a UUID")
        })?),
    };
    let filter = JobFilter { status, dataset_id };
    let page = state
        .store
        .list_jobs(&tenant.0, &filter, q.limit, q.cursor)
        .await?;
    Ok(Json(ListPage {
        items: page.items.iter().map(job_json).collect(),
        next_cursor: page.next_cursor.map(|c| c.encode()),
    }))
}

#[utoipa::path(
    post,
    path = "/v1/jobs/{id}/cancel",
    operation_id = "cancel_job",
    tag = "jobs",
    summary = "Cancel a job",
    security(("bearer" = [])),
    params(
        ("id" = uuid::Uuid, Path, description = "The job's id; an id of another tenant, or not a UUID, is a 404"),
    ),
    responses(
        (status = 200, description = "Cancelled (queued) or stopping at the next checkpoint (running)", body = crate::http::openapi::Job),
        (status = 401, response = crate::http::openapi::Unauthorized),
        (status = 404, description = "No such job (`not_found`)", body = crate::spec::ProblemDto, content_type = "application/problem+json"),
        (status = 409, description = "The job already finished (`job_finished`)", body = crate::spec::ProblemDto, content_type = "application/problem+json"),
        (status = 500, response = crate::http::openapi::Internal),
        (status = 503, response = crate::http::openapi::RequestTimeout),
    )
)]
pub async fn cancel(
    State(state): State<AppState>,
    Extension(tenant): Extension<Tenant>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let id = parse_id(&id, "job")?;
    match state.store.cancel_job(&tenant.0, id).await? {
        Cancelled::Done(job) => Ok(Json(job_json(&job))),
        Cancelled::Finished(job) => Err(ApiError::job_finished(&job.status)),
        Cancelled::NotFound => Err(ApiError::not_found("job")),
    }
}
