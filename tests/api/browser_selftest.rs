//! The browser harness judges pages, so it is tested first: a page built
//! with `proxima::html` passes, and a page with a script error and an
//! external image is caught. Served by a tiny app of its own, so these
//! tests do not depend on any report.

use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use proxima::html::svg::{BarChart, Scatter, ScatterPoint, Series};
use proxima::html::{Callout, Markup, Page, CONTENT_SECURITY_POLICY};

use crate::browser;

const KEY: &str = "selftest-key";

fn good_page() -> String {
    let mut page = Page::new("Harness self-test");
    page.section("bars", "Bars").raw(
        BarChart {
            title: "Group sizes".into(),
            x_label: "size".into(),
            y_label: "groups".into(),
            categories: vec!["1".into(), "2-4".into(), "5-9".into()],
            series: vec![
                Series {
                    name: "before".into(),
                    values: vec![5.0, 2.0, 1.0],
                },
                Series {
                    name: "after".into(),
                    values: vec![0.0, 1.0, 4.0],
                },
            ],
        }
        .render(),
    );
    page.section("map", "Map").raw(
        Scatter {
            title: "R-U map".into(),
            x_label: "risk".into(),
            y_label: "loss".into(),
            points: (0..4)
                .map(|i| ScatterPoint {
                    x: i as f64 * 0.1,
                    y: 1.0 - i as f64 * 0.2,
                    // Long labels on the marks at the chart's top and right
                    // edges: placed so that none is cut.
                    label: format!("epsilon={i}000, m={i}, suppression_limit=0.0{i}"),
                    highlighted: i % 2 == 0,
                })
                .collect(),
            frontier: vec![0, 2],
        }
        .render(),
    );
    page.callout(Callout::Warning, "Note", Markup::text("<b>escaped</b>"));
    page.finish()
}

async fn good(headers: HeaderMap) -> Response {
    if headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        != Some(&format!("Bearer {KEY}"))
    {
        // With a body, as the service answers (problem+json): Chromium treats
        // an empty error response as a failed navigation.
        return (StatusCode::UNAUTHORIZED, "unauthorized").into_response();
    }
    (
        [(header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY)],
        Html(good_page()),
    )
        .into_response()
}

async fn bad() -> Html<&'static str> {
    // Port 9 (discard) on loopback refuses at once: the request is made and
    // fails quickly, so the load event is not held up.
    Html(
        "<!DOCTYPE html><html><head><title>bad</title></head><body>\
         <img src=\"http://127.0.0.1:9/pixel.png\">\
         <script>console.error('boom from the page')</script></body></html>",
    )
}

/// A label past its SVG's right edge, one slanted past its left edge, and
/// a table wider than an A4 page: what the layout checks must catch.
async fn cramped() -> Html<&'static str> {
    Html(
        "<!DOCTYPE html><html><head><title>cramped</title></head><body>\
         <svg viewBox=\"0 0 200 100\" width=\"200\" height=\"100\">\
         <text x=\"190\" y=\"50\">cut on the right</text>\
         <text x=\"10\" y=\"90\" text-anchor=\"end\" transform=\"rotate(-35 10 90)\">slanted out</text>\
         <text x=\"20\" y=\"30\">inside</text></svg>\
         <table><tr><td style=\"white-space:nowrap\">a very long cell that does not wrap at all, \
         a very long cell that does not wrap at all, a very long cell that does not wrap at all, \
         a very long cell</td></tr></table></body></html>",
    )
}

async fn serve() -> String {
    let app = Router::new()
        .route("/good", get(good))
        .route("/bad", get(bad))
        .route("/cramped", get(cramped));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{addr}")
}

const COUNT_MARKS: &str = "({marks: document.querySelectorAll('svg.chart .mark').length, \
     frontier: document.querySelectorAll('svg.chart polyline.frontier').length, \
     charts: document.querySelectorAll('svg.chart').length, \
     bold: document.querySelectorAll('main b').length})";

#[tokio::test]
async fn a_self_contained_page_renders_clean_with_its_marks() {
    let base = serve().await;
    let Some(r) = browser::render(&format!("{base}/good"), KEY, COUNT_MARKS).await else {
        return;
    };
    assert_eq!(r.status, 200);
    assert!(r.console_errors.is_empty(), "{:?}", r.console_errors);
    assert!(r.external_requests.is_empty(), "{:?}", r.external_requests);
    assert_eq!(r.eval["charts"], 2, "{}", r.eval);
    assert_eq!(
        r.eval["marks"],
        6 + 4,
        "six bars and four points: {}",
        r.eval
    );
    assert_eq!(r.eval["frontier"], 1);
    assert_eq!(r.eval["bold"], 0, "escaped text stays text");
    assert!(r.screenshot_png.starts_with(b"\x89PNG\r\n\x1a\n"));
    assert!(
        r.screenshot_png.len() > 10_000,
        "a real picture: {} bytes",
        r.screenshot_png.len()
    );
    assert!(r.pdf.starts_with(b"%PDF"));
    assert!(r.clipped_labels.is_empty(), "{:?}", r.clipped_labels);
    assert!(r.too_wide_for_a4.is_empty(), "{:?}", r.too_wide_for_a4);
    // To look at the charts: PROXIMA_SCREENSHOT_DIR=/tmp/shots cargo test … browser_selftest
    if let Some(dir) = std::env::var_os("PROXIMA_SCREENSHOT_DIR") {
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            std::path::Path::new(&dir).join("selftest.png"),
            &r.screenshot_png,
        )
        .unwrap();
        std::fs::write(std::path::Path::new(&dir).join("selftest.pdf"), &r.pdf).unwrap();
    }
}

#[tokio::test]
async fn script_errors_and_external_loads_are_caught() {
    let base = serve().await;
    let Some(r) = browser::render(&format!("{base}/bad"), KEY, "document.title").await else {
        return;
    };
    assert_eq!(r.eval, "bad");
    assert!(
        r.console_errors
            .iter()
            .any(|e| e.contains("boom from the page")),
        "{:?}",
        r.console_errors
    );
    assert_eq!(
        r.external_requests,
        vec!["http://127.0.0.1:9/pixel.png".to_owned()]
    );
}

#[tokio::test]
async fn cut_labels_and_tables_wider_than_a4_are_caught() {
    let base = serve().await;
    let Some(r) = browser::render(&format!("{base}/cramped"), KEY, "1").await else {
        return;
    };
    assert_eq!(r.clipped_labels.len(), 2, "{:?}", r.clipped_labels);
    assert!(r.clipped_labels[0].starts_with("cut on the right"));
    assert!(r.clipped_labels[1].starts_with("slanted out"));
    assert!(
        r.too_wide_for_a4.iter().any(|t| t.starts_with("table")),
        "{:?}",
        r.too_wide_for_a4
    );
}

#[tokio::test]
async fn the_bearer_key_is_sent_and_a_wrong_one_is_refused() {
    let base = serve().await;
    let Some(r) = browser::render(&format!("{base}/good"), "wrong", "1").await else {
        return;
    };
    assert_eq!(r.status, 401);
}
