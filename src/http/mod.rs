//! The HTTP API (docs/api.md): one file per resource, our own JSON extractor and
//! one problem+json error table.

pub mod approvals;
pub mod audits;
pub mod auth;
pub mod body_rate;
pub mod compute;
pub mod connections;
pub mod datasets;
pub mod error;
mod error_log;
pub mod feasibility;
pub mod gzip;
pub mod headers;
pub mod health;
pub mod id;
pub mod inflight;
pub mod jobs;
pub mod json;
pub mod keys;
pub mod limits;
pub mod list;
pub mod metrics;
pub mod negotiate;
pub mod openapi;
pub mod path_docs;
pub mod release_report;
pub mod resource;
pub mod results;
pub mod roles;
pub mod settings;
pub mod sweeps;
pub mod upload;

use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::header;
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::routing::{get, post, put};
use axum::Router;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::TraceLayer;

use crate::store::Store;
use error::ApiError;

/// Shared by every handler.
#[derive(Clone)]
pub struct AppState {
    pub store: Store,
    /// The largest accepted request body, in bytes.
    pub max_body: usize,
    /// `max_attempts` given to new jobs.
    pub max_attempts: i32,
    /// Timeouts and the upload cap.
    pub limits: limits::Limits,
}

impl AppState {
    /// With the default [`limits::Limits`].
    pub fn new(store: Store, max_body: usize, max_attempts: i32) -> Self {
        AppState {
            store,
            max_body,
            max_attempts,
            limits: limits::Limits::default(),
        }
    }

    pub fn with_limits(mut self, limits: limits::Limits) -> Self {
        self.limits = limits;
        self
    }
}

/// The body limit of this server, for extractors that report it.
#[derive(Debug, Clone, Copy)]
pub struct BodyLimit(pub usize);

/// Rejects a declared `Content-Length` over the limit at once (413
/// problem+json) and tells the extractors the limit for streamed bodies.
async fn body_limit(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > state.max_body as u64) {
        return axum::response::IntoResponse::into_response(ApiError::payload_too_large(
            state.max_body,
        ));
    }
    req.extensions_mut().insert(BodyLimit(state.max_body));
    next.run(req).await
}

async fn not_found() -> ApiError {
    ApiError::not_found("route")
}

async fn method_not_allowed() -> ApiError {
    ApiError::new(
        axum::http::StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        "this route does not accept this method",
    )
}

/// The whole application.
pub fn router(state: AppState) -> Router {
    let v1 = Router::new()
        .route("/datasets", get(datasets::list).post(upload::upload))
        .route(
            "/datasets/{id}",
            get(datasets::get).delete(datasets::delete),
        )
        .route("/datasets/{id}/feasibility", post(feasibility::feasibility))
        .route("/jobs", post(jobs::create).get(jobs::list))
        .route("/jobs/{id}", get(jobs::get))
        .route("/jobs/{id}/cancel", post(jobs::cancel))
        .route("/jobs/{id}/result", get(results::result))
        .route("/jobs/{id}/audit", get(results::audit))
        .route("/jobs/{id}/report", get(release_report::report))
        .route("/audits", post(audits::audit))
        .route("/sweeps", post(sweeps::create).get(sweeps::list))
        .route("/sweeps/{id}", get(sweeps::get))
        .route("/sweeps/{id}/cancel", post(sweeps::cancel))
        .route("/sweeps/{id}/report", get(sweeps::report))
        .route(
            "/jobs/{id}/approvals",
            post(approvals::create).get(approvals::list),
        )
        .route("/keys", post(keys::create))
        .route(
            "/settings/release-policy",
            get(settings::get).merge(put(settings::put)),
        )
        // Inside `require_key` (a later route_layer wraps this one): the
        // caller's role is known here.
        .route_layer(middleware::from_fn(roles::require_role))
        .route_layer(middleware::from_fn_with_state(
            state.clone(),
            auth::require_key,
        ));
    Router::new()
        .route("/healthz", get(health::healthz))
        .route("/readyz", get(health::readyz))
        .route("/metrics", get(metrics::metrics))
        .nest("/v1", v1)
        .merge(openapi::routes())
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(state.max_body))
        // Per route (it sees the route template): no timeout on downloads.
        .layer(middleware::from_fn_with_state(
            state.clone(),
            limits::timeout,
        ))
        .layer(middleware::from_fn_with_state(state.clone(), body_limit))
        // Router::layer wraps each route after routing, so this sees the
        // route template; outside the body limit so early 413s are counted.
        .layer(middleware::from_fn(metrics::track))
        .layer(middleware::from_fn(headers::protective))
        // Request ids: kept from the client's `x-request-id` or made up,
        // logged on the request's span and echoed in the response. The span
        // names the path only (query strings are not logged).
        .layer(PropagateRequestIdLayer::x_request_id())
        .layer(TraceLayer::new_for_http().make_span_with(|req: &Request| {
            let id = req
                .headers()
                .get("x-request-id")
                .and_then(|v| v.to_str().ok())
                .unwrap_or("");
            tracing::info_span!(
                "request",
                method = %req.method(),
                path = %req.uri().path(),
                request_id = %id
            )
        }))
        .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid))
        .with_state(state)
}
