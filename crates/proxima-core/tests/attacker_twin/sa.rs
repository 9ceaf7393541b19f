//! SA distances from docs/design.md §3, written out for the twin: absolute |x−y|;
//! relative neighbourhood [s(1−ε), s(1+ε)]; categorical equal (0/1) or
//! hierarchical (LCA level / height); weighted L1 / L2 / L∞ over components
//! normalised to [0, 1] (numeric |a−b| / (max − min) of the column, 0 when
//! the column is constant; categorical as above, hierarchical when the
//! column has a hierarchy).

use proxima_core::table::{SaValues, Table};
use proxima_core::Hierarchy;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Norm {
    L1,
    L2,
    LInf,
}

/// The metric of a dissimilarity check.
#[derive(Debug, Clone, PartialEq)]
pub enum TwinMetric {
    /// |x − y| on the one numeric SA column.
    Absolute,
    /// 0/1 on the one categorical SA column.
    Equal,
    /// LCA level / height on the one categorical SA column.
    Hierarchical,
    /// Weighted L_p; `weights[i]` for the table's i-th SA column.
    Lp { norm: Norm, weights: Vec<f64> },
}

impl TwinMetric {
    /// The SA's default metric (docs/api.md): absolute for one numeric column,
    /// hierarchical / equal for one categorical column with / without a
    /// hierarchy, equal-weight L1 for several columns.
    pub fn default_for(table: &Table) -> TwinMetric {
        match table.sensitive() {
            [one] => match &one.values {
                SaValues::Numeric(_) => TwinMetric::Absolute,
                SaValues::Categorical {
                    has_hierarchy: true,
                    ..
                } => TwinMetric::Hierarchical,
                SaValues::Categorical { .. } => TwinMetric::Equal,
            },
            many => TwinMetric::Lp {
                norm: Norm::L1,
                weights: vec![1.0 / many.len() as f64; many.len()],
            },
        }
    }
}

/// The level at which two leaves meet, walking up their ancestors.
pub fn meet_level(h: &Hierarchy, a: u32, b: u32) -> usize {
    (0..=h.height())
        .find(|&level| h.ancestor(a, level) == h.ancestor(b, level))
        .expect("every leaf shares the root")
}

fn categorical(h: &Hierarchy, a: u32, b: u32, hierarchical: bool) -> f64 {
    match (a == b, hierarchical) {
        (true, _) => 0.0,
        (false, false) => 1.0,
        (false, true) => meet_level(h, a, b) as f64 / h.height() as f64,
    }
}

/// An SA space: the metric with each numeric column's range (max − min).
#[derive(Debug, Clone)]
pub struct SaSpace<'t> {
    table: &'t Table,
    metric: TwinMetric,
    ranges: Vec<f64>,
}

impl<'t> SaSpace<'t> {
    pub fn new(table: &'t Table, metric: TwinMetric) -> SaSpace<'t> {
        let ranges = table
            .sensitive()
            .iter()
            .map(|c| match &c.values {
                SaValues::Numeric(v) => {
                    let lo = v.iter().cloned().fold(f64::INFINITY, f64::min);
                    let hi = v.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
                    hi - lo
                }
                SaValues::Categorical { .. } => 0.0,
            })
            .collect();
        SaSpace {
            table,
            metric,
            ranges,
        }
    }

    /// Δ(i, j) between two rows' SA values.
    pub fn distance(&self, i: usize, j: usize) -> f64 {
        let sa = self.table.sensitive();
        let (norm, weights) = match &self.metric {
            TwinMetric::Absolute => {
                let v = sa[0].numeric().expect("absolute needs a numeric SA");
                return (v[i] - v[j]).abs();
            }
            TwinMetric::Equal | TwinMetric::Hierarchical => {
                let SaValues::Categorical {
                    codes, hierarchy, ..
                } = &sa[0].values
                else {
                    panic!("equal/hierarchical need a categorical SA")
                };
                let hierarchical = self.metric == TwinMetric::Hierarchical;
                return categorical(hierarchy, codes[i], codes[j], hierarchical);
            }
            TwinMetric::Lp { norm, weights } => (norm, weights),
        };
        let parts = sa
            .iter()
            .zip(weights)
            .zip(&self.ranges)
            .map(|((column, &w), &range)| {
                let d = match &column.values {
                    SaValues::Numeric(v) if range > 0.0 => (v[i] - v[j]).abs() / range,
                    SaValues::Numeric(_) => 0.0,
                    SaValues::Categorical {
                        codes,
                        hierarchy,
                        has_hierarchy,
                    } => categorical(hierarchy, codes[i], codes[j], *has_hierarchy),
                };
                (w, d)
            });
        match norm {
            Norm::L1 => parts.map(|(w, d)| w * d).sum(),
            Norm::L2 => parts.map(|(w, d)| w * d * d).sum::<f64>().sqrt(),
            Norm::LInf => parts
                .filter(|(w, _)| *w > 0.0)
                .map(|(_, d)| d)
                .fold(0.0, f64::max),
        }
    }
}
