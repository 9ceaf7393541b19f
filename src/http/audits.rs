//! `POST /v1/audits`: audit a table before publication, synchronously — an
//! uploaded dataset grouped by identical QI values or by a column, or a
//! job's result with the given checks.

use axum::extract::State;
use axum::{Extension, Json};
use serde_json::Value;
use uuid::Uuid;

use super::auth::Tenant;
use super::error::{ApiError, PROBLEM_JSON};
use super::id::parse_id;
use super::json::ApiJson;
use super::path_docs::{
    ComputationBusy, Internal, NotJson, PayloadTooLarge, ResultNotReady, Unauthorized,
};
use super::AppState;
use crate::api::{AuditRequestDto, AuditTarget};
use crate::app::audits::audit_stored;
use crate::store::datasets::{DatasetFiles, DatasetRow};

#[utoipa::path(
    post,
    path = "/v1/audits",
    operation_id = "create_audit",
    tag = "audits",
    summary = "Audit a dataset or a job's release",
    security(("bearer" = [])),
    request_body(content = crate::api::AuditRequestDto, content_type = "application/json"),
    responses(
        (status = 200, description = "The audit report", body = crate::api::AuditReportDto),
        (status = 400, description = "Unparseable JSON (`malformed_json`), or a dataset stored by an earlier version whose cells hold line breaks without `csv.allow_line_breaks` (`malformed_csv`)", body = crate::api::ProblemDto, content_type = PROBLEM_JSON),
        PayloadTooLarge,
        NotJson,
        Unauthorized,
        (status = 404, description = "No such dataset or job (`not_found`)", body = crate::api::ProblemDto, content_type = PROBLEM_JSON),
        ResultNotReady,
        (status = 422, description = "Invalid request or checks, or more checks than `--max-audit-checks` (`invalid_parameters`, `unknown_column`), a population table that does not fit the audited table (`population_mismatch`: a missing quasi-identifier, another type, or for `delta_presence` a table that is not a subset of it), or an attacker's view that would need more memory than `--max-attacker-view-bytes` (`attacker_view_too_large`, the budget in `details`)", body = crate::api::ProblemDto, content_type = PROBLEM_JSON),
        Internal,
        ComputationBusy,
    )
)]
pub async fn audit(
    State(state): State<AppState>,
    Extension(tenant): Extension<Tenant>,
    ApiJson(body): ApiJson<Value>,
) -> Result<Json<Value>, ApiError> {
    let bytes = serde_json::to_vec(&body).map_err(|e| ApiError::internal(e.into()))?;
    let request = AuditRequestDto::from_json(&bytes)?;
    // Each check is a pass over the table (in the attacker's view, over
    // every victim's candidates): their number bounds the request's time
    // and the report's size.
    let max_checks = state.limits.max_audit_checks.max(1);
    if request.checks.len() > max_checks {
        return Err(ApiError::invalid_parameters(
            "/checks",
            format!(
                "{} checks were asked for; at most {max_checks} are accepted in one audit \
                 (--max-audit-checks): split them over several requests",
                request.checks.len()
            ),
        )
        .with_details(serde_json::json!({
            "checks": request.checks.len(),
            "max_audit_checks": max_checks,
        })));
    }
    // By job: the job's partition on its dataset. By dataset: the grouping
    // the request names.
    let (dataset_id, assignment) = match request.target()? {
        AuditTarget::Dataset(id) => (parse_id(id, "dataset")?, None),
        AuditTarget::Job(id) => {
            let id = parse_id(id, "job")?;
            let job = state
                .store
                .get_job(&tenant.0, id)
                .await?
                .ok_or_else(|| ApiError::not_found("job"))?;
            if job.status != crate::api::JobStatus::Succeeded {
                return Err(ApiError::result_not_ready(job.status.as_str()));
            }
            let stored = state
                .store
                .get_result(&tenant.0, id)
                .await?
                .ok_or_else(|| ApiError::internal(anyhow::anyhow!("job {id} has no result")))?;
            (job.dataset_id, Some(stored.group_of_rows))
        }
    };
    let dataset = state
        .store
        .get_dataset(&tenant.0, dataset_id)
        .await?
        .ok_or_else(|| ApiError::not_found("dataset"))?;
    // The population tables the checks name, each loaded once (404s as a
    // field error of the first check that names it).
    let mut populations: Vec<(Uuid, DatasetRow, DatasetFiles)> = Vec::new();
    for (i, check) in request.checks.iter().enumerate() {
        let at = format!("/checks/{i}");
        let Some((_, id)) = check.population_check(&at)? else {
            continue;
        };
        if populations.iter().any(|(p, ..)| *p == id) {
            continue;
        }
        let row = state
            .store
            .get_dataset(&tenant.0, id)
            .await?
            .ok_or_else(|| {
                ApiError::invalid_parameters(
                    &format!("{at}/population_dataset_id"),
                    format!("the population table {id} is not one of this tenant's datasets"),
                )
            })?;
        let files = state.store.dataset_files(&tenant.0, id).await?;
        populations.push((id, row, files));
    }
    let computation = super::compute::begin(&state, &tenant.0).await?;
    let files = state.store.dataset_files(&tenant.0, dataset_id).await?;
    let view_budget = state.limits.max_view_bytes;
    let report = computation
        .run("an audit", move |progress| {
            audit_stored(
                &request,
                (&dataset.schema, &files),
                &populations,
                assignment,
                view_budget,
                progress,
            )
        })
        .await?;
    Ok(Json(
        serde_json::to_value(report).map_err(|e| ApiError::internal(e.into()))?,
    ))
}
