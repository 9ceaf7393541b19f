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
    recursive_split(rows, progress, |part| best_cut(space, sa, nb, m, part))
}

fn part_generalizable<N: Neighborhoods>(sa: &[f64], nb: N, m: usize, rows: &[u32]) -> bool {
    generalizable(rows.len(), |k| sa[rows[k] as usize], nb, m)
}

/// `loss(G) = |G| · Σ_dims normalized width` (module doc).
pub(crate) fn loss(space: &QiSpace<'_>, rows: &[u32]) -> f64 {
    let widths: f64 = (0..space.dims())
        .map(|d| space.normalized_width(d, rows))
        .sum();
    rows.len() as f64 * widths
}

/// The least-loss cut of `part` into two generalizable halves, if any.
fn best_cut<N: Neighborhoods>(
    space: &QiSpace<'_>,
    sa: &[f64],
    nb: N,
    m: usize,
    part: &[u32],
) -> Option<(Vec<u32>, Vec<u32>)> {
    // Each half needs at least m rows to be generalizable.
    if part.len() < 2 * m {
        return None;
    }
    let mut best: Option<(f64, Vec<u32>, Vec<u32>)> = None;
    for dim in 0..space.dims() {
        let Some((left, right)) = space.cut(part, dim) else {
            continue;
        };
        if left.len() < m
            || right.len() < m
            || !part_generalizable(sa, nb, m, &left)
            || !part_generalizable(sa, nb, m, &right)
        {
            continue;
        }
        let l = loss(space, &left) + loss(space, &right);
        if best.as_ref().is_none_or(|(b, _, _)| l < *b) {
            best = Some((l, left, right));
        }
    }
    best.map(|(_, left, right)| (left, right))
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
        crate::Partition::new(leaves.clone()).check_covers(8).unwrap();
        assert!(leaves.len() >= 2);
        for leaf in &leaves {
            assert!(part_generalizable(&sa, nb, 2, leaf));
            assert!(leaf.windows(2).all(|w| sa[w[0] as usize] <= sa[w[1] as usize]));
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
            vec![("a".into(), QiValues::Numeric(a)), ("b".into(), QiValues::Numeric(b))],
            vec![("s".into(), SaValues::Numeric(sa.clone()))],
        );
        let space = QiSpace::new(&t);
        let nb = Offsets { e1: 1.0, e2: 1.0 };
        let cut = best_cut(&space, &sa, nb, 4, &[0, 1, 2, 3, 4, 5, 6, 7]).unwrap();
        assert_eq!(cut, (vec![0, 1, 2, 3], vec![4, 5, 6, 7]));
        assert!(best_cut(&space, &sa, nb, 5, &[0, 1, 2, 3, 4, 5, 6, 7]).is_none());
    }
}
