//! Per-victim figures of every model over the candidate set C(v), straight
//! from docs/design.md §4:
//!
//! * k-anonymity: |C(v)| ≥ k (figure |C(v)|);
//! * (ε,m): |{c ∈ C(v) : c.S ∈ I(v.S)}| ≤ |C(v)|/m, I closed (figure: that
//!   count / |C(v)|, the breach probability);
//! * (ε,δ)^k: |C(v)| ≥ k and |{c ∈ C(v), c ≠ v : Δ(c,v) ≤ ε}| ≤
//!   (1−δ)(|C(v)|−1) (figure: that count / (|C(v)|−1), and 1 when
//!   |C(v)| = 1 — the design's risk convention (docs/design.md §4) — although a lone candidate
//!   passes the inequality itself, 0 ≤ 0, whenever k = 1);
//! * l-diversity (distinct: number of values; entropy: e^H with H ≥ ln l up
//!   to 1e-9; recursive (c,l): r₁ < c·(r_l + … + r_m), figure the largest
//!   such l), (α,k) (largest relative frequency ≤ α and |C(v)| ≥ k) and
//!   t-closeness (EMD to the whole table ≤ t, up to 1e-9) on C(v)'s SA
//!   multiset, computed by `tests/common`'s brute-force measures;
//! * (δ,l): n(v) = the candidates whose δ-interval meets v's (v included),
//!   n(v)·l ≤ |C(v)| (figure |C(v)| / n(v)).

use proxima_core::table::{SaValues, Table};

use super::published::AttackerView;
use super::sa::{SaSpace, TwinMetric};
use crate::common;

/// Ground distance of t-closeness.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Ground {
    /// SA values on a line: numbers by value, categories in the hierarchy's
    /// depth-first leaf order.
    Ordered,
    Equal,
    Hierarchical,
}

/// One model (or one constraint of a model) to hold for every victim.
#[derive(Debug, Clone, PartialEq)]
pub enum TwinCheck {
    KAnonymity {
        k: usize,
    },
    EpsilonM {
        epsilon: f64,
        m: usize,
        relative: bool,
    },
    Dissimilarity {
        epsilon: f64,
        delta: f64,
        k: usize,
        metric: TwinMetric,
    },
    DistinctL {
        l: usize,
    },
    EntropyL {
        l: f64,
    },
    RecursiveL {
        c: f64,
        l: usize,
    },
    AlphaK {
        alpha: f64,
        k: usize,
    },
    DeltaL {
        delta: f64,
        l: usize,
    },
    TCloseness {
        t: f64,
        ground: Ground,
    },
}

/// Slack for the floating-point comparisons of entropy and EMD: a union of
/// groups that each pass exactly may land an ulp away.
const SLACK: f64 = 1e-9;

/// The figures of one victim.
#[derive(Debug, Clone, PartialEq)]
pub struct VictimFigure {
    pub victim: usize,
    pub candidates: usize,
    pub candidate_groups: usize,
    pub figure: f64,
    pub passed: bool,
    /// True when the figure lies within the slack of its bound (entropy,
    /// EMD): independent floating-point sums may decide such a victim
    /// either way, so a comparison of verdicts must allow it both.
    pub marginal: bool,
}

/// One SA column's values as numbers for counting: numbers themselves,
/// categories by depth-first leaf rank (so value order is the ordered
/// ground distance's line and equality is leaf equality).
fn sa_keys(table: &Table) -> Vec<f64> {
    match table.sensitive() {
        [one] => match &one.values {
            SaValues::Numeric(v) => v.clone(),
            SaValues::Categorical {
                codes, hierarchy, ..
            } => codes
                .iter()
                .map(|&c| hierarchy.leaf_rank(c) as f64)
                .collect(),
        },
        _ => panic!("l-diversity and t-closeness need exactly one SA column"),
    }
}

/// Evaluates `check` for each victim of `victims` (row indices).
pub fn evaluate(
    view: &AttackerView,
    table: &Table,
    check: &TwinCheck,
    victims: impl IntoIterator<Item = usize>,
) -> Vec<VictimFigure> {
    let space = match check {
        TwinCheck::Dissimilarity { metric, .. } => Some(SaSpace::new(table, metric.clone())),
        _ => None,
    };
    let needs_keys = matches!(
        check,
        TwinCheck::DistinctL { .. }
            | TwinCheck::EntropyL { .. }
            | TwinCheck::RecursiveL { .. }
            | TwinCheck::AlphaK { .. }
            | TwinCheck::TCloseness { .. }
    );
    let keys = if needs_keys {
        sa_keys(table)
    } else {
        Vec::new()
    };
    victims
        .into_iter()
        .map(|v| {
            let (cands, groups) = view.candidates(v);
            let size = cands.len();
            let mut marginal = false;
            let (figure, passed) = match check {
                TwinCheck::KAnonymity { k } => (size as f64, size >= *k),
                TwinCheck::EpsilonM {
                    epsilon,
                    m,
                    relative,
                } => {
                    let s = table.single_numeric_sa().expect("(ε,m) needs a numeric SA");
                    let x = s[v];
                    let inside = cands
                        .iter()
                        .filter(|&&c| {
                            let y = s[c];
                            if *relative {
                                x * (1.0 - epsilon) <= y && y <= x * (1.0 + epsilon)
                            } else {
                                (x - y).abs() <= *epsilon
                            }
                        })
                        .count();
                    (inside as f64 / size as f64, inside * m <= size)
                }
                TwinCheck::Dissimilarity {
                    epsilon, delta, k, ..
                } => {
                    let space = space.as_ref().expect("built above");
                    let near = cands
                        .iter()
                        .filter(|&&c| c != v && space.distance(v, c) <= *epsilon)
                        .count();
                    let allowed = (1.0 - delta) * (size - 1) as f64;
                    // risk(G) = 1 for a lone row (Definition 6): over
                    // whenever δ > 0.
                    let passed =
                        size >= *k && near as f64 <= allowed && !(size == 1 && *delta > 0.0);
                    if size == 1 {
                        (1.0, passed)
                    } else {
                        (near as f64 / (size - 1) as f64, passed)
                    }
                }
                TwinCheck::DistinctL { l } => {
                    let values: Vec<f64> = cands.iter().map(|&c| keys[c]).collect();
                    let d = common::distinct(&values);
                    (d as f64, d >= *l)
                }
                TwinCheck::EntropyL { l } => {
                    let values: Vec<f64> = cands.iter().map(|&c| keys[c]).collect();
                    let h = common::entropy(&values);
                    marginal = (h - l.ln()).abs() <= SLACK;
                    (h.exp(), h >= l.ln() - SLACK)
                }
                TwinCheck::RecursiveL { c, l } => {
                    let values: Vec<f64> = cands.iter().map(|&r| keys[r]).collect();
                    let mut counts: Vec<usize> =
                        common::value_counts(&values).iter().map(|x| x.1).collect();
                    counts.sort_unstable_by(|a, b| b.cmp(a));
                    // The largest l with r₁ < c·(r_l + …): the tail shrinks
                    // as l grows, so the l that hold are 1..=best.
                    let best = (1..=counts.len())
                        .take_while(|&l| {
                            (counts[0] as f64) < c * counts[l - 1..].iter().sum::<usize>() as f64
                        })
                        .count();
                    (best as f64, common::recursive_ok(&values, *c, *l))
                }
                TwinCheck::AlphaK { alpha, k } => {
                    let values: Vec<f64> = cands.iter().map(|&c| keys[c]).collect();
                    let f = common::max_frequency(&values);
                    (f, f <= *alpha && size >= *k)
                }
                TwinCheck::DeltaL { delta, l } => {
                    let s = table.single_numeric_sa().expect("(δ,l) needs a numeric SA");
                    let x = s[v];
                    let similar = cands
                        .iter()
                        .filter(|&&c| x - delta <= s[c] + delta && s[c] - delta <= x + delta)
                        .count();
                    (size as f64 / similar as f64, similar * l <= size)
                }
                TwinCheck::TCloseness { t, ground } => {
                    let emd = match ground {
                        Ground::Ordered => {
                            let values: Vec<f64> = cands.iter().map(|&c| keys[c]).collect();
                            common::emd_ordered(&values, &keys)
                        }
                        Ground::Equal => {
                            let values: Vec<f64> = cands.iter().map(|&c| keys[c]).collect();
                            common::emd_equal(&values, &keys)
                        }
                        Ground::Hierarchical => {
                            let SaValues::Categorical {
                                codes, hierarchy, ..
                            } = &table.sensitive()[0].values
                            else {
                                panic!("the hierarchical ground needs a categorical SA")
                            };
                            let group: Vec<u32> = cands.iter().map(|&c| codes[c]).collect();
                            common::emd_hierarchical(&group, codes, hierarchy)
                        }
                    };
                    marginal = (emd - t).abs() <= SLACK;
                    (emd, emd <= t + SLACK)
                }
            };
            VictimFigure {
                victim: v,
                candidates: size,
                candidate_groups: groups,
                figure,
                passed,
                marginal,
            }
        })
        .collect()
}

/// Victims that fail, worst first (by figure, in the check's bad direction).
pub fn breaches<'f>(check: &TwinCheck, figures: &'f [VictimFigure]) -> Vec<&'f VictimFigure> {
    let mut bad: Vec<&VictimFigure> = figures.iter().filter(|f| !f.passed).collect();
    let lower_is_worse = matches!(
        check,
        TwinCheck::KAnonymity { .. }
            | TwinCheck::DistinctL { .. }
            | TwinCheck::EntropyL { .. }
            | TwinCheck::RecursiveL { .. }
            | TwinCheck::DeltaL { .. }
    );
    bad.sort_by(|a, b| {
        let o = a.figure.total_cmp(&b.figure);
        if lower_is_worse {
            o
        } else {
            o.reverse()
        }
    });
    bad
}

/// A readable account of one victim's candidates (for failure messages).
pub fn explain(view: &AttackerView, victim: &VictimFigure) -> String {
    const SHOWN: usize = 6;
    let covering: Vec<_> = view.covering(victim.victim).collect();
    let mut boxes: Vec<String> = covering
        .iter()
        .take(SHOWN)
        .map(|b| {
            format!(
                "{:?} groups {:?} ({} rows)",
                b.labels,
                b.groups,
                b.rows.len()
            )
        })
        .collect();
    if covering.len() > SHOWN {
        boxes.push(format!("… {} more label sets", covering.len() - SHOWN));
    }
    format!(
        "victim row {} (0-based): figure {:.4} over {} candidates in {} groups: {}",
        victim.victim,
        victim.figure,
        victim.candidates,
        victim.candidate_groups,
        boxes.join("; ")
    )
}
