//! Our JSON extractor: the wrong content type is a 415, an unparseable body
//! a 400 `malformed_json`, a body over the limit a 413 — all problem+json
//! (axum's own `Json` answers with plain text).

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{header, StatusCode};
use serde::de::DeserializeOwned;

use super::error::ApiError;

/// A JSON request body.
pub struct ApiJson<T>(pub T);

/// Whether a content type is JSON (`application/json`, `…+json`).
pub fn is_json(content_type: Option<&str>) -> bool {
    let Some(ct) = content_type else {
        return false;
    };
    let mime = ct
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    mime == "application/json" || (mime.starts_with("application/") && mime.ends_with("+json"))
}

/// Reads a whole (limited) body, mapping the limit to a 413.
pub async fn read_body<S: Send + Sync>(req: Request, state: &S) -> Result<Bytes, ApiError> {
    let limit = req
        .extensions()
        .get::<super::BodyLimit>()
        .map(|l| l.0)
        .unwrap_or(usize::MAX);
    Bytes::from_request(req, state).await.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::payload_too_large(limit)
        } else {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "malformed_request",
                "the request body could not be read",
            )
        }
    })
}

impl<S, T> FromRequest<S> for ApiJson<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let ct = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok());
        if !is_json(ct) {
            return Err(ApiError::unsupported_media_type("application/json"));
        }
        let bytes = read_body(req, state).await?;
        parse_json(&bytes).map(ApiJson)
    }
}

/// Parses JSON: syntax errors are 400 `malformed_json`; a well-formed body
/// of the wrong shape is 422 `invalid_parameters`.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    if let Some(dup) = crate::api::unique_keys::duplicate_key(bytes) {
        let at = if dup.pointer.is_empty() {
            "/"
        } else {
            &dup.pointer
        };
        let message = format!(
            "the body is not valid JSON here: the key {:?} appears twice in the object at {at}",
            dup.key
        );
        return Err(ApiError::malformed_json(message.clone()).with_error(dup.pointer, message));
    }
    serde_json::from_slice(bytes).map_err(|e| {
        use serde_json::error::Category;
        match e.classify() {
            Category::Syntax | Category::Eof | Category::Io => {
                ApiError::malformed_json(format!("the body is not valid JSON: {e}"))
            }
            Category::Data => ApiError::invalid_parameters("", format!("{e}")),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_content_types() {
        assert!(is_json(Some("application/json")));
        assert!(is_json(Some("application/json; charset=utf-8")));
        assert!(is_json(Some("application/merge-patch+json")));
        assert!(!is_json(Some("text/plain")));
        assert!(!is_json(None));
    }

    #[test]
    fn syntax_is_400_shape_is_422() {
        let e = parse_json::<serde_json::Value>(b"{\"a\":").unwrap_err();
        assert_eq!(e.code, "malformed_json");
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct S {
            k: u32,
        }
        let e = parse_json::<S>(b"{\"k\": \"x\"}").unwrap_err();
        assert_eq!(e.status, StatusCode::UNPROCESSABLE_ENTITY);
    }
}
