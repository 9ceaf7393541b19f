//! What happens when the swap repair stalls (beyond Theorem 3), and the
//! final verification that guards every release.
//!
//! * Merge: a class that still has a violating row is merged into the
//!   QI-nearest class (least loss of the union, among the classes nearest in
//!   QI order) whose union passes the model; a larger group has a larger
//!   allowance ⌊(1−δ)(|G|−1)⌋, so this often fixes dense spots at some cost
//!   in utility.
//! * Verify: every output group is checked by definition (O(Σ|G|²) distance
//!   calls); a partition that misses the model is never returned.

use crate::error::{CoreError, CoreResult, Detail, ErrorKind};
use crate::metric::SensitiveSpace;
use crate::params::Dissimilarity;
use crate::partition::Partition;
use crate::progress::Progress;
use crate::split::QiSpace;

use super::feasibility::{inequality4_bound, max_guaranteed_delta, violating_rows, GuaranteedPair};

/// Union-check distance evaluations allowed per row and per unit of k.
const MERGE_WORK_PER_ROW_AND_K: u64 = 100;

/// Merge targets examined on each side of a violating class in QI order.
const MERGE_REACH: usize = 64;

/// Merges each violating class into the QI-nearest class whose union passes
/// (see the module doc). Classes merged away become empty and are dropped.
pub(crate) fn merge_violators(
    space: &SensitiveSpace,
    qs: &QiSpace<'_>,
    params: &Dissimilarity,
    classes: Vec<Vec<u32>>,
    progress: Progress<'_>,
) -> CoreResult<Vec<Vec<u32>>> {
    let (eps, delta) = (params.epsilon.get(), params.delta.get());
    let mut classes: Vec<Option<Vec<u32>>> = classes.into_iter().map(Some).collect();
    let m = classes.len();
    let loss = |rows: &[u32]| -> f64 { (0..qs.dims()).map(|d| qs.normalized_width(d, rows)).sum() };
    // Distance evaluations allowed for union checks: far beyond Theorem 3
    // (every class violating, no union passing) the scan would otherwise
    // cost m·2·MERGE_REACH·(2k)²; past the cap the remaining classes stay as
    // they are and the verification reports them.
    let budget =
        MERGE_WORK_PER_ROW_AND_K * space.rows() as u64 * (params.k.get() as u64 + 1) + 10_000_000;
    let mut work = 0u64;
    for c in 0..m {
        if work >= budget {
            break;
        }
        if c % 256 == 0 {
            progress.report(c as f64 / m as f64)?;
        }
        let Some(class) = classes[c].as_ref() else {
            continue;
        };
        if violating_rows(space, class, eps, delta).is_empty() {
            continue;
        }
        let mut best: Option<(f64, usize, Vec<u32>)> = None;
        let lo = c.saturating_sub(MERGE_REACH);
        let hi = (c + MERGE_REACH + 1).min(m);
        for (w, other) in classes.iter().enumerate().take(hi).skip(lo) {
            let Some(other) = other.as_ref().filter(|_| w != c) else {
                continue;
            };
            let mut union = class.clone();
            union.extend_from_slice(other);
            work += (union.len() * union.len()) as u64;
            if !violating_rows(space, &union, eps, delta).is_empty() {
                continue;
            }
            let l = loss(&union);
            if best.as_ref().is_none_or(|(bl, _, _)| l < *bl) {
                best = Some((l, w, union));
            }
        }
        if let Some((_, w, union)) = best {
            classes[w] = Some(union);
            classes[c] = None;
        }
    }
    progress.report(1.0)?;
    Ok(classes.into_iter().flatten().collect())
}

/// Checks the partition against the model by definition: every row exactly
/// once, every group ≥ k rows, every row with ≤ ⌊(1−δ)(|G|−1)⌋ ε-neighbours
/// in its group. Returns the violating groups' indices and their rows.
pub(crate) fn residual_violations(
    space: &SensitiveSpace,
    params: &Dissimilarity,
    groups: &[Vec<u32>],
) -> (Vec<usize>, usize) {
    let (eps, delta, k) = (params.epsilon.get(), params.delta.get(), params.k.get());
    let mut bad_groups = Vec::new();
    let mut bad_rows = 0;
    for (g, rows) in groups.iter().enumerate() {
        let bad = violating_rows(space, rows, eps, delta);
        if rows.len() < k {
            bad_groups.push(g);
            bad_rows += rows.len();
        } else if !bad.is_empty() {
            bad_groups.push(g);
            bad_rows += bad.len();
        }
    }
    (bad_groups, bad_rows)
}

/// Verifies and wraps the final groups, or explains why there is no release.
pub(crate) fn publish(
    space: &SensitiveSpace,
    params: &Dissimilarity,
    groups: Vec<Vec<u32>>,
    max_degree: usize,
) -> CoreResult<Partition> {
    let partition = Partition::new(groups);
    partition.check_covers(space.rows())?;
    let (bad_groups, bad_rows) = residual_violations(space, params, &partition.groups);
    if bad_groups.is_empty() {
        return Ok(partition);
    }
    Err(not_satisfied(
        space.rows(),
        params,
        max_degree,
        bad_groups.len(),
        bad_rows,
    ))
}

/// The `model_not_satisfied` error with the diagnostics docs/design.md §4 asks for.
pub(crate) fn not_satisfied(
    rows: usize,
    params: &Dissimilarity,
    max_degree: usize,
    groups: usize,
    bad_rows: usize,
) -> CoreError {
    let (eps, delta, k) = (params.epsilon.get(), params.delta.get(), params.k.get());
    let bound = inequality4_bound(rows, k, delta);
    let guaranteed: Vec<GuaranteedPair> = [2, 3, 4, 5, 10, 20, 50, 100]
        .into_iter()
        .filter(|&kk| kk <= rows)
        .filter_map(|kk| {
            max_guaranteed_delta(max_degree, rows, kk).map(|d| GuaranteedPair {
                k: kk,
                max_delta: d,
            })
        })
        .collect();
    let advice = match max_guaranteed_delta(max_degree, rows, k) {
        Some(d) => {
            format!("with k = {k}, δ ≤ {d:.4} is guaranteed; lower δ, or lower ε to thin the graph")
        }
        None => format!(
            "no δ is guaranteed with this ε (Θ = {max_degree} > n/2 = {}); lower ε",
            rows / 2
        ),
    };
    let message = format!(
        "XColor could not satisfy (ε={eps}, δ={delta})^{k}-dissimilarity: {groups} group(s) ({bad_rows} row(s)) \
         still have a value with more than ⌊(1−δ)(|G|−1)⌋ ε-neighbours after repair and merging. \
         The table's maximum degree Θ = {max_degree} {} Inequality 4's bound {bound:.1}; {advice}",
        if max_degree as f64 > bound { "exceeds" } else { "is within" }
    );
    let list = guaranteed
        .iter()
        .map(|p| {
            Detail::Map(vec![
                ("k".into(), Detail::from(p.k)),
                ("max_delta".into(), Detail::from(p.max_delta)),
            ])
        })
        .collect();
    CoreError::new(ErrorKind::ModelNotSatisfied, message)
        .with_detail("max_degree", max_degree)
        .with_detail("bound", bound)
        .with_detail("residual_violating_groups", groups)
        .with_detail("residual_violating_rows", bad_rows)
        .with_detail("guaranteed", Detail::List(list))
}
