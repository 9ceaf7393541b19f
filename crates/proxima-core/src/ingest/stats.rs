//! Per-column figures of a loaded table (docs/api.md `Dataset.columns`).
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

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::ingest::{load_table, parse_hierarchy_csv};
    use crate::schema::{ColumnSpec, CsvOptions, MissingPolicy, Schema};

    fn col(name: &str, role: Role, t: Option<ValueType>) -> ColumnSpec {
        ColumnSpec {
            name: name.into(),
            role,
            value_type: t,
            hierarchy: None,
        }
    }

    fn stats_of(csv: &str) -> Vec<ColumnStats> {
        let h = parse_hierarchy_csv(b"a;AB;*\nb;AB;*\nc;C;*\n", "letter").unwrap();
        let schema = Schema::new(
            "t".into(),
            CsvOptions {
                delimiter: b',',
                missing: vec!["?".into()],
                allow_line_breaks: false,
            },
            MissingPolicy::Suppress,
            vec![
                col("id", Role::Identifier, None),
                col("x", Role::QuasiIdentifier, Some(ValueType::Numeric)),
                ColumnSpec {
                    hierarchy: Some(Arc::new(h)),
                    ..col(
                        "letter",
                        Role::QuasiIdentifier,
                        Some(ValueType::Categorical),
                    )
                },
                col("town", Role::QuasiIdentifier, Some(ValueType::Categorical)),
                col("day", Role::QuasiIdentifier, Some(ValueType::Date)),
                col("pay", Role::Sensitive, Some(ValueType::Numeric)),
                col("count", Role::Insensitive, Some(ValueType::Numeric)),
                col("free", Role::Insensitive, None),
            ],
        )
        .unwrap();
        let table = load_table(Arc::new(schema), csv.as_bytes()).unwrap();
        column_stats(&table)
    }

    const HEADER: &str = "id,x,letter,town,day,pay,count,free\n";

    #[test]
    fn distinct_min_max_and_heights_per_column_kind() {
        let s = stats_of(&format!(
            "{HEADER}\
             1,0,a,Lyon,1970-01-02,10,5,u\n\
             2,-0,b,Nice,1970-01-01,-2.5,?,u\n\
             3,1.0,a,Lyon,1970-01-11,10,12,v\n\
             4,1,b,Lyon,1970-01-02,7,3,w\n\
             5,?,c,Rome,1969-12-31,1000,99,z\n"
        ));
        let names: Vec<&str> = s.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            names,
            ["id", "x", "letter", "town", "day", "pay", "count", "free"]
        );
        let by = |n: &str| s.iter().find(|c| c.name == n).unwrap();
        // Identifiers are not stored.
        assert_eq!(
            (by("id").distinct, by("id").min, by("id").max),
            (0, None, None)
        );
        assert_eq!(by("id").role, Role::Identifier);
        // 0 and -0, 1.0 and 1 are one value each; the suppressed row 5 is out.
        assert_eq!(by("x").distinct, 2);
        assert_eq!((by("x").min, by("x").max), (Some(0.0), Some(1.0)));
        // Occurring leaves (a, b), not the hierarchy's 3; its height is 2.
        assert_eq!(by("letter").distinct, 2);
        assert_eq!(by("letter").hierarchy_height, Some(2));
        assert_eq!((by("letter").min, by("letter").max), (None, None));
        // No schema hierarchy: no height even though a flat one is used.
        assert_eq!(
            (by("town").distinct, by("town").hierarchy_height),
            (2, None)
        );
        // Dates as days since 1970-01-01.
        assert_eq!(by("day").distinct, 3);
        assert_eq!((by("day").min, by("day").max), (Some(0.0), Some(10.0)));
        assert_eq!(by("pay").value_type, Some(ValueType::Numeric));
        assert_eq!((by("pay").distinct, by("pay").min), (3, Some(-2.5)));
        // Insensitive: distinct texts ('?' counts); a declared numeric type
        // gives min/max over the non-missing cells.
        assert_eq!(by("count").distinct, 4);
        assert_eq!((by("count").min, by("count").max), (Some(3.0), Some(12.0)));
        assert_eq!((by("free").distinct, by("free").min), (3, None));
    }

    #[test]
    fn unparsable_insensitive_numbers_give_no_range() {
        let s = stats_of(&format!(
            "{HEADER}1,0,a,Lyon,1970-01-02,10,5,u\n2,0,a,Lyon,1970-01-02,10,many,u\n"
        ));
        let count = s.iter().find(|c| c.name == "count").unwrap();
        assert_eq!((count.distinct, count.min, count.max), (2, None, None));
    }
}
