//! The split phase (paper §5.2, "Splitting"): Mondrian median cuts over
//! the QIs, keeping only cuts whose two halves are both generalizable.
//!
//! Rows enter sorted by SA value and cuts are stable, so every part stays
//! SA-sorted and each generalizability test is one linear sweep (Lemma 5)
//! — the table is sorted once, never again. The cuts are
//! [`QiSpace::cut`]'s, taken on the columnar engine ([`crate::columnar`]):
//! a node's row ids, QI keys and SA values sit in contiguous arrays and a
//! cut partitions them in place, so no read goes back to the table.
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
use crate::columnar::{extent, extent_by_side, split_in_place, Columns, CutScratch, Dims, Tmp};
use crate::error::CoreResult;
use crate::progress::Progress;
use crate::split::QiSpace;
use std::ops::Range;

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
    let (dims, row_keys) = Dims::new(space);
    let values = rows.iter().map(|&r| sa[r as usize]).collect();
    let mut cols = Columns::new(row_keys, rows, values);
    let mut scratch = Scratch::new(&dims, nb, m);
    let leaves = split_in_place(cols.ids.len(), progress, |node| {
        scratch.best_cut(&mut cols, node)
    })?;
    Ok(cols.groups(&leaves))
}

/// Per-node working memory, reused across nodes.
struct Scratch<'d, 'a, N> {
    dims: &'d Dims<'a>,
    nb: N,
    m: usize,
    /// The node's key extent per dimension.
    extents: Vec<(u32, u32)>,
    select: CutScratch,
    /// Per position of the node: whether the row goes left, for the cut
    /// being evaluated and for the best cut so far.
    flags: Vec<bool>,
    best_flags: Vec<bool>,
    /// SA values of the two halves of the cut being evaluated.
    half_sa: [Vec<f64>; 2],
    tmp: Tmp,
}

impl<'d, 'a, N: Neighborhoods> Scratch<'d, 'a, N> {
    fn new(dims: &'d Dims<'a>, nb: N, m: usize) -> Self {
        Scratch {
            dims,
            nb,
            m,
            extents: Vec::with_capacity(dims.len()),
            select: CutScratch::default(),
            flags: Vec::new(),
            best_flags: Vec::new(),
            half_sa: [Vec::new(), Vec::new()],
            tmp: Tmp::default(),
        }
    }

    /// Takes the least-loss cut of `node` into two generalizable halves, if
    /// any: partitions the node in place and returns its left size.
    fn best_cut(&mut self, cols: &mut Columns, node: Range<usize>) -> Option<usize> {
        let (m, n) = (self.m, node.len());
        // Each half needs at least m rows to be generalizable.
        if n < 2 * m {
            return None;
        }
        self.extents.clear();
        self.extents
            .extend(cols.keys.iter().map(|k| extent(&k[node.clone()])));
        let mut best: Option<(f64, usize)> = None;
        for dim in 0..self.dims.len() {
            let keys = &cols.keys[dim][node.clone()];
            let Some(cut) = self
                .dims
                .cut(dim, keys, self.extents[dim], &mut self.select)
            else {
                continue;
            };
            if cut.left < m || n - cut.left < m {
                continue;
            }
            cut.flags(keys, &mut self.flags);
            let Some(loss) = self.evaluate(cols, node.clone(), cut.left) else {
                continue;
            };
            if best.is_none_or(|(b, _)| loss < b) {
                best = Some((loss, cut.left));
                std::mem::swap(&mut self.flags, &mut self.best_flags);
            }
        }
        let (_, left) = best?;
        cols.partition(node, &self.best_flags, &mut self.tmp);
        Some(left)
    }

    /// `loss(left) + loss(right)` of the cut in `self.flags` when both
    /// halves are generalizable (widths are only computed then).
    fn evaluate(&mut self, cols: &Columns, node: Range<usize>, left: usize) -> Option<f64> {
        // Both halves' SA values, in order, written without data-dependent
        // branches (a median cut's sides are a coin toss for the branch
        // predictor): each value goes to both buffers, only the index of
        // its side advances.
        let n = node.len();
        let [l_buf, r_buf] = &mut self.half_sa;
        l_buf.resize(n.max(l_buf.len()), 0.0);
        r_buf.resize(n.max(r_buf.len()), 0.0);
        let (mut l, mut r) = (0usize, 0usize);
        for (&value, &is_left) in cols.payload[node.clone()].iter().zip(&self.flags) {
            let f = usize::from(is_left);
            l_buf[l] = value;
            r_buf[r] = value;
            l += f;
            r += 1 - f;
        }
        debug_assert_eq!(l, left);
        let (l_sa, r_sa) = (&l_buf[..l], &r_buf[..r]);
        let (nb, m) = (self.nb, self.m);
        if !generalizable(l_sa.len(), |k| l_sa[k], nb, m)
            || !generalizable(r_sa.len(), |k| r_sa[k], nb, m)
        {
            return None;
        }
        let (mut l_width, mut r_width) = (0.0, 0.0);
        for (d, keys) in cols.keys.iter().enumerate() {
            let [(l_lo, l_hi), (r_lo, r_hi)] = extent_by_side(&keys[node.clone()], &self.flags);
            l_width += self.dims.width(d, l_lo, l_hi);
            r_width += self.dims.width(d, r_lo, r_hi);
        }
        Some(left as f64 * l_width + (n - left) as f64 * r_width)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::epsilon_m::reduce::Offsets;
    use crate::split::recursive_split;
    use crate::table::{QiValues, SaValues, Table};
    use proptest::prelude::*;
    use std::sync::Arc;

    /// The split phase by its definition, on row-id lists: every
    /// dimension's [`QiSpace::cut`] whose halves have m rows and are
    /// generalizable, the least `Σ |half| · Σ_d normalized_width` first.
    fn reference<N: Neighborhoods>(
        space: &QiSpace<'_>,
        sa: &[f64],
        nb: N,
        m: usize,
        rows: Vec<u32>,
    ) -> Vec<Vec<u32>> {
        let loss = |h: &[u32]| {
            h.len() as f64
                * (0..space.dims())
                    .map(|d| space.normalized_width(d, h))
                    .fold(0.0, |acc, w| acc + w)
        };
        let ok = |h: &[u32]| h.len() >= m && generalizable(h.len(), |k| sa[h[k] as usize], nb, m);
        recursive_split(rows, Progress::none(), |part| {
            if part.len() < 2 * m {
                return None;
            }
            let mut best: Option<(f64, Vec<u32>, Vec<u32>)> = None;
            for dim in 0..space.dims() {
                let Some((l, r)) = space.cut(part, dim) else {
                    continue;
                };
                if !ok(&l) || !ok(&r) {
                    continue;
                }
                // Summed per dimension like the split phase does, so ties
                // between dimensions break the same way.
                let (mut lw, mut rw) = (0.0, 0.0);
                for d in 0..space.dims() {
                    lw += space.normalized_width(d, &l);
                    rw += space.normalized_width(d, &r);
                }
                let total = l.len() as f64 * lw + r.len() as f64 * rw;
                debug_assert!((total - (loss(&l) + loss(&r))).abs() < 1e-9);
                if best.as_ref().is_none_or(|(b, _, _)| total < *b) {
                    best = Some((total, l, r));
                }
            }
            best.map(|(_, l, r)| (l, r))
        })
        .unwrap()
    }

    fn sorted_by_sa(sa: &[f64]) -> Vec<u32> {
        let mut rows: Vec<u32> = (0..sa.len() as u32).collect();
        rows.sort_by(|&x, &y| sa[x as usize].total_cmp(&sa[y as usize]).then(x.cmp(&y)));
        rows
    }

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
        let rows = sorted_by_sa(&sa);
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
        let all: Vec<u32> = (0..8).collect();
        let split = |m| split_phase(&space, &sa, nb, m, all.clone(), Progress::none()).unwrap();
        assert_eq!(split(4), vec![vec![0, 1, 2, 3], vec![4, 5, 6, 7]]);
        assert_eq!(split(5), vec![all.clone()]);
        assert_eq!(split(4), reference(&space, &sa, nb, 4, all.clone()));
    }

    fn hierarchy() -> Arc<crate::Hierarchy> {
        let paths: Vec<Vec<String>> = (0..6)
            .map(|i| vec![format!("v{i}"), format!("g{}", i / 3), "*".to_string()])
            .collect();
        Arc::new(crate::Hierarchy::from_paths(&paths).unwrap())
    }

    proptest! {
        /// The columnar split phase makes exactly the choices of the
        /// definition (same leaves, same order), on numeric and
        /// categorical QIs with many ties.
        #[test]
        fn equals_the_definition_on_row_lists(
            rows in proptest::collection::vec((0u8..7, 0u8..6, 0u8..4, 0u8..9), 1..120),
            m in 1usize..4,
            e in prop::sample::select(vec![0.0, 1.0, 2.5]),
        ) {
            let t = Table::from_columns(
                vec![
                    ("a".into(), QiValues::Numeric(rows.iter().map(|r| r.0 as f64).collect())),
                    ("c".into(), QiValues::Categorical {
                        codes: rows.iter().map(|r| r.1 as u32).collect(),
                        hierarchy: hierarchy(),
                    }),
                    ("b".into(), QiValues::Numeric(rows.iter().map(|r| (r.2 as f64).powi(2)).collect())),
                ],
                vec![("s".into(), SaValues::Numeric(rows.iter().map(|r| r.3 as f64).collect()))],
            );
            let sa = t.single_numeric_sa().unwrap().to_vec();
            let space = QiSpace::new(&t);
            let nb = Offsets { e1: e, e2: e };
            let sorted = sorted_by_sa(&sa);
            let fast = split_phase(&space, &sa, nb, m, sorted.clone(), Progress::none()).unwrap();
            prop_assert_eq!(fast, reference(&space, &sa, nb, m, sorted));
        }
    }
}
