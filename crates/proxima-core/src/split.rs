//! Median cuts over the quasi-identifier space, shared by the Mondrian
//! baseline, the (ε,m) split phase and XColor's QI-aware pre-partition.
//!
//! A cut divides a set of rows in two along one QI:
//! * numeric and date QIs at the median value (`≤ median` or `< median`,
//!   whichever is better balanced with both sides non-empty — a median with
//!   many equal values must not leave a side empty);
//! * categorical QIs between the children of the rows' lowest common
//!   ancestor: children in depth-first order, the prefix whose row count is
//!   closest to half. A half that holds one child generalizes to a strictly
//!   lower node; a half that holds several keeps the parent as its label, but
//!   the halves stay disjoint in leaf order, so later cuts separate them.
//!
//! Cuts are stable: each half keeps the input order of its rows, so a caller
//! that keeps rows sorted by SA (the (ε,m) split) needs no re-sort.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::error::CoreResult;
use crate::progress::Progress;
use crate::table::{QiValues, Table};

/// Longest time a recursive split goes without a cancellation checkpoint
/// between two `choose` calls.
const CHECK_EVERY: Duration = Duration::from_millis(50);

/// Where a median cut of `n` keys puts its bound: with `lt` keys below the
/// median and `le` at or below it, the side (`strict`: left is `< median`,
/// else `<= median`) whose smaller half is larger, and the left count;
/// `None` when neither side splits the keys (all equal). Shared by
/// [`QiSpace::cut`] and the columnar engine so both cut alike.
pub(crate) fn median_side(n: usize, lt: usize, le: usize) -> Option<(bool, usize)> {
    let balance = |left: usize| {
        if left == 0 || left == n {
            0
        } else {
            left.min(n - left)
        }
    };
    let (strict, left) = if balance(lt) > balance(le) {
        (true, lt)
    } else {
        (false, le)
    };
    (balance(left) > 0).then_some((strict, left))
}

/// The checkpoints of a top-down split ([`recursive_split`] and the columnar
/// `split_in_place`): progress is the fraction of rows in final groups,
/// reported about every 1 % of rows and, between nodes, at least every
/// [`CHECK_EVERY`] — the first groups only become final after a descent
/// through every level, which takes a while on 500k rows.
///
/// Shared by the threads of a parallel split (`&self`, atomic counters): a
/// report sums every thread's final rows, and one thread reports at a time.
pub(crate) struct SplitCheckpoints<'p> {
    progress: Progress<'p>,
    total: f64,
    done: AtomicUsize,
    last_report: AtomicUsize,
    started: Instant,
    /// Milliseconds after `started` of the last clock checkpoint.
    last_ms: AtomicU64,
}

impl<'p> SplitCheckpoints<'p> {
    pub(crate) fn new(rows: usize, progress: Progress<'p>) -> Self {
        SplitCheckpoints {
            progress,
            total: rows.max(1) as f64,
            done: AtomicUsize::new(0),
            last_report: AtomicUsize::new(0),
            started: Instant::now(),
            last_ms: AtomicU64::new(0),
        }
    }

    /// Before a node is examined: a checkpoint when the clock says so.
    pub(crate) fn before_node(&self) -> CoreResult<()> {
        let now = self.started.elapsed().as_millis() as u64;
        let last = self.last_ms.load(Ordering::Relaxed);
        if now.saturating_sub(last) >= CHECK_EVERY.as_millis() as u64
            && self
                .last_ms
                .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
        {
            let done = self.done.load(Ordering::Relaxed);
            self.progress.report(done as f64 / self.total)?;
        }
        Ok(())
    }

    /// A final group of `rows` rows: a checkpoint about every 1 % of rows.
    pub(crate) fn final_group(&self, rows: usize) -> CoreResult<()> {
        let done = self.done.fetch_add(rows, Ordering::Relaxed) + rows;
        let last = self.last_report.load(Ordering::Relaxed);
        if (done.saturating_sub(last)) as f64 >= self.total / 100.0
            && self
                .last_report
                .compare_exchange(last, done, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
        {
            self.progress.report(done as f64 / self.total)?;
        }
        Ok(())
    }

    pub(crate) fn finish(&self) -> CoreResult<()> {
        self.progress.report(1.0)
    }
}

/// The QI space of a table with the full-domain extent of each QI, used to
/// normalize widths (a QI's width over some rows, relative to the table).
pub struct QiSpace<'a> {
    table: &'a Table,
    /// Numeric/date: (min, max) over the table; categorical: unused.
    extent: Vec<(f64, f64)>,
}

impl<'a> QiSpace<'a> {
    pub fn new(table: &'a Table) -> Self {
        let extent = table
            .qis()
            .iter()
            .map(|c| match &c.values {
                QiValues::Numeric(v) => min_max(v.iter().copied()),
                QiValues::Date(v) => min_max(v.iter().map(|&d| d as f64)),
                QiValues::Categorical { .. } => (0.0, 0.0),
            })
            .collect();
        QiSpace { table, extent }
    }

    pub fn table(&self) -> &'a Table {
        self.table
    }

    /// Number of QI dimensions.
    pub fn dims(&self) -> usize {
        self.extent.len()
    }

    /// (min, max) of a numeric or date QI over the table ((0, 0) for a
    /// categorical one).
    pub fn extent(&self, dim: usize) -> (f64, f64) {
        self.extent[dim]
    }

    /// The ordering key of a row on a dimension: the value for numeric QIs,
    /// the day for dates, the depth-first leaf rank for categorical ones.
    #[inline]
    pub fn key(&self, dim: usize, row: u32) -> f64 {
        match &self.table.qis()[dim].values {
            QiValues::Numeric(v) => v[row as usize],
            QiValues::Date(v) => v[row as usize] as f64,
            QiValues::Categorical { codes, hierarchy } => {
                hierarchy.leaf_rank(codes[row as usize]) as f64
            }
        }
    }

    /// Normalized width in [0, 1] of `rows` on `dim`: (hi − lo) / table range
    /// for numeric and date QIs (0 when the table range is 0); for
    /// categorical QIs (leaves under the rows' LCA − 1) / (leaves − 1), the
    /// normalized certainty penalty of their generalization.
    pub fn normalized_width(&self, dim: usize, rows: &[u32]) -> f64 {
        if rows.is_empty() {
            return 0.0;
        }
        match &self.table.qis()[dim].values {
            QiValues::Categorical { codes, hierarchy } => {
                let leaves = hierarchy.leaf_count();
                if leaves <= 1 {
                    return 0.0;
                }
                let (lo, hi) = rank_range(rows, codes, hierarchy);
                let (level, node) = hierarchy.lca_of_rank_range(lo, hi);
                (hierarchy.leaves_under(level, node) as f64 - 1.0) / (leaves as f64 - 1.0)
            }
            _ => {
                let (lo, hi) = min_max(rows.iter().map(|&r| self.key(dim, r)));
                let (tlo, thi) = self.extent[dim];
                if thi > tlo {
                    (hi - lo) / (thi - tlo)
                } else {
                    0.0
                }
            }
        }
    }

    /// Dimensions with a non-zero width on `rows`, widest first (ties by
    /// dimension index, so the order is deterministic).
    pub fn dims_by_width(&self, rows: &[u32]) -> Vec<usize> {
        let mut dims: Vec<(usize, f64)> = (0..self.dims())
            .map(|d| (d, self.normalized_width(d, rows)))
            .filter(|(_, w)| *w > 0.0)
            .collect();
        dims.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        dims.into_iter().map(|(d, _)| d).collect()
    }

    /// Cuts `rows` in two along `dim` (see the module doc). `None` when the
    /// rows cannot be separated on this dimension (all equal, or all under
    /// one leaf). Both halves are non-empty and keep the input order.
    pub fn cut(&self, rows: &[u32], dim: usize) -> Option<(Vec<u32>, Vec<u32>)> {
        if rows.len() < 2 {
            return None;
        }
        match &self.table.qis()[dim].values {
            QiValues::Categorical { codes, hierarchy } => {
                let (lo, hi) = rank_range(rows, codes, hierarchy);
                let (level, node) = hierarchy.lca_of_rank_range(lo, hi);
                if level == 0 {
                    return None;
                }
                let starts = hierarchy.child_rank_starts(level, node);
                debug_assert!(starts.windows(2).all(|w| w[0] < w[1]));
                let child_of = |r: u32| {
                    let rank = hierarchy.leaf_rank(codes[r as usize]);
                    starts.partition_point(|&s| s <= rank) - 1
                };
                let mut counts = vec![0usize; starts.len()];
                for &r in rows {
                    counts[child_of(r)] += 1;
                }
                // The prefix of children whose count is closest to half,
                // with both sides non-empty.
                let half = rows.len() as f64 / 2.0;
                let mut best: Option<(usize, f64)> = None;
                let mut acc = 0usize;
                for (i, &c) in counts.iter().enumerate().take(starts.len() - 1) {
                    acc += c;
                    if acc == 0 || acc == rows.len() {
                        continue;
                    }
                    let score = (acc as f64 - half).abs();
                    if best.is_none_or(|(_, s)| score < s) {
                        best = Some((i, score));
                    }
                }
                let (last_left, _) = best?;
                let threshold = starts[last_left + 1];
                let (left, right): (Vec<u32>, Vec<u32>) = rows
                    .iter()
                    .partition(|&&r| hierarchy.leaf_rank(codes[r as usize]) < threshold);
                Some((left, right))
            }
            _ => {
                let mut keys: Vec<f64> = rows.iter().map(|&r| self.key(dim, r)).collect();
                let mid = (keys.len() - 1) / 2;
                let (_, &mut median, _) = keys.select_nth_unstable_by(mid, f64::total_cmp);
                let le = keys.iter().filter(|&&k| k <= median).count();
                let lt = keys.iter().filter(|&&k| k < median).count();
                let n = rows.len();
                let (strict, left_count) = median_side(n, lt, le)?;
                let mut left = Vec::with_capacity(left_count);
                let mut right = Vec::with_capacity(n - left_count);
                for &r in rows {
                    let k = self.key(dim, r);
                    if (strict && k < median) || (!strict && k <= median) {
                        left.push(r);
                    } else {
                        right.push(r);
                    }
                }
                Some((left, right))
            }
        }
    }
}

/// The lowest and highest depth-first leaf rank among `rows` (non-empty).
fn rank_range(rows: &[u32], codes: &[u32], hierarchy: &crate::hierarchy::Hierarchy) -> (u32, u32) {
    rows.iter()
        .map(|&r| hierarchy.leaf_rank(codes[r as usize]))
        .fold((u32::MAX, 0), |(lo, hi), k| (lo.min(k), hi.max(k)))
}

fn min_max(values: impl Iterator<Item = f64>) -> (f64, f64) {
    values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
        (lo.min(x), hi.max(x))
    })
}

/// Drives a top-down recursive split with an explicit worklist (no deep
/// recursion on skewed data). `choose` is called on every part and returns
/// the two halves to continue with, or `None` to keep the part as a final
/// group. Final groups come out in depth-first, left-to-right order.
/// Progress is the fraction of rows already in final groups.
pub fn recursive_split<F>(
    rows: Vec<u32>,
    progress: Progress<'_>,
    mut choose: F,
) -> CoreResult<Vec<Vec<u32>>>
where
    F: FnMut(&[u32]) -> Option<(Vec<u32>, Vec<u32>)>,
{
    let checkpoints = SplitCheckpoints::new(rows.len(), progress);
    let mut stack = vec![rows];
    let mut groups = Vec::new();
    while let Some(part) = stack.pop() {
        checkpoints.before_node()?;
        match choose(&part) {
            Some((left, right)) => {
                debug_assert!(!left.is_empty() && !right.is_empty());
                stack.push(right);
                stack.push(left);
            }
            None => {
                checkpoints.final_group(part.len())?;
                groups.push(part);
            }
        }
    }
    checkpoints.finish()?;
    Ok(groups)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hierarchy::Hierarchy;
    use std::sync::Arc;

    fn edu() -> Arc<Hierarchy> {
        let rows: Vec<Vec<String>> = [
            ["Bachelors", "Undergrad", "Higher", "*"],
            ["Masters", "Grad", "Higher", "*"],
            ["Doctorate", "Grad", "Higher", "*"],
            ["HS-grad", "HS", "Secondary", "*"],
            ["11th", "HS", "Secondary", "*"],
        ]
        .iter()
        .map(|r| r.iter().map(|s| s.to_string()).collect())
        .collect();
        Arc::new(Hierarchy::from_paths(&rows).unwrap())
    }

    #[test]
    fn numeric_cut_balances_around_a_heavy_median() {
        // 1,5,5,5,5,9: "≤ 5" puts 5 of 6 left, "< 5" puts 1 left; both are
        // non-empty, "≤" is better balanced (min side 1 vs 1 → tie → ≤).
        let t = Table::from_columns(
            vec![(
                "a".into(),
                QiValues::Numeric(vec![5.0, 1.0, 5.0, 9.0, 5.0, 5.0]),
            )],
            vec![],
        );
        let s = QiSpace::new(&t);
        let rows: Vec<u32> = (0..6).collect();
        let (l, r) = s.cut(&rows, 0).unwrap();
        assert!(!l.is_empty() && !r.is_empty());
        assert_eq!(l.len() + r.len(), 6);
        // Stable: input order kept.
        assert!(l.windows(2).all(|w| w[0] < w[1]) && r.windows(2).all(|w| w[0] < w[1]));
        let all_same =
            Table::from_columns(vec![("a".into(), QiValues::Numeric(vec![3.0; 4]))], vec![]);
        assert!(QiSpace::new(&all_same).cut(&[0, 1, 2, 3], 0).is_none());
    }

    #[test]
    fn categorical_cut_follows_the_hierarchy() {
        let h = edu();
        let code = |s: &str| h.leaf_code(s).unwrap();
        let codes = vec![
            code("Masters"),
            code("HS-grad"),
            code("Doctorate"),
            code("11th"),
            code("Bachelors"),
        ];
        let t = Table::from_columns(
            vec![(
                "edu".into(),
                QiValues::Categorical {
                    codes,
                    hierarchy: h.clone(),
                },
            )],
            vec![],
        );
        let s = QiSpace::new(&t);
        let (l, r) = s.cut(&[0, 1, 2, 3, 4], 0).unwrap();
        // Higher education {0,2,4} vs secondary {1,3}.
        assert_eq!((l, r), (vec![0, 2, 4], vec![1, 3]));
        // Inside "Higher": Undergrad {4} vs Grad {0,2}.
        let (l, r) = s.cut(&[0, 2, 4], 0).unwrap();
        assert_eq!((l, r), (vec![4], vec![0, 2]));
        assert_eq!(s.normalized_width(0, &[0, 2]), 0.25);
        assert!(s.cut(&[0], 0).is_none());
    }

    #[test]
    fn recursive_split_covers_every_row_once() {
        let t = Table::from_columns(
            vec![(
                "a".into(),
                QiValues::Numeric((0..100).map(|i| (i % 17) as f64).collect()),
            )],
            vec![],
        );
        let s = QiSpace::new(&t);
        let groups = recursive_split((0..100).collect(), Progress::none(), |rows| {
            if rows.len() < 10 {
                return None;
            }
            s.cut(rows, 0).filter(|(l, r)| l.len() >= 5 && r.len() >= 5)
        })
        .unwrap();
        crate::Partition::new(groups.clone())
            .check_covers(100)
            .unwrap();
        assert!(groups.iter().all(|g| g.len() >= 5));
        assert_eq!(s.dims_by_width(&[0, 1]), vec![0]);
    }
}
