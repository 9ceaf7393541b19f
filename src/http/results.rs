//! `GET /v1/jobs/{id}/result` (the release, streamed as CSV or JSON) and
//! `GET /v1/jobs/{id}/audit`.
//!
//! The stored result is the row → group assignment; the release is rebuilt
//! from the dataset (`Release::from_assignment`) and rendered row by row on
//! a blocking thread into a bounded channel, so the response streams and
//! memory does not grow with the output. A download holds a computation
//! slot (`http::compute`) from before it reads the result until its
//! rendering ends: the table and the release are in memory all that time.

use std::io::Write;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use proxima_core::run::Anonymized;
use serde_json::Value;
use tokio::sync::mpsc;

use super::auth::Tenant;
use super::error::{ApiError, PROBLEM_JSON};
use super::id::JobId;
use super::list::ListQuery;
use super::path_docs::{
    Internal, JobIdParam, MalformedReleaseRequest, NoSuchJob, ReleaseJson, RequestTimeout,
    ResultFormat, ResultNotReady, ResultPurpose, Unauthorized,
};
use super::AppState;
use crate::app::tables::load_stored;
use crate::render::{write_release, Format};
use crate::store::jobs::JobRow;

/// The job, or 404; 409 `result_not_ready` unless it succeeded.
async fn succeeded_job(state: &AppState, tenant: &str, id: uuid::Uuid) -> Result<JobRow, ApiError> {
    let job = state
        .store
        .get_job(tenant, id)
        .await?
        .ok_or_else(|| ApiError::not_found("job"))?;
    if job.status != crate::api::JobStatus::Succeeded {
        return Err(ApiError::result_not_ready(job.status.as_str()));
    }
    Ok(job)
}

/// CSV by default; see [`super::negotiate`].
fn format_of(q: &ListQuery, headers: &HeaderMap) -> Result<Format, ApiError> {
    Ok(
        if super::negotiate::wants_json(q, headers, super::negotiate::CSV)? {
            Format::Json
        } else {
            Format::Csv
        },
    )
}

fn row_id_of(q: &ListQuery) -> Result<bool, ApiError> {
    match q.param("row_id") {
        None | Some("false") => Ok(false),
        Some("true") => Ok(true),
        Some(other) => Err(ApiError::invalid_parameters(
            "/query/row_id",
            format!("row_id must be true or false, got {other:?}"),
        )),
    }
}

/// What a download is for: the data owner's own checks (the default), or
/// publication, which the tenant's policy may tie to an approval.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Purpose {
    OwnerCheck,
    Publication,
}

fn purpose_of(q: &ListQuery) -> Result<Purpose, ApiError> {
    match q.param("purpose") {
        None | Some("owner_check") => Ok(Purpose::OwnerCheck),
        Some("publication") => Ok(Purpose::Publication),
        Some(other) => Err(ApiError::invalid_parameters(
            "/query/purpose",
            format!("purpose must be owner_check or publication, got {other:?}"),
        )),
    }
}

/// A publication download: never with `row_id`, and, when the policy
/// requires approval, only while the job's latest decision approves it.
async fn check_publication(
    state: &AppState,
    tenant: &str,
    job: &JobRow,
    row_id: bool,
) -> Result<(), ApiError> {
    if row_id {
        return Err(ApiError::invalid_parameters(
            "/query/row_id",
            "row_id links the release to the upload's lines and is never published; leave it \
             out of a publication download",
        ));
    }
    if !state
        .store
        .release_policy(tenant)
        .await?
        .policy
        .require_approval
    {
        return Ok(());
    }
    let latest = state.store.latest_approval(tenant, job.id).await?;
    match latest.map(|a| a.decision) {
        Some(crate::api::approval::ApprovalDecision::Approve) => Ok(()),
        last => Err(ApiError::new(
            StatusCode::CONFLICT,
            "approval_required",
            match last {
                None => {
                    "the release policy requires an approval before publication, and this \
                         job has none: a reviewer approves it with POST /v1/jobs/{id}/approvals"
                }
                Some(_) => {
                    "the release policy requires an approval before publication, and \
                            this job's latest decision is a rejection"
                }
            },
        )
        .with_details(serde_json::json!({
            "latest_decision": last.map(|d| d.as_str()),
        }))),
    }
}

/// A `Write` that sends 64 KiB pieces to the response body.
struct ChannelWriter {
    tx: mpsc::Sender<Result<Bytes, std::io::Error>>,
    buf: Vec<u8>,
}

impl Write for ChannelWriter {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(data);
        if self.buf.len() >= 1 << 16 {
            self.flush()?;
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let piece = Bytes::from(std::mem::take(&mut self.buf));
        // The client went away: stop rendering.
        self.tx
            .blocking_send(Ok(piece))
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::BrokenPipe, "client gone"))
    }
}

#[utoipa::path(
    get,
    path = "/v1/jobs/{id}/result",
    operation_id = "get_job_result",
    tag = "jobs",
    summary = "Download the release (streamed)",
    security(("bearer" = [])),
    params(
        JobIdParam,
        ("format" = Option<ResultFormat>, Query, description = "`csv` or `json`; wins over `Accept` (CSV by default)"),
        ("row_id" = Option<bool>, Query, description = "Add `row_id` (the upload's 1-based data line); never publish it"),
        ("purpose" = Option<ResultPurpose>, Query, description = "`owner_check` (default: for the data owner's own checks) or `publication`: served only while the job's latest approval approves it when the tenant's release policy requires approval, and never with `row_id`"),
    ),
    responses(
        MalformedReleaseRequest,
        (status = 200, description = "The generalized table, rows grouped by `group_id`", content(
            (String = "text/csv"),
            (ReleaseJson = "application/json"),
        ), headers(
            ("Content-Disposition" = String, description = "`attachment; filename=\"<job id>.csv\"` (or `.json`)"),
            ("Cache-Control" = String, description = "`no-store`: a release is never cached"),
        )),
        Unauthorized,
        NoSuchJob,
        (status = 409, description = "The job has not succeeded (`result_not_ready`), or `purpose=publication` without an approval the policy requires (`approval_required`)", body = crate::api::ProblemDto, content_type = PROBLEM_JSON),
        (status = 422, description = "Bad `format`, `row_id` or `purpose`, or `row_id` with `purpose=publication` (`invalid_parameters`)", body = crate::api::ProblemDto, content_type = PROBLEM_JSON),
        Internal,
        (status = 503, description = "Too many computations (downloads, reports, audits, feasibility answers, job validations) are running over the server or for this tenant (`too_many_computations`, the cap in `details`; retry after `Retry-After` seconds)", body = crate::api::ProblemDto, content_type = PROBLEM_JSON,
            headers(("Retry-After" = u64, description = "Seconds to wait before retrying"))),
    )
)]
pub async fn result(
    State(state): State<AppState>,
    Extension(tenant): Extension<Tenant>,
    JobId(id): JobId,
    q: ListQuery,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let format = format_of(&q, &headers)?;
    let row_id = row_id_of(&q)?;
    let purpose = purpose_of(&q)?;
    let job = succeeded_job(&state, &tenant.0, id).await?;
    if purpose == Purpose::Publication {
        check_publication(&state, &tenant.0, &job, row_id).await?;
    }
    // Under the computation caps like an audit: the stored result, the
    // table and the release are held until the last byte is rendered, so
    // the slot is too (given back when the rendering thread ends, or when
    // the client goes away).
    let held = super::compute::begin(&state, &tenant.0).await?.into_held();
    let stored = state
        .store
        .get_result(&tenant.0, job.id)
        .await?
        .ok_or_else(|| {
            ApiError::internal(anyhow::anyhow!("succeeded job {} has no result", job.id))
        })?;
    let dataset = state
        .store
        .get_dataset(&tenant.0, job.dataset_id)
        .await?
        .ok_or_else(|| ApiError::not_found("job"))?;
    let files = state.store.dataset_files(&tenant.0, job.dataset_id).await?;
    // Rebuild before answering, so a corrupt result is a 500, not a cut
    // stream.
    let (table, release) = crate::telemetry::spawn_blocking_redacted(move || {
        // The release prints the QIs' labels, never their cells: their
        // text (a sixth of a numeric table) is dropped before the kept
        // rows are copied.
        let table = load_stored(&dataset.schema, &files)?.without_qi_text();
        // The stored bytes are not read again: freed before the release
        // is rebuilt beside the table.
        drop(files);
        // The decoder's blocks, freed, would stay resident beside the
        // release.
        crate::allocator::release_after_load(table.rows());
        // Rows the model suppressed are not in the release's table.
        let anonymized = Anonymized::from_assignment(&table, &stored.group_of_rows)?;
        let table = match anonymized.kept {
            Some(kept) => kept.table,
            None => table,
        };
        Ok::<_, proxima_core::CoreError>((table, anonymized.release))
    })
    .await
    .map_err(|e| ApiError::join(e, "rebuilding a release"))??;

    let (tx, mut rx) = mpsc::channel::<Result<Bytes, std::io::Error>>(8);
    let threads = state.limits.compute.threads;
    crate::telemetry::spawn_blocking_redacted(move || {
        let _held = held;
        let out = ChannelWriter {
            tx: tx.clone(),
            buf: Vec::with_capacity(1 << 16),
        };
        // Stretches of rows render on the job's threads (src/render).
        let written = proxima_core::parallel::with_threads(threads, || {
            write_release(format, out, &table, &release, row_id).and_then(|mut w| w.flush())
        });
        if let Err(e) = written {
            if e.kind() != std::io::ErrorKind::BrokenPipe {
                tracing::error!(error = %e, "rendering a release failed");
                let _ = tx.blocking_send(Err(e));
            }
        }
    });
    let stream = futures_util::stream::poll_fn(move |cx| rx.poll_recv(cx));
    let (content_type, extension) = match format {
        Format::Csv => ("text/csv; charset=utf-8", "csv"),
        Format::Json => ("application/json", "json"),
    };
    let mut res = (StatusCode::OK, Body::from_stream(stream)).into_response();
    res.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    super::headers::attachment(&mut res, &format!("{}.{extension}", job.id));
    Ok(res)
}

#[utoipa::path(
    get,
    path = "/v1/jobs/{id}/audit",
    operation_id = "get_job_audit",
    tag = "jobs",
    summary = "The audit of a job's release",
    security(("bearer" = [])),
    params(
        JobIdParam,
    ),
    responses(
        (status = 200, description = "The release audited against the job's model, k-anonymity, distinct l-diversity and prosecutor risk", body = crate::api::AuditReportDto),
        Unauthorized,
        NoSuchJob,
        ResultNotReady,
        Internal,
        RequestTimeout,
    )
)]
pub async fn audit(
    State(state): State<AppState>,
    Extension(tenant): Extension<Tenant>,
    JobId(id): JobId,
) -> Result<Json<Value>, ApiError> {
    let job = succeeded_job(&state, &tenant.0, id).await?;
    let audit = state
        .store
        .get_audit(&tenant.0, job.id)
        .await?
        .ok_or_else(|| {
            ApiError::internal(anyhow::anyhow!("succeeded job {} has no audit", job.id))
        })?;
    Ok(Json(audit))
}
