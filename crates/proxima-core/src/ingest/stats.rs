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

use crate::ingest::block::{Block, BlockValues, ColumnKind};
use crate::ingest::load::parse_number;
use crate::schema::{Role, Schema, ValueType};
use crate::table::{parse_date, QiValues, SaValues, Table, TextColumn};

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

/// What one column's figures need so far. Memory: one entry per distinct
/// value (never per row), so statistics gathered block by block stay
/// bounded by the column's distinct values, not by the table's length.
enum Acc {
    /// Identifiers are not stored: nothing to count.
    Identifier,
    /// Numeric and date QI/SA values (dates as day numbers).
    Numbers {
        seen: HashSet<u64>,
        lo: f64,
        hi: f64,
    },
    /// Categorical codes: which occur.
    Codes { seen: Vec<bool>, distinct: usize },
    /// Insensitive columns: distinct texts, and the range of the cells
    /// parsed as the declared type (given up at the first cell that does
    /// not parse).
    Text {
        seen: HashSet<String>,
        parse: Option<ValueType>,
        range: Option<(f64, f64)>,
        unparsable: bool,
    },
}

impl Acc {
    fn number(&mut self, x: f64) {
        if let Acc::Numbers { seen, lo, hi } = self {
            // -0 and 0 are one value.
            let x = if x == 0.0 { 0.0 } else { x };
            seen.insert(x.to_bits());
            *lo = lo.min(x);
            *hi = hi.max(x);
        }
    }

    fn codes(&mut self, codes: &[u32]) {
        if let Acc::Codes { seen, distinct } = self {
            for &c in codes {
                let c = c as usize;
                if c >= seen.len() {
                    seen.resize(c + 1, false);
                }
                if !std::mem::replace(&mut seen[c], true) {
                    *distinct += 1;
                }
            }
        }
    }

    fn texts(&mut self, text: &TextColumn, missing: &[String]) {
        let Acc::Text {
            seen,
            parse,
            range,
            unparsable,
        } = self
        else {
            return;
        };
        for row in 0..text.len() {
            let cell = text.get(row);
            if !seen.contains(cell) {
                seen.insert(cell.to_string());
            }
            let Some(t) = parse else { continue };
            if *unparsable || missing.iter().any(|m| m == cell) {
                continue;
            }
            let x = match t {
                ValueType::Numeric => parse_number(cell),
                ValueType::Date => parse_date(cell.trim_matches([' ', '\t'])).map(f64::from),
                ValueType::Categorical => None,
            };
            match x {
                None => *unparsable = true,
                Some(x) => {
                    *range = Some(match *range {
                        None => (x, x),
                        Some((lo, hi)) => (lo.min(x), hi.max(x)),
                    })
                }
            }
        }
    }

    /// `(distinct, min, max)`.
    fn finish(self) -> (usize, Option<f64>, Option<f64>) {
        match self {
            Acc::Identifier => (0, None, None),
            Acc::Numbers { seen, .. } if seen.is_empty() => (0, None, None),
            Acc::Numbers { seen, lo, hi } => (seen.len(), Some(lo), Some(hi)),
            Acc::Codes { distinct, .. } => (distinct, None, None),
            Acc::Text {
                seen,
                range,
                unparsable,
                ..
            } => {
                let range = range.filter(|_| !unparsable);
                (seen.len(), range.map(|r| r.0), range.map(|r| r.1))
            }
        }
    }
}

/// The statistics of a table gathered as its rows go by (an upload's
/// blocks), so they need not be computed from a whole table in memory.
pub struct StatsBuilder {
    columns: Vec<Acc>,
    missing: Vec<String>,
}

impl StatsBuilder {
    pub fn new(schema: &Schema) -> StatsBuilder {
        let columns = (0..schema.columns().len())
            .map(|i| {
                let spec = &schema.columns()[i];
                match (spec.role, ColumnKind::of(schema, i)) {
                    (Role::Identifier, _) => Acc::Identifier,
                    (_, ColumnKind::Numeric | ColumnKind::Date) => Acc::Numbers {
                        seen: HashSet::new(),
                        lo: f64::INFINITY,
                        hi: f64::NEG_INFINITY,
                    },
                    (_, ColumnKind::Leaves(h)) => Acc::Codes {
                        seen: vec![false; h.leaf_count()],
                        distinct: 0,
                    },
                    (_, ColumnKind::Flat) => Acc::Codes {
                        seen: Vec::new(),
                        distinct: 0,
                    },
                    (_, ColumnKind::Untyped) => Acc::Text {
                        seen: HashSet::new(),
                        parse: spec.value_type,
                        range: None,
                        unparsable: false,
                    },
                }
            })
            .collect();
        StatsBuilder {
            columns,
            missing: schema.csv().missing.clone(),
        }
    }

    /// Counts a block's rows (a block of the schema given to `new`).
    pub fn add(&mut self, block: &Block) {
        for (acc, column) in self.columns.iter_mut().zip(&block.columns) {
            match &column.values {
                BlockValues::Numeric(v) => v.iter().for_each(|&x| acc.number(x)),
                BlockValues::Date(v) => v.iter().for_each(|&d| acc.number(f64::from(d))),
                BlockValues::Codes(c) => acc.codes(c),
                BlockValues::None => {
                    if let Some(t) = &column.text {
                        acc.texts(t, &self.missing);
                    }
                }
            }
        }
    }

    /// Counts a whole table's rows.
    pub fn add_table(&mut self, table: &Table) {
        for c in table.qis() {
            let acc = &mut self.columns[c.schema_index];
            match &c.values {
                QiValues::Numeric(v) => v.iter().for_each(|&x| acc.number(x)),
                QiValues::Date(v) => v.iter().for_each(|&d| acc.number(f64::from(d))),
                QiValues::Categorical { codes, .. } => acc.codes(codes),
            }
        }
        for c in table.sensitive() {
            let acc = &mut self.columns[c.schema_index];
            match &c.values {
                SaValues::Numeric(v) => v.iter().for_each(|&x| acc.number(x)),
                SaValues::Categorical { codes, .. } => acc.codes(codes),
            }
        }
        for (i, acc) in self.columns.iter_mut().enumerate() {
            if let (Acc::Text { .. }, Some(t)) = (&acc, table.text_column(i)) {
                acc.texts(t, &self.missing);
            }
        }
    }

    /// The statistics of every schema column, in schema order.
    pub fn finish(self, schema: &Schema) -> Vec<ColumnStats> {
        schema
            .columns()
            .iter()
            .zip(self.columns)
            .map(|(spec, acc)| {
                let (distinct, min, max) = acc.finish();
                ColumnStats {
                    name: spec.name.clone(),
                    role: spec.role,
                    value_type: spec.value_type,
                    distinct,
                    min,
                    max,
                    hierarchy_height: spec.hierarchy.as_ref().map(|h| h.height()),
                }
            })
            .collect()
    }
}

/// The statistics of every schema column, in schema order.
pub fn column_stats(table: &Table) -> Vec<ColumnStats> {
    let mut stats = StatsBuilder::new(table.schema());
    stats.add_table(table);
    stats.finish(table.schema())
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
