//! `POST /v1/keys`: an admin key makes another key of its tenant with a
//! role (the HTTP twin of `proxima keys create --tenant T --role R`), so a
//! tenant can separate who submits from who signs without shell access to
//! the server. The key is shown once, in this answer; only its hash is
//! stored.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use super::auth::Tenant;
use super::error::{ApiError, PROBLEM_JSON};
use super::json::ApiJson;
use super::path_docs::{AdminOnly, Internal, MalformedJson, NotJson, RequestTimeout, Unauthorized};
use super::AppState;
use crate::api::access::KeyRole;

/// A key just made.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = CreatedKey)]
pub struct CreatedKeyDto {
    pub id: uuid::Uuid,
    pub tenant: String,
    pub role: KeyRole,
    /// What names the key in logs and `proxima keys revoke`.
    pub prefix: String,
    /// The key itself: shown this once, never again.
    pub key: String,
}

#[utoipa::path(
    post,
    path = "/v1/keys",
    operation_id = "create_key",
    tag = "settings",
    summary = "Make an API key of this tenant with a role (admin keys)",
    security(("bearer" = [])),
    request_body(content = crate::api::access::KeyRequest, content_type = "application/json"),
    responses(
        (status = 201, description = "The key, shown once", body = CreatedKeyDto),
        MalformedJson,
        Unauthorized,
        AdminOnly,
        NotJson,
        (status = 422, description = "A missing or unknown role, or an unknown field (`invalid_parameters`)", body = crate::api::ProblemDto, content_type = PROBLEM_JSON),
        Internal,
        RequestTimeout,
    )
)]
pub async fn create(
    State(state): State<AppState>,
    Extension(tenant): Extension<Tenant>,
    ApiJson(body): ApiJson<Value>,
) -> Result<Response, ApiError> {
    let role = crate::api::access::parse_key_request(&body)
        .map_err(|(pointer, message)| ApiError::invalid_parameters(&pointer, message))?
        .role;
    let key = state.store.create_key_with_role(&tenant.0, role).await?;
    let made = state
        .store
        .key_identity(&key)
        .await?
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("a key just made is not found")))?;
    let dto = CreatedKeyDto {
        id: made.id,
        tenant: made.tenant,
        role: made.role,
        prefix: crate::store::api_keys::display_prefix(&key),
        key,
    };
    let mut res = (StatusCode::CREATED, Json(dto)).into_response();
    res.headers_mut().insert(
        axum::http::header::CACHE_CONTROL,
        axum::http::HeaderValue::from_static("no-store"),
    );
    Ok(res)
}
