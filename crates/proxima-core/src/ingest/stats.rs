//! Per-column figures of a loaded table (API.md `Dataset.columns`).
//!
//! Choices, all over the rows kept in the table (suppressed rows excluded):
//!
//! * `distinct`: for QI and SA columns, the number of distinct typed values
//!   (numbers compare as f64, so `1` and `1.0` are one value; categorical
//!   values count the leaves that occur, not the hierarchy's leaves); for
//!   insensitive columns, the number of distinct cell texts. Identifiers are
//!   not stored, so their `distinct` is 0 and min/max are `None`.
//! * `min`/`max`: numeric and date columns only. Dates are given as days
//!   since 1970-01-01 (format them with [`crate::table::format_date`]).
//!   An insensitive column declared numeric (or date) gets min/max when
//!   every cell that is not a missing token parses; otherwise `None`.
//!   Categorical columns: `None`.
//! * `hierarchy_height`: the height (levels above the leaves) of the
//!   schema's hierarchy for a categorical column that has one; `None`
//!   otherwise, including the flat hierarchy synthesized for a categorical
//!   column without one.

use std::collections::HashSet;

use crate::ingest::load::parse_number;
use crate::schema::{Role, ValueType};
use crate::table::{parse_date, QiValues, SaValues, Table};

#[derive(Debug, Clone, PartialEq)]
pub struct ColumnStats {
    pub name: String,
    pub role: Role,
    pub value_type: Option<ValueType>,
    pub distinct: usize,
    pub min: Option<f64>,
    pub max: Option<f64>,
    pub hierarchy_height: Option<usize>,
}

/// Distinct count, min and max of numeric values (-0 and 0 are one value).
fn numeric_summary(values: impl Iterator<Item = f64>) -> (usize, Option<f64>, Option<f64>) {
    let mut seen = HashSet::new();
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for x in values {
        let x = if x == 0.0 { 0.0 } else { x };
        seen.insert(x.to_bits());
        lo = lo.min(x);
        hi = hi.max(x);
    }
    if seen.is_empty() {
        (0, None, None)
    } else {
        (seen.len(), Some(lo), Some(hi))
    }
}

fn distinct_codes(codes: &[u32], leaf_count: usize) -> usize {
    let mut seen = vec![false; leaf_count];
    let mut n = 0;
    for &c in codes {
        if !std::mem::replace(&mut seen[c as usize], true) {
            n += 1;
        }
    }
    n
}

/// Min/max of an insensitive column's text parsed as `value_type`; `None`
/// when some non-missing cell does not parse or nothing parses.
fn parsed_text_range(table: &Table, index: usize, value_type: ValueType) -> Option<(f64, f64)> {
    let missing = &table.schema().csv().missing;
    let mut range: Option<(f64, f64)> = None;
    for row in 0..table.rows() {
        let cell = table.text(index, row)?;
        if missing.iter().any(|m| m == cell) {
            continue;
        }
        let x = match value_type {
            ValueType::Numeric => parse_number(cell)?,
            ValueType::Date => f64::from(parse_date(cell.trim_matches([' ', '\t']))?),
            ValueType::Categorical => return None,
        };
        range = Some(match range {
            None => (x, x),
            Some((lo, hi)) => (lo.min(x), hi.max(x)),
        });
    }
    range
}

/// The statistics of every schema column, in schema order.
pub fn column_stats(table: &Table) -> Vec<ColumnStats> {
    let schema = table.schema();
    schema
        .columns()
        .iter()
        .enumerate()
        .map(|(i, spec)| {
            let mut s = ColumnStats {
                name: spec.name.clone(),
                role: spec.role,
                value_type: spec.value_type,
                distinct: 0,
                min: None,
                max: None,
                hierarchy_height: spec.hierarchy.as_ref().map(|h| h.height()),
            };
            let qi = table.qis().iter().find(|c| c.schema_index == i);
            let sa = table.sensitive().iter().find(|c| c.schema_index == i);
            let (distinct, min, max) = match (spec.role, qi, sa) {
                (Role::Identifier, _, _) => (0, None, None),
                (_, Some(c), _) => match &c.values {
                    QiValues::Numeric(v) => numeric_summary(v.iter().copied()),
                    QiValues::Date(v) => numeric_summary(v.iter().map(|&d| f64::from(d))),
                    QiValues::Categorical { codes, hierarchy } => {
                        (distinct_codes(codes, hierarchy.leaf_count()), None, None)
                    }
                },
                (_, _, Some(c)) => match &c.values {
                    SaValues::Numeric(v) => numeric_summary(v.iter().copied()),
                    SaValues::Categorical {
                        codes, hierarchy, ..
                    } => (distinct_codes(codes, hierarchy.leaf_count()), None, None),
                },
                _ => {
                    let distinct = (0..table.rows())
                        .filter_map(|r| table.text(i, r))
                        .collect::<HashSet<&str>>()
                        .len();
                    let range = spec.value_type.and_then(|t| parsed_text_range(table, i, t));
                    (distinct, range.map(|r| r.0), range.map(|r| r.1))
                }
            };
            s.distinct = distinct;
            s.min = min;
            s.max = max;
            s
        })
        .collect()
}
