//! Coarse codes for a column's values, so association and concentration
//! are measured over a handful of categories rather than over thousands of
//! distinct amounts: numeric (and date) columns fall into quantile bins,
//! categorical ones keep their most frequent values and lump the rest.

use std::collections::HashMap;

use crate::table::{format_date, format_number, QiColumn, QiValues, TextColumn};

/// A column coded into at most a few categories.
#[derive(Debug, Clone, PartialEq)]
pub struct Bins {
    /// Per row, the index of its category in `labels`.
    pub codes: Vec<u32>,
    /// What each category holds: a value, `"lo – hi"` for a bin, or
    /// `"(other)"` for the lumped rare values.
    pub labels: Vec<String>,
    /// For numeric bins, the smallest value of each bin (ascending), so a
    /// value outside the table can be placed; empty for categorical.
    lower: Vec<f64>,
    /// The column's values were numbers.
    pub numeric: bool,
}

/// The label of the lumped rare values of a categorical column.
pub const OTHER: &str = "(other)";

impl Bins {
    /// Quantile bins of `values` (at most `max_bins`, each about n/max_bins
    /// rows; equal values always share a bin, so a value covering several
    /// quantiles makes fewer, larger bins). `format` writes a bound.
    pub fn quantiles(values: &[f64], max_bins: usize, format: fn(f64) -> String) -> Bins {
        Bins::quantiles_in_order(values, &ascending(values), max_bins, format)
    }

    /// [`Bins::quantiles`] given the rows in ascending order of `values`
    /// (see [`ascending`]), for a caller that needs that order too.
    pub fn quantiles_in_order(
        values: &[f64],
        order: &[u32],
        max_bins: usize,
        format: fn(f64) -> String,
    ) -> Bins {
        let n = values.len();
        let max_bins = max_bins.max(1);
        let mut codes = vec![0u32; n];
        let mut bounds: Vec<(f64, f64)> = Vec::new();
        let mut last_target = usize::MAX;
        let mut start = 0;
        while start < n {
            let v = values[order[start] as usize];
            let mut end = start;
            while end < n && values[order[end] as usize] == v {
                end += 1;
            }
            let target = start * max_bins / n;
            if target != last_target || bounds.is_empty() {
                bounds.push((v, v));
                last_target = target;
            }
            let bin = bounds.len() - 1;
            bounds[bin].1 = v;
            for &r in &order[start..end] {
                codes[r as usize] = bin as u32;
            }
            start = end;
        }
        Bins {
            codes,
            labels: bounds
                .iter()
                .map(|&(lo, hi)| {
                    if lo == hi {
                        format(lo)
                    } else {
                        format!("{} – {}", format(lo), format(hi))
                    }
                })
                .collect(),
            lower: bounds.iter().map(|b| b.0).collect(),
            numeric: true,
        }
    }

    /// The `max_bins − 1` most frequent values keep their own category
    /// (ties by first appearance), the rest share [`OTHER`].
    pub fn categories<'a>(values: impl Iterator<Item = &'a str>, max_bins: usize) -> Bins {
        let mut index: HashMap<&str, u32> = HashMap::new();
        let mut names: Vec<&str> = Vec::new();
        let raw: Vec<u32> = values
            .map(|v| {
                let next = names.len() as u32;
                let c = *index.entry(v).or_insert(next);
                if c == next {
                    names.push(v);
                }
                c
            })
            .collect();
        Bins::lump(&raw, &names, max_bins)
    }

    /// Categories of codes `0..names.len()` (first appearance need not be
    /// in code order; ties between equally frequent codes go to the one
    /// seen first).
    fn lump(raw: &[u32], names: &[&str], max_bins: usize) -> Bins {
        let mut counts = vec![0usize; names.len()];
        let mut first = vec![u32::MAX; names.len()];
        for (row, &c) in raw.iter().enumerate() {
            counts[c as usize] += 1;
            first[c as usize] = first[c as usize].min(row as u32);
        }
        let present: Vec<u32> = (0..names.len() as u32)
            .filter(|&c| counts[c as usize] > 0)
            .collect();
        let keep = max_bins.max(2) - 1;
        let mut by_count = present.clone();
        by_count.sort_by_key(|&c| (std::cmp::Reverse(counts[c as usize]), first[c as usize]));
        let lumped = present.len() > keep + 1;
        let mut recode = vec![keep as u32; names.len()];
        let mut labels = Vec::new();
        for (new, &old) in by_count.iter().enumerate() {
            if !lumped || new < keep {
                recode[old as usize] = new as u32;
                labels.push(names[old as usize].to_string());
            }
        }
        if lumped {
            labels.push(OTHER.to_string());
        }
        Bins {
            codes: raw.iter().map(|&c| recode[c as usize]).collect(),
            labels,
            lower: Vec::new(),
            numeric: false,
        }
    }

    /// A published text column: numeric bins when every cell is a number,
    /// categories otherwise.
    pub fn of_text(column: &TextColumn, max_bins: usize) -> Bins {
        match numbers(column) {
            Some(v) => Bins::quantiles(&v, max_bins, format_number),
            None => Bins::categories((0..column.len()).map(|r| column.get(r)), max_bins),
        }
    }

    /// A QI column: quantile bins of numbers and dates, categories of the
    /// categorical leaves.
    pub fn of_qi(column: &QiColumn, max_bins: usize) -> Bins {
        match &column.values {
            QiValues::Numeric(v) => Bins::quantiles(v, max_bins, format_number),
            QiValues::Date(d) => {
                let v: Vec<f64> = d.iter().map(|&x| x as f64).collect();
                Bins::quantiles(&v, max_bins, |x| format_date(x as i32))
            }
            QiValues::Categorical { codes, hierarchy } => {
                // Leaf codes are dense: no hashing of labels.
                let names: Vec<&str> = (0..hierarchy.leaf_count() as u32)
                    .map(|c| hierarchy.leaf_label(c))
                    .collect();
                Bins::lump(codes, &names, max_bins)
            }
        }
    }

    /// Number of categories.
    pub fn len(&self) -> usize {
        self.labels.len()
    }
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// The category of a value given as text (e.g. a suppressed row's cell
    /// that is not in the table): its bin for numeric bins, its own label
    /// or [`OTHER`] for categories; `None` when it fits nowhere (not a
    /// number for numeric bins, or an unseen value with nothing lumped).
    pub fn code_of_text(&self, text: &str) -> Option<u32> {
        if self.numeric {
            let x: f64 = text.trim().parse().ok()?;
            let i = self.lower.partition_point(|&lo| lo <= x);
            return Some(i.saturating_sub(1) as u32);
        }
        self.labels
            .iter()
            .position(|l| l == text)
            .or_else(|| self.labels.iter().position(|l| l == OTHER))
            .map(|i| i as u32)
    }
}

/// The rows `0..n` in ascending order of `values` (ties in any order).
pub fn ascending(values: &[f64]) -> Vec<u32> {
    let mut order: Vec<u32> = (0..values.len() as u32).collect();
    order.sort_unstable_by(|&a, &b| values[a as usize].total_cmp(&values[b as usize]));
    order
}

/// The column's values when every cell parses as a finite number.
pub fn numbers(column: &TextColumn) -> Option<Vec<f64>> {
    (0..column.len())
        .map(|r| {
            column
                .get(r)
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantile_bins_keep_equal_values_together() {
        let v = [5.0, 1.0, 2.0, 2.0, 2.0, 3.0, 9.0, 7.0];
        let b = Bins::quantiles(&v, 4, format_number);
        // Sorted: 1 2 2 2 3 5 7 9; quantile starts at ranks 0, 2, 4, 6.
        // 2 starts at rank 1 (bin 0), so bin 0 = {1, 2, 2, 2}; 3 starts at
        // rank 4 (bin 2), 5 at 5 (bin 2), 7 at 6 (bin 3), 9 at 7 (bin 3).
        assert_eq!(b.labels, vec!["1 – 2", "3 – 5", "7 – 9"]);
        assert_eq!(b.codes, vec![1, 0, 0, 0, 0, 1, 2, 2]);
        assert_eq!(b.code_of_text("4"), Some(1));
        assert_eq!(b.code_of_text("-10"), Some(0));
        assert_eq!(b.code_of_text("100"), Some(2));
        assert_eq!(b.code_of_text("x"), None);
    }

    #[test]
    fn categories_lump_rare_values() {
        let v = ["a", "b", "a", "c", "d", "a", "b", "e"];
        let b = Bins::categories(v.iter().copied(), 3);
        assert_eq!(b.labels, vec!["a", "b", OTHER]);
        assert_eq!(b.codes, vec![0, 1, 0, 2, 2, 0, 1, 2]);
        assert_eq!(b.code_of_text("zzz"), Some(2));
        let all = Bins::categories(["x", "y", "x"].into_iter(), 3);
        assert_eq!(all.labels, vec!["x", "y"]);
        assert_eq!(all.code_of_text("zzz"), None);
    }

    #[test]
    fn categorical_qis_bin_by_leaf() {
        use crate::hierarchy::Hierarchy;
        use std::sync::Arc;
        // Leaves a, b, c, d; rows c c a b c a d: c (3), a (2), then b and d
        // (1 each; b seen first) lumped with max 3 categories.
        let h = Arc::new(Hierarchy::flat(["a", "b", "c", "d"]));
        let code = |l: &str| h.leaf_code(l).unwrap();
        let qi = QiColumn {
            name: "q".into(),
            schema_index: 0,
            values: QiValues::Categorical {
                codes: ["c", "c", "a", "b", "c", "a", "d"].map(code).to_vec(),
                hierarchy: h.clone(),
            },
        };
        let b = Bins::of_qi(&qi, 3);
        assert_eq!(b.labels, vec!["c", "a", OTHER]);
        assert_eq!(b.codes, vec![0, 0, 1, 2, 0, 1, 2]);
        let b = Bins::of_qi(&qi, 10);
        assert_eq!(b.labels, vec!["c", "a", "b", "d"]);
    }
}
