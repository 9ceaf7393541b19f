//! The split phase (paper §5.2, "Splitting"): Mondrian median cuts over
//! the QIs, keeping only cuts whose two halves are both generalizable.
//!
//! Rows enter sorted by SA value and [`QiSpace::cut`] is stable, so every
//! part stays SA-sorted and each generalizability test is one linear sweep
//! (Lemma 5) — the table is sorted once, never again.
//!
//! **Information loss of a cut.** Among the dimensions whose cut leaves
//! both halves generalizable, we take the one minimizing
//! `loss(G1) + loss(G2)` with `loss(G) = |G| · Σ_dims normalized width of G`.
//! This is the paper's own measure (§6: loss(t*) = Σᵢ |t*.Aᵢ| / |Aᵢ| per
//! generalized tuple, summed over the table): every tuple of G is published
//! with G's box, so the tuples of G contribute |G| times the box's
//! normalized extent. Normalized widths ([`QiSpace::normalized_width`]:
//! range fraction for numeric and date QIs, normalized certainty penalty for
//! hierarchies) make QIs with different units comparable. Ties go to the
//! lower dimension index, so the result is deterministic.

use super::maxsize::generalizable;
use super::reduce::Neighborhoods;
use crate::error::CoreResult;
use crate::progress::Progress;
use crate::split::{recursive_split, QiSpace};
use crate::table::QiValues;

/// The split phase: SA-sorted `rows` → generalizable SA-sorted leaves, in
/// depth-first order. `sa[row]` is the row's SA value; `m` the target.
pub(crate) fn split_phase<N: Neighborhoods>(
    space: &QiSpace<'_>,
    sa: &[f64],
    nb: N,
    m: usize,
    rows: Vec<u32>,
    progress: Progress<'_>,
) -> CoreResult<Vec<Vec<u32>>> {
    let mut scratch = Scratch::new(space, sa, nb, m);
    recursive_split(rows, progress, |part| scratch.best_cut(part))
}

/// How a QI dimension's width is measured on a node's rows.
enum Width<'a> {
    /// Numeric or date: (hi − lo) / `range` over the node's dense keys, the
    /// formula of [`QiSpace::normalized_width`] (0 when `range` is 0).
    Range { range: f64, column: Column<'a> },
    /// Categorical: [`QiSpace::normalized_width`] itself (hierarchy LCA).
    Hierarchy,
}

/// A numeric or date QI column, read directly (the same key as
/// [`QiSpace::key`], without its per-call dispatch).
#[derive(Clone, Copy)]
enum Column<'a> {
    Numeric(&'a [f64]),
    Date(&'a [i32]),
}

impl Column<'_> {
    #[inline]
    fn key(self, row: u32) -> f64 {
        match self {
            Column::Numeric(v) => v[row as usize],
            Column::Date(v) => v[row as usize] as f64,
        }
    }
}

/// Per-node working memory, reused across nodes. A node's rows are
/// scattered over the table, so every read of a column is a cache miss on
/// large tables; the node's SA values and numeric keys are gathered once
/// into dense arrays, and the halves of each candidate cut are then
/// evaluated by sequential scans (no per-row allocation).
struct Scratch<'s, 'a, N> {
    space: &'s QiSpace<'a>,
    sa: &'s [f64],
    nb: N,
    m: usize,
    widths: Vec<Width<'a>>,
    /// The node's SA values, in its (SA-sorted) row order.
    node_sa: Vec<f64>,
    /// Per dimension, the node's keys (empty for categorical dimensions).
    node_keys: Vec<Vec<f64>>,
    /// SA values of the two halves of the cut being evaluated.
    half_sa: [Vec<f64>; 2],
    /// Per position of the node: whether the row is in the left half.
    in_left: Vec<bool>,
}

impl<'s, 'a, N: Neighborhoods> Scratch<'s, 'a, N> {
    fn new(space: &'s QiSpace<'a>, sa: &'s [f64], nb: N, m: usize) -> Self {
        let widths = space
            .table()
            .qis()
            .iter()
            .map(|c| {
                let column = match &c.values {
                    QiValues::Categorical { .. } => return Width::Hierarchy,
                    QiValues::Numeric(v) => Column::Numeric(v),
                    QiValues::Date(v) => Column::Date(v),
                };
                let (lo, hi) = (0..space.table().rows() as u32)
                    .map(|r| column.key(r))
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), k| {
                        (lo.min(k), hi.max(k))
                    });
                let range = if hi > lo { hi - lo } else { 0.0 };
                Width::Range { range, column }
            })
            .collect();
        Scratch {
            space,
            sa,
            nb,
            m,
            widths,
            node_sa: Vec::new(),
            node_keys: vec![Vec::new(); space.dims()],
            half_sa: [Vec::new(), Vec::new()],
            in_left: Vec::new(),
        }
    }

    /// The least-loss cut of `part` into two generalizable halves, if any.
    fn best_cut(&mut self, part: &[u32]) -> Option<(Vec<u32>, Vec<u32>)> {
        let m = self.m;
        // Each half needs at least m rows to be generalizable.
        if part.len() < 2 * m {
            return None;
        }
        self.gather(part);
        let mut best: Option<(f64, Vec<u32>, Vec<u32>)> = None;
        for dim in 0..self.space.dims() {
            // All keys equal: `cut` would find no median split either.
            if self.constant(dim) {
                continue;
            }
            let Some((left, right)) = self.space.cut(part, dim) else {
                continue;
            };
            if left.len() < m || right.len() < m {
                continue;
            }
            let Some(loss) = self.evaluate(part, &left, &right) else {
                continue;
            };
            if best.as_ref().is_none_or(|(b, _, _)| loss < *b) {
                best = Some((loss, left, right));
            }
        }
        best.map(|(_, left, right)| (left, right))
    }

    fn gather(&mut self, part: &[u32]) {
        self.node_sa.clear();
        self.node_sa
            .extend(part.iter().map(|&r| self.sa[r as usize]));
        for (d, keys) in self.node_keys.iter_mut().enumerate() {
            keys.clear();
            if let Width::Range { column, .. } = self.widths[d] {
                keys.extend(part.iter().map(|&r| column.key(r)));
            }
        }
    }

    /// Whether the gathered node has one key on numeric/date `dim`.
    fn constant(&self, dim: usize) -> bool {
        match self.node_keys[dim].split_first() {
            Some((first, rest)) => rest.iter().all(|k| k == first),
            None => false,
        }
    }

    /// `loss(left) + loss(right)` when both halves are generalizable.
    /// `left` and `right` are complementary subsequences of `part` (cuts are
    /// stable), so one merge-like scan of `part` tells each position's side;
    /// widths are only computed for cuts that pass.
    fn evaluate(&mut self, part: &[u32], left: &[u32], right: &[u32]) -> Option<f64> {
        let [l_sa, r_sa] = &mut self.half_sa;
        l_sa.clear();
        r_sa.clear();
        self.in_left.clear();
        let mut li = 0;
        for (&row, &value) in part.iter().zip(&self.node_sa) {
            let is_left = li < left.len() && left[li] == row;
            self.in_left.push(is_left);
            if is_left {
                li += 1;
                l_sa.push(value);
            } else {
                r_sa.push(value);
            }
        }
        debug_assert!(li == left.len() && r_sa.len() == right.len());
        let (nb, m) = (self.nb, self.m);
        if !generalizable(l_sa.len(), |k| l_sa[k], nb, m)
            || !generalizable(r_sa.len(), |k| r_sa[k], nb, m)
        {
            return None;
        }
        let (mut l_width, mut r_width) = (0.0, 0.0);
        for (d, width) in self.widths.iter().enumerate() {
            match *width {
                Width::Range { range, .. } if range > 0.0 => {
                    let [l, r] = span_by_side(&self.node_keys[d], &self.in_left);
                    l_width += l / range;
                    r_width += r / range;
                }
                Width::Range { .. } => {}
                Width::Hierarchy => {
                    l_width += self.space.normalized_width(d, left);
                    r_width += self.space.normalized_width(d, right);
                }
            }
        }
        Some(left.len() as f64 * l_width + right.len() as f64 * r_width)
    }
}

/// hi − lo of the keys on each side ([left, right]; 0 for an empty side).
fn span_by_side(keys: &[f64], in_left: &[bool]) -> [f64; 2] {
    let mut lo = [f64::INFINITY; 2];
    let mut hi = [f64::NEG_INFINITY; 2];
    for (&key, &is_left) in keys.iter().zip(in_left) {
        let side = usize::from(!is_left);
        // Keys are finite: plain comparisons, no NaN handling needed.
        if key < lo[side] {
            lo[side] = key;
        }
        if key > hi[side] {
            hi[side] = key;
        }
    }
    [0, 1].map(|s| if hi[s] >= lo[s] { hi[s] - lo[s] } else { 0.0 })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::epsilon_m::reduce::Offsets;
    use crate::table::{QiValues, SaValues, Table};

    #[test]
    fn splits_only_into_generalizable_halves_and_keeps_sa_order() {
        // QI a separates {0..3} from {4..7}; SA values repeat per half so
        // both halves stay generalizable for ε = 0.5, m = 2.
        let qi: Vec<f64> = (0..8).map(|i| i as f64).collect();
        let sa = vec![1.0, 5.0, 9.0, 13.0, 1.0, 5.0, 9.0, 13.0];
        let t = Table::from_columns(
            vec![("a".into(), QiValues::Numeric(qi))],
            vec![("s".into(), SaValues::Numeric(sa.clone()))],
        );
        let space = QiSpace::new(&t);
        let mut rows: Vec<u32> = (0..8).collect();
        rows.sort_by(|&x, &y| sa[x as usize].total_cmp(&sa[y as usize]).then(x.cmp(&y)));
        let nb = Offsets { e1: 0.5, e2: 0.5 };
        let leaves = split_phase(&space, &sa, nb, 2, rows, Progress::none()).unwrap();
        crate::Partition::new(leaves.clone())
            .check_covers(8)
            .unwrap();
        assert!(leaves.len() >= 2);
        for leaf in &leaves {
            assert!(generalizable(leaf.len(), |k| sa[leaf[k] as usize], nb, 2));
            assert!(leaf
                .windows(2)
                .all(|w| sa[w[0] as usize] <= sa[w[1] as usize]));
        }
        // With ε = 4 every two consecutive SA values are neighbours: a
        // group of 4 distinct values spaced 4 apart has maxsize 2, so
        // m = 2 needs ≥ 4 rows per half: the halves of 4 qualify, nothing
        // smaller does.
        let nb = Offsets { e1: 4.0, e2: 4.0 };
        let rows: Vec<u32> = vec![0, 4, 1, 5, 2, 6, 3, 7];
        let leaves = split_phase(&space, &sa, nb, 2, rows, Progress::none()).unwrap();
        assert_eq!(leaves, vec![vec![0, 1, 2, 3], vec![4, 5, 6, 7]]);
    }

    #[test]
    fn picks_the_dimension_with_the_least_loss() {
        // Both QIs cut the rows into generalizable halves; cutting on b
        // leaves each half narrow on both a and b, cutting on a would leave
        // b wide in each half.
        let a = vec![0.0, 1.0, 2.0, 3.0, 0.0, 1.0, 2.0, 3.0];
        let b = vec![0.0, 0.0, 0.0, 0.0, 10.0, 10.0, 10.0, 10.0];
        let sa: Vec<f64> = (0..8).map(|i| (i * 10) as f64).collect();
        let t = Table::from_columns(
            vec![
                ("a".into(), QiValues::Numeric(a)),
                ("b".into(), QiValues::Numeric(b)),
            ],
            vec![("s".into(), SaValues::Numeric(sa.clone()))],
        );
        let space = QiSpace::new(&t);
        let nb = Offsets { e1: 1.0, e2: 1.0 };
        let all = [0, 1, 2, 3, 4, 5, 6, 7];
        let cut = Scratch::new(&space, &sa, nb, 4).best_cut(&all).unwrap();
        assert_eq!(cut, (vec![0, 1, 2, 3], vec![4, 5, 6, 7]));
        assert!(Scratch::new(&space, &sa, nb, 5).best_cut(&all).is_none());
        // The dense-key loss equals the definition on normalized_width.
        let mut scratch = Scratch::new(&space, &sa, nb, 1);
        scratch.gather(&all);
        for dim in 0..2 {
            let (l, r) = space.cut(&all, dim).unwrap();
            let reference: f64 = [&l, &r]
                .iter()
                .map(|h| h.len() as f64 * (0..2).map(|d| space.normalized_width(d, h)).sum::<f64>())
                .sum();
            let fast = scratch.evaluate(&all, &l, &r).unwrap();
            assert!((fast - reference).abs() < 1e-12, "{fast} vs {reference}");
        }
    }
}
