//! Proximity checks: (ε,m)-anonymity (Pbrh per row), (ε,δ)^k-dissimilarity
//! (XColor's risk(G,ε) and vulnerability) and (δ,l)-diversity.
//!
//! Neighbour counts come from sorting each group once and binary searches
//! whose predicates are the membership tests of [`crate::neighborhood`] /
//! [`crate::metric`] on the very same arithmetic, so a boundary value is in
//! or out exactly as a pairwise test would decide: O(|G| log |G|) per group.

use crate::error::{CoreError, CoreResult, Detail, Field};
use crate::hierarchy::Hierarchy;
use crate::metric::{scalar_distance, SensitiveSpace, SpaceKind};
use crate::neighborhood::{relative_interval, within};
use crate::params::{Dissimilarity, EpsilonM, Neighborhood};
use crate::partition::Partition;
use crate::table::Table;
use crate::ticker::Ticker;

use super::summary::{check_report, Figures, Worse};
use super::CheckReport;

fn d(key: &str, value: impl Into<Detail>) -> (String, Detail) {
    (key.to_string(), value.into())
}

/// The single numeric SA a numeric-only check needs.
fn numeric_sa<'t>(table: &'t Table, field: &Field, what: &str) -> CoreResult<&'t [f64]> {
    table.single_numeric_sa().ok_or_else(|| {
        CoreError::invalid_parameters(
            field,
            format!(
                "{what} needs exactly one numeric sensitive column; the dataset's sensitive attribute is {}",
                describe_sa(table)
            ),
        )
    })
}

fn describe_sa(table: &Table) -> String {
    match table.sensitive() {
        [] => "missing".into(),
        [one] => format!("'{}' (categorical)", one.name),
        many => format!(
            "composite ({})",
            many.iter()
                .map(|c| c.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Number of values of sorted `s` in the absolute ε-neighbourhood of x:
/// `within(|x − y|, ε)`, with |x − y| as [`scalar_distance`] computes it.
/// |x − y| / divisor only grows as y moves away from x, so the members are
/// one contiguous run of `s`.
pub(crate) fn count_scalar(s: &[f64], x: f64, eps: f64, divisor: f64) -> usize {
    let lo = s.partition_point(|&y| y < x && !within(scalar_distance(x, y, divisor), eps));
    let hi = s.partition_point(|&y| y <= x || within(scalar_distance(x, y, divisor), eps));
    hi - lo
}

/// Number of values of sorted `s` in the relative neighbourhood
/// [x(1−ε), x(1+ε)] (`in_closed_interval`: lo ≤ y ≤ hi).
pub(crate) fn count_relative(s: &[f64], x: f64, eps: f64) -> usize {
    let (lo_v, hi_v) = relative_interval(x, eps);
    let lo = s.partition_point(|&y| y < lo_v);
    let hi = s.partition_point(|&y| y <= hi_v);
    hi.saturating_sub(lo)
}

/// The SA an (ε,m) check reads: exactly one numeric column, with every
/// value positive for a relative neighbourhood. Errors at `field` as the
/// audit reports them (shared with the attacker's view).
pub(crate) fn epsilon_m_sa<'t>(
    params: EpsilonM,
    table: &'t Table,
    field: &Field,
) -> CoreResult<&'t [f64]> {
    let sa = numeric_sa(table, field, "(ε,m)-anonymity")?;
    if params.neighborhood == Neighborhood::Relative {
        if let Some((row, v)) = sa.iter().enumerate().find(|(_, v)| **v <= 0.0) {
            return Err(CoreError::invalid_parameters(
                field.param("neighborhood"),
                format!(
                    "a relative neighbourhood needs every sensitive value to be > 0; data line {} has {}",
                    table.source_lines()[row],
                    v
                ),
            ));
        }
    }
    Ok(sa)
}

/// (ε,m)-anonymity ((ε,m) paper, Def. 5 and 7): Pbrh(t) = x/|G| where x
/// counts the rows of t's group G (t included) whose SA lies in I(t); the
/// table passes when every Pbrh ≤ 1/m. Values: `max_breach_probability`
/// and `achieved_m` = ⌊1/max Pbrh⌋ (= min over groups of ⌊|G|/x_max⌋, in
/// integers). Violating rows are the rows whose own Pbrh exceeds 1/m.
pub(crate) fn epsilon_m(
    params: EpsilonM,
    table: &Table,
    field: &Field,
    partition: &Partition,
    ids: Option<&[String]>,
    ticker: &mut Ticker,
) -> CoreResult<CheckReport> {
    let sa = epsilon_m_sa(params, table, field)?;
    let eps = params.epsilon.get();
    let m = params.m.get();
    let mut values = Vec::with_capacity(partition.len());
    let mut failed = Vec::with_capacity(partition.len());
    let mut violating_rows = 0;
    let mut achieved_m = usize::MAX;
    let mut s: Vec<f64> = Vec::new();
    for g in &partition.groups {
        ticker.tick(g.len() * 4)?;
        s.clear();
        s.extend(g.iter().map(|&r| sa[r as usize]));
        s.sort_unstable_by(f64::total_cmp);
        let size = s.len();
        let mut worst = 0usize;
        let mut bad = 0usize;
        for &x in &s {
            let count = match params.neighborhood {
                Neighborhood::Absolute => count_scalar(&s, x, eps, 1.0),
                Neighborhood::Relative => count_relative(&s, x, eps),
            };
            worst = worst.max(count);
            if count * m > size {
                bad += 1;
            }
        }
        violating_rows += bad;
        failed.push(bad > 0);
        values.push(worst as f64 / size as f64);
        achieved_m = achieved_m.min(size / worst.max(1));
    }
    let max = values.iter().copied().fold(0.0, f64::max);
    let achieved_m = if partition.is_empty() { 0 } else { achieved_m };
    let neighborhood = match params.neighborhood {
        Neighborhood::Absolute => "absolute",
        Neighborhood::Relative => "relative",
    };
    Ok(check_report(
        "epsilon_m",
        vec![
            d("epsilon", eps),
            d("m", m),
            d("neighborhood", neighborhood),
        ],
        vec![
            d("max_breach_probability", max),
            d("achieved_m", achieved_m),
        ],
        Figures {
            values,
            failed,
            violating_rows,
        },
        Worse::Higher,
        partition,
        ids,
    ))
}

/// Under the hierarchical metric (distance = LCA level / height) the
/// ε-neighbours of v are the values sharing v's ancestor at the highest
/// level whose distance, on the metric's arithmetic, is ≤ ε.
pub(crate) fn neighbour_level(hierarchy: &Hierarchy, eps: f64) -> usize {
    let h = hierarchy.height();
    (0..=h)
        .rev()
        .find(|&l| within(if l == 0 { 0.0 } else { l as f64 / h as f64 }, eps))
        .unwrap_or(0)
}

/// For each row of `rows` (in order), the number of rows of the group in
/// its closed ε-neighbourhood, itself included.
fn neighbour_counts(
    space: &SensitiveSpace,
    rows: &[u32],
    eps: f64,
    ticker: &mut Ticker,
) -> CoreResult<Vec<usize>> {
    ticker.tick(rows.len())?;
    let freq_by = |key: &dyn Fn(u32) -> u32| -> Vec<usize> {
        let mut keys: Vec<u32> = rows.iter().map(|&r| key(r)).collect();
        keys.sort_unstable();
        rows.iter()
            .map(|&r| {
                let k = key(r);
                keys.partition_point(|&x| x <= k) - keys.partition_point(|&x| x < k)
            })
            .collect()
    };
    match space.kind() {
        SpaceKind::Scalar { values, divisor } => {
            let mut s: Vec<f64> = rows.iter().map(|&r| values[r as usize]).collect();
            s.sort_unstable_by(f64::total_cmp);
            Ok(rows
                .iter()
                .map(|&r| count_scalar(&s, values[r as usize], eps, *divisor))
                .collect())
        }
        SpaceKind::Relative { values } => {
            let mut s: Vec<f64> = rows.iter().map(|&r| values[r as usize]).collect();
            s.sort_unstable_by(f64::total_cmp);
            Ok(rows
                .iter()
                .map(|&r| count_relative(&s, values[r as usize], eps))
                .collect())
        }
        SpaceKind::Categorical {
            codes,
            hierarchy,
            hierarchical,
        } => {
            if !*hierarchical {
                // Equal distance: 0 between equal values, 1 otherwise.
                if within(1.0, eps) {
                    return Ok(vec![rows.len(); rows.len()]);
                }
                return Ok(freq_by(&|r| codes[r as usize]));
            }
            // Hierarchical: distance = LCA level / height, so the
            // neighbours of v are the values sharing v's ancestor at the
            // highest level L whose distance (same arithmetic) is ≤ ε.
            let level = neighbour_level(hierarchy, eps);
            Ok(freq_by(&|r| hierarchy.ancestor(codes[r as usize], level)))
        }
        // Composite and distribution SAs: the pairwise test (a release's
        // groups are small, but an uploaded table grouped by a column may
        // have a group of many thousand rows: its quadratic pass reaches a
        // checkpoint after every row).
        SpaceKind::Lp { .. } | SpaceKind::Variational { .. } => rows
            .iter()
            .map(|&c| {
                ticker.tick(rows.len())?;
                Ok(rows
                    .iter()
                    .filter(|&&o| space.is_neighbor(c, o, eps))
                    .count())
            })
            .collect(),
    }
}

/// (ε,δ)^k-dissimilarity (XColor, Def. 6–7 and Theorem 1): risk(G,ε) =
/// max over v of (|Φ_G(v,ε)| − 1)/(|G| − 1), 1 when |G| = 1. A group
/// contains a proximity breach when risk(G,ε) > 1 − δ, i.e. some value has
/// more than (1 − δ)(|G| − 1) ε-neighbours besides itself (decided on the
/// counts, as XColor's t_V does). Vulnerability (XColor §VI, "Attack
/// Vulnerability") is the share of groups containing a breach. The check
/// also fails groups smaller than k. Values: `max_risk`, `vulnerability`.
pub(crate) fn dissimilarity(
    params: Dissimilarity,
    space: &SensitiveSpace,
    partition: &Partition,
    ids: Option<&[String]>,
    ticker: &mut Ticker,
) -> CoreResult<CheckReport> {
    let eps = params.epsilon.get();
    let delta = params.delta.get();
    let k = params.k.get();
    let mut values = Vec::with_capacity(partition.len());
    let mut failed = Vec::with_capacity(partition.len());
    let mut breached_groups = 0usize;
    let mut violating_rows = 0usize;
    for g in &partition.groups {
        let size = g.len();
        let (risk, breached_rows) = if size == 1 {
            (1.0, usize::from(1.0 > 1.0 - delta))
        } else {
            let counts = neighbour_counts(space, g, eps, ticker)?;
            let limit = (1.0 - delta) * (size - 1) as f64;
            let worst = counts.iter().copied().max().unwrap_or(1);
            let bad = counts.iter().filter(|&&c| (c - 1) as f64 > limit).count();
            ((worst - 1) as f64 / (size - 1) as f64, bad)
        };
        let breached = breached_rows > 0;
        breached_groups += usize::from(breached);
        let small = size < k;
        violating_rows += if small { size } else { breached_rows };
        failed.push(breached || small);
        values.push(risk);
    }
    let max = values.iter().copied().fold(0.0, f64::max);
    let vulnerability = if partition.is_empty() {
        0.0
    } else {
        breached_groups as f64 / partition.len() as f64
    };
    Ok(check_report(
        "dissimilarity",
        vec![
            d("epsilon", eps),
            d("delta", delta),
            d("k", k),
            d("sensitive_metric", space.spec().kind_name()),
        ],
        vec![d("max_risk", max), d("vulnerability", vulnerability)],
        Figures {
            values,
            failed,
            violating_rows,
        },
        Worse::Higher,
        partition,
        ids,
    ))
}

/// The SA a (δ,l) check reads (one numeric column) after checking δ and l.
pub(crate) fn delta_l_sa<'t>(
    delta: f64,
    l: usize,
    table: &'t Table,
    field: &Field,
) -> CoreResult<&'t [f64]> {
    let sa = numeric_sa(table, field, "(δ,l)-diversity")?;
    if !delta.is_finite() || delta < 0.0 {
        return Err(CoreError::invalid_parameters(
            field.param("delta"),
            format!("delta must be a finite number ≥ 0, got {delta}"),
        ));
    }
    if l == 0 {
        return Err(CoreError::invalid_parameters(
            field.param("l"),
            "l must be an integer of at least 1, got 0",
        ));
    }
    Ok(sa)
}

/// w is δ-similar to v: their δ-intervals overlap (closed: touching
/// intervals overlap), (v − δ) ≤ (w + δ) and (w − δ) ≤ (v + δ).
#[inline]
pub(crate) fn delta_similar(v: f64, w: f64, delta: f64) -> bool {
    v - delta <= w + delta && w - delta <= v + delta
}

/// Number of values of sorted `s` δ-similar to v ([`delta_similar`]):
/// both sides of the test are monotone in w, so the similar values are
/// one run of `s`, bounded by the first w failing each side.
pub(crate) fn count_delta_similar(s: &[f64], v: f64, delta: f64) -> usize {
    // w + δ < v − δ is the first side's negation (values are never NaN).
    let lo = s.partition_point(|&w| w + delta < v - delta);
    let hi = s.partition_point(|&w| w - delta <= v + delta);
    hi - lo
}

/// (δ,l)-diversity (δ-l-diversity paper, Def. 3–5): v and w are δ-similar
/// when their δ-intervals [v−δ, v+δ] and [w−δ, w+δ] overlap (closed:
/// touching intervals overlap); a group E satisfies it when every value has
/// at most |E|/l δ-similar values in E (itself included). A group achieves
/// l_E = |E| / max n(v); the value `l` is the smallest l_E. Violating rows
/// are those with n(v)·l > |E|.
pub(crate) fn delta_l_diversity(
    delta: f64,
    l: usize,
    table: &Table,
    field: &Field,
    partition: &Partition,
    ids: Option<&[String]>,
    ticker: &mut Ticker,
) -> CoreResult<CheckReport> {
    let sa = delta_l_sa(delta, l, table, field)?;
    let mut values = Vec::with_capacity(partition.len());
    let mut failed = Vec::with_capacity(partition.len());
    let mut violating_rows = 0;
    let mut s: Vec<f64> = Vec::new();
    for g in &partition.groups {
        ticker.tick(g.len() * 4)?;
        s.clear();
        s.extend(g.iter().map(|&r| sa[r as usize]));
        s.sort_unstable_by(f64::total_cmp);
        let size = s.len();
        let mut worst = 0usize;
        let mut bad = 0usize;
        for &v in &s {
            let n = count_delta_similar(&s, v, delta);
            worst = worst.max(n);
            if n * l > size {
                bad += 1;
            }
        }
        violating_rows += bad;
        failed.push(bad > 0);
        values.push(size as f64 / worst.max(1) as f64);
    }
    let min = values.iter().copied().fold(f64::INFINITY, f64::min);
    let min = if min.is_finite() { min } else { 0.0 };
    Ok(check_report(
        "delta_l_diversity",
        vec![d("delta", delta), d("l", l)],
        vec![d("l", min)],
        Figures {
            values,
            failed,
            violating_rows,
        },
        Worse::Lower,
        partition,
        ids,
    ))
}
