//! The paper's own partition (§5.2 as published), kept **for comparison
//! only**: what the price-of-safety table (docs/attackers-view.md) sets the
//! safe release beside. No job runs it.
//!
//! Split by Mondrian median cuts whose halves are both generalizable (least
//! loss first, the split phase's rule); a leaf that passes anonymity-check
//! is a group, and a leaf that fails is dealt round-robin (its rows in SA
//! order) into maxsize(G) buckets, each (ε,m)-anonymous by Theorem 1. The
//! buckets of one leaf publish overlapping boxes, so an attacker who knows
//! a victim's QI values sees their union, which is the failing leaf again:
//! the release passes group by group and may breach in the attacker's view.

use super::maxsize::{anonymity_check, find_maxsize, generalizable};
use super::reduce::{Neighborhoods, Offsets, RelativeBand};
use crate::error::CoreResult;
use crate::params::{EpsilonM, Neighborhood};
use crate::partition::Partition;
use crate::progress::Progress;
use crate::split::{recursive_split, QiSpace};
use crate::table::Table;

/// The paper's partition of `table` (module doc): every group passes
/// (ε,m)-anonymity by itself; the release is **not** safe in the
/// attacker's view. Checks as [`super::place`] does (one numeric SA, values
/// that fit the neighbourhood, Theorem 1).
pub fn paper_partition(
    table: &Table,
    params: &EpsilonM,
    progress: Progress,
) -> CoreResult<Partition> {
    let sa = super::checked_sa(table, params)?;
    if sa.is_empty() {
        return Ok(Partition::default());
    }
    let (rows, sorted) = super::sort_by_sa(sa, progress.sub(0.0, 0.0))?;
    super::feasibility::check_feasible_sorted(&sorted, params)?;
    let e = params.epsilon.get();
    let m = params.m.get();
    let groups = match params.neighborhood {
        Neighborhood::Absolute => deal(table, sa, Offsets { e1: e, e2: e }, m, rows, progress),
        Neighborhood::Relative => deal(table, sa, RelativeBand { epsilon: e }, m, rows, progress),
    }?;
    Ok(Partition::new(groups))
}

/// Split and deal, monomorphized per neighbourhood kind.
fn deal<N: Neighborhoods>(
    table: &Table,
    sa: &[f64],
    nb: N,
    m: usize,
    rows: Vec<u32>,
    progress: Progress<'_>,
) -> CoreResult<Vec<Vec<u32>>> {
    let space = QiSpace::new(table);
    let value = |rows: &[u32], k: usize| sa[rows[k] as usize];
    let ok = |h: &[u32]| h.len() >= m && generalizable(h.len(), |k| value(h, k), nb, m);
    let loss = |h: &[u32]| {
        let width: f64 = (0..space.dims())
            .map(|d| space.normalized_width(d, h))
            .sum();
        h.len() as f64 * width
    };
    // Cuts are stable, so every part stays SA-sorted.
    let leaves = recursive_split(rows, progress, |part| {
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
            let total = loss(&l) + loss(&r);
            if best.as_ref().is_none_or(|(b, _, _)| total < *b) {
                best = Some((total, l, r));
            }
        }
        best.map(|(_, l, r)| (l, r))
    })?;
    let mut groups = Vec::with_capacity(leaves.len());
    for leaf in leaves {
        if anonymity_check(leaf.len(), |k| value(&leaf, k), nb, m) {
            groups.push(leaf);
            continue;
        }
        let buckets = find_maxsize(leaf.len(), |k| value(&leaf, k), nb, leaf.len()).max(1);
        let mut dealt = vec![Vec::new(); buckets];
        for (i, &r) in leaf.iter().enumerate() {
            dealt[i % buckets].push(r);
        }
        groups.extend(dealt);
    }
    Ok(groups)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::epsilon_m::group_satisfies;
    use crate::params::{Epsilon, M};
    use crate::table::{QiValues, SaValues};

    #[test]
    fn every_bucket_passes_alone_and_the_buckets_of_a_leaf_overlap() {
        // One QI point: the root is the only leaf. SA 0 1 2 3 10 11 12 13.
        // With ε = 4, m = 2 every row sees 4 rows (4·2 ≤ 8): one group.
        // With ε = 7, row 3 sees 0..3 and 10 (5·2 > 8): the leaf fails;
        // maxsize is 4, so four buckets of two, each passing alone.
        let sa = vec![0., 1., 2., 3., 10., 11., 12., 13.];
        let t = Table::from_columns(
            vec![("q".into(), QiValues::Numeric(vec![5.0; 8]))],
            vec![("s".into(), SaValues::Numeric(sa.clone()))],
        );
        let absolute = |e: f64, m: u64| {
            EpsilonM::new(
                Epsilon::new(e, "/e").unwrap(),
                M::new(m, "/m").unwrap(),
                Neighborhood::Absolute,
                "/e",
            )
            .unwrap()
        };
        let part = paper_partition(&t, &absolute(4.0, 2), Progress::none()).unwrap();
        part.check_covers(8).unwrap();
        assert_eq!(part.groups.len(), 1, "ε = 4: the leaf passes as it is");
        let params = absolute(7.0, 2);
        let part = paper_partition(&t, &params, Progress::none()).unwrap();
        part.check_covers(8).unwrap();
        // Four buckets of the one QI point: they all publish that point.
        assert_eq!(part.groups.len(), 4);
        for g in &part.groups {
            let values: Vec<f64> = g.iter().map(|&r| sa[r as usize]).collect();
            assert!(group_satisfies(&values, &params), "{values:?}");
        }
        // The safe engine cannot split these rows (one QI point): it keeps
        // them as one group, or leaves rows out.
        let safe = crate::epsilon_m::place(&t, &params, Progress::none()).unwrap();
        assert!(safe.partition.groups.len() <= 1);
    }
}
