//! `/v1/sweeps`: a grid of jobs in one request (docs/api.md §Sweeps): create
//! (with `Idempotency-Key`), read, list, cancel, and the R-U report.

use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use proxima_core::{CoreError, ErrorKind};
use serde_json::{json, Map, Value};
use utoipa::ToSchema;

use super::auth::Tenant;
use super::error::{ApiError, PROBLEM_JSON};
use super::id::SweepId;
use super::jobs::{dataset_id_of, idempotency_of, prepare};
use super::json::ApiJson;
use super::list::{ListPage, ListQuery};
use super::path_docs::{
    IdempotencyConflict, Internal, MalformedSubmission, NoSuchDataset, NoSuchSweep, NotJson,
    PageParams, PayloadTooLarge, RepeatedQueryParameter, RequestTimeout, SweepIdParam,
    Unauthorized,
};
use super::resource::{self, Cancel, Resource};
use super::AppState;
use crate::store::sweeps::{NewSweep, PointJob, StoredSweep, SweepCancelled, SweepCreated};
use crate::store::Page;
use crate::sweep::grid::{self, Grid, GridError, GridPoint, MAX_POINTS};
use crate::sweep::resource::{sweep_dto, Judging, SweepDto};
use crate::sweep::ru_map;

/// A page of sweeps, newest first.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct SweepList {
    pub items: Vec<SweepDto>,
    /// Pass as `?cursor=` for the next page; null on the last page.
    #[schema(required = true)]
    pub next_cursor: Option<String>,
}

/// `?format=` of the sweep report.
#[derive(ToSchema)]
#[allow(non_camel_case_types, dead_code)]
pub enum SweepReportFormat {
    html,
    json,
}

/// A created or replayed sweep (a replay may have finished points: they
/// are judged as on a read).
async fn created(
    state: &AppState,
    stored: &StoredSweep,
    status: StatusCode,
) -> Result<Response, ApiError> {
    let judging = judging(state, &[stored]).await?;
    let mut res = (status, Json(sweep_dto(stored, &judging))).into_response();
    if let Ok(loc) = HeaderValue::from_str(&format!("/v1/sweeps/{}", stored.sweep.id)) {
        res.headers_mut().insert(header::LOCATION, loc);
    }
    Ok(res)
}

/// A grid the request cannot have.
fn grid_error(e: GridError) -> ApiError {
    match e {
        GridError::Invalid(pointer, message) => ApiError::invalid_parameters(&pointer, message),
        GridError::TooManyPoints(points) => ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "too_many_points",
            match points {
                Some(n) => format!("the sweep's lists make {n} points; at most {MAX_POINTS}"),
                None => format!("the sweep's lists make too many points; at most {MAX_POINTS}"),
            },
        )
        .with_details(json!({"points": points, "max_points": MAX_POINTS})),
    }
}

/// A point's problem as the whole request's: its pointers moved into the
/// sweep's request (`/model/m/2`), its message naming the point.
fn point_problem(grid: &Grid, index: usize, point: &GridPoint, e: CoreError) -> ApiError {
    let mut problem = ApiError::from_core(e);
    if problem.status.is_server_error() {
        return problem;
    }
    let label = grid.label(point);
    let name = if label.is_empty() {
        format!("point {index}")
    } else {
        format!("point {index} ({label})")
    };
    problem.detail = format!("{name}: {}", problem.detail);
    for f in &mut problem.errors {
        f.pointer = grid.pointer_in_request(point, &f.pointer);
        f.message = format!("{name}: {}", f.message);
    }
    let mut details = match std::mem::take(&mut problem.details) {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    details.insert("point".into(), json!(index));
    details.insert("params".into(), Value::Object(grid.params(point)));
    problem.details = Value::Object(details);
    problem
}

/// What a refused point records: the problem's code, message and facts.
fn infeasible_record(problem: &ApiError) -> Value {
    crate::api::job_error::JobErrorBody::new(
        problem.code,
        problem.detail.as_str(),
        problem.details.clone(),
    )
    .to_value()
}

#[utoipa::path(
    post,
    path = "/v1/sweeps",
    operation_id = "create_sweep",
    tag = "sweeps",
    summary = "Run a grid of jobs (a risk–utility sweep)",
    description = "Any numeric parameter of `model`, and `suppression_limit`, may be a list; \
                   the sweep is their product (at most 64 points), each point an ordinary job \
                   on the queue. Every point is validated as a job request before anything is \
                   queued: a malformed value is a 422 naming the point and the list entry; a \
                   point the dataset cannot satisfy is recorded as `infeasible`, and the request \
                   is a 422 only when every point is.",
    security(("bearer" = [])),
    params(
        ("Idempotency-Key" = Option<String>, Header, description = "The same key with the same body returns the original sweep (200); with another body, 409. 1 to 255 visible ASCII characters", min_length = 1, max_length = 255, pattern = "^[!-~]+$"),
    ),
    request_body(content = crate::sweep::openapi::SweepRequest, content_type = "application/json"),
    responses(
        (status = 202, description = "Queued", body = SweepDto,
            headers(("Location" = String, description = "/v1/sweeps/{id}"))),
        (status = 200, description = "The original sweep of this Idempotency-Key", body = SweepDto,
            headers(("Location" = String, description = "/v1/sweeps/{id}"))),
        MalformedSubmission,
        PayloadTooLarge,
        NotJson,
        Unauthorized,
        NoSuchDataset,
        IdempotencyConflict,
        (status = 422, description = "More than 64 points (`too_many_points`); a bad value in a point, named with its pointer into the request and the point in `details` (`invalid_parameters`, `unknown_column`); or every point infeasible (`infeasible_parameters`, each point's reason in `details.points`)", body = crate::api::ProblemDto, content_type = PROBLEM_JSON),
        (status = 429, description = "The tenant's queued and running jobs would exceed its limit (`too_many_jobs`)", body = crate::api::ProblemDto, content_type = PROBLEM_JSON,
            headers(("Retry-After" = u64, description = "Seconds to wait before retrying"))),
        Internal,
        (status = 503, description = "Timed out, or too many computations (`request_timeout`, `too_many_computations`)", body = crate::api::ProblemDto, content_type = PROBLEM_JSON),
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
    // A replay answers with the original sweep even if the dataset changed
    // since; look it up before validating.
    if let Some((key, hash)) = &idempotency {
        if let Some((found, stored)) = state.store.find_idempotent_sweep(&tenant.0, key).await? {
            return if &stored == hash {
                created(&state, &found, StatusCode::OK).await
            } else {
                Err(ApiError::idempotency_conflict())
            };
        }
    }
    let grid = grid::expand(&body).map_err(grid_error)?;
    // Every point's shape before the table is loaded, each parsed once.
    let requests = grid
        .points
        .iter()
        .enumerate()
        .map(|(i, p)| {
            crate::api::JobRequestDto::parse(&p.body).map_err(|e| point_problem(&grid, i, p, e))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let dataset = state
        .store
        .get_dataset(&tenant.0, dataset_id)
        .await?
        .ok_or_else(|| ApiError::not_found("dataset"))?;
    super::limits::check_job_quota(&state, &tenant.0).await?;
    let checked = prepare(&state, requests, dataset).await?;

    let mut points = Vec::with_capacity(grid.points.len());
    let mut jobs = Vec::new();
    let mut refused = Vec::new();
    for (i, (p, c)) in grid.points.iter().zip(checked).enumerate() {
        let params = Value::Object(grid.params(p));
        match c {
            Ok(checked) => {
                jobs.push(PointJob {
                    point: i as i32,
                    params: checked.params,
                });
                points.push(json!({"params": params, "error": null}));
            }
            Err(e) if e.kind == ErrorKind::InfeasibleParameters => {
                let problem = point_problem(&grid, i, p, e);
                let record = infeasible_record(&problem);
                refused.push((problem, record.clone()));
                points.push(json!({"params": params, "error": record}));
            }
            Err(e) => return Err(point_problem(&grid, i, p, e)),
        }
    }
    if jobs.is_empty() {
        let mut all = ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "infeasible_parameters",
            format!(
                "every point of the sweep is infeasible on this dataset ({} points); nothing was queued",
                refused.len()
            ),
        );
        for (problem, _) in &refused {
            for f in &problem.errors {
                all = all.with_error(f.pointer.clone(), f.message.clone());
            }
        }
        let records: Vec<Value> = refused.into_iter().map(|(_, r)| r).collect();
        return Err(all.with_details(json!({"points": records})));
    }
    super::limits::check_jobs_quota(&state, &tenant.0, jobs.len()).await?;
    let new = NewSweep {
        tenant: tenant.0.clone(),
        dataset_id,
        request: body,
        points: Value::Array(points),
        jobs,
        max_attempts: state.max_attempts,
        idempotency,
        max_active: Some(state.limits.max_active_jobs_per_tenant.max(1)),
        submitted_by: Some(caller.key_id),
    };
    match state.store.create_sweep(&new).await? {
        SweepCreated::New(s) => created(&state, &s, StatusCode::ACCEPTED).await,
        SweepCreated::Replayed(s) => created(&state, &s, StatusCode::OK).await,
        SweepCreated::Conflict => Err(ApiError::idempotency_conflict()),
        SweepCreated::OverQuota => Err(super::limits::too_many_jobs(
            state.limits.max_active_jobs_per_tenant.max(1),
        )),
    }
}

#[utoipa::path(
    get,
    path = "/v1/sweeps/{id}",
    operation_id = "get_sweep",
    tag = "sweeps",
    summary = "Read a sweep",
    security(("bearer" = [])),
    params(
        SweepIdParam,
    ),
    responses(
        (status = 200, description = "The sweep", body = SweepDto),
        Unauthorized,
        NoSuchSweep,
        Internal,
        RequestTimeout,
    )
)]
pub async fn get(
    State(state): State<AppState>,
    Extension(tenant): Extension<Tenant>,
    SweepId(id): SweepId,
) -> Result<Json<SweepDto>, ApiError> {
    resource::get::<StoredSweep>(&state, &tenant, id).await
}

/// The tenant's current release policy and the verdict facts of the
/// sweeps' succeeded points (one query for all of them).
async fn judging(
    state: &AppState,
    sweeps: &[&crate::store::sweeps::StoredSweep],
) -> Result<Judging, ApiError> {
    let tenant = match sweeps.first() {
        Some(s) => s.sweep.tenant.clone(),
        None => return Ok(Judging::none()),
    };
    let jobs: Vec<uuid::Uuid> = sweeps
        .iter()
        .flat_map(|s| &s.jobs)
        .filter(|j| j.status == crate::api::JobStatus::Succeeded)
        .map(|j| j.id)
        .collect();
    let policy = state.store.release_policy(&tenant).await?;
    let mut facts = std::collections::HashMap::new();
    for (job, value) in state.store.verdict_facts(&tenant, &jobs).await? {
        let f = serde_json::from_value(value).map_err(|e| {
            ApiError::internal(anyhow::Error::new(e).context("stored verdict facts"))
        })?;
        facts.insert(job, f);
    }
    Ok(Judging {
        facts,
        policy: policy.policy,
        source: policy.source,
    })
}

#[utoipa::path(
    get,
    path = "/v1/sweeps",
    operation_id = "list_sweeps",
    tag = "sweeps",
    summary = "List sweeps",
    security(("bearer" = [])),
    params(
        ("dataset_id" = Option<uuid::Uuid>, Query, description = "Only sweeps of this dataset"),
        PageParams,
    ),
    responses(
        RepeatedQueryParameter,
        (status = 200, description = "A page of sweeps", body = SweepList),
        Unauthorized,
        (status = 422, description = "Bad `dataset_id`, `limit` or `cursor` (`invalid_parameters`)", body = crate::api::ProblemDto, content_type = PROBLEM_JSON),
        Internal,
        RequestTimeout,
    )
)]
pub async fn list(
    State(state): State<AppState>,
    Extension(tenant): Extension<Tenant>,
    q: ListQuery,
) -> Result<Json<ListPage<SweepDto>>, ApiError> {
    resource::list::<StoredSweep>(&state, &tenant, &q).await
}

#[utoipa::path(
    post,
    path = "/v1/sweeps/{id}/cancel",
    operation_id = "cancel_sweep",
    tag = "sweeps",
    summary = "Cancel a sweep",
    description = "Cancels the sweep's queued jobs at once and asks its running ones to stop at \
                   their next checkpoint; finished points keep their results.",
    security(("bearer" = [])),
    params(
        SweepIdParam,
    ),
    responses(
        (status = 200, description = "Cancelled (its running points stop at their next checkpoint)", body = SweepDto),
        Unauthorized,
        NoSuchSweep,
        (status = 409, description = "No point is queued or running (`sweep_finished`)", body = crate::api::ProblemDto, content_type = PROBLEM_JSON),
        Internal,
        RequestTimeout,
    )
)]
pub async fn cancel(
    State(state): State<AppState>,
    Extension(tenant): Extension<Tenant>,
    SweepId(id): SweepId,
) -> Result<Json<SweepDto>, ApiError> {
    resource::cancel::<StoredSweep>(&state, &tenant, id).await
}

impl Resource for StoredSweep {
    const NAME: &'static str = "sweep";
    type Dto = SweepDto;

    async fn load(
        state: &AppState,
        tenant: &str,
        id: uuid::Uuid,
    ) -> Result<Option<Self>, ApiError> {
        Ok(state.store.get_sweep(tenant, id).await?)
    }

    async fn page(state: &AppState, tenant: &str, q: &ListQuery) -> Result<Page<Self>, ApiError> {
        let dataset_id = q.uuid_param("dataset_id")?;
        Ok(state
            .store
            .list_sweeps(tenant, dataset_id, q.limit, q.cursor)
            .await?)
    }

    async fn dtos(state: &AppState, sweeps: &[Self]) -> Result<Vec<SweepDto>, ApiError> {
        let judging = judging(state, &sweeps.iter().collect::<Vec<_>>()).await?;
        Ok(sweeps.iter().map(|s| sweep_dto(s, &judging)).collect())
    }
}

impl Cancel for StoredSweep {
    async fn cancel(
        state: &AppState,
        tenant: &str,
        id: uuid::Uuid,
    ) -> Result<resource::Cancelled<Self>, ApiError> {
        Ok(match state.store.cancel_sweep(tenant, id).await? {
            SweepCancelled::Done(s) => resource::Cancelled::Done(s),
            SweepCancelled::Finished(s) => resource::Cancelled::Finished(s),
            SweepCancelled::NotFound => resource::Cancelled::NotFound,
        })
    }

    fn finished(&self) -> ApiError {
        let status =
            serde_json::to_value(sweep_dto(self, &Judging::none()).status).unwrap_or(Value::Null);
        ApiError::new(
            StatusCode::CONFLICT,
            "sweep_finished",
            "no point of the sweep is queued or running; there is nothing to cancel",
        )
        .with_details(json!({"status": status}))
    }
}

#[utoipa::path(
    get,
    path = "/v1/sweeps/{id}/report",
    operation_id = "get_sweep_report",
    tag = "sweeps",
    summary = "The sweep's risk–utility report",
    description = "A self-contained HTML page (inline SVG, no scripts, no external loads): the \
                   R-U map of attacker's-view risk against information loss, and against the \
                   count-query error, one mark per finished point labelled with its \
                   parameters, the Pareto front joined by a line; a table of the points with \
                   links to each point's job report. With `Accept: application/json` or \
                   `?format=json`, the same content as JSON.",
    security(("bearer" = [])),
    params(
        SweepIdParam,
        ("format" = Option<SweepReportFormat>, Query, description = "`html` or `json`; wins over `Accept` (HTML by default)"),
    ),
    responses(
        RepeatedQueryParameter,
        (status = 200, description = "The report", content(
            (String = "text/html"),
            (ru_map::SweepReportDto = "application/json"),
        )),
        Unauthorized,
        NoSuchSweep,
        (status = 422, description = "Bad `format` (`invalid_parameters`)", body = crate::api::ProblemDto, content_type = PROBLEM_JSON),
        Internal,
        RequestTimeout,
    )
)]
pub async fn report(
    State(state): State<AppState>,
    Extension(tenant): Extension<Tenant>,
    SweepId(id): SweepId,
    q: ListQuery,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let json = super::negotiate::wants_json(&q, &headers, super::negotiate::HTML)?;
    let stored = state
        .store
        .get_sweep(&tenant.0, id)
        .await?
        .ok_or_else(|| ApiError::not_found("sweep"))?;
    let report = ru_map::report(sweep_dto(&stored, &judging(&state, &[&stored]).await?));
    if json {
        return Ok(Json(report).into_response());
    }
    let origin = origin_of(&headers);
    Ok(super::negotiate::html_page(ru_map::html(
        &report,
        origin.as_deref(),
    )))
}

/// `scheme://host` of the request as the client addressed it (`Host`, and
/// `X-Forwarded-Proto` behind a proxy), for links that work in a saved
/// page; `None` without a usable `Host`.
fn origin_of(headers: &HeaderMap) -> Option<String> {
    let host = headers.get(axum::http::header::HOST)?.to_str().ok()?;
    // A host is letters, digits, dots, dashes, colons and brackets: anything
    // else is not put into a link.
    let plain = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']'))
    };
    if !plain(host) {
        return None;
    }
    let scheme = headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .filter(|p| matches!(*p, "http" | "https"))
        .unwrap_or("http");
    Some(format!("{scheme}://{host}"))
}
