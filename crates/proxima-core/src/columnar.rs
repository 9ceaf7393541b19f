//! Columnar median cuts: the engine under Mondrian and the (ε,m) split.
//!
//! [`crate::split::QiSpace`] cuts a node given as a list of row ids and
//! reads every key from the table by row id: on large tables each read is a
//! cache miss, and each cut allocates two new lists. Here a node is a range
//! of a few contiguous arrays — its row ids, one key column per QI and
//! optionally one payload column (the (ε,m) split carries the SA values) —
//! and taking a cut partitions that range in place, stably, keeping every
//! column aligned. All scans are sequential and nothing is allocated per
//! node.
//!
//! The decisions are exactly those of [`QiSpace::cut`] and
//! [`QiSpace::normalized_width`] (same medians, same tie rules, same
//! floating-point formulas), so a partitioner moved onto this engine
//! produces the same partition as before; the tests check it.
//!
//! Keys are `u32`: for a categorical QI the depth-first leaf rank, for a
//! numeric or date QI the rank of the value among the column's distinct
//! values (order-preserving, so medians, counts and cut sides are those of
//! the values, and widths read the values back). Compact integer keys halve
//! the memory a cut moves, let a node's keys be counted in a histogram when
//! they span few values, and keep the per-side extent loops free of
//! floating-point compares.
//!
//! [`QiSpace::cut`]: crate::split::QiSpace::cut
//! [`QiSpace::normalized_width`]: crate::split::QiSpace::normalized_width

use std::ops::Range;

use crate::error::CoreResult;
use crate::hierarchy::Hierarchy;
use crate::progress::Progress;
use crate::split::{median_side, QiSpace, SplitCheckpoints};
use crate::table::QiValues;

/// How a QI dimension orders its keys and measures a width.
enum Dim<'a> {
    /// Numeric or date: `values[key]` is the value of a key (ascending);
    /// width (hi − lo) / `range`, `range` the table's extent (0 for a
    /// constant column: width 0).
    Range { range: f64, values: Vec<f64> },
    /// Categorical: keys are leaf ranks; the width of ranks lo..=hi is the
    /// normalized certainty penalty of their lowest common ancestor.
    Tree { hierarchy: &'a Hierarchy },
}

/// The QI dimensions of a table, with what a cut needs to know of each.
pub(crate) struct Dims<'a> {
    dims: Vec<Dim<'a>>,
}

/// A cut of a node on one dimension: a row goes left when its key is below
/// `bound` (`strict`) or at most `bound`; `left` rows do.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Cut {
    bound: u32,
    strict: bool,
    pub left: usize,
}

impl Cut {
    /// The smallest key that goes right: keys below it go left. Where the
    /// halves' territories part ([`crate::safe_split`]): for a categorical
    /// cut, the first leaf rank of the first child on the right.
    pub fn right_start(&self) -> u32 {
        self.bound + u32::from(!self.strict)
    }

    /// `flags[i]` = whether the i-th row of the node goes left.
    pub fn flags(&self, keys: &[u32], flags: &mut Vec<bool>) {
        flags.clear();
        flags.extend(keys.iter().map(|&k| self.goes_left(k)));
    }

    /// Whether a row with key `k` goes left.
    #[inline]
    pub fn goes_left(&self, k: u32) -> bool {
        // `k < bound` or `k ≤ bound`, as one comparison.
        (k as u64) < self.bound as u64 + u64::from(!self.strict)
    }
}

impl<'a> Dims<'a> {
    /// The dimensions of `space`'s table, and every row's key on each
    /// (`keys[dim][row]`, for [`Columns::new`]).
    #[cfg(test)]
    pub fn new(space: &'a QiSpace<'a>) -> (Self, Vec<Vec<u32>>) {
        Self::new_checked(space, Progress::none()).expect("never cancelled without a callback")
    }

    /// [`Dims::new`] with a checkpoint after each column (each a sort of
    /// the whole column): `Cancelled` when `progress` says stop.
    pub fn new_checked(
        space: &'a QiSpace<'a>,
        progress: Progress<'_>,
    ) -> CoreResult<(Self, Vec<Vec<u32>>)> {
        // Each column's keys need a sort of the column: one column per
        // thread of the job's pool (crate::parallel).
        use rayon::prelude::*;
        let columns: Vec<CoreResult<(Dim<'a>, Vec<u32>)>> = space
            .table()
            .qis()
            .par_iter()
            .enumerate()
            .map(|(d, c)| {
                progress.report(0.0)?;
                // The columns sort side by side: each reports the phase's
                // start, so the fraction never goes back.
                let sorting = progress.sub(0.0, 0.0);
                let column = match &c.values {
                    QiValues::Categorical { codes, hierarchy } => (
                        Dim::Tree { hierarchy },
                        codes.iter().map(|&c| hierarchy.leaf_rank(c)).collect(),
                    ),
                    QiValues::Numeric(v) => dense(space, d, v, sorting)?,
                    QiValues::Date(v) => dense(
                        space,
                        d,
                        &v.iter().map(|&x| x as f64).collect::<Vec<_>>(),
                        sorting,
                    )?,
                };
                progress.report(0.0)?;
                Ok(column)
            })
            .collect();
        let columns = columns.into_iter().collect::<CoreResult<Vec<_>>>()?;
        let (dims, keys) = columns.into_iter().unzip();
        Ok((Dims { dims }, keys))
    }

    pub fn len(&self) -> usize {
        self.dims.len()
    }

    /// Whether `dim` is numeric or date (its labels are its rows' tight
    /// interval), not categorical.
    pub fn is_range(&self, dim: usize) -> bool {
        matches!(self.dims[dim], Dim::Range { .. })
    }

    /// Normalized width in [0, 1] of a set of rows whose keys on `dim` span
    /// `lo..=hi` ([`QiSpace::normalized_width`] of those rows: the same
    /// formula on the same values).
    ///
    /// [`QiSpace::normalized_width`]: crate::split::QiSpace::normalized_width
    pub fn width(&self, dim: usize, lo: u32, hi: u32) -> f64 {
        match &self.dims[dim] {
            Dim::Range { range, values } => {
                if *range > 0.0 {
                    (values[hi as usize] - values[lo as usize]) / range
                } else {
                    0.0
                }
            }
            Dim::Tree { hierarchy } => {
                let leaves = hierarchy.leaf_count();
                if leaves <= 1 {
                    return 0.0;
                }
                let (level, node) = hierarchy.lca_of_rank_range(lo, hi);
                (hierarchy.leaves_under(level, node) as f64 - 1.0) / (leaves as f64 - 1.0)
            }
        }
    }

    /// The leaf-rank range a categorical dimension's published label covers
    /// for keys spanning `lo..=hi` (the leaves under their lowest common
    /// ancestor); `None` for numeric and date dimensions, whose published
    /// interval is the keys' own extent.
    pub fn label_ranks(&self, dim: usize, (lo, hi): (u32, u32)) -> Option<(u32, u32)> {
        match &self.dims[dim] {
            Dim::Range { .. } => None,
            Dim::Tree { hierarchy } => {
                let (level, node) = hierarchy.lca_of_rank_range(lo, hi);
                Some(hierarchy.rank_range(level, node))
            }
        }
    }

    /// Whether a cut on `dim` (rows going left per `flags`) leaves both
    /// halves' published labels inside their territories when the node's
    /// territory on `dim` is `territory` ([`crate::safe_split`]): always for
    /// numeric and date dimensions (tight intervals on either side of the
    /// bound); for a categorical one, each side's lowest common ancestor
    /// must cover no rank on the other side of the bound.
    pub fn keeps_labels_inside(
        &self,
        dim: usize,
        keys: &[u32],
        flags: &[bool],
        cut: &Cut,
        territory: (u32, u32),
    ) -> bool {
        if matches!(self.dims[dim], Dim::Range { .. }) {
            return true;
        }
        let [left, right] = extent_by_side(keys, flags);
        let bound = cut.right_start();
        let inside = |side: (u32, u32), lo: u32, hi: u32| {
            self.label_ranks(dim, side)
                .is_none_or(|(a, b)| lo <= a && b <= hi)
        };
        inside(left, territory.0, bound - 1) && inside(right, bound, territory.1)
    }

    /// The median cut of a node on `dim` ([`QiSpace::cut`]'s rule), given
    /// the node's keys on `dim` and their extent `lo..=hi`. `None` when the
    /// rows cannot be separated on this dimension.
    ///
    /// Keys spanning at most as many values as the node has rows are
    /// counted in a histogram (one pass, no comparisons); others go through
    /// `select_nth_unstable`.
    ///
    /// [`QiSpace::cut`]: crate::split::QiSpace::cut
    pub fn cut(
        &self,
        dim: usize,
        keys: &[u32],
        (lo, hi): (u32, u32),
        scratch: &mut CutScratch,
    ) -> Option<Cut> {
        let n = keys.len();
        if n < 2 || lo == hi {
            return None;
        }
        let span = (hi - lo) as usize + 1;
        let use_histogram = span <= n;
        if use_histogram {
            let hist = &mut scratch.hist;
            hist.clear();
            hist.resize(span, 0);
            for &k in keys {
                hist[(k - lo) as usize] += 1;
            }
        }
        match &self.dims[dim] {
            Dim::Tree { hierarchy } => {
                let (level, node) = hierarchy.lca_of_rank_range(lo, hi);
                if level == 0 {
                    return None;
                }
                let starts = hierarchy.child_rank_starts(level, node);
                let hist = use_histogram.then_some((lo, scratch.hist.as_slice()));
                let counts = child_counts(&starts, keys, hist);
                // The prefix of children whose count is closest to half,
                // with both sides non-empty.
                let half = n as f64 / 2.0;
                let mut best: Option<(usize, f64, usize)> = None;
                let mut acc = 0usize;
                for (i, &c) in counts.iter().enumerate().take(starts.len() - 1) {
                    acc += c;
                    if acc == 0 || acc == n {
                        continue;
                    }
                    let score = (acc as f64 - half).abs();
                    if best.is_none_or(|(_, s, _)| score < s) {
                        best = Some((i, score, acc));
                    }
                }
                let (last_left, _, left) = best?;
                Some(Cut {
                    bound: starts[last_left + 1],
                    strict: true,
                    left,
                })
            }
            Dim::Range { .. } => {
                // The ((n−1)/2)-th smallest key (0-based), and how many keys
                // are below it and at most it.
                let mid = (n - 1) / 2;
                let (median, lt, le) = if use_histogram {
                    let hist = &scratch.hist;
                    let mut below = 0usize;
                    let mut at = 0;
                    for (i, &c) in hist.iter().enumerate() {
                        if below + c as usize > mid {
                            at = i;
                            break;
                        }
                        below += c as usize;
                    }
                    (lo + at as u32, below, below + hist[at] as usize)
                } else {
                    let select = &mut scratch.select;
                    select.clear();
                    select.extend_from_slice(keys);
                    let (_, &mut median, _) = select.select_nth_unstable(mid);
                    let (mut lt, mut le) = (0usize, 0usize);
                    for &k in keys {
                        le += usize::from(k <= median);
                        lt += usize::from(k < median);
                    }
                    (median, lt, le)
                };
                let (strict, left) = median_side(n, lt, le)?;
                Some(Cut {
                    bound: median,
                    strict,
                    left,
                })
            }
        }
    }
}

impl Dims<'_> {
    /// Cuts of a node on `dim` other than the median: for each fraction f
    /// of [`OFF_MEDIAN`], the cut between two distinct keys (numeric, date)
    /// or two children of the keys' lowest common ancestor (categorical)
    /// whose left side is closest to f·n rows, both sides non-empty;
    /// without repeats, nearest the middle first. Tried when no median cut
    /// is allowed: a node whose median halves fail may still have a valid
    /// cut elsewhere (a young half with too many low incomes, say).
    pub fn cuts_off_median(
        &self,
        dim: usize,
        keys: &[u32],
        extent: (u32, u32),
        scratch: &mut CutScratch,
    ) -> Vec<Cut> {
        self.cuts_near(dim, keys, extent, &OFF_MEDIAN, scratch)
    }

    /// Cuts of a node on `dim` whose left sides are nearest the fractions
    /// `at` of its rows, as [`Dims::cuts_off_median`] takes them (every
    /// place when there are few).
    pub fn cuts_near(
        &self,
        dim: usize,
        keys: &[u32],
        (lo, hi): (u32, u32),
        at: &[f64],
        scratch: &mut CutScratch,
    ) -> Vec<Cut> {
        let n = keys.len();
        if n < 2 || lo == hi {
            return Vec::new();
        }
        // (first key of a run, rows up to the run's end): the places a cut
        // may go, as the bound that starts the right side.
        let mut boundaries: Vec<(u32, usize)> = Vec::new();
        match &self.dims[dim] {
            Dim::Tree { hierarchy } => {
                let (level, node) = hierarchy.lca_of_rank_range(lo, hi);
                if level == 0 {
                    return Vec::new();
                }
                let starts = hierarchy.child_rank_starts(level, node);
                let counts = child_counts(&starts, keys, None);
                let mut acc = 0;
                for i in 0..starts.len() - 1 {
                    acc += counts[i];
                    if acc > 0 && acc < n {
                        boundaries.push((starts[i + 1], acc));
                    }
                }
            }
            Dim::Range { .. } => {
                let span = (hi - lo) as usize + 1;
                if span <= n {
                    let hist = &mut scratch.hist;
                    hist.clear();
                    hist.resize(span, 0);
                    for &k in keys {
                        hist[(k - lo) as usize] += 1;
                    }
                    let mut acc = 0usize;
                    for (i, &c) in hist.iter().enumerate() {
                        if c > 0 && acc > 0 {
                            boundaries.push((lo + i as u32, acc));
                        }
                        acc += c as usize;
                    }
                } else {
                    let sorted = &mut scratch.select;
                    sorted.clear();
                    sorted.extend_from_slice(keys);
                    sorted.sort_unstable();
                    for i in 1..n {
                        if sorted[i] != sorted[i - 1] {
                            boundaries.push((sorted[i], i));
                        }
                    }
                }
            }
        }
        let mut cuts: Vec<Cut> = Vec::new();
        if boundaries.len() <= EVERY_BOUNDARY {
            // Few places: every one, nearest the middle first.
            let half = n as f64 / 2.0;
            boundaries.sort_by(|a, b| {
                (a.1 as f64 - half)
                    .abs()
                    .total_cmp(&(b.1 as f64 - half).abs())
                    .then(a.0.cmp(&b.0))
            });
            return boundaries
                .into_iter()
                .map(|(bound, left)| Cut {
                    bound,
                    strict: true,
                    left,
                })
                .collect();
        }
        for f in at {
            let target = f * n as f64;
            let Some(&(bound, left)) = boundaries.iter().min_by(|a, b| {
                (a.1 as f64 - target)
                    .abs()
                    .total_cmp(&(b.1 as f64 - target).abs())
            }) else {
                break;
            };
            if cuts.iter().all(|c| c.bound != bound) {
                cuts.push(Cut {
                    bound,
                    strict: true,
                    left,
                });
            }
        }
        cuts
    }
}

/// Up to this many places to cut, [`Dims::cuts_off_median`] offers every
/// one.
const EVERY_BOUNDARY: usize = 32;

/// Where [`Dims::cuts_off_median`] looks when there are more places,
/// nearest the middle first.
const OFF_MEDIAN: [f64; 8] = [0.4, 0.6, 0.3, 0.7, 0.2, 0.8, 0.1, 0.9];

/// Rows per child of a categorical node whose children's first leaf ranks
/// are `starts`: from the keys' histogram (starting at key `lo`) when one
/// is at hand, else from the keys.
fn child_counts(starts: &[u32], keys: &[u32], hist: Option<(u32, &[u32])>) -> Vec<usize> {
    let mut counts = vec![0usize; starts.len()];
    let child_of = |k: u32| starts.partition_point(|&s| s <= k) - 1;
    match hist {
        Some((lo, hist)) => {
            for (k, &c) in (lo..).zip(hist) {
                if c > 0 {
                    counts[child_of(k)] += c as usize;
                }
            }
        }
        None => {
            for &k in keys {
                counts[child_of(k)] += 1;
            }
        }
    }
    counts
}

/// A numeric or date dimension: its distinct values ascending and every
/// row's key (the rank of its value among them). Values equal under `==`
/// share a key (−0 and +0 included, as the medians compare with `<`/`≤`).
fn dense<'a>(
    space: &QiSpace<'_>,
    dim: usize,
    column: &[f64],
    progress: Progress<'_>,
) -> CoreResult<(Dim<'a>, Vec<u32>)> {
    let (lo, hi) = space.extent(dim);
    let (values, keys) = match dense_by_lookup(column, &progress)? {
        Some(few) => few,
        None => dense_by_sort(column, progress)?,
    };
    let range = if hi > lo { hi - lo } else { 0.0 };
    Ok((Dim::Range { range, values }, keys))
}

/// A column's distinct values ascending (deduplicated by `==`, the lower
/// in `total_cmp` order standing) and every row's rank among them, by a
/// sort of the rows.
fn dense_by_sort(column: &[f64], progress: Progress<'_>) -> CoreResult<(Vec<f64>, Vec<u32>)> {
    let mut values: Vec<f64> = Vec::new();
    let mut keys = vec![0u32; column.len()];
    for row in radix_order_checked(column, progress)? {
        let v = column[row as usize];
        if values.last() != Some(&v) {
            values.push(v);
        }
        keys[row as usize] = (values.len() - 1) as u32;
    }
    Ok((values, keys))
}

/// Columns of at most this many distinct values (bit patterns) are ranked
/// through a table of their values: small enough to stay in cache, where
/// two passes of lookups, on every thread, cost less than the radix
/// passes and their scattered writes (ages, codes, dates of a few years).
const LOOKUP_DISTINCT: usize = 1 << 12;

/// [`dense_by_sort`]'s values and ranks for a column of at most
/// [`LOOKUP_DISTINCT`] distinct values, found by lookups on the pool
/// (`None` for a column of more: a sort is then the way).
fn dense_by_lookup(
    column: &[f64],
    progress: &Progress<'_>,
) -> CoreResult<Option<(Vec<f64>, Vec<u32>)>> {
    use rayon::prelude::*;
    use std::collections::{HashMap, HashSet};
    type State = foldhash::fast::FixedState;
    let seen: Vec<CoreResult<Option<HashSet<u64, State>>>> = column
        .par_chunks(BLOCK)
        .map(|chunk| {
            progress.report(0.0)?;
            let mut bits = HashSet::with_hasher(State::default());
            for v in chunk {
                if bits.insert(v.to_bits()) && bits.len() > LOOKUP_DISTINCT {
                    return Ok(None);
                }
            }
            Ok(Some(bits))
        })
        .collect();
    let mut distinct: HashSet<u64, State> = HashSet::with_hasher(State::default());
    for chunk in seen {
        let Some(bits) = chunk? else {
            return Ok(None);
        };
        distinct.extend(bits);
        if distinct.len() > LOOKUP_DISTINCT {
            return Ok(None);
        }
    }
    let mut sorted: Vec<f64> = distinct.into_iter().map(f64::from_bits).collect();
    sorted.sort_unstable_by(f64::total_cmp);
    // The sort's walk: equal values (-0 and +0) share the rank of the
    // first, which stands for them.
    let mut values: Vec<f64> = Vec::with_capacity(sorted.len());
    let mut rank: HashMap<u64, u32, State> = HashMap::with_hasher(State::default());
    for v in sorted {
        if values.last() != Some(&v) {
            values.push(v);
        }
        rank.insert(v.to_bits(), (values.len() - 1) as u32);
    }
    let mut keys = vec![0u32; column.len()];
    column
        .par_chunks(BLOCK)
        .zip(keys.par_chunks_mut(BLOCK))
        .try_for_each(|(from, into)| {
            progress.report(0.0)?;
            for (v, key) in from.iter().zip(into) {
                *key = rank[&v.to_bits()];
            }
            Ok::<_, crate::error::CoreError>(())
        })?;
    Ok(Some((values, keys)))
}

/// [`radix_order_checked`] without checkpoints.
pub(crate) fn radix_order(values: &[f64]) -> Vec<u32> {
    radix_order_checked(values, Progress::none()).expect("never cancelled without a callback")
}

/// Rows between two checkpoints of the radix passes.
const BLOCK: usize = crate::progress::ROWS_PER_CHECKPOINT;
/// Bits per radix digit, buckets per digit, and digits per 64-bit key.
const DIGIT: u32 = 11;
const BUCKETS: usize = 1 << DIGIT;
const PASSES: usize = u64::BITS.div_ceil(DIGIT) as usize;

/// The first two passes of the radix sorts below: each value's key in
/// `total_cmp` order (`at(0, rows done)` at each checkpoint), then every
/// digit's histogram in one pass (`at(1, rows done)`).
fn radix_keys_and_histograms(
    values: &[f64],
    at: &impl Fn(usize, usize) -> CoreResult<()>,
) -> CoreResult<(Vec<u64>, Vec<[usize; BUCKETS]>)> {
    let mut keys: Vec<u64> = Vec::with_capacity(values.len());
    for (b, block) in values.chunks(BLOCK).enumerate() {
        at(0, b * BLOCK)?;
        keys.extend(block.iter().map(|&v| total_order_bits(v)));
    }
    let mut starts = vec![[0usize; BUCKETS]; PASSES];
    for (b, block) in keys.chunks(BLOCK).enumerate() {
        at(1, b * BLOCK)?;
        for &k in block {
            for (pass, start) in starts.iter_mut().enumerate() {
                start[((k >> (pass as u32 * DIGIT)) as usize) & (BUCKETS - 1)] += 1;
            }
        }
    }
    Ok((keys, starts))
}

/// Row indices of `values` in `f64::total_cmp` order, ties by index: an LSD
/// radix sort on the values' bits mapped to u64 in that order. Stable and
/// linear (a pass per 11-bit digit, skipped when every value has the same
/// digit — the low bits of integral values, the sign of positive ones).
///
/// A checkpoint every [`ROWS_PER_CHECKPOINT`] rows of every pass (the
/// fraction of the passes done, over at most `2 + PASSES` passes), so a
/// sort of a 5M-row column can be cancelled within milliseconds.
///
/// [`ROWS_PER_CHECKPOINT`]: crate::progress::ROWS_PER_CHECKPOINT
pub(crate) fn radix_order_checked(values: &[f64], progress: Progress<'_>) -> CoreResult<Vec<u32>> {
    let n = values.len();
    // The passes over the rows: the keys, the histograms, then up to one
    // scatter per digit.
    let stages = (2 + PASSES) as f64;
    let at = |stage: usize, done: usize| {
        progress.report((stage as f64 + done as f64 / n.max(1) as f64) / stages)
    };
    let (mut keys, mut starts) = radix_keys_and_histograms(values, &at)?;
    let mut rows: Vec<u32> = (0..n as u32).collect();
    let mut next_keys = vec![0u64; n];
    let mut next_rows = vec![0u32; n];
    for (pass, start) in starts.iter_mut().enumerate() {
        if start.contains(&n) {
            continue;
        }
        let shift = pass as u32 * DIGIT;
        let mut sum = 0;
        for s in start.iter_mut() {
            let count = *s;
            *s = sum;
            sum += count;
        }
        for (b, (block_keys, block_rows)) in keys.chunks(BLOCK).zip(rows.chunks(BLOCK)).enumerate()
        {
            at(2 + pass, b * BLOCK)?;
            for (&k, &r) in block_keys.iter().zip(block_rows) {
                let slot = &mut start[((k >> shift) as usize) & (BUCKETS - 1)];
                next_keys[*slot] = k;
                next_rows[*slot] = r;
                *slot += 1;
            }
        }
        std::mem::swap(&mut keys, &mut next_keys);
        std::mem::swap(&mut rows, &mut next_rows);
    }
    progress.report(1.0)?;
    Ok(rows)
}

/// The distinct values of `values` (`==`: -0.0 and 0.0 are one value, the
/// lower in `total_cmp` order standing), ascending in `total_cmp` order:
/// [`radix_order_checked`]'s passes on the keys alone, with no row indices
/// (16 bytes per row of working memory rather than 24, and nothing
/// table-sized kept), with its checkpoints.
pub(crate) fn sorted_distinct_checked(
    values: &[f64],
    progress: Progress<'_>,
) -> CoreResult<Vec<f64>> {
    let n = values.len();
    // The keys, the histograms, up to one scatter per digit, the read-back.
    let stages = (3 + PASSES) as f64;
    let at = |stage: usize, done: usize| {
        progress.report((stage as f64 + done as f64 / n.max(1) as f64) / stages)
    };
    let (mut keys, mut starts) = radix_keys_and_histograms(values, &at)?;
    let mut next_keys: Vec<u64> = Vec::new();
    for (pass, start) in starts.iter_mut().enumerate() {
        if start.contains(&n) {
            continue;
        }
        if next_keys.is_empty() {
            next_keys = vec![0u64; n];
        }
        let shift = pass as u32 * DIGIT;
        let mut sum = 0;
        for s in start.iter_mut() {
            let count = *s;
            *s = sum;
            sum += count;
        }
        for (b, block) in keys.chunks(BLOCK).enumerate() {
            at(2 + pass, b * BLOCK)?;
            for &k in block {
                let slot = &mut start[((k >> shift) as usize) & (BUCKETS - 1)];
                next_keys[*slot] = k;
                *slot += 1;
            }
        }
        std::mem::swap(&mut keys, &mut next_keys);
    }
    drop(next_keys);
    let mut distinct: Vec<f64> = Vec::new();
    for (b, block) in keys.chunks(BLOCK).enumerate() {
        at(2 + PASSES, b * BLOCK)?;
        for &k in block {
            let x = from_total_order_bits(k);
            if distinct.last() != Some(&x) {
                distinct.push(x);
            }
        }
    }
    progress.report(1.0)?;
    Ok(distinct)
}

/// The inverse of [`total_order_bits`].
pub(crate) fn from_total_order_bits(k: u64) -> f64 {
    f64::from_bits(if k >> 63 == 1 { k & !(1 << 63) } else { !k })
}

/// Maps an f64 to a u64 whose unsigned order is `f64::total_cmp`'s.
pub(crate) fn total_order_bits(v: f64) -> u64 {
    let bits = v.to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | 1 << 63
    }
}

/// Working memory of [`Dims::cut`].
#[derive(Default)]
pub(crate) struct CutScratch {
    select: Vec<u32>,
    hist: Vec<u32>,
}

/// The lowest and highest key ((u32::MAX, 0) when empty).
#[inline]
pub(crate) fn extent(keys: &[u32]) -> (u32, u32) {
    keys.iter()
        .fold((u32::MAX, 0), |(lo, hi), &k| (lo.min(k), hi.max(k)))
}

/// The lowest and highest key on each side ([left, right]) of a cut; an
/// empty side has (`u32::MAX`, 0). Branch-free (a median cut's sides are a
/// coin toss for the branch predictor), and one pass: four passes, one per
/// bound, made em-sal-m3 run 3 % more instructions (every candidate cut
/// measures each QI's extents on both sides).
#[inline]
pub(crate) fn extent_by_side(keys: &[u32], flags: &[bool]) -> [(u32, u32); 2] {
    // Each key moves its own side's bounds and offers the other side's
    // bounds their neutral values.
    let (mut l_lo, mut l_hi, mut r_lo, mut r_hi) = (u32::MAX, 0u32, u32::MAX, 0u32);
    for (&k, &f) in keys.iter().zip(flags) {
        let (l, r) = if f { (k, u32::MAX) } else { (u32::MAX, k) };
        let (lh, rh) = if f { (k, 0) } else { (0, k) };
        l_lo = l_lo.min(l);
        r_lo = r_lo.min(r);
        l_hi = l_hi.max(lh);
        r_hi = r_hi.max(rh);
    }
    [(l_lo, l_hi), (r_lo, r_hi)]
}

/// The rows being split and their columns, owned; [`ColumnStore::view`]
/// lends them as [`Columns`].
pub(crate) struct ColumnStore {
    ids: Vec<u32>,
    keys: Vec<Vec<u32>>,
    payload: Vec<f64>,
}

impl ColumnStore {
    /// Columns for `ids` (in that order) from every row's keys (from
    /// [`Dims::new_checked`]); `payload[i]` belongs to `ids[i]`.
    #[cfg(test)]
    pub fn new(row_keys: Vec<Vec<u32>>, ids: Vec<u32>, payload: Vec<f64>) -> Self {
        Self::new_checked(row_keys, ids, payload, Progress::none())
            .expect("never cancelled without a callback")
    }

    /// [`ColumnStore::new`] with a checkpoint after each column gathered.
    pub fn new_checked(
        row_keys: Vec<Vec<u32>>,
        ids: Vec<u32>,
        payload: Vec<f64>,
        progress: Progress<'_>,
    ) -> CoreResult<Self> {
        debug_assert!(payload.is_empty() || payload.len() == ids.len());
        let identity = ids.iter().zip(0u32..).all(|(&r, i)| r == i)
            && row_keys.iter().all(|k| k.len() == ids.len());
        progress.report(0.0)?;
        let keys = if identity {
            row_keys
        } else {
            row_keys
                .iter()
                .map(|k| {
                    let gathered = ids.iter().map(|&r| k[r as usize]).collect();
                    progress.report(0.0)?;
                    Ok(gathered)
                })
                .collect::<CoreResult<_>>()?
        };
        Ok(ColumnStore { ids, keys, payload })
    }

    /// Every position, as a view to split in place.
    pub fn view(&mut self) -> Columns<'_> {
        Columns {
            ids: &mut self.ids,
            keys: self.keys.iter_mut().map(Vec::as_mut_slice).collect(),
            payload: &mut self.payload,
        }
    }
}

/// The rows being split and their columns, aligned: position i of every
/// column is the same row. A node is a range of positions. A view borrows
/// its columns, so [`Columns::split_at`] hands two disjoint nodes to two
/// threads without copying anything.
pub(crate) struct Columns<'c> {
    pub ids: &'c mut [u32],
    /// `keys[dim][i]`: the key of row `ids[i]` on `dim`.
    pub keys: Vec<&'c mut [u32]>,
    /// A caller's per-row value carried along (empty when unused).
    pub payload: &'c mut [f64],
}

impl Columns<'_> {
    /// Positions `..at` and `at..` as two views (each re-indexed from 0).
    pub fn split_at(&mut self, at: usize) -> (Columns<'_>, Columns<'_>) {
        let (l_ids, r_ids) = self.ids.split_at_mut(at);
        let (mut l_keys, mut r_keys) = (Vec::new(), Vec::new());
        for k in self.keys.iter_mut() {
            let (l, r) = k.split_at_mut(at);
            l_keys.push(l);
            r_keys.push(r);
        }
        let (l_payload, r_payload) = if self.payload.is_empty() {
            (&mut [][..], &mut [][..])
        } else {
            self.payload.split_at_mut(at)
        };
        (
            Columns {
                ids: l_ids,
                keys: l_keys,
                payload: l_payload,
            },
            Columns {
                ids: r_ids,
                keys: r_keys,
                payload: r_payload,
            },
        )
    }

    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Moves the rows of `range` whose flag is set to its front and the
    /// others after them, both in their previous order, in every column.
    pub fn partition(&mut self, range: Range<usize>, flags: &[bool], tmp: &mut Tmp) {
        debug_assert_eq!(flags.len(), range.len());
        // Where each row comes from, computed once for all columns and
        // without data-dependent branches (the flags of a median cut are a
        // coin toss for the branch predictor).
        let left = flags.iter().filter(|&&f| f).count();
        stable_partition_order(flags.iter().copied(), left, &mut tmp.perm);
        let perm = std::mem::take(&mut tmp.perm);
        self.permute(range, &perm, tmp);
        tmp.perm = perm;
    }

    /// Moves the positions of `range` that `leave(position in range, row
    /// id)` marks to its end, the others to its front, both in their
    /// previous order; returns how many stay in front.
    pub fn keep_in_front(
        &mut self,
        range: Range<usize>,
        leave: impl Fn(usize, u32) -> bool,
        tmp: &mut Tmp,
    ) -> usize {
        let (mut perm, mut back): (Vec<u32>, Vec<u32>) = (Vec::new(), Vec::new());
        for (p, &id) in self.ids[range.clone()].iter().enumerate() {
            if leave(p, id) {
                back.push(p as u32);
            } else {
                perm.push(p as u32);
            }
        }
        let kept = perm.len();
        perm.extend(back);
        self.permute(range, &perm, tmp);
        kept
    }

    /// Sorts the positions of `range` by `key(position in range, row id)`
    /// (`total_cmp`), ties by row id, in every column — the order of the one
    /// initial sort by SA value, restored before a node is cut again.
    pub fn sort_range_by(
        &mut self,
        range: Range<usize>,
        key: impl Fn(usize, u32) -> f64,
        tmp: &mut Tmp,
    ) {
        let ids = &self.ids[range.clone()];
        let keys: Vec<f64> = ids.iter().enumerate().map(|(p, &id)| key(p, id)).collect();
        let mut perm: Vec<u32> = (0..range.len() as u32).collect();
        let order = |&a: &u32, &b: &u32| {
            let (a, b) = (a as usize, b as usize);
            keys[a].total_cmp(&keys[b]).then(ids[a].cmp(&ids[b]))
        };
        // A total order (ties by row id): a large node sorts on the pool.
        crate::parallel::sort_unstable_by(&mut perm, order);
        self.permute(range, &perm, tmp);
    }

    /// Reorders the positions of `range` in every column: position i
    /// receives what was at `range.start + perm[i]`.
    pub fn permute(&mut self, range: Range<usize>, perm: &[u32], tmp: &mut Tmp) {
        debug_assert_eq!(perm.len(), range.len());
        gather(&mut self.ids[range.clone()], perm, &mut tmp.ids);
        for keys in &mut self.keys {
            gather(&mut keys[range.clone()], perm, &mut tmp.ids);
        }
        if !self.payload.is_empty() {
            gather(&mut self.payload[range], perm, &mut tmp.values);
        }
    }

    /// The row ids at `ranges`, one list (a candidate merge's rows).
    pub fn ids_of(&self, ranges: &[Range<usize>]) -> Vec<u32> {
        ranges
            .iter()
            .flat_map(|r| self.ids[r.clone()].iter().copied())
            .collect()
    }

    /// The row ids of each range, in order.
    pub fn groups(&self, ranges: &[Range<usize>]) -> Vec<Vec<u32>> {
        ranges
            .iter()
            .map(|r| self.ids[r.clone()].to_vec())
            .collect()
    }
}

/// Working memory of [`Columns::partition`].
#[derive(Default)]
pub(crate) struct Tmp {
    perm: Vec<u32>,
    ids: Vec<u32>,
    values: Vec<f64>,
}

/// Where each position comes from when the positions whose side is
/// `true` (`left` of them) move to the front and the others after them,
/// both in their previous order: `perm[i]` = the old position of new
/// position i. Written without data-dependent branches (a median cut's
/// sides are a coin toss for the branch predictor).
pub(crate) fn stable_partition_order(
    sides: impl ExactSizeIterator<Item = bool>,
    left: usize,
    perm: &mut Vec<u32>,
) {
    perm.clear();
    perm.resize(sides.len(), 0);
    let (mut l, mut r) = (0usize, left);
    for (i, f) in sides.enumerate() {
        let f = usize::from(f);
        perm[f * l + (1 - f) * r] = i as u32;
        l += f;
        r += 1 - f;
    }
}

/// `values[i] = old values[perm[i]]`, through `tmp`.
pub(crate) fn gather<T: Copy>(values: &mut [T], perm: &[u32], tmp: &mut Vec<T>) {
    tmp.clear();
    tmp.extend(perm.iter().map(|&p| values[p as usize]));
    values.copy_from_slice(tmp);
}

/// Working memory of [`predicate_cut`], reused across nodes.
#[derive(Default)]
pub(crate) struct PredicateScratch {
    /// The test depends on the halves' sizes alone (k-anonymity): a cut is
    /// allowed when both halves hold `min_size` rows, and the halves' row
    /// lists are not built (two `u32` per row of the node, and their
    /// writing, saved).
    pub(crate) sizes_only: bool,
    /// (dimension, normalized width, key extent) of the node's wide dims.
    widths: Vec<(usize, f64, (u32, u32))>,
    select: CutScratch,
    flags: Vec<bool>,
    left: Vec<u32>,
    right: Vec<u32>,
    tmp: Tmp,
}

/// Mondrian's choice of cut: the dimension with the widest normalized range
/// first, the next widest when its median cut would leave a half that
/// `allows` refuses (or, with a `territory`, that would publish a label
/// outside it: [`Dims::keeps_labels_inside`]). Partitions `node` in place
/// and returns (left size, dimension, [`Cut::right_start`]), or `None` when
/// no cut is allowed. Parts below
/// `2·min_size` are not examined (no two allowed halves fit). With a
/// territory (the safe engine), a node no median cut divides is tried at
/// other positions too ([`Dims::cuts_off_median`]).
pub(crate) fn predicate_cut(
    dims: &Dims<'_>,
    cols: &mut Columns<'_>,
    node: Range<usize>,
    allows: &(impl Fn(&[u32]) -> bool + ?Sized),
    min_size: usize,
    territory: Option<&[(u32, u32)]>,
    s: &mut PredicateScratch,
) -> Option<(usize, usize, u32)> {
    if node.len() < 2 * min_size.max(1) {
        return None;
    }
    // A cut that passes is taken: the node partitioned in place.
    let take = |cols: &mut Columns<'_>, s: &mut PredicateScratch, d: usize, cut: &Cut| {
        let allowed = allowed_cut(
            dims,
            cols,
            node.clone(),
            allows,
            min_size,
            territory,
            s,
            d,
            cut,
        );
        allowed.then(|| {
            cols.partition(node.clone(), &s.flags, &mut s.tmp);
            (cut.left, d, cut.right_start())
        })
    };
    s.widths.clear();
    for d in 0..dims.len() {
        let (lo, hi) = extent(&cols.keys[d][node.clone()]);
        let width = dims.width(d, lo, hi);
        if width > 0.0 {
            s.widths.push((d, width, (lo, hi)));
        }
    }
    // Widest first, ties by dimension index (deterministic).
    s.widths
        .sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    for i in 0..s.widths.len() {
        let (d, _, ext) = s.widths[i];
        let keys = &cols.keys[d][node.clone()];
        let Some(cut) = dims.cut(d, keys, ext, &mut s.select) else {
            continue;
        };
        if let Some(taken) = take(cols, s, d, &cut) {
            return Some(taken);
        }
    }
    // No median cut is allowed. The safe engine (the one that gives a
    // territory) then tries the other positions, nearest the middle first,
    // in the same order of dimensions, on nodes large enough to have such
    // cuts; Mondrian's baseline keeps the median rule.
    territory?;
    if node.len() < 4 * min_size.max(1) {
        return None;
    }
    for i in 0..s.widths.len() {
        let (d, _, ext) = s.widths[i];
        let keys = &cols.keys[d][node.clone()];
        for cut in dims.cuts_off_median(d, keys, ext, &mut s.select) {
            if cut.left < min_size || node.len() - cut.left < min_size {
                continue;
            }
            if let Some(taken) = take(cols, s, d, &cut) {
                return Some(taken);
            }
        }
    }
    None
}

/// Whether `cut` on `d` keeps both halves' labels inside the territory
/// (when there is one) and `allows` both halves (with
/// [`PredicateScratch::sizes_only`], both hold `min_size` rows); leaves the
/// cut's flags in `s.flags`.
#[allow(clippy::too_many_arguments)]
fn allowed_cut(
    dims: &Dims<'_>,
    cols: &Columns<'_>,
    node: Range<usize>,
    allows: &(impl Fn(&[u32]) -> bool + ?Sized),
    min_size: usize,
    territory: Option<&[(u32, u32)]>,
    s: &mut PredicateScratch,
    d: usize,
    cut: &Cut,
) -> bool {
    let keys = &cols.keys[d][node.clone()];
    cut.flags(keys, &mut s.flags);
    if let Some(t) = territory {
        if !dims.keeps_labels_inside(d, keys, &s.flags, cut, t[d]) {
            return false;
        }
    }
    if s.sizes_only {
        return cut.left >= min_size && node.len() - cut.left >= min_size;
    }
    s.left.clear();
    s.right.clear();
    for (&id, &left) in cols.ids[node].iter().zip(&s.flags) {
        if left {
            s.left.push(id);
        } else {
            s.right.push(id);
        }
    }
    allows(&s.left) && allows(&s.right)
}

/// Drives a top-down split of the positions `root` with an explicit
/// worklist. `choose` is called on every node's range; it either partitions
/// the range in place and returns the size of its left part (both parts
/// non-empty), or returns `None` to keep the node as a final group. Final
/// ranges are appended in depth-first, left-to-right order, like
/// [`recursive_split`]'s groups; progress is the fraction of rows already
/// in final groups.
///
/// [`recursive_split`]: crate::split::recursive_split
fn split_worklist<F>(
    root: Range<usize>,
    checkpoints: &SplitCheckpoints<'_>,
    mut choose: F,
    finals: &mut Vec<Range<usize>>,
) -> CoreResult<()>
where
    F: FnMut(Range<usize>) -> Option<usize>,
{
    let mut stack: Vec<Range<usize>> = vec![root];
    while let Some(node) = stack.pop() {
        checkpoints.before_node()?;
        match choose(node.clone()) {
            Some(left) => {
                debug_assert!(left > 0 && left < node.len());
                let mid = node.start + left;
                stack.push(mid..node.end);
                stack.push(node.start..mid);
            }
            None => {
                checkpoints.final_group(node.len())?;
                finals.push(node);
            }
        }
    }
    Ok(())
}

/// A top-down split of every position of `cols` ([`split_worklist`]) on
/// every core of the current pool
/// ([`crate::parallel`]): after a node is cut, its two halves — disjoint
/// views of `cols` — are split concurrently, down to nodes of
/// [`FORK_MIN_ROWS`], below which one thread runs the worklist (as it does
/// for the whole split on a one-thread pool). Every node
/// is cut exactly as the sequential worklist cuts it (a cut reads only its
/// own node), and the halves' final ranges are concatenated left first, so
/// the result is the sequential one. `choose` gets a scratch of its own per
/// thread (`S::default()` per subtree).
///
/// [`FORK_MIN_ROWS`]: crate::parallel::FORK_MIN_ROWS
pub(crate) fn split_forking<S, F>(
    cols: &mut Columns<'_>,
    progress: Progress<'_>,
    choose: &F,
) -> CoreResult<Vec<Range<usize>>>
where
    S: Default,
    F: Fn(&mut Columns<'_>, Range<usize>, &mut S) -> Option<usize> + Sync,
{
    let checkpoints = SplitCheckpoints::new(cols.len(), progress);
    let finals = fork_node(cols, &checkpoints, choose)?;
    checkpoints.finish()?;
    Ok(finals)
}

fn fork_node<S, F>(
    cols: &mut Columns<'_>,
    checkpoints: &SplitCheckpoints<'_>,
    choose: &F,
) -> CoreResult<Vec<Range<usize>>>
where
    S: Default,
    F: Fn(&mut Columns<'_>, Range<usize>, &mut S) -> Option<usize> + Sync,
{
    let n = cols.len();
    let mut scratch = S::default();
    let mut finals = Vec::new();
    if !crate::parallel::fork_worthwhile(n) {
        split_worklist(
            0..n,
            checkpoints,
            |node| choose(cols, node, &mut scratch),
            &mut finals,
        )?;
        return Ok(finals);
    }
    checkpoints.before_node()?;
    let Some(left) = choose(cols, 0..n, &mut scratch) else {
        checkpoints.final_group(n)?;
        finals.push(0..n);
        return Ok(finals);
    };
    debug_assert!(left > 0 && left < n);
    let (mut l, mut r) = cols.split_at(left);
    let (l_finals, r_finals) = crate::parallel::join(
        || fork_node(&mut l, checkpoints, choose),
        || fork_node(&mut r, checkpoints, choose),
    );
    finals = l_finals?;
    finals.extend(r_finals?.into_iter().map(|g| g.start + left..g.end + left));
    Ok(finals)
}

#[cfg(test)]
mod tests {
    proptest::proptest! {
        /// Each side's bounds are the plain minimum and maximum of its
        /// keys; an empty side's are (u32::MAX, 0).
        #[test]
        fn the_extent_by_side_is_each_sides_min_and_max(
            rows in proptest::collection::vec((proptest::prelude::any::<u32>(), proptest::prelude::any::<bool>()), 0..40),
        ) {
            let keys: Vec<u32> = rows.iter().map(|r| r.0).collect();
            let flags: Vec<bool> = rows.iter().map(|r| r.1).collect();
            let side = |left: bool| {
                let on: Vec<u32> = rows.iter().filter(|r| r.1 == left).map(|r| r.0).collect();
                (on.iter().copied().min().unwrap_or(u32::MAX), on.iter().copied().max().unwrap_or(0))
            };
            proptest::prop_assert_eq!(extent_by_side(&keys, &flags), [side(true), side(false)]);
        }
    }

    use super::*;
    use crate::table::{SaValues, Table};
    use std::sync::Arc;

    /// A column of few values is ranked by lookups exactly as by the sort
    /// (signs, both zeros in either order, ties, a ragged last block); one
    /// of more values is left to the sort.
    #[test]
    fn ranks_by_lookup_are_the_ranks_by_sort() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for (rows, spread) in [(10usize, 3u64), (BLOCK * 2 + 17, 40), (BLOCK + 1, 4000)] {
            let column: Vec<f64> = (0..rows)
                .map(|_| match next() % spread {
                    0 => -0.0,
                    1 => 0.0,
                    k => (k as f64 - spread as f64 / 2.0) * 0.25,
                })
                .collect();
            let by_lookup = dense_by_lookup(&column, &Progress::none()).unwrap();
            let by_sort = dense_by_sort(&column, Progress::none()).unwrap();
            let (values, keys) = by_lookup.expect("few distinct values");
            assert_eq!(values.len(), by_sort.0.len(), "{rows} rows");
            assert!(values
                .iter()
                .zip(&by_sort.0)
                .all(|(a, b)| a.to_bits() == b.to_bits()));
            assert_eq!(keys, by_sort.1, "{rows} rows of {spread} values");
        }
        let many: Vec<f64> = (0..LOOKUP_DISTINCT + 1).map(|i| i as f64).collect();
        assert!(dense_by_lookup(&many, &Progress::none()).unwrap().is_none());
    }

    /// The distinct values from the keys alone are those of a sort by
    /// `total_cmp` deduplicated by `==`, over signs, zeros, ties and
    /// values whose every digit differs.
    #[test]
    fn sorted_distinct_is_a_sort_and_dedup() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut values: Vec<f64> = vec![0.0, -0.0, 3.0, -3.0, 3.0, 1e300, -1e-300, 0.0];
        for i in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            values.push(match i % 3 {
                0 => (x % 100) as f64,
                1 => f64::from_bits(x) % 1e6,
                _ => -((x % 1000) as f64) / 7.0,
            });
        }
        let mut expected = values.clone();
        expected.sort_by(f64::total_cmp);
        expected.dedup_by(|a, b| a == b);
        let got = sorted_distinct_checked(&values, Progress::none()).unwrap();
        assert_eq!(got.len(), expected.len());
        assert!(got
            .iter()
            .zip(&expected)
            .all(|(a, b)| a.to_bits() == b.to_bits()));
        assert!(sorted_distinct_checked(&[], Progress::none())
            .unwrap()
            .is_empty());
        assert_eq!(
            sorted_distinct_checked(&[2.0; 5], Progress::none()).unwrap(),
            vec![2.0]
        );
    }

    fn table() -> Table {
        let h = Arc::new(
            crate::Hierarchy::from_paths(
                &[
                    ["a", "ab", "*"],
                    ["b", "ab", "*"],
                    ["c", "cd", "*"],
                    ["d", "cd", "*"],
                ]
                .iter()
                .map(|r| r.iter().map(|s| s.to_string()).collect())
                .collect::<Vec<_>>(),
            )
            .unwrap(),
        );
        let n = 40u32;
        Table::from_columns(
            vec![
                (
                    "x".into(),
                    QiValues::Numeric((0..n).map(|i| ((i * 7) % 11) as f64).collect()),
                ),
                (
                    "c".into(),
                    QiValues::Categorical {
                        codes: (0..n).map(|i| (i * 5) % 4).collect(),
                        hierarchy: h,
                    },
                ),
                (
                    "k".into(),
                    QiValues::Numeric((0..n).map(|i| if i < 30 { 1.0 } else { 2.0 }).collect()),
                ),
                // Not integral: medians by selection.
                (
                    "f".into(),
                    QiValues::Numeric((0..n).map(|i| ((i * 3) % 7) as f64 * 0.37).collect()),
                ),
                // Integral but sparse: histograms only on large nodes.
                (
                    "z".into(),
                    QiValues::Numeric((0..n).map(|i| ((i * 13) % 9) as f64 * 4.0 - 9.0).collect()),
                ),
                (
                    "d".into(),
                    QiValues::Date((0..n).map(|i| ((i * 5) % 6) as i32 * 3 - 4).collect()),
                ),
            ],
            vec![],
        )
    }

    #[test]
    fn off_median_cuts_offer_every_boundary_when_few_and_quantiles_when_many() {
        let t = Table::from_columns(
            vec![(
                "x".into(),
                QiValues::Numeric(vec![0., 0., 0., 1., 2., 2., 3., 9.]),
            )],
            vec![("s".into(), SaValues::Numeric(vec![0.0; 8]))],
        );
        let space = QiSpace::new(&t);
        let (dims, keys) = Dims::new(&space);
        let mut scratch = CutScratch::default();
        // Keys 0 0 0 1 2 2 3 4 (dense ranks): boundaries after 3, 4, 6 and 7
        // rows, nearest the middle (4) first.
        let cuts = dims.cuts_off_median(0, &keys[0], (0, 4), &mut scratch);
        let lefts: Vec<usize> = cuts.iter().map(|c| c.left).collect();
        assert_eq!(lefts, vec![4, 3, 6, 7]);
        for c in &cuts {
            let mut flags = Vec::new();
            c.flags(&keys[0], &mut flags);
            assert_eq!(flags.iter().filter(|&&f| f).count(), c.left);
            assert!(keys[0]
                .iter()
                .zip(&flags)
                .all(|(&k, &f)| f == (k < c.right_start())));
        }
        // Many distinct keys: one cut per quantile, without repeats.
        let n = 1000u32;
        let t = Table::from_columns(
            vec![(
                "x".into(),
                QiValues::Numeric((0..n).map(f64::from).collect()),
            )],
            vec![("s".into(), SaValues::Numeric(vec![0.0; n as usize]))],
        );
        let space = QiSpace::new(&t);
        let (dims, keys) = Dims::new(&space);
        let cuts = dims.cuts_off_median(0, &keys[0], (0, n - 1), &mut scratch);
        let lefts: Vec<usize> = cuts.iter().map(|c| c.left).collect();
        assert_eq!(lefts, vec![400, 600, 300, 700, 200, 800, 100, 900]);
        // One key: no cut.
        assert!(dims
            .cuts_off_median(0, &[5, 5, 5], (5, 5), &mut scratch)
            .is_empty());
    }

    #[test]
    fn cuts_and_widths_match_the_row_id_implementation() {
        let t = table();
        let space = QiSpace::new(&t);
        let (dims, row_keys) = Dims::new(&space);
        let mut scratch = CutScratch::default();
        let mut flags = Vec::new();
        // Several row subsets in arbitrary orders.
        for (step, len) in [(1u32, 40usize), (3, 17), (7, 9), (13, 2), (11, 25)] {
            let rows: Vec<u32> = (0..len as u32).map(|i| (i * step + 5) % 40).collect();
            let mut store = ColumnStore::new(row_keys.clone(), rows.clone(), Vec::new());
            let cols = store.view();
            for d in 0..dims.len() {
                let keys = &cols.keys[d];
                let (lo, hi) = extent(keys);
                assert_eq!(dims.width(d, lo, hi), space.normalized_width(d, &rows));
                let expected = space.cut(&rows, d);
                let cut = dims.cut(d, keys, (lo, hi), &mut scratch);
                match (expected, cut) {
                    (None, None) => {}
                    (Some((l, r)), Some(cut)) => {
                        cut.flags(keys, &mut flags);
                        let left: Vec<u32> = rows
                            .iter()
                            .zip(&flags)
                            .filter(|(_, &f)| f)
                            .map(|(&r, _)| r)
                            .collect();
                        let right: Vec<u32> = rows
                            .iter()
                            .zip(&flags)
                            .filter(|(_, &f)| !f)
                            .map(|(&r, _)| r)
                            .collect();
                        assert_eq!((left, right), (l, r), "dim {d}");
                        assert_eq!(cut.left, flags.iter().filter(|&&f| f).count());
                    }
                    (e, c) => panic!("dim {d}: {e:?} vs {c:?}"),
                }
            }
        }
    }

    #[test]
    fn partition_keeps_columns_aligned_and_order_stable() {
        let t = table();
        let space = QiSpace::new(&t);
        let (_, row_keys) = Dims::new(&space);
        let rows: Vec<u32> = (0..40).rev().collect();
        let payload: Vec<f64> = rows.iter().map(|&r| r as f64 * 10.0).collect();
        let mut store = ColumnStore::new(row_keys.clone(), rows, payload);
        let mut cols = store.view();
        let flags: Vec<bool> = (10..30).map(|i| i % 3 == 0).collect();
        cols.partition(10..30, &flags, &mut Tmp::default());
        for (i, &r) in cols.ids.iter().enumerate() {
            assert_eq!(cols.payload[i], r as f64 * 10.0);
            for (keys, table_keys) in cols.keys.iter().zip(&row_keys) {
                assert_eq!(keys[i], table_keys[r as usize]);
            }
        }
        let moved: Vec<u32> = cols.ids[10..30].to_vec();
        let left = flags.iter().filter(|&&f| f).count();
        assert!(moved[..left].windows(2).all(|w| w[0] > w[1]));
        assert!(moved[left..].windows(2).all(|w| w[0] > w[1]));
        assert_eq!(&cols.ids[..10], &(30..40).rev().collect::<Vec<u32>>()[..]);
        let (left, right) = cols.split_at(25);
        assert_eq!((left.ids.len(), right.ids.len()), (25, 15));
        assert_eq!((left.keys[0].len(), right.keys[0].len()), (25, 15));
        assert_eq!(right.payload.len(), 15);
        assert_eq!(right.ids[0], moved[15]);
    }

    #[test]
    fn extents_by_side_match_a_plain_scan() {
        for n in [1usize, 7, 8, 9, 31, 64] {
            let keys: Vec<u32> = (0..n as u32)
                .map(|i| i.wrapping_mul(2654435761) % 97)
                .collect();
            let flags: Vec<bool> = (0..n).map(|i| (i * 7) % 3 == 0).collect();
            let side = |left: bool| {
                let ks = keys
                    .iter()
                    .zip(&flags)
                    .filter(|(_, &f)| f == left)
                    .map(|(&k, _)| k);
                (ks.clone().min().unwrap_or(u32::MAX), ks.max().unwrap_or(0))
            };
            assert_eq!(
                extent_by_side(&keys, &flags),
                [side(true), side(false)],
                "{n}"
            );
        }
    }

    #[test]
    fn split_forking_covers_positions_depth_first_whatever_the_threads() {
        use crate::parallel::{with_threads, Threads, FORK_MIN_ROWS};
        // Thirds, so halves are uneven and forks nest to different depths.
        let choose = |_: &mut Columns<'_>, r: Range<usize>, _: &mut ()| {
            (r.len() > 1000).then_some(r.len() / 3)
        };
        let split = |n: usize, threads: usize| {
            let mut store = ColumnStore::new(Vec::new(), (0..n as u32).collect(), Vec::new());
            let threads = Threads::new(threads, "/threads").unwrap();
            with_threads(threads, || {
                split_forking(&mut store.view(), Progress::none(), &choose).unwrap()
            })
        };
        let n = 5 * FORK_MIN_ROWS + 7;
        let one = split(n, 1);
        assert_eq!(one, split(n, 3));
        assert_eq!(one.first().map(|r| r.start), Some(0));
        assert!(one.windows(2).all(|w| w[0].end == w[1].start));
        assert_eq!(one.last().map(|r| r.end), Some(n));
        assert!(one.iter().all(|r| r.len() <= 1000 && !r.is_empty()));
        // Small: the worklist alone, depth first.
        let halves = |_: &mut Columns<'_>, r: Range<usize>, _: &mut ()| (r.len() > 3).then_some(2);
        let mut store = ColumnStore::new(Vec::new(), (0..10).collect(), Vec::new());
        let finals = split_forking(&mut store.view(), Progress::none(), &halves).unwrap();
        assert_eq!(finals, vec![0..2, 2..4, 4..6, 6..8, 8..10]);
        let stop = |_: f64| false;
        let never = |_: &mut Columns<'_>, _: Range<usize>, _: &mut ()| None;
        assert!(split_forking(&mut store.view(), Progress::new(&stop), &never).is_err());
    }
}
