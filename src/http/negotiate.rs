//! Which representation a client asked for, and the HTML page response.
//!
//! Downloads and reports come as JSON or as one other representation (a
//! release as CSV, a report as HTML). `?format=` wins over `Accept`
//! (a link or a browser cannot set headers); without either, the other
//! representation is the default, and an `Accept` naming both keeps it.

use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};

use super::error::ApiError;
use super::list::ListQuery;

/// A resource's representation besides JSON: its `?format=` name and its
/// media type (`("csv", "text/csv")`).
pub type Alternative = (&'static str, &'static str);

pub const CSV: Alternative = ("csv", "text/csv");
pub const HTML: Alternative = ("html", "text/html");

/// Whether the client asked for JSON rather than `alternative`; an unknown
/// `?format=` is 422 `invalid_parameters`.
pub fn wants_json(
    q: &ListQuery,
    headers: &HeaderMap,
    alternative: Alternative,
) -> Result<bool, ApiError> {
    let (name, media) = alternative;
    match q.param("format") {
        Some("json") => return Ok(true),
        Some(f) if f == name => return Ok(false),
        Some(other) => {
            return Err(ApiError::invalid_parameters(
                "/query/format",
                format!("format must be {name} or json, got {other:?}"),
            ))
        }
        None => {}
    }
    let accept = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    Ok(accept.contains("application/json") && !accept.contains(media))
}

/// A page of `crate::html` as a response, with the pages' Content-Security-
/// Policy as a header too (the page repeats it in a `<meta>` for a saved
/// copy).
pub fn html_page(page: String) -> Response {
    let mut res = page.into_response();
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(crate::html::CONTENT_SECURITY_POLICY),
    );
    res
}
