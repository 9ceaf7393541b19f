//! The partition phase (paper §5.2, "Partitioning"): a leaf of the split
//! phase that passes anonymity-check (Fig. 3) is kept; otherwise its
//! SA-sorted rows are dealt round-robin into g = maxsize(G) buckets. Two
//! rows g or more positions apart in the sorted order are never
//! neighbours (else maxsize would exceed g), so inside a bucket no row is
//! in another's neighbourhood and Pbrh = 1/|bucket| ≤ 1/m, since every
//! bucket has ≥ ⌊|G|/g⌋ ≥ m rows for a generalizable leaf (Theorem 1).

use super::maxsize::{anonymity_check, find_maxsize};
use super::reduce::Neighborhoods;
use crate::error::{CoreError, CoreResult};
use crate::progress::Progress;

/// Turns generalizable SA-sorted leaves into (ε,m)-anonymous groups, in
/// leaf order, a split leaf's buckets in round-robin order. Rows inside a
/// group stay SA-sorted.
pub(crate) fn partition_phase<N: Neighborhoods>(
    leaves: Vec<Vec<u32>>,
    sa: &[f64],
    nb: N,
    m: usize,
    progress: Progress<'_>,
) -> CoreResult<Vec<Vec<u32>>> {
    let total = leaves.iter().map(Vec::len).sum::<usize>().max(1);
    let mut done = 0usize;
    let mut last_report = 0usize;
    let mut groups = Vec::with_capacity(leaves.len());
    for leaf in leaves {
        done += leaf.len();
        let get = |k: usize| sa[leaf[k] as usize];
        if anonymity_check(leaf.len(), get, nb, m) {
            groups.push(leaf);
        } else {
            let g = find_maxsize(leaf.len(), get, nb, usize::MAX);
            if leaf.len() / g < m {
                // The split phase only emits generalizable leaves.
                return Err(CoreError::internal(format!(
                    "(epsilon, m) partition: a leaf of {} rows with maxsize {g} is not generalizable for m = {m}",
                    leaf.len()
                )));
            }
            let mut buckets: Vec<Vec<u32>> = (0..g)
                .map(|_| Vec::with_capacity(leaf.len() / g + 1))
                .collect();
            for (i, &row) in leaf.iter().enumerate() {
                buckets[i % g].push(row);
            }
            groups.extend(buckets);
        }
        if (done - last_report) * 100 >= total {
            last_report = done;
            progress.report(done as f64 / total as f64)?;
        }
    }
    progress.report(1.0)?;
    Ok(groups)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::epsilon_m::reduce::Offsets;

    #[test]
    fn anonymous_leaves_stay_and_others_are_dealt_round_robin() {
        // Leaf A: 0, 10, 20, 30 with ε = 5, m = 2 passes as is. Leaf B:
        // 100, 101, 102, 103, 104, 105 with ε = 1, m = 3: maxsize 2 so it
        // is generalizable (⌊6/2⌋ = 3), but anonymity fails (101 sees 100,
        // 101, 102: 3/6 > 1/3); dealt into 2 buckets of non-neighbours
        // {100, 102, 104}, {101, 103, 105}.
        let sa = vec![
            0.0, 10.0, 20.0, 30.0, 100.0, 101.0, 102.0, 103.0, 104.0, 105.0,
        ];
        let nb = Offsets { e1: 5.0, e2: 5.0 };
        let out = partition_phase(vec![vec![0, 1, 2, 3]], &sa, nb, 2, Progress::none()).unwrap();
        assert_eq!(out, vec![vec![0, 1, 2, 3]]);
        let nb = Offsets { e1: 1.0, e2: 1.0 };
        let out =
            partition_phase(vec![vec![4, 5, 6, 7, 8, 9]], &sa, nb, 3, Progress::none()).unwrap();
        assert_eq!(out, vec![vec![4, 6, 8], vec![5, 7, 9]]);
        // A leaf that is not generalizable is a bug, reported as such.
        let err = partition_phase(vec![vec![4, 5]], &sa, nb, 3, Progress::none()).unwrap_err();
        assert_eq!(err.kind, crate::ErrorKind::Internal);
    }
}
