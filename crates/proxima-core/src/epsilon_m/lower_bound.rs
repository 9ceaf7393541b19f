//! A lower bound on the rows any (ε,m)-anonymous release must leave out:
//! the share of the cost of a suppressed release that belongs to the data,
//! not to the engine.
//!
//! **The argument.** Call a run of SA values W = [a, b] (sorted) a
//! *window* when its ends are neighbours one way or the other: a ∈ I(b)
//! or b ∈ I(a) — the windows of find-maxsize (Fig. 1), width ε for
//! absolute neighbourhoods, ratio 1/(1−ε) for relative ones. Take any group
//! G that satisfies (ε,m) and a window W that meets it:
//! * if a ∈ I(b), let t be G's largest member in W. The lower end of I(t)
//!   is at most that of I(b) (the ends are monotone, see `reduce`), which
//!   is at most a, and t ∈ I(t): so I(t) ⊇ [a, t] ⊇ G ∩ W;
//! * if b ∈ I(a), let t be G's smallest member in W: symmetrically
//!   I(t) ⊇ [t, b] ⊇ G ∩ W.
//!
//! Either way |G ∩ W| ≤ |G ∩ I(t)| ≤ |G|/m. Summed over the groups, the
//! published rows P satisfy |P ∩ W| ≤ |P|/m, so ≤ ⌊|P|/m⌋, for every
//! window W. (The brief's windows [a, a+ε] and, relative, [a, a(1+ε)] are
//! windows here; for relative ones this family is wider, [a, a/(1−ε)],
//! hence the bound is stronger.) In floating point the same holds with
//! the audits' own tests, because IEEE rounding keeps the neighbourhood
//! ends monotone.
//!
//! So no release satisfying (ε,m) group by group publishes more than
//! p_max rows, the most rows a subset can hold with every window holding
//! at most ⌊p/m⌋ of them; `minimum_suppression` = 1 − p_max/n. Proxima's
//! (ε,m) releases publish pairwise disjoint boxes, so their attacker's
//! view is this per-group view and the bound holds for them.
//!
//! **It is exact for free groups.** On the best subset P every window
//! holds at most ⌊|P|/m⌋ rows, i.e. maxsize(P) ≤ ⌊|P|/m⌋: Theorem 1's
//! condition, under which P's SA-sorted rows dealt round-robin into
//! maxsize(P) buckets are (ε,m)-anonymous. So p_max rows can be published
//! when the groups' QI boxes do not matter; whatever a job suppresses
//! beyond the bound is the price of the boxes (and of the engine).
//!
//! **Computing p_max.** Let f(c) be the most rows choosable with at most
//! c per window. A size p is reachable iff f(⌊p/m⌋) ≥ p (a subset of a
//! valid choice stays valid with the same c). Two facts make it cheap:
//! * f(c) by a greedy left-to-right scan ([`most_rows`]), O(n);
//! * f(c)/c never grows with c: from an optimal choice S for c, drop every
//!   c-th row of S in sorted order; a window meets S in a run of
//!   consecutive rows of S, of length ≤ c, so it keeps ≤ c − 1 of them,
//!   and f(c − 1) ≥ |S| − ⌊|S|/c⌋ ≥ |S|(c − 1)/c.
//!
//! Hence "f(c) ≥ m·c" holds for c = 1..=c* and fails above: c* is found by
//! bisection (about log₂(n/m) scans), and p_max = f(c*). Indeed p = f(c*)
//! is reachable (f(c*) ≥ m·c* and f(c*) ≤ f(c* + 1) < m(c* + 1), so
//! ⌊p/m⌋ = c*); a p with ⌊p/m⌋ = c > c* would need f(c) ≥ m·c; one with
//! ⌊p/m⌋ = c ≤ c* is at most f(c) ≤ f(c*). When no c ≥ 1 works, nothing
//! can be published. p_max = n exactly when m is at
//! most Theorem 1's max m: a positive bound says the model itself, not
//! the engine, forces suppression.

use super::reduce::{check_relative_epsilon, check_values, Neighborhoods, Offsets, RelativeBand};
use crate::error::{CoreError, CoreResult, Field};
use crate::params::{Epsilon, Neighborhood, M};

/// The bound for one table and (ε, m).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MinimumSuppression {
    /// The table's rows.
    pub rows: usize,
    /// No (ε,m)-anonymous release publishes more rows than this.
    pub max_published: usize,
}

impl MinimumSuppression {
    /// Rows every (ε,m)-anonymous release leaves out, at least.
    pub fn suppressed_rows(&self) -> usize {
        self.rows - self.max_published
    }

    /// [`Self::suppressed_rows`] as a share of the rows (0 for no rows).
    pub fn share(&self) -> f64 {
        if self.rows == 0 {
            0.0
        } else {
            self.suppressed_rows() as f64 / self.rows as f64
        }
    }
}

/// The most of the sorted `values` choosable with at most `c` in any
/// window (see the module doc), by a greedy scan: take each value, smallest
/// first, when the chosen values in its window, together with it, stay
/// within c.
///
/// Only the window ending at the current value x needs checking: every
/// chosen value is ≤ x, and the chosen values of any window holding x lie
/// in [its start, x], a window ending at x, contained in W_x = {y ≤ x : y
/// and x are neighbours one way or the other} (a suffix of the chosen
/// values, whose start only moves right as x grows).
///
/// Optimal: let g_1 < g_2 < … be the positions the greedy takes and o_1 <
/// o_2 < … those of any valid choice. By induction g_i ≤ o_i: if the
/// greedy takes nothing between g_{i−1} and o_i, it considers o_i with its
/// chosen values of W_{o_i} being some g_k, …, g_{i−1}; then o_k, …,
/// o_{i−1} lie between g_k ≥ start of W_{o_i} and o_i, so o_k, …, o_i are
/// i − k + 1 ≤ c values of the valid choice in one window, i − k < c, and
/// the greedy takes o_i. So the greedy takes at least as many.
fn most_rows<N: Neighborhoods>(sorted: &[f64], nb: N, c: usize) -> usize {
    if c == 0 {
        return 0;
    }
    let mut chosen: Vec<f64> = Vec::new();
    let mut start = 0;
    for &x in sorted {
        while start < chosen.len() && !nb.either_covers(chosen[start], x) {
            start += 1;
        }
        if chosen.len() - start < c {
            chosen.push(x);
        }
    }
    chosen.len()
}

/// p_max on sorted values (module doc).
fn max_published<N: Neighborhoods>(sorted: &[f64], nb: N, m: usize) -> usize {
    let n = sorted.len();
    let reaches = |c: usize| most_rows(sorted, nb, c) >= m.saturating_mul(c);
    let top = n / m;
    if top == 0 || !reaches(1) {
        return 0;
    }
    // Invariant: reaches(lo), and nothing above hi does.
    let (mut lo, mut hi) = (1, top);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if reaches(mid) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    most_rows(sorted, nb, lo)
}

/// The bound on already sorted, already checked values.
pub(crate) fn minimum_suppression_sorted(
    sorted: &[f64],
    epsilon: Epsilon,
    m: M,
    neighborhood: Neighborhood,
) -> MinimumSuppression {
    let e = epsilon.get();
    let m = m.get();
    let max_published = match neighborhood {
        Neighborhood::Absolute => max_published(sorted, Offsets { e1: e, e2: e }, m),
        Neighborhood::Relative => max_published(sorted, RelativeBand { epsilon: e }, m),
    };
    MinimumSuppression {
        rows: sorted.len(),
        max_published,
    }
}

/// A lower bound on the share of rows that every release satisfying
/// (ε, m) group by group must leave out (module doc): 0 when m is at most
/// Theorem 1's max m. Errors (`invalid_parameters`) as
/// [`super::max_m`]: no values, a non-finite value, a relative ε ≥ 1 or a
/// relative value ≤ 0.
pub fn minimum_suppression(
    values: &[f64],
    epsilon: Epsilon,
    m: M,
    neighborhood: Neighborhood,
) -> CoreResult<MinimumSuppression> {
    if values.is_empty() {
        return Err(CoreError::invalid_parameters(
            Field::Model,
            "the data has no rows: (epsilon, m)-anonymity needs at least one",
        ));
    }
    check_relative_epsilon(epsilon, neighborhood)?;
    check_values(values, neighborhood, |i| ("row".to_string(), i as u32 + 1))?;
    let mut sorted = values.to_vec();
    sorted.sort_unstable_by(f64::total_cmp);
    Ok(minimum_suppression_sorted(
        &sorted,
        epsilon,
        m,
        neighborhood,
    ))
}

#[cfg(test)]
mod tests;
