//! `GET /metrics`: Prometheus text with request counters by route template,
//! job gauges read from the database, and the worker's job metrics.

use std::sync::Arc;

use proxima::worker::core_runner::CoreRunner;
use serde_json::Value;

use crate::support::*;

/// The value of the sample `name{labels}` (labels in rendered order), if
/// the exposition has it.
pub fn sample(text: &str, name: &str, labels: &[(&str, &str)]) -> Option<f64> {
    let set: Vec<String> = labels.iter().map(|(k, v)| format!("{k}=\"{v}\"")).collect();
    let key = if set.is_empty() {
        name.to_string()
    } else {
        format!("{name}{{{}}}", set.join(","))
    };
    text.lines()
        .find_map(|l| l.strip_prefix(key.as_str())?.strip_prefix(' '))
        .map(|v| v.parse().unwrap())
}

async fn scrape(app: &TestApp) -> String {
    // No key: /metrics is an operations route.
    let res = app.client.get(app.url("/metrics")).send().await.unwrap();
    assert_eq!(res.status(), 200);
    let ct = res.headers()["content-type"].to_str().unwrap().to_string();
    assert!(ct.starts_with("text/plain; version=0.0.4"), "{ct}");
    res.text().await.unwrap()
}

/// Every label value of every sample.
fn label_values(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let Some((_, rest)) = line.split_once('{') else {
            continue;
        };
        let (labels, _) = rest.rsplit_once('}').unwrap();
        for pair in labels.split("\",") {
            let (_, v) = pair.split_once("=\"").unwrap();
            out.push(v.trim_end_matches('"').to_string());
        }
    }
    out
}

fn contains_uuid(s: &str) -> bool {
    let b = s.as_bytes();
    (0..(b.len() + 1).saturating_sub(36))
        .any(|i| std::str::from_utf8(&b[i..i + 36]).is_ok_and(|w| uuid::Uuid::parse_str(w).is_ok()))
}

#[test]
fn the_uuid_scan_finds_ids() {
    let id = uuid::Uuid::new_v4().to_string();
    assert!(contains_uuid(&id));
    assert!(contains_uuid(&format!("/v1/jobs/{id}")));
    assert!(!contains_uuid("/v1/jobs/{id}"));
}

#[tokio::test]
async fn metrics_move_after_a_job_and_never_carry_ids() {
    let app = TestApp::with(Options {
        runner: Some(Arc::new(CoreRunner)),
        ..Options::default()
    })
    .await;
    let before = scrape(&app).await;
    let post_jobs = [("method", "POST"), ("route", "/v1/jobs"), ("status", "202")];
    let posted_before = sample(&before, "proxima_http_requests_total", &post_jobs).unwrap_or(0.0);
    let mondrian = [("algorithm", "mondrian")];
    let rows_before = sample(&before, "proxima_job_rows_processed_total", &mondrian).unwrap_or(0.0);
    // A fresh database: every status at 0, nothing queued.
    assert_eq!(
        sample(&before, "proxima_jobs", &[("status", "succeeded")]),
        Some(0.0)
    );
    assert_eq!(sample(&before, "proxima_queue_depth", &[]), Some(0.0));

    let d = app.dataset("t1").await;
    let res = app.post_json("/v1/jobs", &model_body(d.id)).await;
    assert_eq!(res.status(), 202);
    let job: Value = res.json().await.unwrap();
    let id = job["id"].as_str().unwrap().to_string();
    let done = app
        .wait_job(&id, |s| !matches!(s, "queued" | "running"))
        .await;
    assert_eq!(done["status"], "succeeded", "{done}");
    assert_eq!(app.get(&format!("/v1/jobs/{id}")).await.status(), 200);
    // The worker records the job just after writing its row: wait for it.
    let mut after = scrape(&app).await;
    for _ in 0..100 {
        let rows = sample(&after, "proxima_job_rows_processed_total", &mondrian);
        if rows.unwrap_or(0.0) >= rows_before + 3.0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        after = scrape(&app).await;
    }

    // Jobs by status and queue depth come from this app's database.
    assert_eq!(
        sample(&after, "proxima_jobs", &[("status", "succeeded")]),
        Some(1.0),
        "{after}"
    );
    assert_eq!(sample(&after, "proxima_queue_depth", &[]), Some(0.0));
    // The request counter of the route template moved (other tests share
    // the process-wide registry, so it moved by at least one).
    let posted_after = sample(&after, "proxima_http_requests_total", &post_jobs).unwrap();
    assert!(posted_after > posted_before, "{after}");
    // The job route is labelled by its template, not the job's id.
    let get_job = [
        ("method", "GET"),
        ("route", "/v1/jobs/{id}"),
        ("status", "200"),
    ];
    assert!(sample(&after, "proxima_http_requests_total", &get_job).unwrap() >= 1.0);
    let count = sample(
        &after,
        "proxima_http_request_duration_seconds_count",
        &get_job,
    )
    .unwrap();
    let inf = [
        ("le", "+Inf"),
        ("method", "GET"),
        ("route", "/v1/jobs/{id}"),
        ("status", "200"),
    ];
    // The +Inf bucket holds every observation. (Read in one scrape, but
    // other tests may add between the two lines: at least the count.)
    assert!(sample(&after, "proxima_http_request_duration_seconds_bucket", &inf).unwrap() >= count);
    // The worker recorded the job: duration by algorithm and status, rows.
    let finished = [("algorithm", "mondrian"), ("status", "succeeded")];
    assert!(sample(&after, "proxima_jobs_finished_total", &finished).unwrap() >= 1.0);
    assert!(sample(&after, "proxima_job_duration_seconds_count", &finished).unwrap() >= 1.0);
    let rows = sample(&after, "proxima_job_rows_processed_total", &mondrian).unwrap();
    assert!(rows >= rows_before + 3.0, "{after}");
    for family in [
        "proxima_http_requests_total counter",
        "proxima_http_request_duration_seconds histogram",
        "proxima_job_duration_seconds histogram",
        "proxima_job_rows_processed_total counter",
        "proxima_jobs gauge",
        "proxima_queue_depth gauge",
    ] {
        assert!(after.contains(&format!("# TYPE {family}\n")), "{family}");
    }

    // An unknown path is counted under one label, not its raw URI.
    let res = app
        .get(&format!("/v1/nothing/{}", uuid::Uuid::new_v4()))
        .await;
    assert_eq!(res.status(), 404);
    let after = scrape(&app).await;
    assert!(after.contains("route=\"unmatched\""), "{after}");
    assert!(!after.contains(&id));
    let values = label_values(&after);
    assert!(values.iter().any(|v| v == "/v1/jobs/{id}"));
    for v in values {
        assert!(!contains_uuid(&v), "a label value holds an id: {v}");
    }
}

#[tokio::test]
async fn queued_jobs_show_in_the_queue_depth() {
    // No worker: the jobs stay queued.
    let app = TestApp::start().await;
    let d = app.dataset("t1").await;
    for _ in 0..2 {
        let res = app.post_json("/v1/jobs", &model_body(d.id)).await;
        assert_eq!(res.status(), 202);
    }
    let text = scrape(&app).await;
    assert_eq!(sample(&text, "proxima_queue_depth", &[]), Some(2.0));
    assert_eq!(
        sample(&text, "proxima_jobs", &[("status", "queued")]),
        Some(2.0)
    );
}

#[tokio::test]
async fn prometheus_gets_openmetrics_and_everyone_else_the_0_0_4_text() {
    let app = TestApp::start().await;
    // What Prometheus sends.
    let accept = "application/openmetrics-text;version=1.0.0,application/openmetrics-text;\
                  version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";
    let res = app
        .client
        .get(app.url("/metrics"))
        .header("accept", accept)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let ct = res.headers()["content-type"].to_str().unwrap().to_string();
    assert!(
        ct.starts_with("application/openmetrics-text; version=1.0.0"),
        "{ct}"
    );
    let open = res.text().await.unwrap();
    assert!(open.ends_with("# EOF\n"), "{open}");
    assert!(
        open.contains("# TYPE proxima_http_requests counter\n"),
        "{open}"
    );
    assert!(open.contains("# TYPE proxima_jobs gauge\n"), "{open}");

    // Refusing OpenMetrics (q=0) or not naming it gets the 0.0.4 text.
    for accept in [
        "application/openmetrics-text; q=0, text/plain",
        "text/plain",
        "*/*",
    ] {
        let res = app
            .client
            .get(app.url("/metrics"))
            .header("accept", accept)
            .send()
            .await
            .unwrap();
        let ct = res.headers()["content-type"].to_str().unwrap().to_string();
        assert!(
            ct.starts_with("text/plain; version=0.0.4"),
            "{accept}: {ct}"
        );
        let text = res.text().await.unwrap();
        assert!(!text.contains("# EOF"), "{accept}: {text}");
        assert!(text.contains("# TYPE proxima_http_requests_total counter\n"));
    }
}
