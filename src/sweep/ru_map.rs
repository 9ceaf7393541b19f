//! The sweep report (`GET /v1/sweeps/{id}/report`): the R-U maps — the
//! attacker's-view risk against information loss, and against the
//! count-query error — one mark per point with figures, the Pareto front
//! joined by a line; a table of every point with a link to its job's
//! release report. JSON ([`SweepReportDto`]) and HTML ([`html`]) carry the
//! same content.

use serde::Serialize;
use utoipa::ToSchema;

use super::resource::{PointDto, PointStatus, SweepDto};
use crate::html::svg::{Scatter, ScatterPoint};
use crate::html::{Markup, Page};
use crate::release_report::verdict::{Decision, ReasonKind};
use crate::release_report::words;

/// One mark of a map: a point with both figures.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[schema(as = SweepMapMark)]
pub struct MarkDto {
    /// The point's index in `sweep.points`.
    pub point: usize,
    pub x: f64,
    pub y: f64,
    /// The point's parameters, as text.
    pub label: String,
    pub on_frontier: bool,
    /// The point's verdict (`sweep.points[].verdict.decision`); null
    /// without one.
    #[schema(required = true)]
    pub decision: Option<Decision>,
}

/// A risk–utility map.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[schema(as = SweepMap)]
pub struct MapDto {
    pub title: String,
    /// The risk figure (`sweep.risk`).
    pub x_label: String,
    /// The utility figure: information loss (GCP) or count-query error.
    pub y_label: String,
    /// One per point that has both figures (succeeded points).
    pub marks: Vec<MarkDto>,
    /// The point indexes on this map's Pareto front, safest first.
    pub frontier: Vec<usize>,
    /// The same points by their parameters (`label`), in the same order,
    /// so that a reader need not look indexes up.
    pub frontier_labels: Vec<String>,
}

/// The report as JSON: the sweep (its points with their figures, their
/// job report links and the fronts) and the maps drawn from it.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[schema(as = SweepReport)]
pub struct SweepReportDto {
    pub sweep: SweepDto,
    pub maps: Vec<MapDto>,
}

fn map(
    sweep: &SweepDto,
    title: &str,
    y_label: &str,
    utility: fn(&PointDto) -> Option<f64>,
    frontier: &[usize],
) -> MapDto {
    let marks = sweep
        .points
        .iter()
        .filter_map(|p| {
            let risk = p.summary.as_ref()?.risk?;
            Some(MarkDto {
                point: p.index,
                x: risk,
                y: utility(p)?,
                label: p.label.clone(),
                on_frontier: frontier.contains(&p.index),
                decision: p.verdict.as_ref().map(|v| v.decision),
            })
        })
        .collect();
    MapDto {
        title: title.into(),
        x_label: sweep.risk.title.clone(),
        y_label: y_label.into(),
        marks,
        frontier: frontier.to_vec(),
        frontier_labels: frontier
            .iter()
            .filter_map(|&i| sweep.points.iter().find(|p| p.index == i))
            .map(|p| p.label.clone())
            .collect(),
    }
}

/// The report's content.
pub fn report(sweep: SweepDto) -> SweepReportDto {
    let gcp = map(
        &sweep,
        "Risk against information loss",
        "information loss (GCP)",
        |p| p.summary.as_ref().map(|s| s.information_loss),
        &sweep.frontier,
    );
    let query = map(
        &sweep,
        "Risk against count-query error",
        "count-query error, mean (q = 2)",
        |p| p.summary.as_ref().and_then(|s| s.query_error),
        &sweep.query_error_frontier,
    );
    SweepReportDto {
        sweep,
        maps: vec![gcp, query],
    }
}

/// How a map's utility axis is drawn: as it is (GCP, 0 to 1), or in
/// percent (the query error, as every page shows it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unit {
    AsIs,
    Percent,
}

/// The map as an SVG scatter: marks in the order of `map.marks`, the
/// front given as positions among them.
fn scatter(map: &MapDto, unit: Unit) -> Scatter {
    let position = |point: usize| map.marks.iter().position(|m| m.point == point);
    let (scale, y_label) = match unit {
        Unit::AsIs => (1.0, map.y_label.clone()),
        Unit::Percent => (100.0, format!("{}, %", map.y_label)),
    };
    Scatter {
        title: map.title.clone(),
        x_label: map.x_label.clone(),
        y_label,
        points: map
            .marks
            .iter()
            .map(|m| {
                let params = if m.label.is_empty() {
                    format!("point {}", m.point)
                } else {
                    m.label.clone()
                };
                ScatterPoint {
                    x: m.x,
                    y: m.y * scale,
                    // The decision in words beside the parameters: the
                    // mark's fill says the front, nothing says the verdict
                    // by colour alone.
                    label: match m.decision {
                        Some(d) => format!("{params}: {}", d.words()),
                        None => params,
                    },
                    highlighted: m.on_frontier,
                }
            })
            .collect(),
        frontier: map.frontier.iter().filter_map(|&p| position(p)).collect(),
    }
}

fn figure(v: Option<f64>) -> Markup {
    match v {
        Some(v) => Markup::text(&format!("{v:.4}")),
        None => Markup::span("muted", "—"),
    }
}

/// A query error as the release report shows it: a percentage.
fn percent(v: Option<f64>) -> Markup {
    match v {
        Some(v) => Markup::text(&format!("{}%", crate::html::svg::number(100.0 * v))),
        None => Markup::span("muted", "—"),
    }
}

fn status(p: &PointDto) -> Markup {
    let text = serde_json::to_value(p.status)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default();
    let class = match p.status {
        PointStatus::Succeeded => "ok",
        PointStatus::Failed | PointStatus::Infeasible => "bad",
        _ => "muted",
    };
    match &p.error {
        Some(e) => Markup::concat([
            Markup::span(class, &text),
            Markup::text(&format!(" ({}: {})", e.code, e.message)),
        ]),
        None => Markup::span(class, &text),
    }
}

/// A reason in a few words (its sentence is in the JSON and the point's
/// report, where the link leads).
fn reason_words(kind: ReasonKind) -> &'static str {
    match kind {
        ReasonKind::JobFailed => "the job failed",
        ReasonKind::Model => "the model fails in the attacker's view",
        ReasonKind::ProsecutorRisk => "prosecutor risk",
        ReasonKind::PopulationUniques => "population uniques",
        ReasonKind::FineGrainedColumn => "a published column acts as a QI",
        ReasonKind::SaAssociation => "a published column gives the SA away",
        ReasonKind::UngeneralizedQi => "a QI published almost as is",
        ReasonKind::SuppressionConcentrated => "suppression in one value",
        ReasonKind::SuppressedRows => "rows left out",
        ReasonKind::QueryError => "query error",
    }
}

/// A point's decision in words, each reason that weighs on it linked to
/// its section of the point's report.
fn verdict(p: &PointDto, origin: Option<&str>) -> Markup {
    let Some(v) = &p.verdict else {
        return Markup::span("muted", "—");
    };
    let class = match v.decision {
        Decision::Publishable => "ok",
        Decision::PublishableWithConditions => "warn",
        Decision::NotPublishable => "bad",
    };
    let mut parts = vec![Markup::span(class, v.decision.words())];
    for (i, r) in v.reasons.iter().enumerate() {
        let what = reason_words(r.kind);
        parts.push(Markup::text(if i == 0 { ": " } else { "; " }));
        parts.push(match &p.report {
            Some(url) => Markup::link(&absolute(origin, &format!("{url}{}", r.anchor)), what),
            None => Markup::text(what),
        });
    }
    Markup::concat(parts)
}

/// Where the page's links point: `origin` (`http://host:port`, from the
/// request) before the service's path, so that the links still work in a
/// copy of the page saved to disk; the bare path without one.
fn absolute(origin: Option<&str>, path: &str) -> String {
    match origin {
        Some(o) => format!("{}{path}", o.trim_end_matches('/')),
        None => path.to_owned(),
    }
}

/// The report as a self-contained HTML page. `origin` makes the points'
/// report links absolute (see [`absolute`]).
pub fn html(report: &SweepReportDto, origin: Option<&str>) -> String {
    let sweep = &report.sweep;
    let mut page = Page::new("Risk–utility sweep");
    let counts = &sweep.counts;
    let model = &sweep.request["model"];
    let mut params = model.clone();
    if let Some(m) = params.as_object_mut() {
        m.remove("kind");
    }
    page.definitions(vec![
        ("Sweep", Markup::code(&sweep.id.to_string())),
        ("Dataset", Markup::code(&sweep.dataset_id.to_string())),
        (
            "Model",
            Markup::text(&format!(
                "{} with {}",
                words::model_name(model["kind"].as_str().unwrap_or("unknown")),
                words::value_text(&params)
            )),
        ),
        (
            "Status",
            Markup::text(&format!(
                "{} — {:.0} % of {} points finished ({} succeeded, {} failed, {} cancelled, {} infeasible, {} queued, {} running)",
                serde_json::to_value(sweep.status).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default(),
                sweep.progress * 100.0,
                sweep.points.len(),
                counts.succeeded, counts.failed, counts.cancelled, counts.infeasible,
                counts.queued, counts.running,
            )),
        ),
        (
            "Risk axis",
            Markup::text(&format!(
                "{} — the job summary's attacker_view.worst ({}); {} is safer",
                sweep.risk.title, sweep.risk.name, sweep.risk.safer
            )),
        ),
    ]);
    page.section("front", "The Pareto front, by parameters");
    page.paragraph(
        "The points worth choosing from: no other finished point is at least as safe and at \
         most as lossy while better in one of the two. Safest first.",
    );
    for map in &report.maps {
        let items = if map.frontier_labels.is_empty() {
            "no finished point with both figures".to_owned()
        } else {
            map.frontier_labels
                .iter()
                .map(|l| {
                    if l.is_empty() {
                        "(no swept parameter)"
                    } else {
                        l.as_str()
                    }
                })
                .collect::<Vec<_>>()
                .join("; ")
        };
        page.paragraph(Markup::concat([
            Markup::text(&format!("{}: ", map.title)),
            Markup::text(&items),
        ]));
    }
    page.section("maps", "Risk–utility maps");
    page.paragraph(
        "One mark per finished point, labelled with its parameters and the verdict of its \
         release report. Filled marks joined by the line are the Pareto front. Failed, cancelled and infeasible points, and points \
         without a risk figure, are not drawn (see the table).",
    );
    // `report` builds the loss map, then the query-error map.
    for (map, unit) in report.maps.iter().zip([Unit::AsIs, Unit::Percent]) {
        page.raw(scatter(map, unit).render());
    }
    page.section("points", "Points");
    page.paragraph(Markup::concat([
        Markup::text(
            "The verdict is the decision the point's release report opens with, under the \
             tenant's release policy as it stands now, with the reasons that weigh on it \
             (each links to its section of the report). \
             Risk is the axis's figure (lower or higher is safer as said above); GCP the \
             information loss (0 = published as uploaded, 1 = all generalized away); the query \
             error is the count-query workload's median and mean relative error in percent \
             (q = 2 QIs and the SA, the same queries as the q = 2 line of each point's release \
             report; the map and its front use the mean). ",
        ),
        Markup::text(&crate::release_report::html::query_error_text()),
        Markup::text(
            " Suppressed counts the rows left out (missing values and by the model); ms the \
             job's time; the report link is the point's release report (absolute, so that it \
             works from a saved copy: fetch it with your API key).",
        ),
    ]));
    let rows = sweep
        .points
        .iter()
        .map(|p| {
            let s = p.summary.as_ref();
            vec![
                Markup::text(&p.index.to_string()),
                Markup::text(&p.label),
                status(p),
                verdict(p, origin),
                figure(s.and_then(|s| s.risk)),
                figure(s.map(|s| s.information_loss)),
                percent(s.and_then(|s| s.query_error_median)),
                percent(s.and_then(|s| s.query_error)),
                Markup::text(&s.map_or(String::new(), |s| s.groups.to_string())),
                Markup::text(&s.map_or(String::new(), |s| {
                    (s.suppressed_rows + s.suppressed_by_model).to_string()
                })),
                Markup::text(&s.map_or(String::new(), |s| s.elapsed_ms.to_string())),
                if sweep.frontier.contains(&p.index) {
                    Markup::span("ok", "yes")
                } else {
                    Markup::text("")
                },
                match &p.report {
                    Some(url) => Markup::link(&absolute(origin, url), "report"),
                    None => Markup::span("muted", "—"),
                },
            ]
        })
        .collect();
    page.table_aligned(
        &[
            "#",
            "parameters",
            "status",
            "verdict",
            "risk",
            "GCP",
            "query error, median",
            "query error, mean",
            "groups",
            "suppressed",
            "ms",
            "front",
            "job",
        ],
        &[
            true, false, false, false, true, true, true, true, true, true, true, false, false,
        ],
        rows,
    );
    page.finish()
}
