//! `POST`/`GET /v1/jobs/{id}/approvals`: the sign-off as a recorded act.
//!
//! An approval binds what the reviewer saw: the report's verdict and the
//! SHA-256 of the CSV release, both computed afresh from the stored job
//! (the report's own `build`), the calling key's id and tenant, and the
//! time. It is never edited or deleted (no route does, and the table's
//! trigger refuses it), and it outlives the job: after the dataset is
//! deleted the list still answers, with `release_deleted_at`.
//!
//! Refusals, in order: the body (422), the job (404), a job without a
//! release (409 `result_not_ready`), four eyes (403 `four_eyes_required`:
//! the approving key submitted the job, or who submitted it is unknown),
//! approving a release the verdict calls not publishable (409
//! `verdict_not_publishable`; rejecting it is always possible).

use axum::extract::State;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde_json::{json, Value};

use super::auth::{Caller, Tenant};
use super::error::{ApiError, PROBLEM_JSON};
use super::id::JobId;
use super::json::ApiJson;
use super::list::ListQuery;
use super::path_docs::{
    BadPage, Internal, JobIdParam, MalformedJson, NoSuchJob, NotJson, PageParams,
    RepeatedQueryParameter, RequestTimeout, Unauthorized,
};
use super::AppState;
use crate::api::approval::{parse_approval, ApprovalDecision, ApprovalDto, ApprovalListDto};
use crate::api::JobStatus;
use crate::release_report::content::Audience;
use crate::release_report::verdict::Decision;
use crate::store::approvals::NewApproval;

#[utoipa::path(
    post,
    path = "/v1/jobs/{id}/approvals",
    operation_id = "create_approval",
    tag = "jobs",
    summary = "Approve or reject a job's release (reviewer and admin keys)",
    description = "Records the decision with the report's verdict and the release's SHA-256 at \
                   this moment, the calling key's id and tenant and the time. Never edited or \
                   deleted. Under a policy with `four_eyes`, the approving key must differ from \
                   the key that submitted the job.",
    security(("bearer" = [])),
    params(
        JobIdParam,
    ),
    request_body(content = crate::api::approval::ApprovalRequest, content_type = "application/json"),
    responses(
        (status = 201, description = "Recorded", body = ApprovalDto,
            headers(("Location" = String, description = "/v1/jobs/{id}/approvals"))),
        MalformedJson,
        Unauthorized,
        (status = 403, description = "The key is not a reviewer or admin key (`role_forbidden`), or four eyes: the approving key submitted the job or the job's submitter is unknown (`four_eyes_required`)", body = crate::api::ProblemDto, content_type = PROBLEM_JSON),
        NoSuchJob,
        (status = 409, description = "The job has no release (`result_not_ready`), or an approval of a release whose verdict is `not_publishable` (`verdict_not_publishable`)", body = crate::api::ProblemDto, content_type = PROBLEM_JSON),
        NotJson,
        (status = 422, description = "A bad or unknown field (`invalid_parameters`; `errors` name each by its pointer)", body = crate::api::ProblemDto, content_type = PROBLEM_JSON),
        Internal,
        (status = 503, description = "The response did not start within the request timeout (`request_timeout`), or too many computations are running (`too_many_computations`; retry after `Retry-After` seconds)", body = crate::api::ProblemDto, content_type = PROBLEM_JSON,
            headers(("Retry-After" = u64, description = "Seconds to wait before retrying (`too_many_computations`)"))),
    )
)]
pub async fn create(
    State(state): State<AppState>,
    Extension(tenant): Extension<Tenant>,
    Extension(caller): Extension<Caller>,
    JobId(id): JobId,
    ApiJson(body): ApiJson<Value>,
) -> Result<Response, ApiError> {
    let request = parse_approval(&body).map_err(super::settings::field_errors)?;
    let job = state
        .store
        .get_job(&tenant.0, id)
        .await?
        .ok_or_else(|| ApiError::not_found("job"))?;
    if job.status != JobStatus::Succeeded {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "result_not_ready",
            format!(
                "the job is {}; only a succeeded job has a release to approve or reject",
                job.status
            ),
        )
        .with_details(json!({"status": job.status.as_str()})));
    }
    let policy = state.store.release_policy(&tenant.0).await?.policy;
    if request.decision == ApprovalDecision::Approve && policy.four_eyes {
        match job.submitted_by_key {
            Some(k) if k != caller.key_id => {}
            submitter => return Err(four_eyes(submitter.is_some())),
        }
    }
    let (verdict, detail, sha256) = super::release_report::build_then(
        &state,
        &tenant.0,
        job.clone(),
        Audience::External,
        |r| {
            let detail = serde_json::to_value(&r.verdict).unwrap_or(Value::Null);
            (
                r.verdict.decision,
                detail,
                r.release.map(|rel| rel.sha256).unwrap_or_default(),
            )
        },
    )
    .await?;
    if request.decision == ApprovalDecision::Approve && verdict == Decision::NotPublishable {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "verdict_not_publishable",
            "the report's verdict is not_publishable: this release cannot be approved (it can \
             be rejected); see the verdict's blocking reasons in GET …/report",
        )
        .with_details(json!({"verdict": verdict.as_str(), "reasons": detail["reasons"]})));
    }
    let approval = state
        .store
        .insert_approval(&NewApproval {
            tenant: &tenant.0,
            job_id: job.id,
            dataset_id: job.dataset_id,
            decision: request.decision,
            name: &request.name,
            role: &request.role,
            comment: request.comment.as_deref(),
            verdict: verdict.as_str(),
            verdict_detail: detail,
            release_sha256: &sha256,
            key_id: caller.key_id,
        })
        .await?;
    let mut res = (StatusCode::CREATED, Json(approval)).into_response();
    if let Ok(loc) = HeaderValue::from_str(&format!("/v1/jobs/{}/approvals", job.id)) {
        res.headers_mut().insert(header::LOCATION, loc);
    }
    Ok(res)
}

fn four_eyes(submitter_known: bool) -> ApiError {
    let detail = if submitter_known {
        "the release policy requires four eyes: the key that submitted this job cannot approve \
         it; approve with another reviewer's key"
    } else {
        "the release policy requires four eyes, and this job was queued before keys were \
         recorded, so who submitted it is unknown: queue it again (the release is the same) \
         and approve that job"
    };
    ApiError::new(StatusCode::FORBIDDEN, "four_eyes_required", detail)
        .with_details(json!({"submitter_known": submitter_known}))
}

#[utoipa::path(
    get,
    path = "/v1/jobs/{id}/approvals",
    operation_id = "list_approvals",
    tag = "jobs",
    summary = "A job's approvals and rejections, newest first",
    description = "Still answers after the job and its dataset were deleted: the approvals \
                   stay, and `release_deleted_at` says when the release went.",
    security(("bearer" = [])),
    params(
        JobIdParam,
        PageParams,
    ),
    responses(
        (status = 200, description = "A page of approvals", body = ApprovalListDto),
        RepeatedQueryParameter,
        Unauthorized,
        (status = 404, description = "No such job, and no record of one (`not_found`)", body = crate::api::ProblemDto, content_type = PROBLEM_JSON),
        BadPage,
        Internal,
        RequestTimeout,
    )
)]
pub async fn list(
    State(state): State<AppState>,
    Extension(tenant): Extension<Tenant>,
    JobId(id): JobId,
    q: ListQuery,
) -> Result<Json<ApprovalListDto>, ApiError> {
    let page = state
        .store
        .list_approvals(&tenant.0, id, q.limit, q.cursor)
        .await?;
    let deleted_at = state.store.release_deleted_at(&tenant.0, id).await?;
    if page.items.is_empty()
        && deleted_at.is_none()
        && q.cursor.is_none()
        && state.store.get_job(&tenant.0, id).await?.is_none()
    {
        return Err(ApiError::not_found("job"));
    }
    Ok(Json(ApprovalListDto {
        items: page.items,
        next_cursor: page.next_cursor.map(|c| c.encode()),
        release_deleted_at: deleted_at,
    }))
}
