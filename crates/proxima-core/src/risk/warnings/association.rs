//! Warning: an insensitive column strongly associated with the SA.
//!
//! An insensitive column is published as is. If it predicts the SA, the
//! SA's protection (its diversity or spread inside each group) is undone
//! by reading that column: creditcard's `BILL_AMT2` published raw beside
//! `BILL_AMT1` as the SA explains 84% of the SA's variance and narrows
//! its plausible range by 84% for the median record.
//!
//! The column is coded into at most [`ASSOCIATION_BINS`] categories of at
//! least [`RECORDS_PER_BIN`] records on average (quantile bins of a
//! numeric column, its most frequent values otherwise; see
//! [`super::bins`]), then:
//! * **numeric SA**: the correlation ratio η, with η² = Σ_b n_b(ȳ_b − ȳ)² /
//!   Σ_i (y_i − ȳ)² the share of the SA's variance explained by knowing the
//!   column's category (Pearson 1903; Fisher's ANOVA decomposition). For
//!   the officer: the SA's plausible range, its central 90% interval
//!   [q₀.₀₅, q₀.₉₅], over the whole table beside its typical width among
//!   records sharing the column's category (the median over records of
//!   their category's interval width); `range_narrowing` = 1 − typical /
//!   overall. When the column is numeric too, Spearman's rank correlation
//!   ρ (ties get average ranks) is given.
//! * **categorical SA**: Cramér's V = √(χ² / (n·(min(r, c) − 1))) over the
//!   category × SA-value table (Cramér 1946), and Theil's uncertainty
//!   coefficient U = (H(SA) − H(SA | column)) / H(SA), the share of the
//!   SA's entropy removed. For the officer: the chance of guessing a
//!   record's SA value with the most common value, without the column
//!   (max_v p(v)) and knowing its category (Σ_b max_v n_bv / n).
//!
//! `strength` is η (numeric SA) or V (categorical SA), both in [0, 1] and
//! on Cohen's (1988) effect-size scale, where 0.5 is "large"; the warning
//! fires at [`ASSOCIATION_WARNING`].

use crate::schema::Role;
use crate::table::{SaColumn, SaValues, Table, TextColumn};

use super::bins::{ascending, numbers, Bins};

/// The most categories a column is coded into: enough to follow a smooth
/// relation closely (20 quantile bins of a column ≈ its value to within
/// 5% of the records).
pub const ASSOCIATION_BINS: usize = 20;

/// Records per category at least (fewer categories on small tables): the
/// η² of an independent column is about (bins − 1)/(n − 1), so with 50
/// records a category chance alone stays near 0.02 (η ≈ 0.14), far below
/// the warning.
pub const RECORDS_PER_BIN: usize = 50;

/// The categories used for a table of `n` records.
pub fn association_bins(n: usize) -> usize {
    (n / RECORDS_PER_BIN).clamp(2, ASSOCIATION_BINS)
}

/// Warn at strength ≥ 0.5: Cohen's "large" effect for a correlation and
/// for Cramér's V, i.e. the column explains at least a quarter of the
/// SA's variance.
pub const ASSOCIATION_WARNING: f64 = 0.5;

/// How much one insensitive column tells about one SA column.
#[derive(Debug, Clone, PartialEq)]
pub struct SaAssociation {
    pub column: String,
    pub sa: String,
    /// True when the column's cells are all numbers (then binned).
    pub column_numeric: bool,
    /// Categories the column was coded into.
    pub column_bins: usize,
    /// η (numeric SA) or Cramér's V (categorical SA), in [0, 1].
    pub strength: f64,
    pub figures: AssociationFigures,
}

/// The figures behind [`SaAssociation::strength`].
#[derive(Debug, Clone, PartialEq)]
pub enum AssociationFigures {
    NumericSa {
        /// η² = share of the SA's variance explained by the column.
        variance_explained: f64,
        /// Spearman's ρ, when the column is numeric.
        spearman: Option<f64>,
        /// The SA's central 90% interval over the table.
        sa_range: (f64, f64),
        /// The median over records of that interval's width among the
        /// records sharing their category of the column.
        typical_range_width: f64,
        /// 1 − typical width / overall width (0 when the SA is constant).
        range_narrowing: f64,
    },
    CategoricalSa {
        cramers_v: f64,
        /// Share of the SA's entropy removed by knowing the column.
        uncertainty_coefficient: f64,
        /// P(right) guessing the most common SA value.
        guess_before: f64,
        /// P(right) guessing the most common SA value of the column's
        /// category.
        guess_after: f64,
    },
}

impl SaAssociation {
    /// True when the association is strong enough to warn about.
    pub fn fires(&self) -> bool {
        self.strength >= ASSOCIATION_WARNING
    }

    /// Who shares a record's knowledge of the column, in words.
    fn peers(&self) -> String {
        if self.column_numeric {
            format!(
                "whose '{}' lies in the same of its {} quantile bins",
                self.column, self.column_bins
            )
        } else {
            format!("with the same '{}'", self.column)
        }
    }

    /// One or two sentences for the report.
    pub fn message(&self) -> String {
        match &self.figures {
            AssociationFigures::NumericSa {
                variance_explained,
                spearman,
                sa_range,
                typical_range_width,
                range_narrowing,
            } => {
                let rho = spearman
                    .map(|r| format!(" (rank correlation {r:.2})"))
                    .unwrap_or_default();
                let narrower = if *range_narrowing > 0.0 {
                    format!("{:.0}% narrower", 100.0 * range_narrowing)
                } else {
                    "no narrower".to_string()
                };
                format!(
                    "Knowing '{}' explains {:.0}% of the variance of the SA '{}'{rho}. \
                     The SA's plausible range (its central 90%) is {} to {} over the table (width {}); \
                     among records {} it is typically {} wide ({narrower}).",
                    self.column,
                    100.0 * variance_explained,
                    self.sa,
                    fmt(sa_range.0),
                    fmt(sa_range.1),
                    fmt(sa_range.1 - sa_range.0),
                    self.peers(),
                    fmt(*typical_range_width),
                )
            }
            AssociationFigures::CategoricalSa {
                cramers_v,
                uncertainty_coefficient,
                guess_before,
                guess_after,
            } => format!(
                "Knowing '{}' removes {:.0}% of the uncertainty about the SA '{}' (Cramér's V {:.2}): \
                 guessing a record's SA value succeeds {:.0}% of the time with it, {:.0}% without.",
                self.column,
                100.0 * uncertainty_coefficient,
                self.sa,
                cramers_v,
                100.0 * guess_after,
                100.0 * guess_before,
            ),
        }
    }
}

fn fmt(x: f64) -> String {
    if x.abs() >= 100.0 || x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.3}")
    }
}

/// The association of every insensitive column with every SA column of
/// `table` (the published rows), in schema order.
pub fn sa_associations(table: &Table) -> Vec<SaAssociation> {
    // Each SA column's order, ranks and spread are computed once and read
    // for every column.
    let prepared: Vec<PreparedSa> = table.sensitive().iter().map(PreparedSa::new).collect();
    let mut out = Vec::new();
    for index in table.schema().indices_with_role(Role::Insensitive) {
        let Some(text) = table.text_column(index) else {
            continue;
        };
        let name = &table.schema().columns()[index].name;
        let column = CodedColumn::new(text);
        for (sa, prepared) in table.sensitive().iter().zip(&prepared) {
            out.push(associate(name, &column, sa, prepared));
        }
    }
    out
}

/// The association of one column (its published text) with one SA column
/// over the same rows.
pub fn sa_association(column: &str, values: &TextColumn, sa: &SaColumn) -> SaAssociation {
    associate(column, &CodedColumn::new(values), sa, &PreparedSa::new(sa))
}

/// A column's categories, and its ranks when all cells are numbers.
struct CodedColumn {
    ranks: Option<Vec<f64>>,
    bins: Bins,
}

impl CodedColumn {
    fn new(values: &TextColumn) -> CodedColumn {
        let max_bins = association_bins(values.len());
        match numbers(values) {
            Some(v) => {
                // One sort serves the quantile bins and the ranks.
                let order = ascending(&v);
                CodedColumn {
                    bins: Bins::quantiles_in_order(
                        &v,
                        &order,
                        max_bins,
                        crate::table::format_number,
                    ),
                    ranks: Some(ranks_in_order(&v, &order)),
                }
            }
            None => CodedColumn {
                ranks: None,
                bins: Bins::categories((0..values.len()).map(|r| values.get(r)), max_bins),
            },
        }
    }
}

/// What the association needs of an SA column, column-independent.
enum PreparedSa {
    Numeric {
        /// Rows in ascending SA order.
        order: Vec<u32>,
        ranks: Vec<f64>,
        mean: f64,
        /// Σ (y − ȳ)².
        total: f64,
        range: (f64, f64),
    },
    Categorical {
        /// Distinct codes bound: codes are < this.
        values: usize,
    },
}

impl PreparedSa {
    fn new(sa: &SaColumn) -> PreparedSa {
        match &sa.values {
            SaValues::Numeric(y) => {
                let n = y.len();
                let order = ascending(y);
                let sorted: Vec<f64> = order.iter().map(|&r| y[r as usize]).collect();
                let mean = y.iter().sum::<f64>() / n.max(1) as f64;
                PreparedSa::Numeric {
                    ranks: ranks_in_order(y, &order),
                    mean,
                    total: y.iter().map(|v| (v - mean) * (v - mean)).sum(),
                    range: (quantile(&sorted, 0.05), quantile(&sorted, 0.95)),
                    order,
                }
            }
            SaValues::Categorical { codes, .. } => PreparedSa::Categorical {
                values: codes.iter().max().map_or(0, |&m| m as usize + 1),
            },
        }
    }
}

fn associate(
    name: &str,
    column: &CodedColumn,
    sa: &SaColumn,
    prepared: &PreparedSa,
) -> SaAssociation {
    let (strength, figures) = match (&sa.values, prepared) {
        (SaValues::Numeric(y), PreparedSa::Numeric { .. }) => {
            numeric_sa(&column.bins, column.ranks.as_deref(), y, prepared)
        }
        (SaValues::Categorical { codes, .. }, PreparedSa::Categorical { values }) => {
            categorical_sa(&column.bins, codes, *values)
        }
        _ => unreachable!("an SA column is prepared by its own kind"),
    };
    SaAssociation {
        column: name.to_string(),
        sa: sa.name.clone(),
        column_numeric: column.ranks.is_some(),
        column_bins: column.bins.len(),
        strength,
        figures,
    }
}

fn numeric_sa(
    bins: &Bins,
    column_ranks: Option<&[f64]>,
    y: &[f64],
    prepared: &PreparedSa,
) -> (f64, AssociationFigures) {
    let PreparedSa::Numeric {
        order,
        ranks,
        mean,
        total,
        range,
    } = prepared
    else {
        unreachable!("a numeric SA is prepared as numeric")
    };
    let n = y.len();
    let k = bins.len();
    let mut sums = vec![0.0; k];
    let mut counts = vec![0usize; k];
    for (&b, &v) in bins.codes.iter().zip(y) {
        sums[b as usize] += v;
        counts[b as usize] += 1;
    }
    let between: f64 = sums
        .iter()
        .zip(&counts)
        .filter(|(_, &c)| c > 0)
        .map(|(&s, &c)| {
            let m = s / c as f64;
            c as f64 * (m - mean) * (m - mean)
        })
        .sum();
    let eta2 = if *total > 0.0 {
        (between / total).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let width = range.1 - range.0;
    // Each category's SA values, already sorted: walk the rows in SA order.
    let mut members: Vec<Vec<f64>> = counts.iter().map(|&c| Vec::with_capacity(c)).collect();
    for &r in order {
        members[bins.codes[r as usize] as usize].push(y[r as usize]);
    }
    // The median record's width: sort the categories by width and walk
    // until half the records are covered.
    let mut widths: Vec<(f64, usize)> = members
        .iter()
        .filter(|m| !m.is_empty())
        .map(|m| (quantile(m, 0.95) - quantile(m, 0.05), m.len()))
        .collect();
    widths.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut covered = 0;
    let mut typical = 0.0;
    for (w, c) in widths {
        covered += c;
        typical = w;
        if 2 * covered >= n {
            break;
        }
    }
    (
        eta2.sqrt(),
        AssociationFigures::NumericSa {
            variance_explained: eta2,
            spearman: column_ranks.map(|x| pearson(x, ranks)),
            sa_range: *range,
            typical_range_width: typical,
            range_narrowing: if width > 0.0 {
                (1.0 - typical / width).max(0.0)
            } else {
                0.0
            },
        },
    )
}

fn categorical_sa(bins: &Bins, sa: &[u32], values: usize) -> (f64, AssociationFigures) {
    let n = sa.len() as f64;
    let k = bins.len();
    // Dense category × SA-value counts (categories ≤ ASSOCIATION_BINS).
    let mut cells = vec![0usize; k * values];
    let mut by_value = vec![0usize; values];
    let mut by_bin = vec![0usize; k];
    for (&b, &v) in bins.codes.iter().zip(sa) {
        cells[b as usize * values + v as usize] += 1;
        by_value[v as usize] += 1;
        by_bin[b as usize] += 1;
    }
    let rows = by_bin.iter().filter(|&&c| c > 0).count();
    let cols = by_value.iter().filter(|&&c| c > 0).count();
    let mut chi_sum = 0.0;
    let mut best_in_bin = vec![0usize; k];
    let mut h_given = 0.0;
    for b in 0..k {
        for v in 0..values {
            let c = cells[b * values + v];
            if c == 0 {
                continue;
            }
            let nb = by_bin[b] as f64;
            chi_sum += (c * c) as f64 / (nb * by_value[v] as f64);
            best_in_bin[b] = best_in_bin[b].max(c);
            let p = c as f64 / nb;
            h_given -= nb / n * p * p.ln();
        }
    }
    let chi2 = n * (chi_sum - 1.0);
    let dof = rows.min(cols).saturating_sub(1);
    let v = if dof > 0 && n > 0.0 {
        (chi2 / (n * dof as f64)).max(0.0).sqrt().min(1.0)
    } else {
        0.0
    };
    let h: f64 = by_value
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = c as f64 / n;
            -p * p.ln()
        })
        .sum();
    let u = if h > 0.0 {
        ((h - h_given) / h).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (before, after) = if n > 0.0 {
        (
            by_value.iter().copied().max().unwrap_or(0) as f64 / n,
            best_in_bin.iter().sum::<usize>() as f64 / n,
        )
    } else {
        (0.0, 0.0)
    };
    (
        v,
        AssociationFigures::CategoricalSa {
            cramers_v: v,
            uncertainty_coefficient: u,
            guess_before: before,
            guess_after: after,
        },
    )
}

/// The p-quantile of sorted values, interpolating linearly between ranks
/// (Hyndman & Fan's type 7, R's default).
pub(crate) fn quantile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let h = p * (sorted.len() - 1) as f64;
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(sorted.len() - 1);
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

/// Ranks 1..n, ties sharing their average rank.
#[cfg(test)]
fn ranks_of(x: &[f64]) -> Vec<f64> {
    ranks_in_order(x, &ascending(x))
}

/// Ranks given the rows in ascending order of `x`.
fn ranks_in_order(x: &[f64], order: &[u32]) -> Vec<f64> {
    let mut r = vec![0.0; x.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && x[order[j + 1] as usize] == x[order[i] as usize] {
            j += 1;
        }
        let avg = (i + j) as f64 / 2.0 + 1.0;
        for &o in &order[i..=j] {
            r[o as usize] = avg;
        }
        i = j + 1;
    }
    r
}

/// Pearson's correlation (0 when either side is constant); of ranks, it
/// is Spearman's ρ.
fn pearson(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len() as f64;
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx) * (a - mx);
        syy += (b - my) * (b - my);
    }
    if sxx > 0.0 && syy > 0.0 {
        sxy / (sxx * syy).sqrt()
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spearman_by_hand() {
        let up = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(
            pearson(&ranks_of(&up), &ranks_of(&[10.0, 20.0, 30.0, 40.0])),
            1.0
        );
        assert_eq!(
            pearson(&ranks_of(&up), &ranks_of(&[4.0, 3.0, 2.0, 1.0])),
            -1.0
        );
        // Ties share ranks: x = 1, 1, 2 → 1.5, 1.5, 3; y → 1, 2, 3.
        // Σ(x−2)(y−2) = 0.5 + 0 + 1 = 1.5; Σ(x−2)² = 1.5; Σ(y−2)² = 2:
        // ρ = 1.5/√3.
        assert_eq!(ranks_of(&[1.0, 1.0, 2.0]), vec![1.5, 1.5, 3.0]);
        let rho = pearson(&ranks_of(&[1.0, 1.0, 2.0]), &ranks_of(&[1.0, 2.0, 3.0]));
        assert!((rho - 1.5 / 3f64.sqrt()).abs() < 1e-15);
        assert_eq!(pearson(&[1.0, 1.0], &[1.0, 2.0]), 0.0);
    }
}
