//! A release as the attacker downloads it: printed labels parsed back into
//! the QI points they cover, with the published rows of each label set.

use std::collections::HashMap;

use proxima_core::generalize::{for_each_release_row, release_header, Release};
use proxima_core::table::{QiValues, Table};
use proxima_core::Hierarchy;

/// What one printed label covers.
#[derive(Debug, Clone)]
pub enum Cover {
    /// `lo ≤ x ≤ hi` (a numeric `[lo-hi]` or a single number).
    Interval(f64, f64),
    /// `covered[leaf]`: the leaves whose value or ancestor carries the label.
    Leaves(Vec<bool>),
    /// Dates as `y·10000 + m·100 + d`, which orders like the calendar.
    Days(i64, i64),
}

impl Cover {
    fn covers(&self, point: &Point) -> bool {
        match (self, point) {
            (Cover::Interval(lo, hi), Point::Number(x)) => lo <= x && x <= hi,
            (Cover::Leaves(set), Point::Leaf(l)) => set[*l as usize],
            (Cover::Days(lo, hi), Point::Day(d)) => lo <= d && d <= hi,
            _ => panic!("a label of one QI type against a value of another"),
        }
    }
}

/// A victim's original value of one QI.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Point {
    Number(f64),
    Leaf(u32),
    Day(i64),
}

/// One distinct combination of published labels and every published row
/// carrying it (several groups may print the same labels).
#[derive(Debug, Clone)]
pub struct LabelBox {
    pub labels: Vec<String>,
    pub covers: Vec<Cover>,
    /// Table rows (0-based) published under these labels.
    pub rows: Vec<usize>,
    /// The printed `group_id`s with these labels.
    pub groups: Vec<String>,
}

/// The release as the attacker reads it, plus the victims' true QI points.
#[derive(Debug, Clone)]
pub struct AttackerView {
    pub boxes: Vec<LabelBox>,
    /// `points[row][qi]`: the row's original QI values.
    points: Vec<Vec<Point>>,
}

/// `YYYY-MM-DD` → `y·10000 + m·100 + d`.
fn day_key(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let y: i64 = s[..4].parse().ok()?;
    let m: i64 = s[5..7].parse().ok()?;
    let d: i64 = s[8..].parse().ok()?;
    Some(y * 10_000 + m * 100 + d)
}

/// `[a-b]` → `(a, b)` or a bare value `x` → `(x, x)`; `split` finds the
/// separator inside the brackets.
fn bracketed(s: &str, split: impl Fn(&str) -> Option<usize>) -> Option<(&str, &str)> {
    match s.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        None => Some((s, s)),
        Some(inner) => {
            let at = split(inner)?;
            Some((&inner[..at], &inner[at + 1..]))
        }
    }
}

fn parse_interval(label: &str) -> Cover {
    // A bound may be negative: the separator is the first '-' after the
    // first character of the lower bound.
    let (a, b) = bracketed(label, |inner| inner.get(1..)?.find('-').map(|i| i + 1))
        .unwrap_or_else(|| panic!("numeric label {label:?}"));
    let lo: f64 = a
        .parse()
        .unwrap_or_else(|_| panic!("numeric label {label:?}"));
    let hi: f64 = b
        .parse()
        .unwrap_or_else(|_| panic!("numeric label {label:?}"));
    assert!(lo <= hi, "numeric label {label:?} has lo > hi");
    Cover::Interval(lo, hi)
}

fn parse_days(label: &str) -> Cover {
    // Dates print as 10 characters: the separator is the 11th.
    let (a, b) = bracketed(label, |inner| (inner.len() == 21).then_some(10))
        .unwrap_or_else(|| panic!("date label {label:?}"));
    let lo = day_key(a).unwrap_or_else(|| panic!("date label {label:?}"));
    let hi = day_key(b).unwrap_or_else(|| panic!("date label {label:?}"));
    assert!(lo <= hi, "date label {label:?} has lo > hi");
    Cover::Days(lo, hi)
}

/// Every label of the hierarchy (at any level) → the leaves it covers: the
/// leaf itself and every leaf below a node with that label. A label printed
/// at two levels covers the union (the attacker cannot tell them apart).
fn leaf_sets(h: &Hierarchy) -> HashMap<String, Vec<bool>> {
    let mut sets: HashMap<String, Vec<bool>> = HashMap::new();
    for leaf in 0..h.leaf_count() as u32 {
        for level in 0..=h.height() {
            let label = h.label(level, h.ancestor(leaf, level));
            sets.entry(label.to_string())
                .or_insert_with(|| vec![false; h.leaf_count()])[leaf as usize] = true;
        }
    }
    sets
}

impl AttackerView {
    /// Reads the printed release of `release` over `table`.
    pub fn from_release(table: &Table, release: &Release) -> AttackerView {
        let header = release_header(table, true);
        let col = |name: &str| {
            header
                .iter()
                .position(|h| h == name)
                .unwrap_or_else(|| panic!("release column {name}"))
        };
        let (group_col, row_col) = (col("group_id"), col("row_id"));
        let qi_cols: Vec<usize> = table.qis().iter().map(|q| col(&q.name)).collect();
        let row_of_line: HashMap<u32, usize> = table
            .source_lines()
            .iter()
            .enumerate()
            .map(|(row, &line)| (line, row))
            .collect();
        let sets: Vec<Option<HashMap<String, Vec<bool>>>> = table
            .qis()
            .iter()
            .map(|q| match &q.values {
                QiValues::Categorical { hierarchy, .. } => Some(leaf_sets(hierarchy)),
                _ => None,
            })
            .collect();
        let mut boxes: Vec<LabelBox> = Vec::new();
        let mut index: HashMap<Vec<String>, usize> = HashMap::new();
        let mut last_group = String::new();
        for_each_release_row(table, release, true, |cells| -> Result<(), ()> {
            let labels: Vec<String> = qi_cols.iter().map(|&c| cells[c].to_string()).collect();
            let b = *index.entry(labels.clone()).or_insert_with(|| {
                let covers = labels
                    .iter()
                    .zip(table.qis())
                    .zip(&sets)
                    .map(|((label, q), set)| match &q.values {
                        QiValues::Numeric(_) => parse_interval(label),
                        QiValues::Date(_) => parse_days(label),
                        QiValues::Categorical { .. } => Cover::Leaves(
                            set.as_ref()
                                .expect("categorical")
                                .get(label)
                                .unwrap_or_else(|| {
                                    panic!("label {label:?} is not in the hierarchy of {}", q.name)
                                })
                                .clone(),
                        ),
                    })
                    .collect();
                boxes.push(LabelBox {
                    labels: labels.clone(),
                    covers,
                    rows: Vec::new(),
                    groups: Vec::new(),
                });
                boxes.len() - 1
            });
            let line: u32 = cells[row_col].parse().expect("row_id is a line number");
            boxes[b].rows.push(row_of_line[&line]);
            let group = cells[group_col];
            if group != last_group {
                boxes[b].groups.push(group.to_string());
                last_group = group.to_string();
            }
            Ok(())
        })
        .unwrap();
        let points = (0..table.rows())
            .map(|row| {
                table
                    .qis()
                    .iter()
                    .map(|q| match &q.values {
                        QiValues::Numeric(v) => Point::Number(v[row]),
                        QiValues::Categorical { codes, .. } => Point::Leaf(codes[row]),
                        // The victim knows the date as uploaded.
                        QiValues::Date(_) => Point::Day(
                            day_key(table.text(q.schema_index, row).expect("published"))
                                .expect("an uploaded date"),
                        ),
                    })
                    .collect()
            })
            .collect();
        AttackerView { boxes, points }
    }

    /// The label boxes covering `victim`'s original QI values.
    pub fn covering(&self, victim: usize) -> impl Iterator<Item = &LabelBox> + '_ {
        let point = &self.points[victim];
        self.boxes
            .iter()
            .filter(move |b| b.covers.iter().zip(point).all(|(c, p)| c.covers(p)))
    }

    /// C(v): every published row of every group whose labels cover the
    /// victim, and how many groups those are.
    pub fn candidates(&self, victim: usize) -> (Vec<usize>, usize) {
        let mut rows = Vec::new();
        let mut groups = 0;
        for b in self.covering(victim) {
            rows.extend_from_slice(&b.rows);
            groups += b.groups.len();
        }
        (rows, groups)
    }
}

/// One printed group: its labels and its other published cells (SA and
/// insensitive columns), rows sorted.
pub type PrintedGroup = (Vec<String>, Vec<Vec<String>>);

/// The printed release without row ids, as `(group_id, group)` in release
/// order.
pub fn printed_groups(table: &Table, release: &Release) -> Vec<(String, PrintedGroup)> {
    let header = release_header(table, false);
    let qi_cols: Vec<usize> = table
        .qis()
        .iter()
        .map(|q| header.iter().position(|h| *h == q.name).expect("QI column"))
        .collect();
    let mut out: Vec<(String, PrintedGroup)> = Vec::new();
    for_each_release_row(table, release, false, |cells| -> Result<(), ()> {
        let labels: Vec<String> = qi_cols.iter().map(|&c| cells[c].to_string()).collect();
        let rest: Vec<String> = (1..cells.len())
            .filter(|c| !qi_cols.contains(c))
            .map(|c| cells[c].to_string())
            .collect();
        match out.last_mut() {
            Some((id, (_, rows))) if id == cells[0] => rows.push(rest),
            _ => out.push((cells[0].to_string(), (labels, vec![rest]))),
        }
        Ok(())
    })
    .unwrap();
    for (_, (_, rows)) in &mut out {
        rows.sort();
    }
    out
}
