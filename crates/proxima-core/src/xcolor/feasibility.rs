//! Parameter guidance from the paper's theory (§IV–V) and the per-group
//! dissimilarity test.
//!
//! * t_V = ⌊(1−δ)(|V|−1)⌋ is how many ε-neighbours a row may have in a group
//!   of |V| rows (Definition 11 (iii)); the paper's t = ⌊(1−δ)(k−1)⌋ is t_V
//!   for classes of exactly k rows. Classes of k+1 rows (when k ∤ n) get
//!   their own, possibly larger, t_V.
//! * Lemma 2 / Theorem 3: a colouring exists and the swap repair converges
//!   when Θ ≤ m(t+1)/2 with m = ⌊n/k⌋.
//! * Inequality 4 is that condition with the floor dropped:
//!   Θ ≤ (n/2)(1 − (1 − 1/k)δ); it is what users get as guidance.

use crate::error::CoreResult;
use crate::metric::SensitiveSpace;
use crate::neighborhood::within;
use crate::progress::Progress;

use super::degrees::DegreeIndex;

/// The k values for which [`feasibility`] reports the largest guaranteed δ.
pub const USEFUL_K: [usize; 8] = [2, 3, 4, 5, 10, 20, 50, 100];

/// One (k, δ) pair Theorem 3 guarantees: every δ ≤ `max_delta` works with k.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GuaranteedPair {
    pub k: usize,
    pub max_delta: f64,
}

/// The answer of the dissimilarity feasibility request (docs/api.md §Feasibility).
#[derive(Debug, Clone, PartialEq)]
pub struct DissimilarityFeasibility {
    /// Θ^ε: the largest number of ε-neighbours of any row (itself excluded).
    pub max_degree: usize,
    pub rows: usize,
    /// For each useful k ≤ rows whose bound holds at δ = 0, the largest δ.
    pub guaranteed: Vec<GuaranteedPair>,
}

/// t_V = ⌊(1−δ)(size−1)⌋, computed literally in f64 (the same expression a
/// checker written from the paper computes, so both agree to the last bit;
/// e.g. δ = 0.8, size 11 gives ⌊1.9999999999999996⌋ = 1, the stricter side).
#[inline]
pub fn allowed_neighbours(delta: f64, size: usize) -> usize {
    if size == 0 {
        return 0;
    }
    ((1.0 - delta) * (size - 1) as f64).floor().max(0.0) as usize
}

/// Inequality 4's right-hand side: (n/2)(1 − (1 − 1/k)δ).
pub fn inequality4_bound(rows: usize, k: usize, delta: f64) -> f64 {
    rows as f64 / 2.0 * (1.0 - (1.0 - 1.0 / k as f64) * delta)
}

/// Lemma 2's sufficient condition Θ ≤ m(t+1)/2 (m = ⌊n/k⌋), in integers,
/// in the form its proof establishes for our equitable classes of q = ⌊n/m⌋
/// or q + 1 rows (q ≥ k): with t = t_q = ⌊(1−δ)(q−1)⌋ (≥ the paper's t, equal
/// when q = k), a violating v in V and no exchange would give
/// q(m(t+1) − Θ) ≤ Σ ≤ (|V|−1)Θ, a contradiction when 2Θ < m(t+1), and at
/// equality only if every class has q rows (m divides n).
pub fn lemma2_holds(max_degree: usize, rows: usize, k: usize, delta: f64) -> bool {
    if k == 0 || rows < k {
        return false;
    }
    let m = rows / k;
    let q = rows / m;
    let t = allowed_neighbours(delta, q);
    let (lhs, rhs) = (2 * max_degree, m * (t + 1));
    lhs < rhs || (lhs == rhs && rows.is_multiple_of(m))
}

/// The largest δ ∈ [0, 1] with Θ ≤ (n/2)(1 − (1 − 1/k)δ); `None` when even
/// δ = 0 fails (Θ > n/2) or k > n.
pub fn max_guaranteed_delta(max_degree: usize, rows: usize, k: usize) -> Option<f64> {
    if k == 0 || k > rows || 2 * max_degree > rows {
        return None;
    }
    let slope = 1.0 - 1.0 / k as f64;
    if slope <= 0.0 {
        return Some(1.0);
    }
    let theta = max_degree as f64;
    let mut d = ((1.0 - 2.0 * theta / rows as f64) / slope).clamp(0.0, 1.0);
    // Solving in floating point may overshoot by an ulp: step down until the
    // inequality itself holds, so every reported pair really is guaranteed.
    while d > 0.0 && theta > inequality4_bound(rows, k, d) {
        d = (d - 1e-12).max(0.0);
    }
    Some(d)
}

/// What the service delivers for sure (docs/design.md §4): the largest δ for which
/// the whole table is one valid group — every row with at most
/// ⌊(1−δ)(n−1)⌋ ε-neighbours, i.e. Θ ≤ ⌊(1−δ)(n−1)⌋ — for any k ≤ n; a job
/// at such a δ always succeeds without suppression (the root absorbs any
/// failing part). `None` when no δ works (Θ = n − 1 > 0 with n > 1 needs
/// δ = 0, which still works: so only for an empty table). Inequality 4's
/// pairs are per-group upper bounds; between the two a job may succeed or
/// fail with `model_not_satisfied`.
pub fn deliverable_max_delta(max_degree: usize, rows: usize) -> Option<f64> {
    if rows == 0 {
        return None;
    }
    if rows == 1 {
        // A lone row has risk 1: only δ = 0.
        return Some(0.0);
    }
    let mut d = (1.0 - max_degree as f64 / (rows - 1) as f64).clamp(0.0, 1.0);
    // Step down past rounding until the floor itself admits Θ.
    while d > 0.0 && allowed_neighbours(d, rows) < max_degree {
        d = (d - 1e-12).max(0.0);
    }
    (allowed_neighbours(d, rows) >= max_degree).then_some(d)
}

/// Θ^ε and the (k, δ) pairs of Inequality 4 for this space.
pub fn feasibility(space: &SensitiveSpace, epsilon: f64) -> DissimilarityFeasibility {
    from_degrees(space, &super::degrees(space, epsilon))
}

/// [`feasibility`] that stops with `cancelled` at the degree index's next
/// checkpoint when `progress` says so (the index is O(n²) on wide numeric
/// SAs: a synchronous request must be able to give it up).
pub fn feasibility_with_progress(
    space: &SensitiveSpace,
    epsilon: f64,
    progress: Progress<'_>,
) -> CoreResult<DissimilarityFeasibility> {
    let index = DegreeIndex::new(space, epsilon, progress.sub(0.0, 0.5))?;
    let degrees = index.global(progress.sub(0.5, 1.0))?;
    Ok(from_degrees(space, &degrees))
}

fn from_degrees(space: &SensitiveSpace, degrees: &[u32]) -> DissimilarityFeasibility {
    let max_degree = degrees.iter().copied().max().unwrap_or(0) as usize;
    let rows = space.rows();
    let guaranteed = USEFUL_K
        .iter()
        .filter(|&&k| k <= rows)
        .filter_map(|&k| {
            max_guaranteed_delta(max_degree, rows, k)
                .map(|max_delta| GuaranteedPair { k, max_delta })
        })
        .collect();
    DissimilarityFeasibility {
        max_degree,
        rows,
        guaranteed,
    }
}

/// risk(G, ε) (Definition 6): the largest (|Φ_G(v, ε)| − 1)/(|G| − 1) over
/// the group's rows; 1 for a single row (and for an empty group).
pub fn group_risk(space: &SensitiveSpace, group: &[u32], epsilon: f64) -> f64 {
    if group.len() <= 1 {
        return 1.0;
    }
    let worst = group
        .iter()
        .map(|&v| {
            group
                .iter()
                .filter(|&&u| u != v && within(space.distance(v, u), epsilon))
                .count()
        })
        .max()
        .unwrap_or(0);
    worst as f64 / (group.len() - 1) as f64
}

/// Rows of `group` with more than t_G ε-neighbours in it (by definition:
/// O(|G|²) distance calls; groups are small).
pub(crate) fn violating_rows(
    space: &SensitiveSpace,
    group: &[u32],
    epsilon: f64,
    delta: f64,
) -> Vec<u32> {
    let allowed = allowed_neighbours(delta, group.len());
    group
        .iter()
        .copied()
        .filter(|&v| {
            group
                .iter()
                .filter(|&&u| u != v && within(space.distance(v, u), epsilon))
                .count()
                > allowed
        })
        .collect()
}

/// Global degrees through the index, without progress (used by `degrees`).
pub(crate) fn index_degrees(space: &SensitiveSpace, epsilon: f64) -> Vec<u32> {
    let index = DegreeIndex::new(space, epsilon, Progress::none())
        .expect("no progress callback, no cancellation");
    index
        .global(Progress::none())
        .expect("no progress callback, no cancellation")
}
