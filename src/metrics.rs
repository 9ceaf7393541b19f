//! The process's metrics, in a `prometheus-client` registry, exposed by
//! `GET /metrics` (`http::metrics`) as OpenMetrics text.
//!
//! The registry is process-wide because the HTTP side (requests) and the
//! worker (jobs) are started separately and both record into it; it lives
//! here, beside both, so that neither imports the other. Job counts by
//! status and the queue depth are not counters: they are read from
//! PostgreSQL at scrape time (`Store::job_counts`), so they are right across
//! restarts and replicas, and are left out — not reported as 0 — when the
//! database cannot be read.
//!
//! Label values are bounded: routes are axum's route templates
//! (`/v1/jobs/{id}`, never a raw URI with an id), methods outside the
//! standard set become `other`, algorithms and statuses come from our own
//! job rows.

use std::collections::BTreeMap;
use std::sync::OnceLock;
use std::time::Duration;

use prometheus_client::encoding::text::{encode_eof, encode_registry};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;

/// The media type of [`Metrics::render`]'s exposition.
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";
/// The media type of [`to_prometheus_text`]'s.
pub const PROMETHEUS_CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// Upper bounds (seconds) of the HTTP latency buckets.
const HTTP_BUCKETS: [f64; 12] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];
/// Upper bounds (seconds) of the job duration buckets: jobs run from
/// milliseconds (tiny tables) to many minutes (XColor on large tables).
const JOB_BUCKETS: [f64; 13] = [
    0.1, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 600.0, 1800.0, 3600.0,
];
/// The route label of requests that matched no route (404 fallback).
pub const UNMATCHED: &str = "unmatched";

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    method: &'static str,
    route: String,
    status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct JobLabels {
    algorithm: String,
    status: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct AlgorithmLabels {
    algorithm: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct StatusLabels {
    status: &'static str,
}

type HistogramFamily<L> = Family<L, Histogram, fn() -> Histogram>;

/// The process's metrics.
pub struct Metrics {
    registry: Registry,
    http_requests: Family<RequestLabels, Counter>,
    http_duration: HistogramFamily<RequestLabels>,
    jobs_finished: Family<JobLabels, Counter>,
    job_duration: HistogramFamily<JobLabels>,
    job_rows: Family<AlgorithmLabels, Counter>,
}

fn http_histogram() -> Histogram {
    Histogram::new(HTTP_BUCKETS)
}

fn job_histogram() -> Histogram {
    Histogram::new(JOB_BUCKETS)
}

/// The process-wide registry.
pub fn global() -> &'static Metrics {
    static METRICS: OnceLock<Metrics> = OnceLock::new();
    METRICS.get_or_init(Metrics::new)
}

impl Metrics {
    fn new() -> Metrics {
        let mut registry = Registry::default();
        let http_requests = Family::<RequestLabels, Counter>::default();
        let http_duration: HistogramFamily<RequestLabels> =
            Family::new_with_constructor(http_histogram);
        let jobs_finished = Family::<JobLabels, Counter>::default();
        let job_duration: HistogramFamily<JobLabels> = Family::new_with_constructor(job_histogram);
        let job_rows = Family::<AlgorithmLabels, Counter>::default();
        registry.register(
            "proxima_http_requests",
            "HTTP requests answered, by method, route template and status",
            http_requests.clone(),
        );
        registry.register(
            "proxima_http_request_duration_seconds",
            "Time to the response head, by method, route template and status",
            http_duration.clone(),
        );
        registry.register(
            "proxima_jobs_finished",
            "Jobs settled by this process's worker, by algorithm and final status",
            jobs_finished.clone(),
        );
        registry.register(
            "proxima_job_duration_seconds",
            "Run time of jobs settled by this process's worker, by algorithm and final status",
            job_duration.clone(),
        );
        registry.register(
            "proxima_job_rows_processed",
            "Input rows of the jobs settled by this process's worker, by algorithm",
            job_rows.clone(),
        );
        Metrics {
            registry,
            http_requests,
            http_duration,
            jobs_finished,
            job_duration,
            job_rows,
        }
    }

    /// One answered HTTP request; `method` is already bounded
    /// (`http::metrics::method_label`).
    pub fn http_request(&self, method: &'static str, route: &str, status: u16, elapsed: Duration) {
        let labels = RequestLabels {
            method,
            route: label_value(route),
            status,
        };
        self.http_requests.get_or_create(&labels).inc();
        self.http_duration
            .get_or_create(&labels)
            .observe(elapsed.as_secs_f64());
    }

    /// A job whose body ran to an end and was settled with `status`
    /// (`succeeded`, `failed` or `cancelled`) after `elapsed`, over a
    /// dataset of `rows` rows.
    pub fn job_finished(&self, algorithm: &str, status: &str, elapsed: Duration, rows: u64) {
        let labels = JobLabels {
            algorithm: label_value(algorithm),
            status: label_value(status),
        };
        self.jobs_finished.get_or_create(&labels).inc();
        self.job_duration
            .get_or_create(&labels)
            .observe(elapsed.as_secs_f64());
        self.job_rows
            .get_or_create(&AlgorithmLabels {
                algorithm: labels.algorithm.clone(),
            })
            .inc_by(rows);
    }

    /// The exposition: the registry, then the scrape-time job gauges
    /// (`jobs` = job counts by status; `None` when the database could not
    /// be read, which leaves them out).
    pub fn render(&self, jobs: Option<&BTreeMap<String, i64>>) -> String {
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = encode_registry(&mut out, &self.registry);
        if let Some(jobs) = jobs {
            let _ = encode_registry(&mut out, &scrape_gauges(jobs));
        }
        let _ = encode_eof(&mut out);
        out
    }
}

/// The Prometheus text format 0.0.4 of an OpenMetrics exposition, for
/// scrapers that do not ask for OpenMetrics. The samples are the same; the
/// formats differ in that a counter family's `HELP`/`TYPE` lines name the
/// `_total` sample in 0.0.4 (OpenMetrics names the family without it) and
/// that 0.0.4 has no `# EOF` line.
pub fn to_prometheus_text(openmetrics: &str) -> String {
    let counters: std::collections::HashSet<&str> = openmetrics
        .lines()
        .filter_map(|l| l.strip_prefix("# TYPE ")?.strip_suffix(" counter"))
        .collect();
    let mut out = String::with_capacity(openmetrics.len());
    for line in openmetrics.lines() {
        if line == "# EOF" {
            continue;
        }
        let renamed = ["# HELP ", "# TYPE "].iter().find_map(|prefix| {
            let rest = line.strip_prefix(prefix)?;
            let (name, tail) = rest.split_once(' ')?;
            counters
                .contains(name)
                .then(|| format!("{prefix}{name}_total {tail}"))
        });
        match renamed {
            Some(l) => out.push_str(&l),
            None => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// A label value that cannot break the exposition. The encoder writes
/// values as they are, and ours come from our own route templates and job
/// rows, so this never changes a real value; it keeps a future caller from
/// emitting a quote or a line break into the text.
fn label_value(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '"' | '\\' => '_',
            c if c.is_control() => '_',
            c => c,
        })
        .collect()
}

/// A registry built per scrape for the counts read from the database.
fn scrape_gauges(jobs: &BTreeMap<String, i64>) -> Registry {
    let mut registry = Registry::default();
    let by_status = Family::<StatusLabels, Gauge>::default();
    // Every status is exported, with 0 when no job has it, so dashboards
    // see a stable set.
    for status in crate::api::JobStatus::ALL.map(|st| st.as_str()) {
        let n = jobs.get(status).copied().unwrap_or(0);
        by_status.get_or_create(&StatusLabels { status }).set(n);
    }
    registry.register(
        "proxima_jobs",
        "Jobs in the database by status (all tenants), read at scrape time",
        by_status,
    );
    let depth = Gauge::<i64>::default();
    depth.set(jobs.get("queued").copied().unwrap_or(0));
    registry.register(
        "proxima_queue_depth",
        "Jobs waiting to be claimed (status queued), read at scrape time",
        depth,
    );
    registry
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_buckets_are_cumulative_with_sum_and_count() {
        let m = Metrics::new();
        for ms in [3, 70, 80, 5000] {
            m.http_request("GET", "/v1/jobs", 200, Duration::from_millis(ms));
        }
        let out = m.render(None);
        let labels = "method=\"GET\",route=\"/v1/jobs\",status=\"200\"";
        assert!(
            out.contains("# TYPE proxima_http_request_duration_seconds histogram\n"),
            "{out}"
        );
        for (le, n) in [
            ("0.005", 1),
            ("0.05", 1),
            ("0.1", 3),
            ("5.0", 4),
            ("+Inf", 4),
        ] {
            let line = format!(
                "proxima_http_request_duration_seconds_bucket{{le=\"{le}\",{labels}}} {n}\n"
            );
            assert!(out.contains(&line), "{line} in {out}");
        }
        assert!(out.contains(&format!(
            "proxima_http_request_duration_seconds_count{{{labels}}} 4\n"
        )));
        assert!(out.contains(&format!("proxima_http_requests_total{{{labels}}} 4\n")));
        assert!(out.ends_with("# EOF\n"));
    }

    #[test]
    fn the_0_0_4_text_names_counters_by_their_samples_and_has_no_eof() {
        let m = Metrics::new();
        m.http_request("GET", "/healthz", 200, Duration::from_millis(1));
        let text = to_prometheus_text(&m.render(None));
        assert!(
            text.contains("# TYPE proxima_http_requests_total counter\n"),
            "{text}"
        );
        assert!(
            text.contains("# HELP proxima_http_requests_total HTTP requests"),
            "{text}"
        );
        assert!(text.contains("# TYPE proxima_http_request_duration_seconds histogram\n"));
        assert!(text.contains(
            "proxima_http_requests_total{method=\"GET\",route=\"/healthz\",status=\"200\"} 1\n"
        ));
        assert!(!text.contains("# EOF"), "{text}");
        // Every TYPE line names a sample (or a histogram's family) present.
        for name in text.lines().filter_map(|l| l.strip_prefix("# TYPE ")) {
            let name = name.split(' ').next().unwrap();
            assert!(
                text.lines()
                    .any(|l| !l.starts_with('#') && l.starts_with(name)),
                "{name} has no samples: {text}"
            );
        }
    }

    #[test]
    fn label_values_cannot_break_the_text() {
        let m = Metrics::new();
        m.job_finished("q\"b\\n\nx", "failed", Duration::from_secs(1), 7);
        let out = m.render(None);
        assert!(
            out.contains("proxima_job_rows_processed_total{algorithm=\"q_b_n_x\"} 7\n"),
            "{out}"
        );
    }

    #[test]
    fn every_status_is_exported_and_queue_depth_is_the_queued_count() {
        let m = Metrics::new();
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
        assert_eq!(out.matches("# EOF").count(), 1, "one end marker: {out}");
        // Without the database the gauges are left out, not reported as 0.
        assert!(!m.render(None).contains("proxima_queue_depth"));
    }
}
