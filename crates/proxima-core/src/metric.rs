//! Sensitive-attribute distance metrics (docs/design.md §3).
//!
//! [`MetricSpec`] is what a job asks for; [`SensitiveSpace::new`] checks it
//! against the table's SA columns and precomputes what the distance needs.
//! `distance` is the single source of truth: fast paths must reproduce its
//! arithmetic exactly (see [`crate::neighborhood`]).
//!
//! Weighted L_p over components normalized to [0, 1] (weights sum to 1):
//! L1 = Σ wᵢdᵢ, L2 = √(Σ wᵢdᵢ²), L∞ = max over components with wᵢ > 0 of dᵢ.
//! Numeric components: |a−b| / range (range 0 → distance 0); categorical:
//! equal (0/1), or hierarchical (LCA level / height) when the column has a
//! hierarchy.

use std::sync::Arc;

use crate::error::{CoreError, CoreResult, Field};
use crate::hierarchy::Hierarchy;
use crate::neighborhood::{in_closed_interval, relative_interval, within};
use crate::table::{SaColumn, SaValues, Table};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LpNorm {
    L1,
    L2,
    LInf,
}

/// The metric a job names (docs/api.md `sensitive_metric`).
#[derive(Debug, Clone, PartialEq)]
pub enum MetricSpec {
    /// |x − y| on one numeric column, in the column's units.
    Absolute,
    /// y ∈ [x(1−ε), x(1+ε)] on one numeric column with every value > 0.
    Relative,
    /// 0/1 on one categorical column.
    Equal,
    /// LCA level / height on one categorical column with a hierarchy.
    Hierarchical,
    /// Weighted L_p over every SA column; `weights` by column name (empty:
    /// equal weights). Weights must be ≥ 0 and sum to 1.
    Lp {
        p: LpNorm,
        weights: Vec<(String, f64)>,
    },
    /// ½ Σ |pᵢ − qᵢ| over SA columns that each hold one probability.
    Variational,
}

impl MetricSpec {
    /// The default metric for a table's SA columns (docs/api.md §Jobs).
    pub fn default_for(table: &Table) -> CoreResult<MetricSpec> {
        match table.sensitive() {
            [] => Err(no_sensitive()),
            [one] => Ok(match &one.values {
                SaValues::Numeric(_) => MetricSpec::Absolute,
                SaValues::Categorical {
                    has_hierarchy: true,
                    ..
                } => MetricSpec::Hierarchical,
                SaValues::Categorical { .. } => MetricSpec::Equal,
            }),
            _ => Ok(MetricSpec::Lp {
                p: LpNorm::L1,
                weights: Vec::new(),
            }),
        }
    }

    pub fn kind_name(&self) -> &'static str {
        match self {
            MetricSpec::Absolute => "absolute",
            MetricSpec::Relative => "relative",
            MetricSpec::Equal => "equal",
            MetricSpec::Hierarchical => "hierarchical",
            MetricSpec::Lp { .. } => "lp",
            MetricSpec::Variational => "variational",
        }
    }
}

fn no_sensitive() -> CoreError {
    CoreError::invalid_parameters(
        Field::SensitiveMetric,
        "the dataset has no sensitive column; this model needs one",
    )
}

fn metric_error(message: String) -> CoreError {
    CoreError::invalid_parameters(Field::SensitiveMetric, message)
}

/// One normalized component of a composite SA.
#[derive(Debug, Clone)]
pub enum Component {
    /// d = |a − b| / range (0 when range = 0).
    Numeric { values: Vec<f64>, range: f64 },
    /// d = 0/1, or LCA level / height when `hierarchical`.
    Categorical {
        codes: Vec<u32>,
        hierarchy: Arc<Hierarchy>,
        hierarchical: bool,
    },
}

impl Component {
    #[inline]
    fn distance(&self, i: usize, j: usize) -> f64 {
        match self {
            Component::Numeric { values, range } => {
                if *range > 0.0 {
                    (values[i] - values[j]).abs() / range
                } else {
                    0.0
                }
            }
            Component::Categorical {
                codes,
                hierarchy,
                hierarchical,
            } => categorical_distance(codes[i], codes[j], hierarchy, *hierarchical),
        }
    }
}

#[inline]
fn categorical_distance(a: u32, b: u32, h: &Hierarchy, hierarchical: bool) -> f64 {
    if a == b {
        0.0
    } else if hierarchical {
        h.lca_level(a, b) as f64 / h.height() as f64
    } else {
        1.0
    }
}

/// The resolved SA space; the variants let fast paths specialize.
#[derive(Debug, Clone)]
pub enum SpaceKind {
    /// One numeric column: d = |x − y| / divisor (divisor 1 for `absolute`,
    /// the column's range for `lp` on one numeric column; a zero range gives
    /// divisor 1, every distance then being 0).
    Scalar { values: Vec<f64>, divisor: f64 },
    /// One numeric column, every value > 0; asymmetric neighbourhoods
    /// (y ∈ I(x) iff x(1−ε) ≤ y ≤ x(1+ε)). `distance` is |x−y|/x.
    Relative { values: Vec<f64> },
    /// One categorical column.
    Categorical {
        codes: Vec<u32>,
        hierarchy: Arc<Hierarchy>,
        hierarchical: bool,
    },
    /// Weighted L_p over normalized components (weights sum to 1).
    Lp {
        p: LpNorm,
        components: Vec<Component>,
        weights: Vec<f64>,
    },
    /// Row-major probability vectors of length `dims`.
    Variational { dims: usize, probs: Vec<f64> },
}

#[derive(Debug, Clone)]
pub struct SensitiveSpace {
    n: usize,
    kind: SpaceKind,
    spec: MetricSpec,
}

/// The values of the one numeric SA column `spec` needs.
fn single_numeric(sa: &[SaColumn], spec: &MetricSpec) -> CoreResult<Vec<f64>> {
    match sa {
        [one] => one.numeric().map(<[f64]>::to_vec).ok_or_else(|| {
            metric_error(format!(
                "'{}' needs one numeric sensitive column; '{}' is categorical",
                spec.kind_name(),
                one.name
            ))
        }),
        _ => Err(metric_error(format!(
            "'{}' needs exactly one sensitive column, the dataset has {}; use 'lp'",
            spec.kind_name(),
            sa.len()
        ))),
    }
}

/// `relative`: one numeric column whose values are all > 0 (|x−y| ≤ ε·x
/// is meaningless otherwise); the first offending row is named.
fn relative_space(table: &Table, spec: &MetricSpec) -> CoreResult<SpaceKind> {
    let sa = table.sensitive();
    let values = single_numeric(sa, spec)?;
    if let Some((row, v)) = values.iter().enumerate().find(|(_, v)| **v <= 0.0) {
        return Err(metric_error(format!(
            "'relative' needs every value of '{}' to be > 0; data line {} has {}",
            sa[0].name,
            table.source_lines()[row],
            v
        ))
        .with_detail("line", table.source_lines()[row])
        .with_detail("value", *v));
    }
    Ok(SpaceKind::Relative { values })
}

/// `equal` or `hierarchical`: one categorical column (with a hierarchy for
/// `hierarchical`).
fn categorical_space(sa: &[SaColumn], spec: &MetricSpec) -> CoreResult<SpaceKind> {
    let [one] = sa else {
        return Err(metric_error(format!(
            "'{}' needs exactly one sensitive column, the dataset has {}; use 'lp'",
            spec.kind_name(),
            sa.len()
        )));
    };
    match &one.values {
        SaValues::Categorical {
            codes,
            hierarchy,
            has_hierarchy,
        } => {
            let hierarchical = *spec == MetricSpec::Hierarchical;
            if hierarchical && !has_hierarchy {
                return Err(metric_error(format!(
                    "'hierarchical' needs a hierarchy for '{}'; the schema gives none",
                    one.name
                )));
            }
            Ok(SpaceKind::Categorical {
                codes: codes.clone(),
                hierarchy: hierarchy.clone(),
                hierarchical,
            })
        }
        SaValues::Numeric(_) => Err(metric_error(format!(
            "'{}' needs a categorical sensitive column; '{}' is numeric",
            spec.kind_name(),
            one.name
        ))),
    }
}

/// Weighted `lp` over every SA column, each component normalized to [0, 1].
fn lp_space(table: &Table, p: LpNorm, weights: &[(String, f64)]) -> CoreResult<SpaceKind> {
    let w = resolve_weights(table, weights)?;
    let components: Vec<Component> = table
        .sensitive()
        .iter()
        .map(|c| match &c.values {
            SaValues::Numeric(v) => {
                let (lo, hi) = min_max(v);
                Component::Numeric {
                    values: v.clone(),
                    range: hi - lo,
                }
            }
            SaValues::Categorical {
                codes,
                hierarchy,
                has_hierarchy,
            } => Component::Categorical {
                codes: codes.clone(),
                hierarchy: hierarchy.clone(),
                hierarchical: *has_hierarchy,
            },
        })
        .collect();
    // One numeric component with weight 1 is a scalar space: same distance
    // for every p, and the fast 1-D paths apply.
    Ok(match (components.as_slice(), w.as_slice()) {
        ([Component::Numeric { values, range }], [_]) => SpaceKind::Scalar {
            values: values.clone(),
            divisor: if *range > 0.0 { *range } else { 1.0 },
        },
        _ => SpaceKind::Lp {
            p,
            components,
            weights: w,
        },
    })
}

/// `variational`: two or more numeric columns holding one probability
/// distribution per row (each in [0, 1], summing to 1).
fn variational_space(table: &Table) -> CoreResult<SpaceKind> {
    let sa = table.sensitive();
    if sa.len() < 2 {
        return Err(metric_error(
            "'variational' needs at least two sensitive columns holding one probability each"
                .into(),
        ));
    }
    let (n, dims) = (table.rows(), sa.len());
    let mut probs = vec![0.0; n * dims];
    for (d, c) in sa.iter().enumerate() {
        let v = c.numeric().ok_or_else(|| {
            metric_error(format!(
                "'variational' needs numeric probability columns; '{}' is categorical",
                c.name
            ))
        })?;
        for (row, &x) in v.iter().enumerate() {
            if !(0.0..=1.0).contains(&x) {
                return Err(metric_error(format!(
                    "'variational' needs probabilities in [0, 1]; '{}' on data line {} is {}",
                    c.name,
                    table.source_lines()[row],
                    x
                )));
            }
            probs[row * dims + d] = x;
        }
    }
    for row in 0..n {
        let s: f64 = probs[row * dims..(row + 1) * dims].iter().sum();
        if (s - 1.0).abs() > 1e-6 {
            return Err(metric_error(format!(
                "'variational' needs each row's probabilities to sum to 1; data line {} sums to {}",
                table.source_lines()[row],
                s
            )));
        }
    }
    Ok(SpaceKind::Variational { dims, probs })
}

impl SensitiveSpace {
    /// Resolves `spec` on the table's SA columns. Errors (kind
    /// `invalid_parameters`, pointer `/sensitive_metric…`) when the metric
    /// does not fit the columns: `relative` on a value ≤ 0 names the row's
    /// upload line and value; weights that name an unknown column, are
    /// negative or do not sum to 1; `variational` columns that are not
    /// probabilities summing to 1.
    pub fn new(table: &Table, spec: &MetricSpec) -> CoreResult<SensitiveSpace> {
        let sa = table.sensitive();
        if sa.is_empty() {
            return Err(no_sensitive());
        }
        let kind = match spec {
            MetricSpec::Absolute => SpaceKind::Scalar {
                values: single_numeric(sa, spec)?,
                divisor: 1.0,
            },
            MetricSpec::Relative => relative_space(table, spec)?,
            MetricSpec::Equal | MetricSpec::Hierarchical => categorical_space(sa, spec)?,
            MetricSpec::Lp { p, weights } => lp_space(table, *p, weights)?,
            MetricSpec::Variational => variational_space(table)?,
        };
        Ok(SensitiveSpace {
            n: table.rows(),
            kind,
            spec: spec.clone(),
        })
    }

    pub fn rows(&self) -> usize {
        self.n
    }

    pub fn kind(&self) -> &SpaceKind {
        &self.kind
    }

    pub fn spec(&self) -> &MetricSpec {
        &self.spec
    }

    /// The distance between rows i and j. For `relative` this is |x−y|/x
    /// (asymmetric); use [`SensitiveSpace::is_neighbor`] for membership.
    #[inline]
    pub fn distance(&self, i: u32, j: u32) -> f64 {
        let (i, j) = (i as usize, j as usize);
        match &self.kind {
            SpaceKind::Scalar { values, divisor } => {
                scalar_distance(values[i], values[j], *divisor)
            }
            SpaceKind::Relative { values } => (values[i] - values[j]).abs() / values[i],
            SpaceKind::Categorical {
                codes,
                hierarchy,
                hierarchical,
            } => categorical_distance(codes[i], codes[j], hierarchy, *hierarchical),
            SpaceKind::Lp {
                p,
                components,
                weights,
            } => match p {
                LpNorm::L1 => components
                    .iter()
                    .zip(weights)
                    .map(|(c, w)| w * c.distance(i, j))
                    .sum(),
                LpNorm::L2 => components
                    .iter()
                    .zip(weights)
                    .map(|(c, w)| {
                        let d = c.distance(i, j);
                        w * d * d
                    })
                    .sum::<f64>()
                    .sqrt(),
                LpNorm::LInf => components
                    .iter()
                    .zip(weights)
                    .filter(|(_, w)| **w > 0.0)
                    .map(|(c, _)| c.distance(i, j))
                    .fold(0.0, f64::max),
            },
            SpaceKind::Variational { dims, probs } => {
                let (a, b) = (
                    &probs[i * dims..(i + 1) * dims],
                    &probs[j * dims..(j + 1) * dims],
                );
                0.5 * a.iter().zip(b).map(|(x, y)| (x - y).abs()).sum::<f64>()
            }
        }
    }

    /// True when row `other`'s SA value lies in the closed ε-neighbourhood
    /// of row `center`'s. Symmetric for every kind but `Relative`.
    #[inline]
    pub fn is_neighbor(&self, center: u32, other: u32, epsilon: f64) -> bool {
        match &self.kind {
            SpaceKind::Relative { values } => {
                let (lo, hi) = relative_interval(values[center as usize], epsilon);
                in_closed_interval(values[other as usize], lo, hi)
            }
            _ => within(self.distance(center, other), epsilon),
        }
    }
}

/// The scalar space's distance, exposed so sorted sweeps use the very same
/// arithmetic as [`SensitiveSpace::distance`].
#[inline]
pub fn scalar_distance(x: f64, y: f64, divisor: f64) -> f64 {
    (x - y).abs() / divisor
}

fn min_max(v: &[f64]) -> (f64, f64) {
    v.iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
            (lo.min(x), hi.max(x))
        })
}

fn resolve_weights(table: &Table, weights: &[(String, f64)]) -> CoreResult<Vec<f64>> {
    let sa = table.sensitive();
    if weights.is_empty() {
        return Ok(vec![1.0 / sa.len() as f64; sa.len()]);
    }
    let mut w = vec![0.0; sa.len()];
    let mut given = vec![false; sa.len()];
    for (name, value) in weights {
        let Some(pos) = sa.iter().position(|c| &c.name == name) else {
            return Err(CoreError::new(
                crate::error::ErrorKind::UnknownColumn,
                format!("the weight names '{name}', which is not a sensitive column"),
            )
            .with_error(
                Field::MetricWeight(name.to_string()),
                "not a sensitive column",
            ));
        };
        if !value.is_finite() || *value < 0.0 {
            return Err(CoreError::invalid_parameters(
                Field::MetricWeight(name.to_string()),
                format!("weights must be ≥ 0, got {value}"),
            ));
        }
        w[pos] = *value;
        given[pos] = true;
    }
    if let Some(missing) = given.iter().position(|g| !g) {
        return Err(CoreError::invalid_parameters(
            Field::MetricWeights,
            format!(
                "the weights must name every sensitive column; '{}' has none",
                sa[missing].name
            ),
        ));
    }
    let sum: f64 = w.iter().sum();
    if (sum - 1.0).abs() > 1e-9 {
        return Err(CoreError::invalid_parameters(
            Field::MetricWeights,
            format!("the weights must sum to 1, they sum to {sum}"),
        ));
    }
    Ok(w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::QiValues;

    fn table(sa: Vec<(String, SaValues)>) -> Table {
        let n = match &sa[0].1 {
            SaValues::Numeric(v) => v.len(),
            SaValues::Categorical { codes, .. } => codes.len(),
        };
        Table::from_columns(
            vec![(
                "q".into(),
                QiValues::Numeric((0..n).map(|i| i as f64).collect()),
            )],
            sa,
        )
    }

    #[test]
    fn absolute_and_relative() {
        let t = table(vec![(
            "s".into(),
            SaValues::Numeric(vec![1000.0, 1100.0, 900.0, 1200.0]),
        )]);
        let abs = SensitiveSpace::new(&t, &MetricSpec::Absolute).unwrap();
        assert_eq!(abs.distance(0, 1), 100.0);
        assert!(abs.is_neighbor(0, 1, 100.0));
        assert!(!abs.is_neighbor(0, 3, 100.0));
        let rel = SensitiveSpace::new(&t, &MetricSpec::Relative).unwrap();
        assert!(rel.is_neighbor(0, 1, 0.1));
        assert!(rel.is_neighbor(0, 2, 0.1));
        // Asymmetric: 1000 ∉ [990, 1210] is false… 1000 ∈ I(1100)=[990,1210].
        assert!(rel.is_neighbor(1, 0, 0.1));
        assert!(!rel.is_neighbor(2, 3, 0.1));

        let neg = table(vec![("s".into(), SaValues::Numeric(vec![3.0, 0.0]))]);
        let err = SensitiveSpace::new(&neg, &MetricSpec::Relative).unwrap_err();
        assert!(err.message.contains("data line 2"), "{}", err.message);
    }

    #[test]
    fn lp_normalizes_and_weights() {
        let h = Arc::new(Hierarchy::flat(["a", "b"]));
        let t = table(vec![
            ("x".into(), SaValues::Numeric(vec![0.0, 10.0, 5.0])),
            (
                "c".into(),
                SaValues::Categorical {
                    codes: vec![0, 1, 0],
                    hierarchy: h,
                    has_hierarchy: false,
                },
            ),
        ]);
        let spec = MetricSpec::Lp {
            p: LpNorm::L1,
            weights: vec![("x".into(), 0.25), ("c".into(), 0.75)],
        };
        let s = SensitiveSpace::new(&t, &spec).unwrap();
        assert!((s.distance(0, 1) - 1.0).abs() < 1e-12);
        assert!((s.distance(0, 2) - 0.125).abs() < 1e-12);
        let inf = SensitiveSpace::new(
            &t,
            &MetricSpec::Lp {
                p: LpNorm::LInf,
                weights: vec![],
            },
        )
        .unwrap();
        assert_eq!(inf.distance(0, 2), 0.5);
        let bad = MetricSpec::Lp {
            p: LpNorm::L1,
            weights: vec![("x".into(), 0.5), ("c".into(), 0.6)],
        };
        assert!(SensitiveSpace::new(&t, &bad)
            .unwrap_err()
            .message
            .contains("sum to 1"));
        let unknown = MetricSpec::Lp {
            p: LpNorm::L1,
            weights: vec![("zz".into(), 1.0)],
        };
        assert_eq!(
            SensitiveSpace::new(&t, &unknown).unwrap_err().kind,
            crate::ErrorKind::UnknownColumn
        );
    }

    #[test]
    fn single_numeric_lp_is_scalar_over_range() {
        let t = table(vec![(
            "x".into(),
            SaValues::Numeric(vec![0.0, 50.0, 100.0]),
        )]);
        let s = SensitiveSpace::new(
            &t,
            &MetricSpec::Lp {
                p: LpNorm::L2,
                weights: vec![],
            },
        )
        .unwrap();
        assert!(matches!(s.kind(), SpaceKind::Scalar { divisor, .. } if *divisor == 100.0));
        assert_eq!(s.distance(0, 1), 0.5);
    }

    #[test]
    fn variational_distance() {
        let t = table(vec![
            ("p1".into(), SaValues::Numeric(vec![0.7, 0.1])),
            ("p2".into(), SaValues::Numeric(vec![0.2, 0.1])),
            ("p3".into(), SaValues::Numeric(vec![0.1, 0.8])),
        ]);
        let s = SensitiveSpace::new(&t, &MetricSpec::Variational).unwrap();
        assert!((s.distance(0, 1) - 0.7).abs() < 1e-12);
        let bad = table(vec![
            ("p1".into(), SaValues::Numeric(vec![0.7])),
            ("p2".into(), SaValues::Numeric(vec![0.7])),
        ]);
        assert!(SensitiveSpace::new(&bad, &MetricSpec::Variational).is_err());
    }

    #[test]
    fn hierarchical_needs_a_hierarchy() {
        let h = Arc::new(
            Hierarchy::from_paths(&[
                vec!["flu".into(), "respiratory".into(), "*".into()],
                vec!["cold".into(), "respiratory".into(), "*".into()],
                vec!["ulcer".into(), "digestive".into(), "*".into()],
            ])
            .unwrap(),
        );
        let mk = |has| {
            table(vec![(
                "d".into(),
                SaValues::Categorical {
                    codes: vec![0, 1, 2],
                    hierarchy: h.clone(),
                    has_hierarchy: has,
                },
            )])
        };
        let s = SensitiveSpace::new(&mk(true), &MetricSpec::Hierarchical).unwrap();
        assert_eq!(s.distance(0, 1), 0.5);
        assert_eq!(s.distance(0, 2), 1.0);
        assert!(SensitiveSpace::new(&mk(false), &MetricSpec::Hierarchical).is_err());
        let e = SensitiveSpace::new(&mk(false), &MetricSpec::Equal).unwrap();
        assert_eq!(e.distance(0, 1), 1.0);
    }
}
