//! The linear-time sweeps over SA-sorted values: find-maxsize (Fig. 1),
//! generalizability (Theorem 1 / Lemma 5) and anonymity-check (Fig. 3).
//!
//! Values are read through `get(k)`, the k-th smallest SA value of the
//! group, so callers pass a slice or a gather over SA-sorted row ids
//! without allocating.

use super::reduce::{Neighborhoods, Offsets, RelativeBand};
use crate::error::CoreResult;
use crate::neighborhood::within;
use crate::params::{EpsilonM, Neighborhood};
use crate::progress::Progress;

/// maxsize(G) (Def. 11) by the sliding window of Fig. 1: the longest run
/// of consecutive sorted values whose ends are neighbours. Stops as soon
/// as the window exceeds `cap` (then the result is `cap + 1`), so a
/// generalizability test quits early. 0 for an empty group.
///
/// The window never shrinks: its length is the best found so far, and it
/// grows when its two ends are neighbours, else slides by one. Correct
/// because "ends are neighbours" is inherited by every sub-window
/// (monotone neighbourhood ends, see `reduce`).
pub(crate) fn find_maxsize<N: Neighborhoods>(
    n: usize,
    get: impl Fn(usize) -> f64,
    nb: N,
    cap: usize,
) -> usize {
    if n == 0 {
        return 0;
    }
    let mut maxsize = 1;
    let mut i = 0;
    for j in 1..n {
        if nb.either_covers(get(i), get(j)) {
            maxsize += 1;
            if maxsize > cap {
                return maxsize;
            }
        } else {
            i += 1;
        }
    }
    maxsize
}

/// G is generalizable iff m ≤ ⌊|G| / maxsize(G)⌋, i.e. maxsize(G) ≤
/// ⌊|G|/m⌋ (Theorem 1 applied to G).
pub(crate) fn generalizable<N: Neighborhoods>(
    n: usize,
    get: impl Fn(usize) -> f64,
    nb: N,
    m: usize,
) -> bool {
    if n < m || n == 0 {
        return false;
    }
    let cap = n / m;
    find_maxsize(n, get, nb, cap) <= cap
}

/// Hands `visit`, per tuple x of SA-sorted `get` in order, how many tuples
/// of G lie in I(x) (x itself included); stops when `visit` says so
/// (returns false) and says whether the sweep went to the end. The tuples
/// in I(x) form a run [i, j) of the sorted values whose ends only move
/// right as x grows, so the sweep is linear.
fn sweep_neighbourhoods<N: Neighborhoods>(
    n: usize,
    get: impl Fn(usize) -> f64,
    nb: N,
    mut visit: impl FnMut(usize) -> bool,
) -> bool {
    sweep_runs(n, get, nb, |_, run| visit(run.len()))
}

/// [`sweep_neighbourhoods`] handing `visit` the run itself: x and the
/// positions [i, j) of the tuples in I(x).
fn sweep_runs<N: Neighborhoods>(
    n: usize,
    get: impl Fn(usize) -> f64,
    nb: N,
    mut visit: impl FnMut(usize, std::ops::Range<usize>) -> bool,
) -> bool {
    let (mut i, mut j) = (0, 0);
    for x in 0..n {
        let v = get(x);
        // x ∈ I(x), so i stops at x at the latest. Sorted: the values
        // behind x are at most v, those ahead at least v.
        while i < x && !nb.covers_below(v, get(i)) {
            i += 1;
        }
        j = j.max(x + 1);
        while j < n && nb.covers_above(v, get(j)) {
            j += 1;
        }
        if !visit(x, i..j) {
            return false;
        }
    }
    true
}

/// Per tuple x of SA-sorted `get`, the run [i, j) of positions whose
/// values lie in I(x), as `starts[x]` = i and `ends[x]` = j.
///
/// Why it is worth keeping: the run of x in any subset S (kept in the
/// same order) is S's members among [i, j), so a subset's counts come
/// from a prefix count of membership — integers, no value read again —
/// which is how the look-ahead tests cut after cut of one node.
pub(crate) fn neighbourhood_runs<N: Neighborhoods>(
    n: usize,
    get: impl Fn(usize) -> f64,
    nb: N,
    (starts, ends): (&mut Vec<u32>, &mut Vec<u32>),
) {
    starts.clear();
    ends.clear();
    sweep_runs(n, get, nb, |_, run| {
        starts.push(run.start as u32);
        ends.push(run.end as u32);
        true
    });
}

/// anonymity-check (Fig. 3): for every tuple x, the tuples of G in I(x)
/// are at most |G|/m. Pbrh(x) = (j − i)/|G| > 1/m ⇔ (j − i)·m > |G|
/// (integers: no division rounding).
pub(crate) fn anonymity_check<N: Neighborhoods>(
    n: usize,
    get: impl Fn(usize) -> f64,
    nb: N,
    m: usize,
) -> bool {
    anonymity_peak(n, get, nb, m).is_some()
}

/// [`anonymity_check`] that also says by how much G passes: the most
/// tuples of G any one tuple's neighbourhood holds (itself included), or
/// `None` as soon as one holds more than |G|/m.
///
/// Why it is worth keeping: a subset of G holds no more tuples in any
/// neighbourhood than G does, so a part of G with at least peak·m rows
/// passes without a sweep of its own.
pub(crate) fn anonymity_peak<N: Neighborhoods>(
    n: usize,
    get: impl Fn(usize) -> f64,
    nb: N,
    m: usize,
) -> Option<usize> {
    let mut peak = 0;
    let passed = sweep_neighbourhoods(n, get, nb, |size| {
        peak = peak.max(size);
        size.saturating_mul(m) <= n
    });
    passed.then_some(peak)
}

/// How far SA-sorted `get` is from passing [`anonymity_check`]: the
/// largest `(j − i)·m − n` over its rows' neighbourhoods (rows seen times
/// m, less the group's size), 0 when it passes. A merge that lowers it is
/// a step towards a group that satisfies the model.
pub(crate) fn anonymity_excess<N: Neighborhoods>(
    n: usize,
    get: impl Fn(usize) -> f64,
    nb: N,
    m: usize,
) -> usize {
    let mut worst = 0;
    sweep_neighbourhoods(n, get, nb, |size| {
        worst = worst.max(size.saturating_mul(m).saturating_sub(n));
        true
    });
    worst
}

/// A small set of positions of SA-sorted `get` to leave out so that the
/// rest passes [`anonymity_check`] (ascending positions; everything when no
/// subset of ≥ m rows is found). Greedy: while some row x sees c > k/m
/// kept rows in I(x) (k kept), leave out about half of the ⌈(c·m − k)/(m −
/// 1)⌉ kept rows that would fix that neighbourhood alone, nearest to x first
/// — each removal lowers c by one and k/m by only 1/m. Used for suppression, the release officer's last
/// resort: a leaf that no ancestor can absorb loses its densest rows
/// instead of all of them.
pub(crate) fn anonymity_trim<N: Neighborhoods>(
    n: usize,
    get: impl Fn(usize) -> f64,
    nb: N,
    m: usize,
) -> Vec<usize> {
    let mut kept: Vec<usize> = (0..n).collect();
    let mut removed: Vec<usize> = Vec::new();
    // Each round removes at least one row.
    for _ in 0..n {
        let k = kept.len();
        if k < m.max(1) || m <= 1 {
            break;
        }
        // The worst row and its neighbourhood run [i, j) among kept rows.
        let (mut i, mut j) = (0usize, 0usize);
        let mut worst = (0usize, 0usize, 0usize, 0usize); // (count, x, i, j)
        for x in 0..k {
            let v = get(kept[x]);
            while i < x && !nb.covers(v, get(kept[i])) {
                i += 1;
            }
            j = j.max(x + 1);
            while j < k && nb.covers(v, get(kept[j])) {
                j += 1;
            }
            if j - i > worst.0 {
                worst = (j - i, x, i, j);
            }
        }
        let (c, x, i, j) = worst;
        if c * m <= k {
            removed.sort_unstable();
            return removed;
        }
        // Enough to fix this neighbourhood alone; half of it per round,
        // since leaving out its centre also shrinks the neighbourhoods
        // around it.
        let need = ((c * m - k).div_ceil(m - 1) / 2).max(1);
        // Nearest to x first, outward: positions i..j of `kept`.
        let center = get(kept[x]);
        let (mut lo, mut hi) = (x as isize, x + 1);
        let mut take: Vec<usize> = Vec::with_capacity(need);
        while take.len() < need && (lo >= i as isize || hi < j) {
            let left = (lo >= i as isize).then(|| center - get(kept[lo as usize]));
            let right = (hi < j).then(|| get(kept[hi]) - center);
            match (left, right) {
                (Some(l), Some(r)) if r < l => {
                    take.push(hi);
                    hi += 1;
                }
                (Some(_), _) => {
                    take.push(lo as usize);
                    lo -= 1;
                }
                (None, Some(_)) => {
                    take.push(hi);
                    hi += 1;
                }
                (None, None) => break,
            }
        }
        take.sort_unstable();
        for &t in take.iter().rev() {
            removed.push(kept.remove(t));
        }
    }
    if anonymity_check(kept.len(), |p| get(kept[p]), nb, m) {
        removed.sort_unstable();
        return removed;
    }
    (0..n).collect()
}

/// Steps from above that [`window_thinning`] takes before bisecting.
const FIXED_POINT_STEPS: usize = 4;

/// Rows to leave out of a whole table (SA-sorted `sorted`) so that the rest
/// passes anonymity-check, for neighbourhoods of fixed width `w` = e1 + e2
/// (absolute ones): keep at most c rows in every closed window of width
/// w — then each kept row sees at most c kept rows — with c the largest cap
/// for which the kept count K(c) of the greedy thinning still has c·m ≤
/// K(c). The greedy (keep a row unless the window ending at it already
/// holds c kept rows) keeps the most rows for a cap, and K grows with c,
/// so a binary search finds c: O(n log n) in all, where
/// [`anonymity_trim`]'s rounds can take O(n) each.
///
/// Each greedy pass makes a checkpoint every [`ROWS_PER_CHECKPOINT`] rows
/// (the fraction of the at most `2 + log₂(n/m)` passes done).
///
/// [`ROWS_PER_CHECKPOINT`]: crate::progress::ROWS_PER_CHECKPOINT
pub(crate) fn window_thinning(
    sorted: &[f64],
    w: f64,
    m: usize,
    progress: Progress<'_>,
) -> CoreResult<Vec<usize>> {
    window_thinning_with_room(sorted, w, m, Headroom::NONE, progress)
}

/// A share of the thinning's cap left unused, in 64ths: with room r the
/// thinning takes the largest cap c with c·m ≤ K(c)·(1 − r), so that the
/// kept rows pass with a margin — every part of them holding at least
/// c·m rows passes too, which is what lets a tree cut the thinned table
/// where the plain thinning (no margin) leaves halves that fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Headroom(u8);

impl Headroom {
    /// The plain thinning: the cap exactly at K(c)/m.
    pub(crate) const NONE: Headroom = Headroom(0);
    /// The largest share: more would leave most rows out.
    const MAX_64THS: u8 = 32;

    /// `k`/64 of the cap, at most a half.
    pub(crate) fn in_64ths(k: u8) -> Headroom {
        Headroom(k.min(Self::MAX_64THS))
    }

    /// The largest cap that `kept` rows hold: ⌊kept·(64 − room) / (64·m)⌋,
    /// in integers (no rounding); cap c holds for K(c) kept rows when
    /// c ≤ cap_for(K(c)), i.e. c·m ≤ K(c)·(1 − room).
    fn cap_for(self, m: usize, kept: usize) -> usize {
        kept.saturating_mul(64 - usize::from(self.0)) / (64 * m)
    }
}

/// [`window_thinning`] with `room` of the cap left unused ([`Headroom`]).
pub(crate) fn window_thinning_with_room(
    sorted: &[f64],
    w: f64,
    m: usize,
    room: Headroom,
    progress: Progress<'_>,
) -> CoreResult<Vec<usize>> {
    let n = sorted.len();
    if m <= 1 {
        return Ok(Vec::new());
    }
    // The steps from above, the binary search's passes and the last one,
    // at most.
    let passes = FIXED_POINT_STEPS + (usize::BITS - (n / m).leading_zeros()) as usize + 2;
    let mut pass = 0usize;
    let mut thin = |cap: usize, out: Option<&mut Vec<usize>>| -> CoreResult<usize> {
        let mut dropped = Vec::new();
        let kept = thinning_pass(
            sorted,
            w,
            cap,
            |p| dropped.push(p),
            |start| progress.report((pass as f64 + start as f64 / n as f64) / passes as f64),
        )?;
        pass = (pass + 1).min(passes - 1);
        if let Some(out) = out {
            *out = dropped;
        }
        Ok(kept)
    };
    let (mut lo, mut hi) = (0usize, room.cap_for(m, n));
    // The answer c* is at most cap_for(K(c)) for any c ≥ c* (c* holds for
    // K(c*) ≤ K(c): a larger cap keeps more), and a c ≥ c* that holds for
    // K(c) is c* itself. So a few steps c ← cap_for(K(c)) from the top
    // close in from above — usually onto c* — before the bisection takes
    // what is left.
    for _ in 0..FIXED_POINT_STEPS {
        let kept = thin(hi, None)?;
        if hi <= room.cap_for(m, kept) {
            lo = hi;
            break;
        }
        hi = room.cap_for(m, kept).min(hi - 1);
    }
    // Invariant: cap lo holds for K(lo) (0 trivially).
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if mid <= room.cap_for(m, thin(mid, None)?) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    if lo == 0 {
        progress.report(1.0)?;
        return Ok((0..n).collect());
    }
    let mut out = Vec::new();
    thin(lo, Some(&mut out))?;
    progress.report(1.0)?;
    Ok(out)
}

/// One greedy pass of the window thinning over SA-sorted `sorted`: a row is
/// kept unless the closed window of width `w` ending at it already keeps
/// `cap` rows. `left_out` hears each position the pass leaves out, and
/// `block` the first position of each block of
/// [`ROWS_PER_CHECKPOINT`](crate::progress::ROWS_PER_CHECKPOINT) rows before
/// it is read (a checkpoint; its error stops the pass). Returns how many
/// rows the pass keeps.
pub(crate) fn thinning_pass<E>(
    sorted: &[f64],
    w: f64,
    cap: usize,
    mut left_out: impl FnMut(usize),
    mut block: impl FnMut(usize) -> Result<(), E>,
) -> Result<usize, E> {
    use crate::progress::ROWS_PER_CHECKPOINT as BLOCK;
    let mut kept: Vec<usize> = Vec::with_capacity(sorted.len());
    let mut first = 0usize; // index into `kept` of the window's oldest
    for (b, rows) in sorted.chunks(BLOCK).enumerate() {
        let start = b * BLOCK;
        block(start)?;
        for (i, &y) in rows.iter().enumerate() {
            let p = start + i;
            while first < kept.len() && !within(y - sorted[kept[first]], w) {
                first += 1;
            }
            if kept.len() - first < cap {
                kept.push(p);
            } else {
                left_out(p);
            }
        }
    }
    Ok(kept.len())
}

/// Whether a group with these SA-sorted values (in the (e1,e2) domain of
/// the paper's reduction: raw values for absolute, log₂ values for
/// relative) has an (e1,e2,m)-anonymous generalization: m ≤
/// ⌊|G|/maxsize(G)⌋ with maxsize by Fig. 1, emax = max(e1, e2). False for
/// an empty group. Unsorted input gives a meaningless answer.
pub fn is_generalizable(sorted_values: &[f64], e1: f64, e2: f64, m: usize) -> bool {
    debug_assert!(sorted_values.windows(2).all(|w| w[0] <= w[1]));
    generalizable(
        sorted_values.len(),
        |k| sorted_values[k],
        Offsets { e1, e2 },
        m,
    )
}

/// Whether a group with these (un-sorted) raw SA values satisfies
/// (ε,m)-anonymity: every value has at most |G|/m values of the group in
/// its closed ε-neighbourhood (itself included). Relative neighbourhoods
/// need values > 0: a group with a value ≤ 0 or a non-finite value is
/// reported as not satisfying. An empty group satisfies vacuously.
pub fn group_satisfies(values: &[f64], params: &EpsilonM) -> bool {
    if values.iter().any(|v| !v.is_finite()) {
        return false;
    }
    let mut sorted = values.to_vec();
    sorted.sort_unstable_by(f64::total_cmp);
    let (n, m, e) = (sorted.len(), params.m.get(), params.epsilon.get());
    let get = |k: usize| sorted[k];
    match params.neighborhood {
        Neighborhood::Absolute => anonymity_check(n, get, Offsets { e1: e, e2: e }, m),
        Neighborhood::Relative => {
            sorted.first().is_none_or(|&v| v > 0.0)
                && anonymity_check(n, get, RelativeBand { epsilon: e }, m)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trimming_leaves_out_the_densest_rows_only() {
        // 1, 2, 3 are mutual neighbours (ε = 1.5 around 2), 10, 20, 30 are
        // alone: with m = 3, 2 sees 3 of 6 > 2. Removing one of the dense
        // rows, 2 itself, leaves 5 rows where each sees only itself (1 and
        // 3 are 2 > 1.5 apart): 1 ≤ 5/3.
        let s = [1.0, 2.0, 3.0, 10.0, 20.0, 30.0];
        let nb = Offsets { e1: 1.5, e2: 1.5 };
        assert!(!anonymity_check(6, |k| s[k], nb, 3));
        let out = anonymity_trim(6, |k| s[k], nb, 3);
        assert_eq!(out, vec![1]);
        let kept: Vec<f64> = (0..6).filter(|p| !out.contains(p)).map(|p| s[p]).collect();
        assert!(anonymity_check(kept.len(), |k| kept[k], nb, 3));
        // Already anonymous: nothing to leave out; hopeless: everything.
        assert!(anonymity_trim(3, |k| [1.0, 10.0, 20.0][k], nb, 3).is_empty());
        assert_eq!(anonymity_trim(2, |k| [1.0, 2.0][k], nb, 3), vec![0, 1]);
    }

    #[test]
    fn window_thinning_keeps_the_rest_anonymous() {
        // Ten rows at 0..10 step 1, ε = 1 (windows of width 2 hold 3
        // rows), m = 4: a window may keep ⌊K/4⌋; the thinning keeps 1 of
        // every 3 consecutive values at cap 1 (K = 4: 0, 3, 6, 9 → 1·4 ≤ 4),
        // and cap 2 keeps 7 rows but needs 8.
        let s: Vec<f64> = (0..10).map(f64::from).collect();
        let out = window_thinning(&s, 2.0, 4, Progress::none()).unwrap();
        let kept: Vec<f64> = (0..10).filter(|p| !out.contains(p)).map(|p| s[p]).collect();
        assert_eq!(kept, vec![0.0, 3.0, 6.0, 9.0]);
        let nb = Offsets { e1: 1.0, e2: 1.0 };
        assert!(anonymity_check(kept.len(), |k| kept[k], nb, 4));
        // Already anonymous at the top cap: nothing goes.
        assert!(
            window_thinning(&[0.0, 10.0, 20.0, 30.0], 2.0, 2, Progress::none())
                .unwrap()
                .is_empty()
        );
    }

    /// The greedy thinning at one cap, written out again: positions left
    /// out when every window of width `w` keeps at most `cap` rows.
    fn thinned_at(s: &[f64], w: f64, cap: usize) -> Vec<usize> {
        let mut kept: Vec<f64> = Vec::new();
        let mut out = Vec::new();
        for (p, &y) in s.iter().enumerate() {
            if kept.iter().filter(|&&x| y - x <= w).count() < cap {
                kept.push(y);
            } else {
                out.push(p);
            }
        }
        out
    }

    proptest::proptest! {
        /// One pass at any cap (none, below, at and above the group's
        /// size) leaves out what the thinning written out leaves out, and
        /// hears every checkpoint.
        #[test]
        fn one_pass_leaves_out_what_the_thinning_says(
            values in proptest::collection::vec(0u8..20, 0..80),
            extra in 0usize..3,
        ) {
            let mut s: Vec<f64> = values.iter().map(|&v| v as f64).collect();
            s.sort_unstable_by(f64::total_cmp);
            for cap in 0..=s.len() + extra {
                let mut out = Vec::new();
                let mut blocks = 0;
                let kept = thinning_pass(&s, 2.0, cap, |p| out.push(p), |_| {
                    blocks += 1;
                    Ok::<(), ()>(())
                })
                .unwrap();
                let expected = thinned_at(&s, 2.0, cap);
                proptest::prop_assert_eq!(kept, s.len() - expected.len());
                proptest::prop_assert_eq!(&out, &expected, "cap {}", cap);
                proptest::prop_assert_eq!(blocks, usize::from(!s.is_empty()));
            }
        }

        /// The steps from above and the bisection find the largest cap c
        /// with c·m ≤ K(c), as a scan over every cap does.
        #[test]
        fn window_thinning_takes_the_largest_cap_that_holds(
            values in proptest::collection::vec(0u8..20, 1..80),
            m in 2usize..6,
        ) {
            let mut s: Vec<f64> = values.iter().map(|&v| v as f64).collect();
            s.sort_unstable_by(f64::total_cmp);
            let n = s.len();
            let best = (1..=n / m).rev().find(|&c| c * m <= n - thinned_at(&s, 2.0, c).len());
            let expected = match best {
                Some(c) => thinned_at(&s, 2.0, c),
                None => (0..n).collect(),
            };
            proptest::prop_assert_eq!(window_thinning(&s, 2.0, m, Progress::none()).unwrap(), expected);
        }

        /// With headroom r (in 64ths) the same search finds the largest
        /// cap c with c·m ≤ K(c)·(1 − r), written here in floating point;
        /// what it keeps passes anonymity-check, and more room never
        /// keeps more rows.
        #[test]
        fn window_thinning_with_room_leaves_the_share_unused(
            values in proptest::collection::vec(0u8..20, 1..80),
            m in 2usize..6,
            room in 0u8..=32,
        ) {
            let mut s: Vec<f64> = values.iter().map(|&v| v as f64).collect();
            s.sort_unstable_by(f64::total_cmp);
            let n = s.len();
            let free = 1.0 - f64::from(room) / 64.0;
            let best = (1..=n)
                .rev()
                .find(|&c| (c * m) as f64 <= (n - thinned_at(&s, 2.0, c).len()) as f64 * free);
            let expected = match best {
                Some(c) => thinned_at(&s, 2.0, c),
                None => (0..n).collect(),
            };
            let out = window_thinning_with_room(&s, 2.0, m, Headroom::in_64ths(room), Progress::none())
                .unwrap();
            proptest::prop_assert_eq!(&out, &expected);
            let kept: Vec<f64> = (0..n).filter(|p| !out.contains(p)).map(|p| s[p]).collect();
            let nb = Offsets { e1: 1.0, e2: 1.0 };
            proptest::prop_assert!(kept.is_empty() || anonymity_check(kept.len(), |k| kept[k], nb, m));
            if room > 0 {
                let less = window_thinning_with_room(
                    &s, 2.0, m, Headroom::in_64ths(room - 1), Progress::none(),
                ).unwrap();
                proptest::prop_assert!(less.len() <= out.len());
            }
        }
    }

    proptest::proptest! {
        /// anonymity_peak is the largest neighbourhood, counted row by row
        /// here, exactly when anonymity-check passes; and any subset of at
        /// least peak·m rows passes without being looked at otherwise.
        #[test]
        fn the_peak_is_the_largest_neighbourhood_and_bounds_every_subset(
            values in proptest::collection::vec(0u8..20, 1..60),
            keep in proptest::collection::vec(proptest::bool::ANY, 60),
            m in 1usize..5,
            e in 0u8..3,
        ) {
            let mut s: Vec<f64> = values.iter().map(|&v| v as f64).collect();
            s.sort_unstable_by(f64::total_cmp);
            let e = e as f64;
            let nb = Offsets { e1: e, e2: e };
            let counted = s
                .iter()
                .map(|&x| s.iter().filter(|&&y| (y - x).abs() <= e).count())
                .max()
                .unwrap();
            let peak = anonymity_peak(s.len(), |k| s[k], nb, m);
            let passes = anonymity_check(s.len(), |k| s[k], nb, m);
            proptest::prop_assert_eq!(peak.is_some(), passes);
            proptest::prop_assert_eq!(passes, counted * m <= s.len());
            if let Some(peak) = peak {
                proptest::prop_assert_eq!(peak, counted);
                let part: Vec<f64> = s.iter().zip(&keep).filter(|(_, &k)| k).map(|(&v, _)| v).collect();
                if !part.is_empty() && peak * m <= part.len() {
                    proptest::prop_assert!(anonymity_check(part.len(), |k| part[k], nb, m));
                }
            }
        }
    }

    use crate::params::{Epsilon, M};

    fn params(e: f64, m: u64, nb: Neighborhood) -> EpsilonM {
        EpsilonM::new(
            Epsilon::new(e, "/e").unwrap(),
            M::new(m, "/m").unwrap(),
            nb,
            "/e",
        )
        .unwrap()
    }

    /// Table 1a's salaries, ascending (§4.2's running example).
    const TABLE1: [f64; 8] = [
        1000.0, 1010.0, 1020.0, 16000.0, 24000.0, 31000.0, 33000.0, 50000.0,
    ];

    fn maxsize(values: &[f64], nb: impl Neighborhoods) -> usize {
        find_maxsize(values.len(), |k| values[k], nb, usize::MAX)
    }

    #[test]
    fn table1_maxsize_is_three() {
        // e1 = 20, e2 = 10000 and swapped (Lemma 3): maxsize 3, so m ≤ 2.
        assert_eq!(
            maxsize(
                &TABLE1,
                Offsets {
                    e1: 20.0,
                    e2: 10000.0
                }
            ),
            3
        );
        assert_eq!(
            maxsize(
                &TABLE1,
                Offsets {
                    e1: 10000.0,
                    e2: 20.0
                }
            ),
            3
        );
        assert!(is_generalizable(&TABLE1, 20.0, 10000.0, 2));
        assert!(!is_generalizable(&TABLE1, 20.0, 10000.0, 3));
        // Lemma 2's example: G1 = {t1,t2} has maxsize 2, G2 = {t3..t8} 3.
        assert_eq!(
            maxsize(
                &TABLE1[..2],
                Offsets {
                    e1: 20.0,
                    e2: 10000.0
                }
            ),
            2
        );
        assert_eq!(
            maxsize(
                &TABLE1[2..],
                Offsets {
                    e1: 20.0,
                    e2: 10000.0
                }
            ),
            3
        );
        assert_eq!(maxsize(&[], Offsets { e1: 1.0, e2: 1.0 }), 0);
        // The cap stops the sweep early at cap + 1.
        assert_eq!(find_maxsize(4, |_| 7.0, Offsets { e1: 0.0, e2: 0.0 }, 2), 3);
    }

    #[test]
    fn table1b_first_group_breach_is_three_quarters() {
        // Andy's QI-group {1000, 1010, 1020, 50000}: with I(t) = [900, 1100]
        // (absolute ε = 100) Pbrh = 3/4, so it is (100, 1)- but not
        // (100, 2)-anonymous.
        let g = [1000.0, 50000.0, 1010.0, 1020.0];
        // Pbrh by Def. 5, brute force: values of G in I(Andy) over |G|.
        let andy = 1000.0;
        let in_range = g.iter().filter(|&&y| (900.0..=1100.0).contains(&y)).count();
        assert_eq!(in_range as f64 / g.len() as f64, 0.75);
        assert_eq!((andy - 100.0, andy + 100.0), (900.0, 1100.0));
        assert!(group_satisfies(
            &g,
            &params(100.0, 1, Neighborhood::Absolute)
        ));
        assert!(!group_satisfies(
            &g,
            &params(100.0, 2, Neighborhood::Absolute)
        ));
    }

    #[test]
    fn lemma4_union_of_anonymous_groups_is_not_anonymous() {
        let p = params(15.0, 2, Neighborhood::Absolute);
        assert!(group_satisfies(&[40.0, 60.0], &p));
        assert!(group_satisfies(&[50.0, 80.0], &p));
        assert!(!group_satisfies(&[40.0, 50.0, 60.0, 80.0], &p));
    }

    #[test]
    fn a_neighbour_at_exactly_epsilon_counts() {
        let p = params(10.0, 2, Neighborhood::Absolute);
        assert!(!group_satisfies(&[0.0, 10.0], &p));
        assert!(group_satisfies(&[0.0, 10.5], &p));
        let r = params(0.25, 2, Neighborhood::Relative);
        assert!(!group_satisfies(&[100.0, 125.0], &r));
        assert!(!group_satisfies(&[100.0, 75.0], &r));
        // 100 ∈ I(126) = [94.5, 157.5]: relative neighbourhoods are asymmetric.
        assert!(!group_satisfies(&[100.0, 126.0], &r));
        assert!(group_satisfies(&[100.0, 134.0], &r));
        // 150·1.1 = 165 exactly: a neighbour by the definition (log₂
        // arithmetic would say otherwise).
        let r = params(0.1, 2, Neighborhood::Relative);
        assert!(!group_satisfies(&[150.0, 165.0], &r));
        assert_eq!(maxsize(&[150.0, 165.0], RelativeBand { epsilon: 0.1 }), 2);
        assert_eq!(maxsize(&[150.0, 166.7], RelativeBand { epsilon: 0.1 }), 1);
    }

    #[test]
    fn relative_groups_need_positive_values() {
        let r = params(0.1, 1, Neighborhood::Relative);
        assert!(!group_satisfies(&[0.0, 10.0], &r));
        assert!(group_satisfies(&[1.0, 10.0], &r));
        assert!(group_satisfies(&[], &r));
        assert!(!group_satisfies(
            &[f64::NAN],
            &params(1.0, 1, Neighborhood::Absolute)
        ));
    }
}
