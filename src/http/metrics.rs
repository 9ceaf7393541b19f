//! `GET /metrics` and the middleware that counts requests. The registry
//! itself is `crate::metrics`, shared with the worker.

use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::http::{header, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::error::PROBLEM_JSON;
use super::path_docs::RequestTimeout;
use super::AppState;
use crate::metrics::{self, UNMATCHED};

/// The method label: standard methods by name, anything else `other` (a
/// client can send arbitrary extension methods; labels must stay bounded).
fn method_label(m: &Method) -> &'static str {
    match *m {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::DELETE => "DELETE",
        Method::PATCH => "PATCH",
        Method::HEAD => "HEAD",
        Method::OPTIONS => "OPTIONS",
        _ => "other",
    }
}

/// Middleware (added with `Router::layer`, so it runs after routing and
/// sees the [`MatchedPath`]): counts the request and times it to the
/// response head (a long download's streaming is not included).
pub async fn track(req: Request, next: Next) -> Response {
    let start = Instant::now();
    let method = method_label(req.method());
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map(|p| p.as_str().to_string())
        .unwrap_or_else(|| UNMATCHED.to_string());
    let res = next.run(req).await;
    metrics::global().http_request(method, &route, res.status().as_u16(), start.elapsed());
    res
}

#[utoipa::path(
    get,
    path = "/metrics",
    tag = "operations",
    summary = "Prometheus metrics",
    description = "HTTP requests and latencies by route template, method and status; job \
                   durations by algorithm and status; jobs by status and the queue depth (read \
                   from the database at scrape time). OpenMetrics text when the `Accept` header \
                   asks for `application/openmetrics-text` (as Prometheus does), else the \
                   Prometheus text format 0.0.4.",
    responses(
        (status = 200, description = "The metrics", content(
            (String = "text/plain; version=0.0.4; charset=utf-8"),
            (String = "application/openmetrics-text; version=1.0.0; charset=utf-8"),
        )),
        (status = 401, description = "A metrics token is configured (`--metrics-token`) and the request does not carry it (`unauthorized`)", body = crate::api::ProblemDto, content_type = PROBLEM_JSON),
        RequestTimeout,
    )
)]
/// `GET /metrics`. A database failure drops only the job gauges: the
/// process's own metrics are still worth scraping then.
pub async fn metrics(State(state): State<AppState>, headers: axum::http::HeaderMap) -> Response {
    if let Some(token) = &state.limits.metrics_token {
        if !super::auth::bearer_matches(&headers, token) {
            return super::error::ApiError::unauthorized(
                "/metrics needs `Authorization: Bearer <metrics token>` (--metrics-token)",
            )
            .into_response();
        }
    }
    let jobs = match state.store.job_counts().await {
        Ok(jobs) => Some(jobs),
        Err(e) => {
            tracing::warn!(error = %e, "metrics: reading job counts failed");
            None
        }
    };
    let text = metrics::global().render(jobs.as_ref());
    let (content_type, body) = if wants_openmetrics(&headers) {
        (metrics::CONTENT_TYPE, text)
    } else {
        (
            metrics::PROMETHEUS_CONTENT_TYPE,
            metrics::to_prometheus_text(&text),
        )
    };
    (StatusCode::OK, [(header::CONTENT_TYPE, content_type)], body).into_response()
}

/// Whether the scraper accepts OpenMetrics (Prometheus lists it first);
/// anything else (curl, older scrapers) gets the 0.0.4 text format.
fn wants_openmetrics(headers: &axum::http::HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|item| {
            let mut parts = item.split(';').map(str::trim);
            let media = parts.next().unwrap_or("");
            let refused = parts.any(|p| p.replace(' ', "") == "q=0");
            media.eq_ignore_ascii_case("application/openmetrics-text") && !refused
        })
}
