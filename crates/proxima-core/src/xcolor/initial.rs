//! The paper's initial colouring, Algorithm 1 (degree-balanced), of each
//! part of a table (the `degree_balanced` option colours one part: the
//! whole table).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::error::CoreResult;
use crate::progress::Progress;

use super::degrees::DegreeIndex;

/// Classes, and the range of class indices of each part.
pub(crate) type Colouring = (Vec<Vec<u32>>, Vec<std::ops::Range<usize>>);

/// Colours each part with Algorithm 1 on the part's own degrees. Returns the
/// classes and, for each part, the range of its classes (parts come in the
/// split's depth-first order, so neighbouring ranges are QI-near).
pub(crate) fn colour_parts(
    index: &DegreeIndex<'_>,
    parts: &[Vec<u32>],
    k: usize,
    progress: Progress<'_>,
) -> CoreResult<Colouring> {
    let total: usize = parts.iter().map(Vec::len).sum::<usize>().max(1);
    let mut done = 0;
    let mut classes = Vec::new();
    let mut ranges = Vec::with_capacity(parts.len());
    for part in parts {
        let degrees = index.degrees_in(part, Progress::none())?;
        let start = classes.len();
        classes.extend(degree_balanced(part, &degrees, k));
        ranges.push(start..classes.len());
        done += part.len();
        progress.report(done as f64 / total as f64)?;
    }
    Ok((classes, ranges))
}

/// Algorithm 1 (INITIALIZE) on `rows` with their `degrees` (same order):
/// m = ⌊|rows|/k⌋ classes; vertices in descending degree order go to the
/// non-full class with the smallest degree sum, first up to q rows each
/// (lines 3-5), then the remaining ones up to q + 1 (lines 6-8). The paper
/// writes q = k, which assumes n − km ≤ m; in general (e.g. n = 29, k = 10)
/// we take q = ⌊n/m⌋ ≥ k, so sizes still differ by at most one
/// (Definition 11 (ii)) and every class has ≥ k rows. Ties (equal degrees,
/// equal sums) keep the input order and the lowest class index, so the
/// result is deterministic. Needs |rows| ≥ k ≥ 1.
pub(crate) fn degree_balanced(rows: &[u32], degrees: &[u32], k: usize) -> Vec<Vec<u32>> {
    debug_assert!(k >= 1 && rows.len() >= k && rows.len() == degrees.len());
    let m = rows.len() / k;
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by_key(|&i| Reverse(degrees[i]));
    let mut classes: Vec<Vec<u32>> = (0..m)
        .map(|_| Vec::with_capacity(rows.len() / m + 1))
        .collect();
    let q = rows.len() / m;
    let mut sums = vec![0u64; m];
    let mut heap: BinaryHeap<Reverse<(u64, usize)>> = (0..m).map(|j| Reverse((0u64, j))).collect();
    let fill = q * m;
    for (pos, &i) in order.iter().enumerate() {
        if pos == fill {
            heap = (0..m).map(|j| Reverse((sums[j], j))).collect();
        }
        let Reverse((sum, j)) = heap.pop().expect("an open class remains while rows remain");
        classes[j].push(rows[i]);
        sums[j] = sum + degrees[i] as u64;
        let cap = if pos < fill { q } else { q + 1 };
        if classes[j].len() < cap {
            heap.push(Reverse((sums[j], j)));
        }
    }
    classes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn algorithm_1_balances_degree_sums_with_equitable_sizes() {
        // Degrees 9,8,…,0 into m = 3 classes (k = 3, one row left over):
        // greedy on the smallest sum gives {9,4,3}, {8,5,2}, {7,6,1} and the
        // last row (degree 0) joins the smallest sum.
        let rows: Vec<u32> = (0..10).collect();
        let degrees: Vec<u32> = (0..10).map(|i| 9 - i).collect();
        let classes = degree_balanced(&rows, &degrees, 3);
        let sums: Vec<u32> = classes
            .iter()
            .map(|c| c.iter().map(|&r| degrees[r as usize]).sum())
            .collect();
        assert_eq!(
            classes.iter().map(Vec::len).collect::<Vec<_>>(),
            vec![3, 3, 4]
        );
        assert_eq!(sums, vec![16, 15, 14]);
        assert_eq!(classes[0], vec![0, 5, 6]);
        // n = 29, k = 10: m = 2, q = 14 — sizes 14 and 15, never below k.
        let rows: Vec<u32> = (0..29).collect();
        let classes = degree_balanced(&rows, &[1; 29], 10);
        let mut sizes: Vec<usize> = classes.iter().map(Vec::len).collect();
        sizes.sort();
        assert_eq!(sizes, vec![14, 15]);
    }
}
