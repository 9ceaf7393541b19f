//! `GET /v1/jobs/{id}/report`: the release report (`crate::release_report`), as a
//! self-contained HTML page (default) or JSON. A failed job's report
//! explains the failure; a queued, running or cancelled job has none (409).
//!
//! A report takes a computation slot (`http::compute`) before it reads the
//! result and the table, like an audit.
//!
//! Nothing is cached: the report is rebuilt from the stored dataset, result
//! and audit on every request (deterministic: the workload's seed is
//! fixed), which keeps it consistent with `GET …/result` by construction
//! and costs well under the 2 s budget on 500k rows (BENCHMARKS.md).

use crate::api::JobStatus;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use proxima_core::run::Anonymized;
use serde_json::json;

use super::auth::Tenant;
use super::error::{ApiError, PROBLEM_JSON};
use super::id::JobId;
use super::list::ListQuery;
use super::path_docs::{
    Internal, JobIdParam, MalformedReleaseRequest, NoSuchJob, ReportAudienceParam, Unauthorized,
};
use super::AppState;
use crate::api::audit_report::AuditReportDto;
use crate::app::tables::load_stored_with_progress;
use crate::release_report::content::Audience;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ReportFormat {
    Html,
    Json,
}

/// HTML by default; see [`super::negotiate`].
fn format_of(q: &ListQuery, headers: &HeaderMap) -> Result<ReportFormat, ApiError> {
    Ok(
        if super::negotiate::wants_json(q, headers, super::negotiate::HTML)? {
            ReportFormat::Json
        } else {
            ReportFormat::Html
        },
    )
}

fn audience_of(q: &ListQuery) -> Result<Audience, ApiError> {
    match q.param("audience") {
        None | Some("internal") => Ok(Audience::Internal),
        Some("external") => Ok(Audience::External),
        Some(other) => Err(ApiError::invalid_parameters(
            "/query/audience",
            format!("audience must be internal or external, got {other:?}"),
        )),
    }
}

#[utoipa::path(
    get,
    path = "/v1/jobs/{id}/report",
    operation_id = "get_job_report",
    tag = "jobs",
    summary = "The release report a release officer signs",
    description = "A self-contained HTML page (inline SVG charts, no script, no external load, \
                   printable) or, with `Accept: application/json` or `?format=json`, the same \
                   content as JSON. It opens with the verdict (`publishable`, \
                   `publishable_with_conditions` or `not_publishable`, each reason linked to its \
                   section, and the release policy applied) and ends with the approvals recorded; \
                   between them: the dataset and the replayable request, the SHA-256 of the \
                   CSV release as `GET …/result` serves it, re-identification risk before and \
                   after (with population uniqueness when the dataset has `population`), the \
                   attacker's-view figures of the model, group sizes, the SA distribution, \
                   utility and computed warnings. A failed job's report explains the failure. \
                   See docs/release-report.md.",
    security(("bearer" = [])),
    params(
        JobIdParam,
        ("format" = Option<super::path_docs::ReportFormat>, Query, description = "`html` or `json`; wins over `Accept` (HTML by default)"),
        ("audience" = Option<ReportAudienceParam>, Query, description = "`internal` (default: with the riskiest QI combinations) or `external` (no QI value of a risky record)"),
    ),
    responses(
        MalformedReleaseRequest,
        (status = 200, description = "The report", content(
            (String = "text/html"),
            (crate::release_report::content::ReleaseReport = "application/json"),
        ), headers(
            ("Content-Security-Policy" = String, description = "HTML only: no script, no external load"),
        )),
        Unauthorized,
        NoSuchJob,
        (status = 409, description = "The job is queued, running or cancelled (`result_not_ready`)", body = crate::api::ProblemDto, content_type = PROBLEM_JSON),
        (status = 422, description = "Bad `format` or `audience` (`invalid_parameters`)", body = crate::api::ProblemDto, content_type = PROBLEM_JSON),
        Internal,
        (status = 503, description = "The response did not start within the request timeout (`request_timeout`; the computation is given up), or too many computations (reports, downloads, audits, feasibility answers, job validations) are running over the server or for this tenant (`too_many_computations`, the cap in `details`; retry after `Retry-After` seconds)", body = crate::api::ProblemDto, content_type = PROBLEM_JSON,
            headers(("Retry-After" = u64, description = "Seconds to wait before retrying (`too_many_computations`)"))),
    )
)]
pub async fn report(
    State(state): State<AppState>,
    Extension(tenant): Extension<Tenant>,
    JobId(id): JobId,
    q: ListQuery,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let format = format_of(&q, &headers)?;
    let audience = audience_of(&q)?;
    let job = state
        .store
        .get_job(&tenant.0, id)
        .await?
        .ok_or_else(|| ApiError::not_found("job"))?;
    match job.status {
        JobStatus::Succeeded | JobStatus::Failed => {}
        status => {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "result_not_ready",
                format!("the job is {status}; its report exists once it has succeeded or failed"),
            )
            .with_details(json!({"status": status.as_str()})))
        }
    }
    build_then(
        &state,
        &tenant.0,
        job,
        audience,
        move |report| match format {
            ReportFormat::Json => Json(report).into_response(),
            ReportFormat::Html => {
                super::negotiate::html_page(crate::release_report::html::render(&report))
            }
        },
    )
    .await
}

/// Builds the report of a succeeded or failed `job` (under the computation
/// caps, with the tenant's policy and the job's approvals) and hands it to
/// `finish` on the computation's thread. Shared by the report and the
/// approvals, which bind the verdict and the release hash it computes.
pub(crate) async fn build_then<T, F>(
    state: &AppState,
    tenant: &str,
    job: crate::store::jobs::JobRow,
    audience: Audience,
    finish: F,
) -> Result<T, ApiError>
where
    F: FnOnce(crate::release_report::content::ReleaseReport) -> T + Send + 'static,
    T: Send + 'static,
{
    let succeeded = job.status == JobStatus::Succeeded;
    let dataset = state
        .store
        .get_dataset(tenant, job.dataset_id)
        .await?
        .ok_or_else(|| ApiError::not_found("job"))?;
    let policy = state.store.release_policy(tenant).await?;
    let approvals = state.store.all_approvals(tenant, job.id).await?;
    // Under the computation caps like an audit, taken before anything
    // large is read: a report loads the table and rebuilds the release. It
    // is given up at its next checkpoint when the request is (a timeout, a
    // client gone) instead of computing on after the 503.
    let computation = super::compute::begin(state, tenant).await?;
    let stored = if succeeded {
        let result = state
            .store
            .get_result(tenant, job.id)
            .await?
            .ok_or_else(|| {
                ApiError::internal(anyhow::anyhow!("succeeded job {} has no result", job.id))
            })?;
        let audit: AuditReportDto = serde_json::from_value(result.audit)
            .map_err(|e| ApiError::internal(anyhow::Error::new(e).context("a stored audit")))?;
        Some((result.group_of_rows, audit))
    } else {
        None
    };
    let files = state.store.dataset_files(tenant, job.dataset_id).await?;
    let population = state.store.population_of(&dataset).await?;
    computation
        .run("building a report", move |progress| {
            let table = load_stored_with_progress(&dataset.schema, &files, progress)?;
            drop(files);
            let population = match population {
                Some((row, files)) => {
                    let rows = load_stored_with_progress(&row.schema, &files, progress)?;
                    Some(proxima_core::population::PopulationIndex::for_release(
                        &table,
                        &rows,
                        "/population/dataset_id",
                        progress,
                    )?)
                }
                None => None,
            };
            let anonymized = match &stored {
                Some((assignment, _)) => Some(Anonymized::from_assignment(&table, assignment)?),
                None => None,
            };
            let outcome = anonymized
                .as_ref()
                .zip(stored.as_ref().map(|(_, audit)| audit));
            let report = crate::release_report::build(&crate::release_report::Input {
                job: &job,
                dataset: &dataset,
                table: &table,
                outcome,
                population: population.as_ref(),
                audience,
                progress,
                policy: (policy.policy, policy.source),
                approvals: &approvals,
            })?;
            Ok::<_, proxima_core::CoreError>(finish(report))
        })
        .await
}
