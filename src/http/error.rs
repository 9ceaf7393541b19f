//! The one error table of the HTTP API: every problem has a status, a stable
//! code, a message and optional field errors and details, and is served as
//! `application/problem+json` (RFC 9457) with `type` = `/problems/<code>`.
//! 500s are logged with their cause and served without internals.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use proxima_core::CoreError;
use serde_json::{json, Value};

#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub detail: String,
    /// Field-level errors (`pointer` is a JSON pointer into the request).
    pub errors: Vec<FieldErrorDto>,
    pub details: Value,
    /// Logged for 500s, never served.
    pub cause: Option<anyhow::Error>,
    /// Seconds for a `Retry-After` header.
    pub retry_after: Option<u32>,
}

use crate::api::problem::{FieldErrorDto, ProblemDto, INTERNAL_DETAIL};

/// The media type of every error body (RFC 9457), here and in the OpenAPI
/// document.
pub const PROBLEM_JSON: &str = "application/problem+json";

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, detail: impl Into<String>) -> Self {
        ApiError {
            status,
            code,
            detail: detail.into(),
            errors: Vec::new(),
            details: Value::Null,
            cause: None,
            retry_after: None,
        }
    }

    pub fn with_error(mut self, pointer: impl Into<String>, message: impl Into<String>) -> Self {
        self.errors.push(FieldErrorDto {
            pointer: pointer.into(),
            message: message.into(),
        });
        self
    }

    pub fn with_details(mut self, details: Value) -> Self {
        self.details = details;
        self
    }

    pub fn with_retry_after(mut self, secs: u32) -> Self {
        self.retry_after = Some(secs);
        self
    }

    pub fn not_found(what: &str) -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            "not_found",
            format!("no such {what}"),
        )
    }

    pub fn unauthorized(detail: &str) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, "unauthorized", detail)
    }

    pub fn malformed_json(detail: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "malformed_json", detail)
    }

    pub fn unsupported_media_type(expected: &str) -> Self {
        Self::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            format!("the request body must be {expected}"),
        )
    }

    pub fn payload_too_large(limit: usize) -> Self {
        Self::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload_too_large",
            format!("the request body exceeds the limit of {limit} bytes"),
        )
        .with_details(json!({"limit_bytes": limit}))
    }

    pub fn invalid_parameters(pointer: &str, message: impl Into<String>) -> Self {
        let message = message.into();
        Self::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_parameters",
            message.clone(),
        )
        .with_error(pointer, message)
    }

    pub fn idempotency_conflict() -> Self {
        Self::new(
            StatusCode::CONFLICT,
            "idempotency_conflict",
            "this Idempotency-Key was already used with a different request body",
        )
    }

    pub fn result_not_ready(status: &str) -> Self {
        Self::new(
            StatusCode::CONFLICT,
            "result_not_ready",
            format!("the job is {status}; its result exists only once it has succeeded"),
        )
        .with_details(json!({"status": status}))
    }

    pub fn job_finished(status: &str) -> Self {
        Self::new(
            StatusCode::CONFLICT,
            "job_finished",
            format!("the job already finished ({status}); it cannot be cancelled"),
        )
        .with_details(json!({"status": status}))
    }

    pub fn not_ready(detail: &str) -> Self {
        Self::new(StatusCode::SERVICE_UNAVAILABLE, "not_ready", detail)
    }

    pub fn internal(cause: anyhow::Error) -> Self {
        // Every connection of the pool is in use: the server is overloaded,
        // not broken. A 503 the client may retry, never a 500.
        if pool_exhausted(&cause) {
            tracing::warn!("database connection pool exhausted; answering 503 database_busy");
            return Self::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "database_busy",
                "the service is overloaded (no database connection was free in time); retry shortly",
            )
            .with_retry_after(DATABASE_BUSY_RETRY_AFTER_SECS);
        }
        ApiError {
            cause: Some(cause),
            ..Self::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal",
                INTERNAL_DETAIL,
            )
        }
    }

    /// A blocking task over uploaded data that panicked (or was
    /// cancelled): a 500 whose logged cause names `what` and the panic's
    /// fingerprint, never its message (it may quote a cell value).
    pub fn join(e: tokio::task::JoinError, what: &str) -> Self {
        Self::internal(anyhow::anyhow!(
            "{what} {}",
            crate::telemetry::join_error_summary(e)
        ))
    }

    /// A core error, through the spec layer's one mapping (shared with the
    /// offline CLI): its stable code, 400 for malformed input, 422 for the
    /// other user errors, 500 (logged, not shown) for internal ones.
    pub fn from_core(err: CoreError) -> Self {
        let (status, code, detail, errors, details) = crate::api::problem_parts(&err);
        let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let mut e = Self::new(status, code, detail).with_details(details);
        e.errors = errors
            .into_iter()
            .map(|f| FieldErrorDto {
                pointer: f.pointer,
                message: f.message,
            })
            .collect();
        if status.is_server_error() {
            e.cause = Some(anyhow::Error::new(err));
        }
        e
    }

    fn title(&self) -> String {
        let mut t = self.code.replace('_', " ");
        if let Some(first) = t.get_mut(0..1) {
            first.make_ascii_uppercase();
        }
        t
    }

    /// The problem document (the schema's `Problem`, the same type that
    /// describes it).
    pub fn problem(&self) -> ProblemDto {
        ProblemDto {
            type_: format!("/problems/{}", self.code),
            title: self.title(),
            status: self.status.as_u16(),
            detail: self.detail.clone(),
            code: self.code.to_string(),
            errors: self.errors.clone(),
            details: self.details.clone(),
        }
    }

    /// [`problem`](Self::problem) as a JSON value.
    pub fn body(&self) -> Value {
        serde_json::to_value(self.problem()).expect("strings and JSON values serialize")
    }
}

/// Seconds a `database_busy` answer asks the client to wait.
pub const DATABASE_BUSY_RETRY_AFTER_SECS: u32 = 1;

/// Whether an error comes from waiting in vain for a pooled connection.
fn pool_exhausted(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        matches!(
            c.downcast_ref::<sqlx::Error>(),
            Some(sqlx::Error::PoolTimedOut)
        )
    })
}

impl From<anyhow::Error> for ApiError {
    fn from(e: anyhow::Error) -> Self {
        ApiError::internal(e)
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> Self {
        ApiError::internal(e.into())
    }
}

impl From<CoreError> for ApiError {
    fn from(e: CoreError) -> Self {
        ApiError::from_core(e)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if self.status.is_server_error() {
            match &self.cause {
                // `{:#}` is the context chain without a backtrace; with
                // RUST_BACKTRACE set a backtrace is logged at most once a
                // minute (one per 500 would bury the log).
                Some(cause) if super::error_log::backtrace_due() => tracing::error!(
                    code = %self.code,
                    error = %format_args!("{cause:#}"),
                    backtrace = %cause.backtrace(),
                    "request failed"
                ),
                Some(cause) => tracing::error!(
                    code = %self.code,
                    error = %format_args!("{cause:#}"),
                    "request failed"
                ),
                None => tracing::error!(code = %self.code, detail = %self.detail, "request failed"),
            }
        }
        let body = serde_json::to_vec(&self.problem()).expect("strings and JSON values serialize");
        let mut res = (self.status, body).into_response();
        res.headers_mut()
            .insert(header::CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON));
        if self.status == StatusCode::UNAUTHORIZED {
            res.headers_mut()
                .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        if let Some(secs) = self.retry_after {
            res.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        res
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proxima_core::ErrorKind;

    #[test]
    fn internal_errors_hide_their_cause() {
        let e = ApiError::from_core(CoreError::internal("secret path /x/y.rs:17"));
        assert_eq!(e.status, StatusCode::INTERNAL_SERVER_ERROR);
        let body = e.body().to_string();
        assert!(!body.contains("secret"), "{body}");
        assert_eq!(e.body()["type"], "/problems/internal");
    }

    #[test]
    fn core_user_errors_keep_code_pointer_and_details() {
        let core = CoreError::new(ErrorKind::InfeasibleParameters, "m = 9 is above 7")
            .with_error("/model/m", "at most 7")
            .with_detail("max_m", 7i64);
        let e = ApiError::from_core(core);
        assert_eq!(e.status, StatusCode::UNPROCESSABLE_ENTITY);
        let b = e.body();
        assert_eq!(b["code"], "infeasible_parameters");
        assert_eq!(b["errors"][0]["pointer"], "/model/m");
        assert_eq!(b["details"]["max_m"], 7);
        assert!(b["details"].get("errors").is_none());
        let csv = ApiError::from_core(CoreError::new(ErrorKind::MalformedCsv, "line 3"));
        assert_eq!(csv.status, StatusCode::BAD_REQUEST);
    }
}
