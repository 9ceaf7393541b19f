//! `GET /metrics` (no auth): Prometheus text format 0.0.4.
//!
//! A small hand-written registry (a mutex-guarded map per family: one lock
//! per request is negligible next to the database work) instead of a metrics
//! crate. The registry is process-wide because the HTTP side and the worker
//! are started separately and both record into it. Job counts by status and
//! the queue depth are not counters: they are read from PostgreSQL at scrape
//! time with one GROUP BY, so they are right across restarts and replicas.
//!
//! Label values are bounded: routes are axum's route templates
//! (`/v1/jobs/{id}`, never a raw URI with an id), methods outside the
//! standard set become `other`, and algorithms come from our own job rows.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use axum::extract::{MatchedPath, Request, State};
use axum::http::{header, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::AppState;

/// Upper bounds (seconds) of the HTTP latency buckets.
const HTTP_BUCKETS: &[f64] = &[
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];
/// Upper bounds (seconds) of the job duration buckets: jobs run from
/// milliseconds (tiny tables) to many minutes (XColor on large tables).
const JOB_BUCKETS: &[f64] = &[
    0.1, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 600.0, 1800.0, 3600.0,
];
/// Every job status (the CHECK constraint of `jobs.status`): each is
/// exported, with 0 when no job has it, so dashboards see a stable set.
const JOB_STATUSES: &[&str] = &["queued", "running", "succeeded", "failed", "cancelled"];
/// The route label of requests that matched no route (404 fallback).
pub const UNMATCHED: &str = "unmatched";

/// A counter family with fixed label names.
struct CounterVec {
    values: Mutex<BTreeMap<Vec<String>, u64>>,
}

impl CounterVec {
    fn new() -> Self {
        CounterVec {
            values: Mutex::new(BTreeMap::new()),
        }
    }

    fn add(&self, labels: Vec<String>, n: u64) {
        let mut values = self.values.lock().unwrap_or_else(|e| e.into_inner());
        *values.entry(labels).or_insert(0) += n;
    }

    fn snapshot(&self) -> BTreeMap<Vec<String>, u64> {
        self.values
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

/// One labelled histogram: per-bucket (non-cumulative) counts, sum, count.
#[derive(Clone)]
struct Histogram {
    buckets: Vec<u64>,
    sum: f64,
    count: u64,
}

/// A histogram family with fixed label names and bucket bounds.
struct HistogramVec {
    bounds: &'static [f64],
    values: Mutex<BTreeMap<Vec<String>, Histogram>>,
}

impl HistogramVec {
    fn new(bounds: &'static [f64]) -> Self {
        HistogramVec {
            bounds,
            values: Mutex::new(BTreeMap::new()),
        }
    }

    fn observe(&self, labels: Vec<String>, seconds: f64) {
        let mut values = self.values.lock().unwrap_or_else(|e| e.into_inner());
        let h = values.entry(labels).or_insert_with(|| Histogram {
            buckets: vec![0; self.bounds.len()],
            sum: 0.0,
            count: 0,
        });
        // The first bucket whose bound holds the value; beyond the last
        // bound the observation only shows in +Inf (= count).
        if let Some(i) = self.bounds.iter().position(|&b| seconds <= b) {
            h.buckets[i] += 1;
        }
        h.sum += seconds;
        h.count += 1;
    }

    fn snapshot(&self) -> BTreeMap<Vec<String>, Histogram> {
        self.values
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

/// The process's metrics.
pub struct Metrics {
    http_requests: CounterVec,
    http_duration: HistogramVec,
    job_duration: HistogramVec,
    job_rows: CounterVec,
    jobs_finished: CounterVec,
}

/// The process-wide registry.
pub fn global() -> &'static Metrics {
    static METRICS: OnceLock<Metrics> = OnceLock::new();
    METRICS.get_or_init(|| Metrics {
        http_requests: CounterVec::new(),
        http_duration: HistogramVec::new(HTTP_BUCKETS),
        job_duration: HistogramVec::new(JOB_BUCKETS),
        job_rows: CounterVec::new(),
        jobs_finished: CounterVec::new(),
    })
}

impl Metrics {
    /// One answered HTTP request.
    pub fn http_request(&self, method: &str, route: &str, status: u16, elapsed: Duration) {
        let labels = vec![method.to_string(), route.to_string(), status.to_string()];
        self.http_requests.add(labels.clone(), 1);
        self.http_duration.observe(labels, elapsed.as_secs_f64());
    }

    /// A job whose body ran to an end and was settled with `status`
    /// (`succeeded`, `failed` or `cancelled`) after `elapsed`, over a
    /// dataset of `rows` rows.
    pub fn job_finished(&self, algorithm: &str, status: &str, elapsed: Duration, rows: u64) {
        let algorithm = algorithm.to_string();
        self.job_duration.observe(
            vec![algorithm.clone(), status.to_string()],
            elapsed.as_secs_f64(),
        );
        self.jobs_finished
            .add(vec![algorithm.clone(), status.to_string()], 1);
        self.job_rows.add(vec![algorithm], rows);
    }

    /// The registry in text format, followed by the scrape-time job gauges
    /// (`None` when the database could not be read).
    pub fn render(&self, jobs: Option<&BTreeMap<String, i64>>) -> String {
        let mut out = String::new();
        write_counter(
            &mut out,
            "proxima_http_requests_total",
            "HTTP requests answered, by method, route template and status.",
            &["method", "route", "status"],
            &self.http_requests.snapshot(),
        );
        write_histogram(
            &mut out,
            "proxima_http_request_duration_seconds",
            "Time to the response head, by method, route template and status.",
            &["method", "route", "status"],
            HTTP_BUCKETS,
            &self.http_duration.snapshot(),
        );
        write_counter(
            &mut out,
            "proxima_jobs_finished_total",
            "Jobs settled by this process's worker, by algorithm and final status.",
            &["algorithm", "status"],
            &self.jobs_finished.snapshot(),
        );
        write_histogram(
            &mut out,
            "proxima_job_duration_seconds",
            "Run time of jobs settled by this process's worker, by algorithm and final status.",
            &["algorithm", "status"],
            JOB_BUCKETS,
            &self.job_duration.snapshot(),
        );
        write_counter(
            &mut out,
            "proxima_job_rows_processed_total",
            "Input rows of the jobs settled by this process's worker, by algorithm.",
            &["algorithm"],
            &self.job_rows.snapshot(),
        );
        if let Some(jobs) = jobs {
            header_lines(
                &mut out,
                "proxima_jobs",
                "Jobs in the database by status (all tenants), read at scrape time.",
                "gauge",
            );
            for status in JOB_STATUSES {
                let n = jobs.get(*status).copied().unwrap_or(0);
                let _ = writeln!(out, "proxima_jobs{{status=\"{status}\"}} {n}");
            }
            header_lines(
                &mut out,
                "proxima_queue_depth",
                "Jobs waiting to be claimed (status queued), read at scrape time.",
                "gauge",
            );
            let queued = jobs.get("queued").copied().unwrap_or(0);
            let _ = writeln!(out, "proxima_queue_depth {queued}");
        }
        out
    }
}

fn header_lines(out: &mut String, name: &str, help: &str, kind: &str) {
    let _ = writeln!(out, "# HELP {name} {help}");
    let _ = writeln!(out, "# TYPE {name} {kind}");
}

/// `{a="x",b="y"}` with the text format's escapes (backslash, quote,
/// newline), plus extra pairs (the histogram's `le`) at the end.
fn label_set(names: &[&str], values: &[String], extra: Option<(&str, &str)>) -> String {
    let mut parts: Vec<String> = names
        .iter()
        .zip(values)
        .map(|(n, v)| format!("{n}=\"{}\"", escape(v)))
        .collect();
    if let Some((n, v)) = extra {
        parts.push(format!("{n}=\"{v}\""));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!("{{{}}}", parts.join(","))
    }
}

fn escape(v: &str) -> String {
    v.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

fn write_counter(
    out: &mut String,
    name: &str,
    help: &str,
    names: &[&str],
    values: &BTreeMap<Vec<String>, u64>,
) {
    header_lines(out, name, help, "counter");
    for (labels, n) in values {
        let _ = writeln!(out, "{name}{} {n}", label_set(names, labels, None));
    }
}

fn write_histogram(
    out: &mut String,
    name: &str,
    help: &str,
    names: &[&str],
    bounds: &[f64],
    values: &BTreeMap<Vec<String>, Histogram>,
) {
    header_lines(out, name, help, "histogram");
    for (labels, h) in values {
        // Buckets are cumulative in the text format.
        let mut cumulative = 0;
        for (bound, n) in bounds.iter().zip(&h.buckets) {
            cumulative += n;
            let le = format!("{bound}");
            let _ = writeln!(
                out,
                "{name}_bucket{} {cumulative}",
                label_set(names, labels, Some(("le", &le)))
            );
        }
        let _ = writeln!(
            out,
            "{name}_bucket{} {}",
            label_set(names, labels, Some(("le", "+Inf"))),
            h.count
        );
        let set = label_set(names, labels, None);
        let _ = writeln!(out, "{name}_sum{set} {}", h.sum);
        let _ = writeln!(out, "{name}_count{set} {}", h.count);
    }
}

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
    global().http_request(method, &route, res.status().as_u16(), start.elapsed());
    res
}

/// Job counts by status over all tenants: one aggregate query.
async fn job_counts(state: &AppState) -> Result<BTreeMap<String, i64>, sqlx::Error> {
    let rows: Vec<(String, i64)> =
        sqlx::query_as("SELECT status, count(*)::bigint FROM jobs GROUP BY status")
            .fetch_all(&state.store.pool)
            .await?;
    Ok(rows.into_iter().collect())
}

#[utoipa::path(
    get,
    path = "/metrics",
    tag = "operations",
    summary = "Prometheus metrics",
    description = "Prometheus text format 0.0.4: HTTP requests and latencies by route \
                   template, method and status; job durations by algorithm and status; jobs by \
                   status and the queue depth (read from the database at scrape time).",
    responses(
        (status = 200, description = "The metrics", body = String, content_type = "text/plain; version=0.0.4; charset=utf-8"),
        (status = 401, description = "A metrics token is configured (`--metrics-token`) and the request does not carry it (`unauthorized`)", body = crate::spec::ProblemDto, content_type = "application/problem+json"),
        (status = 503, response = crate::http::openapi::RequestTimeout),
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
    let jobs = match job_counts(&state).await {
        Ok(jobs) => Some(jobs),
        Err(e) => {
            tracing::warn!(error = %e, "metrics: reading job counts failed");
            None
        }
    };
    (
        StatusCode::OK,
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        global().render(jobs.as_ref()),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_buckets_are_cumulative_with_sum_and_count() {
        let h = HistogramVec::new(&[0.1, 1.0]);
        for s in [0.05, 0.5, 0.7, 5.0] {
            h.observe(vec!["GET".into()], s);
        }
        let mut out = String::new();
        write_histogram(&mut out, "x", "help", &["m"], &[0.1, 1.0], &h.snapshot());
        assert!(out.contains("# TYPE x histogram\n"), "{out}");
        assert!(out.contains("x_bucket{m=\"GET\",le=\"0.1\"} 1\n"), "{out}");
        assert!(out.contains("x_bucket{m=\"GET\",le=\"1\"} 3\n"), "{out}");
        assert!(out.contains("x_bucket{m=\"GET\",le=\"+Inf\"} 4\n"), "{out}");
        assert!(out.contains("x_sum{m=\"GET\"} 6.25\n"), "{out}");
        assert!(out.contains("x_count{m=\"GET\"} 4\n"), "{out}");
    }

    #[test]
    fn label_values_are_escaped() {
        let s = label_set(&["a"], &["q\"b\\n\nx".to_string()], None);
        assert_eq!(s, "{a=\"q\\\"b\\\\n\\nx\"}");
    }

    #[test]
    fn every_status_is_exported_and_queue_depth_is_the_queued_count() {
        let m = Metrics {
            http_requests: CounterVec::new(),
            http_duration: HistogramVec::new(HTTP_BUCKETS),
            job_duration: HistogramVec::new(JOB_BUCKETS),
            job_rows: CounterVec::new(),
            jobs_finished: CounterVec::new(),
        };
        let jobs: BTreeMap<String, i64> = [("queued".to_string(), 3), ("failed".to_string(), 1)]
            .into_iter()
            .collect();
        let out = m.render(Some(&jobs));
        assert!(out.contains("proxima_jobs{status=\"queued\"} 3\n"), "{out}");
        assert!(
            out.contains("proxima_jobs{status=\"running\"} 0\n"),
            "{out}"
        );
        assert!(out.contains("proxima_jobs{status=\"failed\"} 1\n"), "{out}");
        assert!(out.contains("proxima_queue_depth 3\n"), "{out}");
        // Without the database the gauges are left out, not reported as 0.
        assert!(!m.render(None).contains("proxima_queue_depth"));
    }
}
