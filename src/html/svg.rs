//! Charts drawn by the service as inline SVG: grouped bars (group-size
//! buckets, GCP per QI, SA distributions) and a labelled scatter with a
//! joined front (the risk–utility map).
//!
//! Every data mark carries `class="mark"` and a `<title>` with its exact
//! value, so a reader hovering sees the figure, a printout keeps it in the
//! axis ticks, and a browser test can count marks. Sizes are in viewBox
//! units; the stylesheet scales the chart to the page width.

use std::fmt::Write as _;

use super::{escape, Markup};

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 300.0;
const LEFT: f64 = 64.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 34.0;
/// Room for the x labels and the axis title below the plot.
const BOTTOM: f64 = 64.0;
/// Extra room below a bar chart whose category labels are slanted (18
/// characters at -35° reach about 60 units down).
const ROTATED_LABELS: f64 = 44.0;

/// Series colours: distinguishable in print and for the common forms of
/// colour blindness (Okabe–Ito).
const PALETTE: [&str; 6] = [
    "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00",
];

/// One series of a bar chart: one value per category.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub name: String,
    pub values: Vec<f64>,
}

/// Vertical bars, one cluster per category, one bar per series.
#[derive(Debug, Clone, PartialEq)]
pub struct BarChart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub categories: Vec<String>,
    pub series: Vec<Series>,
}

impl BarChart {
    pub fn render(&self) -> Markup {
        let slot = (WIDTH - LEFT - RIGHT) / self.categories.len().max(1) as f64;
        let rotate = self.categories.len() > 8
            || self
                .categories
                .iter()
                .any(|c| c.chars().count() as f64 * 6.5 > slot);
        // Slanted labels hang below the axis: the chart grows by their
        // room so that they never run into the axis title.
        let height = if rotate {
            HEIGHT + ROTATED_LABELS
        } else {
            HEIGHT
        };
        let mut svg = open_svg(&self.title, height);
        let values = self
            .series
            .iter()
            .flat_map(|s| s.values.iter().copied())
            .filter(|v| v.is_finite());
        let top = values.fold(0.0_f64, f64::max);
        if self.categories.is_empty() || self.series.is_empty() {
            no_data(&mut svg);
            return close_svg(svg);
        }
        let y = Axis::new(0.0, if top > 0.0 { top } else { 1.0 }, HEIGHT - BOTTOM, TOP);
        y_axis(&mut svg, &y, &self.y_label);
        let bar_w = (slot * 0.8 / self.series.len() as f64).max(1.0);
        for (ci, category) in self.categories.iter().enumerate() {
            let x0 = LEFT + slot * ci as f64 + slot * 0.1;
            for (si, series) in self.series.iter().enumerate() {
                let v = series.values.get(ci).copied().unwrap_or(0.0);
                let v = if v.is_finite() { v.max(0.0) } else { 0.0 };
                let top_y = y.at(v);
                let _ = write!(
                    svg,
                    "<rect class=\"mark\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{}\"><title>{}{}: {}</title></rect>",
                    x0 + bar_w * si as f64,
                    top_y,
                    bar_w,
                    (HEIGHT - BOTTOM - top_y).max(0.0),
                    PALETTE[si % PALETTE.len()],
                    if self.series.len() > 1 {
                        format!("{} · ", escape(&series.name))
                    } else {
                        String::new()
                    },
                    escape(category),
                    number(v),
                );
            }
            let cx = LEFT + slot * (ci as f64 + 0.5);
            let ly = HEIGHT - BOTTOM + 14.0;
            if rotate {
                let _ = write!(
                    svg,
                    "<text x=\"{cx:.1}\" y=\"{ly:.1}\" text-anchor=\"end\" transform=\"rotate(-35 {cx:.1} {ly:.1})\">{}</text>",
                    escape(&shorten(category, rotated_room(cx)))
                );
            } else {
                let _ = write!(
                    svg,
                    "<text x=\"{cx:.1}\" y=\"{ly:.1}\" text-anchor=\"middle\">{}</text>",
                    escape(category)
                );
            }
        }
        x_title(&mut svg, &self.x_label, height);
        if self.series.len() > 1 {
            legend(&mut svg, self.series.iter().map(|s| s.name.as_str()));
        }
        close_svg(svg)
    }
}

/// One point of a scatter.
#[derive(Debug, Clone, PartialEq)]
pub struct ScatterPoint {
    pub x: f64,
    pub y: f64,
    /// Printed beside the point (e.g. its parameters).
    pub label: String,
    /// Drawn filled and in the accent colour (e.g. on the front).
    pub highlighted: bool,
}

/// Points on two numeric axes, each labelled; `frontier` lists point
/// indexes joined by a line in order of x (the risk–utility front).
#[derive(Debug, Clone, PartialEq)]
pub struct Scatter {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub points: Vec<ScatterPoint>,
    pub frontier: Vec<usize>,
}

impl Scatter {
    pub fn render(&self) -> Markup {
        let mut svg = open_svg(&self.title, HEIGHT);
        let finite: Vec<&ScatterPoint> = self
            .points
            .iter()
            .filter(|p| p.x.is_finite() && p.y.is_finite())
            .collect();
        if finite.is_empty() {
            no_data(&mut svg);
            return close_svg(svg);
        }
        let (x_lo, x_hi) = span(finite.iter().map(|p| p.x));
        let (y_lo, y_hi) = span(finite.iter().map(|p| p.y));
        let x = Axis::new(x_lo, x_hi, LEFT, WIDTH - RIGHT);
        let y = Axis::new(y_lo, y_hi, HEIGHT - BOTTOM, TOP);
        y_axis(&mut svg, &y, &self.y_label);
        for t in x.ticks() {
            let px = x.at(t);
            let _ = write!(
                svg,
                "<line class=\"grid\" x1=\"{px:.1}\" y1=\"{TOP}\" x2=\"{px:.1}\" y2=\"{:.1}\"/><text x=\"{px:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
                HEIGHT - BOTTOM,
                HEIGHT - BOTTOM + 14.0,
                number(t)
            );
        }
        x_title(&mut svg, &self.x_label, HEIGHT);
        let mut front: Vec<&ScatterPoint> = self
            .frontier
            .iter()
            .filter_map(|&i| self.points.get(i))
            .filter(|p| p.x.is_finite() && p.y.is_finite())
            .collect();
        front.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
        if !front.is_empty() {
            let points: Vec<String> = front
                .iter()
                .map(|p| format!("{:.1},{:.1}", x.at(p.x), y.at(p.y)))
                .collect();
            let _ = write!(
                svg,
                "<polyline class=\"frontier\" points=\"{}\"/>",
                points.join(" ")
            );
        }
        let mut placed: Vec<LabelBox> = Vec::new();
        for p in &finite {
            let (px, py) = (x.at(p.x), y.at(p.y));
            let (fill, stroke) = if p.highlighted {
                ("#a3261b", "#a3261b")
            } else {
                ("#ffffff", PALETTE[0])
            };
            let (lx, ly, anchor) = label_place_apart(px, py, &p.label, &placed);
            placed.push(LabelBox::of(lx, ly, anchor, &p.label));
            let _ = write!(
                svg,
                "<circle class=\"mark{}\" cx=\"{px:.1}\" cy=\"{py:.1}\" r=\"5\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"1.5\"><title>{}: {} = {}, {} = {}</title></circle>\
                 <text class=\"point-label\" x=\"{lx:.1}\" y=\"{ly:.1}\" text-anchor=\"{anchor}\">{}</text>",
                if p.highlighted { " highlighted" } else { "" },
                escape(&p.label),
                escape(&self.x_label),
                number(p.x),
                escape(&self.y_label),
                number(p.y),
                escape(&p.label),
            );
        }
        close_svg(svg)
    }
}

/// A generous estimate of a label's width at the charts' 11 px font (wide
/// glyphs included), so that placement errs on the side of room.
fn text_width(text: &str) -> f64 {
    text.chars().count() as f64 * 6.6
}

/// Where a point's label goes: right of the point and above it, unless
/// that runs past the chart's right edge (then it ends left of the point)
/// or above the plot (then it sits below the point). The whole label stays
/// inside the chart's box: it is never cut, however long the parameters.
fn label_place(px: f64, py: f64, label: &str) -> (f64, f64, &'static str) {
    let w = text_width(label);
    let (x, anchor) = if px + 7.0 + w <= WIDTH - 2.0 {
        (px + 7.0, "start")
    } else if px - 7.0 - w >= 2.0 {
        (px - 7.0, "end")
    } else {
        // Wider than either side: centred on the chart.
        (WIDTH / 2.0, "middle")
    };
    // The baseline 6 above the point, unless the text's top (about 9
    // above its baseline) would reach into the title's band.
    let y = if py - 6.0 - 9.0 < TOP - 8.0 {
        py + 16.0
    } else {
        py - 6.0
    };
    (x, y, anchor)
}

/// The box a point label's text takes (viewBox units).
#[derive(Debug, Clone, Copy, PartialEq)]
struct LabelBox {
    left: f64,
    right: f64,
    top: f64,
    bottom: f64,
}

impl LabelBox {
    fn of(x: f64, baseline: f64, anchor: &str, label: &str) -> LabelBox {
        let w = text_width(label);
        let (left, right) = match anchor {
            "start" => (x, x + w),
            "end" => (x - w, x),
            _ => (x - w / 2.0, x + w / 2.0),
        };
        LabelBox {
            left,
            right,
            top: baseline - 9.0,
            bottom: baseline + 3.0,
        }
    }

    fn overlaps(&self, o: &LabelBox) -> bool {
        self.left < o.right && o.left < self.right && self.top < o.bottom && o.top < self.bottom
    }

    /// Inside the chart: within its width, below the title's band and
    /// above the x axis's tick labels.
    fn fits(&self) -> bool {
        self.left >= 2.0
            && self.right <= WIDTH - 2.0
            && self.top >= TOP - 8.0
            && self.bottom <= HEIGHT - BOTTOM + 2.0
    }
}

/// [`label_place`], moved when its text would overlap a label already
/// placed (points close together, or labels made long by a verdict): the
/// first of above/below the point, right/left of it, that fits the chart
/// and overlaps none; where none does, the usual place.
fn label_place_apart(
    px: f64,
    py: f64,
    label: &str,
    placed: &[LabelBox],
) -> (f64, f64, &'static str) {
    let usual = label_place(px, py, label);
    let clear = |(x, y, anchor): (f64, f64, &'static str)| {
        let b = LabelBox::of(x, y, anchor, label);
        (b.fits() && !placed.iter().any(|o| o.overlaps(&b))).then_some((x, y, anchor))
    };
    std::iter::once(usual)
        .chain(
            [(px + 7.0, "start"), (px - 7.0, "end")]
                .into_iter()
                .flat_map(|(x, a)| [(x, py - 6.0, a), (x, py + 16.0, a)]),
        )
        .find_map(clear)
        .unwrap_or(usual)
}

/// A linear scale from data values to viewBox coordinates.
struct Axis {
    lo: f64,
    hi: f64,
    from: f64,
    to: f64,
}

impl Axis {
    fn new(lo: f64, hi: f64, from: f64, to: f64) -> Axis {
        Axis { lo, hi, from, to }
    }

    fn at(&self, v: f64) -> f64 {
        let t = if self.hi > self.lo {
            (v - self.lo) / (self.hi - self.lo)
        } else {
            0.5
        };
        self.from + t * (self.to - self.from)
    }

    /// About five round ticks inside [lo, hi].
    fn ticks(&self) -> Vec<f64> {
        if self.hi <= self.lo {
            return vec![self.lo];
        }
        let step = nice_step((self.hi - self.lo) / 5.0);
        let first = (self.lo / step).ceil() * step;
        (0..=20)
            .map(|i| first + step * i as f64)
            .take_while(|t| *t <= self.hi + step * 1e-9)
            .collect()
    }
}

/// 1, 2 or 5 times a power of ten, at least `raw`.
fn nice_step(raw: f64) -> f64 {
    let magnitude = 10f64.powf(raw.log10().floor());
    let fraction = raw / magnitude;
    let nice = if fraction <= 1.0 {
        1.0
    } else if fraction <= 2.0 {
        2.0
    } else if fraction <= 5.0 {
        5.0
    } else {
        10.0
    };
    nice * magnitude
}

/// The data range padded by 5 % on each side, so marks do not sit on the
/// frame; a single value gets a unit-wide range around it.
fn span(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    if hi > lo {
        let pad = (hi - lo) * 0.05;
        (lo - pad, hi + pad)
    } else {
        let pad = if lo == 0.0 { 0.5 } else { lo.abs() * 0.1 };
        (lo - pad, hi + pad)
    }
}

/// A figure for a tick or a tooltip: integers as integers, otherwise four
/// significant digits.
pub fn number(v: f64) -> String {
    if v == v.trunc() && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        let digits = (3 - v.abs().log10().floor() as i32).clamp(0, 8) as usize;
        let s = format!("{v:.digits$}");
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_owned()
        } else {
            s
        }
    }
}

/// How many characters a label slanted at -35° and ending at `cx` can
/// hold without running past the chart's left edge (at most 18).
fn rotated_room(cx: f64) -> usize {
    let per_char = 6.6 * 35f64.to_radians().cos();
    (((cx - 2.0) / per_char).floor().max(3.0) as usize).min(18)
}

fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_owned()
    } else {
        let mut s: String = text.chars().take(max - 1).collect();
        s.push('…');
        s
    }
}

fn open_svg(title: &str, height: f64) -> String {
    format!(
        "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {WIDTH} {height}\" role=\"img\" aria-label=\"{t}\"><title>{t}</title>\
         <text x=\"{LEFT}\" y=\"18\" font-weight=\"600\">{t}</text>",
        t = escape(title)
    )
}

fn close_svg(mut svg: String) -> Markup {
    svg.push_str("</svg>");
    Markup::trusted(svg)
}

fn no_data(svg: &mut String) {
    let _ = write!(
        svg,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">no data</text>",
        WIDTH / 2.0,
        HEIGHT / 2.0
    );
}

fn y_axis(svg: &mut String, y: &Axis, label: &str) {
    for t in y.ticks() {
        let py = y.at(t);
        let _ = write!(
            svg,
            "<line class=\"grid\" x1=\"{LEFT}\" y1=\"{py:.1}\" x2=\"{:.1}\" y2=\"{py:.1}\"/><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            WIDTH - RIGHT,
            LEFT - 6.0,
            py + 4.0,
            number(t)
        );
    }
    let _ = write!(
        svg,
        "<line class=\"axis\" x1=\"{LEFT}\" y1=\"{TOP}\" x2=\"{LEFT}\" y2=\"{b:.1}\"/><line class=\"axis\" x1=\"{LEFT}\" y1=\"{b:.1}\" x2=\"{:.1}\" y2=\"{b:.1}\"/>\
         <text x=\"14\" y=\"{:.1}\" text-anchor=\"middle\" transform=\"rotate(-90 14 {:.1})\">{}</text>",
        WIDTH - RIGHT,
        (TOP + HEIGHT - BOTTOM) / 2.0,
        (TOP + HEIGHT - BOTTOM) / 2.0,
        escape(label),
        b = HEIGHT - BOTTOM,
    );
}

fn x_title(svg: &mut String, label: &str, height: f64) {
    let _ = write!(
        svg,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
        LEFT + (WIDTH - LEFT - RIGHT) / 2.0,
        height - 6.0,
        escape(label)
    );
}

fn legend<'a>(svg: &mut String, names: impl Iterator<Item = &'a str>) {
    let mut x = WIDTH - RIGHT;
    let items: Vec<&str> = names.collect();
    // Right-aligned: lay out from the last item backwards.
    let mut parts = Vec::new();
    for (i, name) in items.iter().enumerate().rev() {
        let w = 18.0 + name.chars().count() as f64 * 6.2;
        x -= w;
        parts.push(format!(
            "<rect x=\"{x:.1}\" y=\"8\" width=\"10\" height=\"10\" fill=\"{}\"/><text x=\"{:.1}\" y=\"17\">{}</text>",
            PALETTE[i % PALETTE.len()],
            x + 14.0,
            escape(name)
        ));
        x -= 8.0;
    }
    for p in parts.into_iter().rev() {
        svg.push_str(&p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marks(svg: &Markup) -> usize {
        svg.as_str().matches("class=\"mark").count()
    }

    #[test]
    fn one_mark_per_bar_with_its_value() {
        let chart = BarChart {
            title: "Group sizes".into(),
            x_label: "size".into(),
            y_label: "groups".into(),
            categories: vec!["1".into(), "2-5".into(), "6-10".into()],
            series: vec![
                Series {
                    name: "before".into(),
                    values: vec![3.0, 0.0, 12.5],
                },
                Series {
                    name: "after".into(),
                    values: vec![0.0, 4.0, 9.0],
                },
            ],
        };
        let svg = chart.render();
        assert_eq!(marks(&svg), 6);
        assert!(svg.as_str().contains("<title>before · 6-10: 12.5</title>"));
        assert!(svg.as_str().starts_with("<svg class=\"chart\""));
        assert!(svg.as_str().ends_with("</svg>"));
    }

    #[test]
    fn taller_values_draw_taller_bars() {
        let chart = BarChart {
            title: "t".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            categories: vec!["a".into(), "b".into()],
            series: vec![Series {
                name: "s".into(),
                values: vec![1.0, 4.0],
            }],
        };
        let svg = chart.render();
        let all: Vec<f64> = svg
            .as_str()
            .match_indices("class=\"mark\"")
            .map(|(i, _)| {
                let rest = &svg.as_str()[i..];
                let h = rest.split("height=\"").nth(1).unwrap();
                h.split('"').next().unwrap().parse::<f64>().unwrap()
            })
            .collect();
        assert_eq!(all.len(), 2);
        assert!((all[1] / all[0] - 4.0).abs() < 0.01, "{all:?}");
    }

    #[test]
    fn slanted_labels_get_their_own_room_below_the_axis() {
        let chart = |categories: Vec<String>| BarChart {
            title: "t".into(),
            x_label: "capital-gain".into(),
            y_label: "y".into(),
            series: vec![Series {
                name: "s".into(),
                values: vec![1.0; categories.len()],
            }],
            categories,
        };
        let short = chart(vec!["a".into(), "b".into()]).render();
        assert!(short
            .as_str()
            .contains(&format!("viewBox=\"0 0 {WIDTH} {HEIGHT}\"")));
        let long = chart((0..10).map(|i| format!("[{i}9999.9-{i}19999.8]")).collect()).render();
        let tall = HEIGHT + ROTATED_LABELS;
        assert!(long
            .as_str()
            .contains(&format!("viewBox=\"0 0 {WIDTH} {tall}\"")));
        // The axis title sits at the bottom of the taller chart.
        assert!(long.as_str().contains(&format!(
            "y=\"{:.1}\" text-anchor=\"middle\">capital-gain<",
            tall - 6.0
        )));
    }

    #[test]
    fn labels_from_data_are_escaped() {
        let chart = BarChart {
            title: "<b>".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            categories: vec!["<script>".into()],
            series: vec![Series {
                name: "s".into(),
                values: vec![1.0],
            }],
        };
        let svg = chart.render();
        assert!(!svg.as_str().contains("<script>"));
        assert!(!svg.as_str().contains("<b>"));
        let scatter = Scatter {
            title: "m".into(),
            x_label: "risk".into(),
            y_label: "loss".into(),
            points: vec![ScatterPoint {
                x: 0.1,
                y: 0.2,
                label: "<i>".into(),
                highlighted: false,
            }],
            frontier: vec![],
        };
        assert!(!scatter.render().as_str().contains("<i>"));
    }

    #[test]
    fn scatter_marks_every_finite_point_and_joins_the_front_in_x_order() {
        let p = |x, y, h| ScatterPoint {
            x,
            y,
            label: format!("{x},{y}"),
            highlighted: h,
        };
        let scatter = Scatter {
            title: "R-U map".into(),
            x_label: "risk".into(),
            y_label: "loss".into(),
            points: vec![
                p(0.5, 0.1, true),
                p(0.1, 0.5, true),
                p(0.6, 0.6, false),
                p(f64::NAN, 0.2, false),
            ],
            frontier: vec![0, 1],
        };
        let svg = scatter.render();
        assert_eq!(marks(&svg), 3);
        assert_eq!(
            svg.as_str().matches("class=\"mark highlighted\"").count(),
            2
        );
        let line = svg
            .as_str()
            .split("<polyline class=\"frontier\" points=\"")
            .nth(1)
            .unwrap();
        let xs: Vec<f64> = line
            .split('"')
            .next()
            .unwrap()
            .split(' ')
            .map(|pt| pt.split(',').next().unwrap().parse().unwrap())
            .collect();
        assert_eq!(xs.len(), 2);
        assert!(xs[0] < xs[1], "joined in order of x: {xs:?}");
    }

    #[test]
    fn point_labels_stay_inside_the_chart() {
        let label = "epsilon=4500, m=5, suppression_limit=0.05";
        let w = text_width(label);
        for (px, py) in [
            (LEFT, TOP),
            (WIDTH - RIGHT, TOP),
            (WIDTH - RIGHT, HEIGHT - BOTTOM),
            (LEFT, HEIGHT - BOTTOM),
            (WIDTH / 2.0, TOP + 4.0),
        ] {
            let (x, y, anchor) = label_place(px, py, label);
            let (left, right) = match anchor {
                "start" => (x, x + w),
                "end" => (x - w, x),
                _ => (x - w / 2.0, x + w / 2.0),
            };
            assert!(left >= 0.0 && right <= WIDTH, "{px},{py}: {left}..{right}");
            // Below the title band (its baseline at 18) and above the bottom.
            assert!(y - 9.0 > 20.0 && y < HEIGHT, "{px},{py}: baseline {y}");
        }
        // Slanted labels are cut to the room left of their category.
        assert!(rotated_room(LEFT + 10.0) < 18);
        assert_eq!(rotated_room(WIDTH), 18);
    }

    #[test]
    fn labels_of_close_points_are_moved_apart() {
        let label = "k=3: publishable with conditions";
        let first = label_place_apart(200.0, 150.0, label, &[]);
        assert_eq!(first, label_place(200.0, 150.0, label));
        let placed = [LabelBox::of(first.0, first.1, first.2, label)];
        // A point just right of the first, at the same height: its usual
        // place would overlap the first label.
        let usual = label_place(230.0, 150.0, label);
        assert!(LabelBox::of(usual.0, usual.1, usual.2, label).overlaps(&placed[0]));
        let moved = label_place_apart(230.0, 150.0, label, &placed);
        let b = LabelBox::of(moved.0, moved.1, moved.2, label);
        assert!(!b.overlaps(&placed[0]) && b.fits(), "{moved:?}");
    }

    #[test]
    fn empty_charts_say_so() {
        let chart = BarChart {
            title: "t".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            categories: vec![],
            series: vec![],
        };
        assert!(chart.render().as_str().contains("no data"));
        assert_eq!(marks(&chart.render()), 0);
    }

    #[test]
    fn ticks_are_round_and_inside_the_range() {
        let axis = Axis::new(0.0, 0.87, 0.0, 100.0);
        let ticks = axis.ticks();
        assert_eq!(ticks.first(), Some(&0.0));
        assert!(ticks.iter().all(|t| *t <= 0.87 + 1e-12));
        assert!(ticks.len() >= 4 && ticks.len() <= 11, "{ticks:?}");
        assert_eq!(number(0.2), "0.2");
        assert_eq!(number(1500.0), "1500");
        assert_eq!(number(0.012345), "0.01235");
    }
}
