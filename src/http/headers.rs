//! Response headers that keep tenant data out of caches and browsers'
//! guesses: every response says `X-Content-Type-Options: nosniff` (a CSV
//! cell that looks like HTML is never rendered as a page), every `/v1`
//! response `Cache-Control: no-store` (they hold tenant data; a shared
//! proxy or a browser cache must not keep them), and a release download
//! names itself an attachment.

use axum::extract::Request;
use axum::http::{header, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;

/// The middleware adding the two protective headers.
pub async fn protective(req: Request, next: Next) -> Response {
    let tenant_data = req.uri().path().starts_with("/v1/");
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    if tenant_data {
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    res
}

/// Marks a response as a download saved under `filename` (a job id and an
/// extension: nothing to escape).
pub fn attachment(res: &mut Response, filename: &str) {
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{filename}\"")) {
        res.headers_mut().insert(header::CONTENT_DISPOSITION, v);
    }
}
