//! `GET`/`PUT /v1/settings/release-policy`: the tenant's release policy
//! (`crate::api::policy`). Reading it is open to every role, setting it
//! to admins (`http::roles`).

use axum::extract::State;
use axum::http::StatusCode;
use axum::{Extension, Json};
use serde_json::Value;

use super::auth::{Caller, Tenant};
use super::error::{ApiError, PROBLEM_JSON};
use super::json::ApiJson;
use super::path_docs::{AdminOnly, Internal, MalformedJson, NotJson, RequestTimeout, Unauthorized};
use super::AppState;
use crate::api::policy::{parse_policy, ReleasePolicyResource};

#[utoipa::path(
    get,
    path = "/v1/settings/release-policy",
    operation_id = "get_release_policy",
    tag = "settings",
    summary = "The tenant's release policy",
    description = "The thresholds the release report's verdict applies and whether publication \
                   needs an approval (with four eyes). `source` is `default` until an admin sets \
                   one. See docs/api.md §Release policy.",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The policy", body = ReleasePolicyResource),
        Unauthorized,
        Internal,
        RequestTimeout,
    )
)]
pub async fn get(
    State(state): State<AppState>,
    Extension(tenant): Extension<Tenant>,
) -> Result<Json<ReleasePolicyResource>, ApiError> {
    Ok(Json(state.store.release_policy(&tenant.0).await?))
}

#[utoipa::path(
    put,
    path = "/v1/settings/release-policy",
    operation_id = "put_release_policy",
    tag = "settings",
    summary = "Set the tenant's release policy (admin keys)",
    description = "The whole policy: a field left out takes its documented default. Reports \
                   built after this apply it; approvals already given keep the verdict they \
                   bound.",
    security(("bearer" = [])),
    request_body(content = crate::api::policy::ReleasePolicyRequest, content_type = "application/json"),
    responses(
        (status = 200, description = "The policy now in force", body = ReleasePolicyResource),
        MalformedJson,
        Unauthorized,
        AdminOnly,
        NotJson,
        (status = 422, description = "A field out of range, of the wrong type or unknown (`invalid_parameters`; `errors` name each field by its pointer)", body = crate::api::ProblemDto, content_type = PROBLEM_JSON),
        Internal,
        RequestTimeout,
    )
)]
pub async fn put(
    State(state): State<AppState>,
    Extension(tenant): Extension<Tenant>,
    Extension(caller): Extension<Caller>,
    ApiJson(body): ApiJson<Value>,
) -> Result<Json<ReleasePolicyResource>, ApiError> {
    let policy = parse_policy(&body).map_err(field_errors)?;
    Ok(Json(
        state
            .store
            .put_release_policy(&tenant.0, &policy, caller.key_id)
            .await?,
    ))
}

/// A 422 `invalid_parameters` listing every field error.
pub fn field_errors(errors: Vec<(String, String)>) -> ApiError {
    let detail = match errors.as_slice() {
        [(_, m)] => m.clone(),
        _ => format!("{} fields are invalid; see errors", errors.len()),
    };
    errors.into_iter().fold(
        ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_parameters",
            detail,
        ),
        |e, (pointer, message)| e.with_error(pointer, message),
    )
}
