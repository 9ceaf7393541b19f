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

use super::maxsize::{
    anonymity_check, anonymity_excess, anonymity_trim, generalizable, neighbourhood_runs,
    thinning_pass, window_thinning,
};
use super::reduce::Neighborhoods;
use crate::columnar::{
    extent, extent_by_side, from_total_order_bits, total_order_bits, ColumnStore, Columns,
    CutScratch, Dims, Tmp,
};
use crate::error::CoreResult;
use crate::progress::Progress;
use crate::safe_split::{safe_partition, Growth, Measured, Rules};
use lookahead::{halves_pass_by_runs, LookAhead};

mod lookahead;
use crate::split::QiSpace;
use std::convert::Infallible;
use std::ops::Range;

/// The split phase and the partition phase on one tree (see
/// [`crate::safe_split`]): SA-sorted `rows` grow by generalizable cuts; a
/// leaf is a group when it passes anonymity-check; a failing leaf is
/// absorbed by its nearest ancestor that passes (which is then cut again
/// into anonymous halves). Returns the groups in depth-first order (rows
/// SA-sorted inside each) and the rows no group could hold.
pub(crate) fn split_phase<N: Neighborhoods>(
    space: &QiSpace<'_>,
    sa: &[f64],
    nb: N,
    m: usize,
    rows: Vec<u32>,
    progress: Progress<'_>,
) -> CoreResult<(Vec<Vec<u32>>, Vec<u32>)> {
    split_phase_leaving(space, sa, nb, m, (rows, false), progress)
}

/// [`split_phase`] where the whole table fails the model and rows must be
/// left out: with `trim_nodes`, a node whose failing pieces no merge places
/// may leave out its own densest rows as a whole, when that costs less
/// than trimming its failing leaves one by one ([`Rules::node_trim`]).
pub(crate) fn split_phase_leaving<N: Neighborhoods>(
    space: &QiSpace<'_>,
    sa: &[f64],
    nb: N,
    m: usize,
    (rows, trim_nodes): (Vec<u32>, bool),
    progress: Progress<'_>,
) -> CoreResult<(Vec<Vec<u32>>, Vec<u32>)> {
    let guided = |scratch: &mut Scratch<'_, '_, N>| scratch.trim_nodes = trim_nodes;
    grow_tree(space, sa, (nb, m), rows, (Growth::Guide, guided), progress)
}

/// A partition of SA-sorted `rows`, which pass anonymity-check as a whole,
/// grown by the model itself with the ordinary cuts: a node is cut only
/// where both halves pass (the median, other positions on nodes of at least
/// [`OFF_MEDIAN_MIN_GROUPS`]·m rows), so no leaf fails and nothing is
/// merged. Rows come back unplaced only if `rows` fail as a whole.
pub(crate) fn split_by_model<N: Neighborhoods>(
    space: &QiSpace<'_>,
    sa: &[f64],
    nb: N,
    m: usize,
    rows: Vec<u32>,
    progress: Progress<'_>,
) -> CoreResult<(Vec<Vec<u32>>, Vec<u32>)> {
    let plain = |_: &mut Scratch<'_, '_, N>| {};
    grow_tree(space, sa, (nb, m), rows, (Growth::Model, plain), progress)
}

/// A partition of SA-sorted `rows`, which pass anonymity-check as a whole,
/// grown by the model itself with look-ahead cuts ([`lookahead`]): every
/// node is (ε,m)-anonymous and each is cut where its halves, refined, lose
/// least. Returns the groups in depth-first order (rows SA-sorted inside
/// each).
pub(crate) fn split_looking_ahead<N: Neighborhoods>(
    space: &QiSpace<'_>,
    sa: &[f64],
    nb: N,
    m: usize,
    rows: Vec<u32>,
    progress: Progress<'_>,
) -> CoreResult<Vec<Vec<u32>>> {
    let looking_ahead = |scratch: &mut Scratch<'_, '_, N>| {
        scratch.lookahead = Some(Box::new(LookAhead::new(scratch.dims, m)));
    };
    let (groups, unplaced) = grow_tree(
        space,
        sa,
        (nb, m),
        rows,
        (Growth::Model, looking_ahead),
        progress,
    )?;
    debug_assert!(unplaced.is_empty(), "every node of the tree passes");
    Ok(groups)
}

/// The columns of SA-sorted `rows` and one safe tree over them, grown as
/// `growth` says by [`Scratch`] rules that `configure` sets up: the groups
/// and the unplaced rows.
fn grow_tree<N: Neighborhoods>(
    space: &QiSpace<'_>,
    sa: &[f64],
    (nb, m): (N, usize),
    rows: Vec<u32>,
    (growth, configure): (Growth, impl FnOnce(&mut Scratch<'_, '_, N>)),
    progress: Progress<'_>,
) -> CoreResult<(Vec<Vec<u32>>, Vec<u32>)> {
    let (dims, row_keys) = Dims::new_checked(space, progress)?;
    let values = rows.iter().map(|&r| sa[r as usize]).collect();
    let mut store = ColumnStore::new_checked(row_keys, rows, values, progress)?;
    let mut cols = store.view();
    let mut scratch = Scratch::new(&dims, nb, m);
    configure(&mut scratch);
    let outcome = safe_partition(&dims, &mut cols, &mut scratch, growth, progress)?;
    Ok(outcome.rows(&cols))
}

/// Cuts away from the median are tried on nodes of at least this many
/// times m rows: a smaller node rarely has a valid cut there, and trying
/// every position on each of the many small nodes would cost more than the
/// whole split.
pub(crate) const OFF_MEDIAN_MIN_GROUPS: usize = 4;

/// Relative neighbourhoods have no fixed width for the window thinning: a
/// node's own trimming then takes the greedy rounds, on nodes up to this
/// many rows.
const NODE_TRIM_GREEDY_MAX: usize = 4096;

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
    /// [`sort_values`]'s keys.
    sort_keys: Vec<u64>,
    /// Whether a node may leave out its own densest rows
    /// ([`Rules::node_trim`]): only where the whole table fails.
    trim_nodes: bool,
    /// With it, cuts by the model itself (`exact`) are chosen by what
    /// their halves lose once refined ([`lookahead`]), not by the halves'
    /// own loss.
    lookahead: Option<Box<LookAhead<'d, 'a>>>,
    /// Of the node being cut: per position (SA order), the run of the
    /// node's positions in its neighbourhood ([`neighbourhood_runs`]),
    /// valid once `runs_swept`; and a cut's prefix count of left rows.
    runs: (Vec<u32>, Vec<u32>),
    runs_swept: bool,
    before: Vec<u32>,
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
            sort_keys: Vec::new(),
            trim_nodes: false,
            lookahead: None,
            runs: Default::default(),
            runs_swept: false,
            before: Vec::new(),
            tmp: Tmp::default(),
        }
    }

    /// Takes the least-loss cut of `node` into two halves that are both
    /// generalizable (or, when `exact`, both pass anonymity-check), if any:
    /// partitions the node in place and returns its left size and the
    /// dimension cut.
    /// `own`: what is known of the node (its trimming's estimate, from its
    /// parent's cut), completed when this cut measures it; returns with the
    /// cut what was measured of each half.
    fn best_cut(
        &mut self,
        cols: &mut Columns<'_>,
        node: Range<usize>,
        exact: bool,
        territory: &[(u32, u32)],
        own: &mut Measured,
    ) -> Option<((usize, usize, u32), [Measured; 2])> {
        let (m, n) = (self.m, node.len());
        // Each half needs at least m rows to be generalizable.
        if n < 2 * m {
            return None;
        }
        if exact && self.lookahead.is_some() {
            let cut = self.best_cut_looking_ahead(cols, node, territory)?;
            return Some((cut, [Measured::default(); 2]));
        }
        self.extents.clear();
        self.extents
            .extend(cols.keys.iter().map(|k| extent(&k[node.clone()])));
        self.runs_swept = false;
        let mut best: Option<Candidate> = None;
        for (dim, &room) in territory.iter().enumerate().take(self.dims.len()) {
            let keys = &cols.keys[dim][node.clone()];
            if let Some(cut) = self
                .dims
                .cut(dim, keys, self.extents[dim], &mut self.select)
            {
                self.consider(cols, node.clone(), exact, (dim, room), &cut, &mut best);
            }
        }
        if best.is_none() && exact && n >= OFF_MEDIAN_MIN_GROUPS * m {
            // No median cut leaves two halves that satisfy the model: the
            // other cut positions (`Dims::cuts_off_median`), least loss
            // first. Only when cutting by the model itself (refining a
            // merge): the guide's tree stays the paper's median tree, whose
            // failing leaves the settle phase merges locally.
            for (dim, &room) in territory.iter().enumerate().take(self.dims.len()) {
                let keys = &cols.keys[dim][node.clone()];
                let cuts =
                    self.dims
                        .cuts_off_median(dim, keys, self.extents[dim], &mut self.select);
                for cut in cuts {
                    self.consider(cols, node.clone(), exact, (dim, room), &cut, &mut best);
                }
            }
        }
        let best = best?;
        if self.trim_nodes && !exact {
            // Where rows must be left out, a cut is taken only when its
            // halves, each trimmed, cost less than the node trimmed whole.
            let d = self.dims.len();
            let measure = || left_out_estimate(&cols.payload[node.clone()], self.nb, m);
            // Measured by the parent's cut, on the same rows (`Measured`).
            debug_assert!(own.left_out.is_none_or(|known| known == measure()));
            let left_out = *own.left_out.get_or_insert_with(measure);
            let whole = LeavingCost::counting(left_out, n, d);
            let width: f64 = (0..d)
                .map(|d| self.dims.width(d, self.extents[d].0, self.extents[d].1))
                .sum();
            if best.loss >= whole.left_out + whole.kept * width {
                return None;
            }
        }
        cols.partition(node, &self.best_flags, &mut self.tmp);
        Some(((best.left, best.dim, best.right_start), best.halves))
    }

    /// Takes `cut` on `dim` as the best so far (its flags into
    /// `best_flags`) when both halves have m rows, keep their labels inside
    /// the territory (`room` on `dim`), pass the test and lose less.
    fn consider(
        &mut self,
        cols: &Columns<'_>,
        node: Range<usize>,
        exact: bool,
        (dim, room): (usize, (u32, u32)),
        cut: &crate::columnar::Cut,
        best: &mut Option<Candidate>,
    ) {
        let (m, n) = (self.m, node.len());
        if cut.left < m || n - cut.left < m {
            return;
        }
        let keys = &cols.keys[dim][node.clone()];
        cut.flags(keys, &mut self.flags);
        if !self
            .dims
            .keeps_labels_inside(dim, keys, &self.flags, cut, room)
        {
            return;
        }
        let Some((loss, halves)) = self.evaluate(cols, node, cut.left, exact) else {
            return;
        };
        if best.as_ref().is_none_or(|b| loss < b.loss) {
            *best = Some(Candidate {
                loss,
                left: cut.left,
                dim,
                right_start: cut.right_start(),
                halves,
            });
            std::mem::swap(&mut self.flags, &mut self.best_flags);
        }
    }

    /// `loss(left) + loss(right)` of the cut in `self.flags` when both
    /// halves are generalizable (anonymous, when `exact`); widths are only
    /// computed then. With it, what was measured of each half.
    fn evaluate(
        &mut self,
        cols: &Columns<'_>,
        node: Range<usize>,
        left: usize,
        exact: bool,
    ) -> Option<(f64, [Measured; 2])> {
        if exact {
            // Both halves' anonymity-check from the node's runs: no SA value
            // gathered or compared per cut.
            if !self.halves_anonymous(cols, node.clone(), left) {
                return None;
            }
            return Some((self.cut_loss(cols, node, left), [Measured::default(); 2]));
        }
        let (l, r) = self.split_sa(cols, node.clone());
        debug_assert_eq!(l, left);
        let (l_sa, r_sa) = (&self.half_sa[0][..l], &self.half_sa[1][..r]);
        let (nb, m) = (self.nb, self.m);
        if self.trim_nodes && !exact {
            let d = self.dims.len();
            let (l_cost, r_cost) = (
                LeavingCost::of(l_sa, nb, m, d),
                LeavingCost::of(r_sa, nb, m, d),
            );
            let mut cost = 0.0;
            for (d, keys) in cols.keys.iter().enumerate() {
                let [(l_lo, l_hi), (r_lo, r_hi)] = extent_by_side(&keys[node.clone()], &self.flags);
                cost += l_cost.kept * self.dims.width(d, l_lo, l_hi);
                cost += r_cost.kept * self.dims.width(d, r_lo, r_hi);
            }
            let halves = [l_cost.measured(), r_cost.measured()];
            return Some((cost + l_cost.left_out + r_cost.left_out, halves));
        }
        let passes = |half: &[f64]| {
            if exact {
                anonymity_check(half.len(), |k| half[k], nb, m)
            } else {
                generalizable(half.len(), |k| half[k], nb, m)
            }
        };
        if !passes(l_sa) || !passes(r_sa) {
            return None;
        }
        Some((self.cut_loss(cols, node, left), [Measured::default(); 2]))
    }

    /// Whether both halves of the cut in `self.flags` (`left` rows going
    /// left) pass anonymity-check: a row's neighbours in its half are its
    /// half's members among its run of the node ([`neighbourhood_runs`]),
    /// counted by a prefix count of the cut's sides. The same answer as
    /// [`anonymity_check`] on each half's SA values (the debug build
    /// checks it), in integers.
    fn halves_anonymous(&mut self, cols: &Columns<'_>, node: Range<usize>, left: usize) -> bool {
        let (nb, m, n) = (self.nb, self.m, node.len());
        debug_assert_eq!(self.flags.iter().filter(|&&f| f).count(), left);
        if !self.runs_swept {
            let sa = &cols.payload[node.clone()];
            neighbourhood_runs(n, |k| sa[k], nb, (&mut self.runs.0, &mut self.runs.1));
            self.runs_swept = true;
        }
        let runs = (&self.runs.0[..], &self.runs.1[..]);
        let passes = halves_pass_by_runs(&self.flags, runs, m, &mut self.before);
        debug_assert_eq!(passes, {
            let (l, r) = self.split_sa(cols, node);
            let (l_sa, r_sa) = (&self.half_sa[0][..l], &self.half_sa[1][..r]);
            anonymity_check(l, |k| l_sa[k], nb, m) && anonymity_check(r, |k| r_sa[k], nb, m)
        });
        passes
    }

    /// The SA values of the cut in `self.flags`'s halves into `half_sa`;
    /// their sizes.
    fn split_sa(&mut self, cols: &Columns<'_>, node: Range<usize>) -> (usize, usize) {
        let sides = cols.payload[node.clone()].iter().zip(&self.flags);
        split_halves(sides.map(|(&v, &f)| (v, f)), node.len(), &mut self.half_sa)
    }

    /// `loss(left) + loss(right)` of the cut in `self.flags` (`left` rows
    /// going left), whether or not its halves pass.
    fn cut_loss(&self, cols: &Columns<'_>, node: Range<usize>, left: usize) -> f64 {
        let sides = cols.keys.iter();
        let sides = sides.map(|keys| extent_by_side(&keys[node.clone()], &self.flags));
        halves_loss(self.dims, (node.len(), left), sides)
    }
}

/// `loss(left) + loss(right)` of a cut of `n` rows, `left` of them on the
/// left, from each dimension's [left, right] key extents in order.
fn halves_loss(
    dims: &Dims<'_>,
    (n, left): (usize, usize),
    sides: impl Iterator<Item = [(u32, u32); 2]>,
) -> f64 {
    let (mut l_width, mut r_width) = (0.0, 0.0);
    for (d, [(l_lo, l_hi), (r_lo, r_hi)]) in sides.enumerate() {
        l_width += dims.width(d, l_lo, l_hi);
        r_width += dims.width(d, r_lo, r_hi);
    }
    left as f64 * l_width + (n - left) as f64 * r_width
}

/// Sorts `values` as `sort_by(f64::total_cmp)` does, through integer keys
/// in the same order ([`total_order_bits`]): a merge of sorted runs
/// compares integers instead of re-deriving each value's order from its
/// bits at every comparison.
fn sort_values(values: &mut [f64], keys: &mut Vec<u64>) {
    keys.clear();
    keys.extend(values.iter().map(|&v| total_order_bits(v)));
    keys.sort();
    for (v, &k) in values.iter_mut().zip(keys.iter()) {
        *v = from_total_order_bits(k);
    }
}

/// The values of `n` (value, goes left) pairs into `halves` (left, right),
/// each in its previous order, and the halves' sizes. Written without
/// data-dependent branches (a median cut's sides are a coin toss for the
/// branch predictor): each value goes to both buffers, only the index of
/// its side advances.
fn split_halves(
    sides: impl Iterator<Item = (f64, bool)>,
    n: usize,
    halves: &mut [Vec<f64>; 2],
) -> (usize, usize) {
    let [l_buf, r_buf] = halves;
    l_buf.resize(n.max(l_buf.len()), 0.0);
    r_buf.resize(n.max(r_buf.len()), 0.0);
    let (mut l, mut r) = (0usize, 0usize);
    for (value, is_left) in sides {
        let f = usize::from(is_left);
        l_buf[l] = value;
        r_buf[r] = value;
        l += f;
        r += 1 - f;
    }
    (l, r)
}

/// What a group costs when its densest rows are left out so that the rest
/// satisfies the model, split as GCP counts it: `left_out` (each left-out
/// row as generalized to the whole domain, one per dimension) and `kept`
/// (the rows published, to be multiplied by the group's summed widths).
struct LeavingCost {
    left_out: f64,
    kept: f64,
    /// The rows left out, counted.
    rows_left_out: usize,
}

impl LeavingCost {
    /// [`LeavingCost`] of a group with SA-sorted values `sa` (`dims` QIs),
    /// from [`left_out_estimate`].
    fn of<N: Neighborhoods>(sa: &[f64], nb: N, m: usize, dims: usize) -> LeavingCost {
        LeavingCost::counting(left_out_estimate(sa, nb, m), sa.len(), dims)
    }

    /// [`LeavingCost`] of a group of `rows` rows of which [`left_out_estimate`]
    /// said `left_out` go.
    fn counting(left_out: usize, rows: usize, dims: usize) -> LeavingCost {
        LeavingCost {
            left_out: left_out as f64 * dims as f64,
            kept: (rows - left_out) as f64,
            rows_left_out: left_out,
        }
    }

    /// The estimate, kept with the half when it becomes a node: its own
    /// cut and its settling read it instead of measuring it again.
    fn measured(&self) -> Measured {
        Measured {
            left_out: Some(self.rows_left_out),
        }
    }
}

/// A cut under consideration: its loss, left size, dimension, smallest key
/// going right, and what was measured of its halves.
struct Candidate {
    loss: f64,
    left: usize,
    dim: usize,
    right_start: u32,
    halves: [Measured; 2],
}

/// How many rows trimming a group with SA-sorted values `sa` leaves out,
/// estimated: none when it passes; else two greedy passes of the window
/// thinning (cap |G|/m, then the cap of what the first kept — never more
/// than the thinning itself leaves out, whose cap is smaller still) where
/// neighbourhoods have a fixed width, and the worst neighbourhood's own
/// excess otherwise. Linear, so that it can score every candidate cut.
fn left_out_estimate<N: Neighborhoods>(sa: &[f64], nb: N, m: usize) -> usize {
    let n = sa.len();
    let left_out_at = |w: f64, cap: usize| {
        let Ok(kept) = thinning_pass(sa, w, cap, |_| {}, |_| Ok::<(), Infallible>(()));
        n - kept
    };
    match nb.fixed_width() {
        // The thinning caps windows around any value, not only around
        // the group's own: a group that passes loses nothing.
        _ if anonymity_check(n, |k| sa[k], nb, m) => 0,
        Some(w) => {
            let first = left_out_at(w, n / m);
            left_out_at(w, (n - first) / m)
        }
        None => anonymity_excess(n, |k| sa[k], nb, m).div_ceil(m.max(2) - 1),
    }
    .min(n)
}

impl<N: Neighborhoods> Rules for Scratch<'_, '_, N> {
    fn fork(&self) -> Self {
        let mut fork = Scratch::new(self.dims, self.nb, self.m);
        fork.trim_nodes = self.trim_nodes;
        if self.lookahead.is_some() {
            fork.lookahead = Some(Box::new(LookAhead::new(self.dims, self.m)));
        }
        fork
    }

    fn cut(
        &mut self,
        cols: &mut Columns<'_>,
        node: Range<usize>,
        exact: bool,
        territory: &[(u32, u32)],
        own: &mut Measured,
    ) -> Option<((usize, usize, u32), [Measured; 2])> {
        self.best_cut(cols, node, exact, territory, own)
    }

    fn satisfied(&mut self, cols: &Columns<'_>, node: Range<usize>, in_order: bool) -> bool {
        let (nb, m) = (self.nb, self.m);
        if in_order {
            let sa = &cols.payload[node];
            return anonymity_check(sa.len(), |k| sa[k], nb, m);
        }
        let sorted = &mut self.half_sa[0];
        sorted.clear();
        sorted.extend_from_slice(&cols.payload[node]);
        // Values only: equal ones are interchangeable.
        crate::parallel::sort_unstable_by(sorted, f64::total_cmp);
        anonymity_check(sorted.len(), |k| sorted[k], nb, m)
    }

    fn satisfied_measured(
        &mut self,
        cols: &Columns<'_>,
        node: Range<usize>,
        in_order: bool,
        measured: Measured,
    ) -> bool {
        // A node that passes is estimated to lose nothing
        // (`left_out_estimate` checks first), so one estimated to lose
        // rows fails: no sort of its values again. An estimate of 0 is
        // checked on the rows (the decision to publish the node as one
        // group rests on the check itself).
        match measured.left_out {
            Some(left_out) if left_out > 0 => {
                debug_assert!(!self.satisfied(cols, node, in_order));
                false
            }
            _ => self.satisfied(cols, node, in_order),
        }
    }

    fn satisfied_union(&mut self, cols: &Columns<'_>, ranges: &[Range<usize>]) -> bool {
        self.excess_union(cols, ranges) == Some(0)
    }

    fn excess_union(&mut self, cols: &Columns<'_>, ranges: &[Range<usize>]) -> Option<usize> {
        let (nb, m) = (self.nb, self.m);
        let sorted = &mut self.half_sa[0];
        sorted.clear();
        for r in ranges {
            sorted.extend_from_slice(&cols.payload[r.clone()]);
        }
        // Each range is SA-sorted already (cuts are stable, merges are put
        // back in order): the stable sort merges the runs it finds.
        sort_values(sorted, &mut self.sort_keys);
        Some(anonymity_excess(sorted.len(), |k| sorted[k], nb, m))
    }

    fn trim(&mut self, cols: &mut Columns<'_>, node: Range<usize>) -> usize {
        let (nb, m) = (self.nb, self.m);
        let sa = &cols.payload[node.clone()];
        let out = anonymity_trim(sa.len(), |k| sa[k], nb, m);
        if out.len() >= sa.len() {
            return 0;
        }
        // Kept positions first (still SA-sorted), the trimmed ones after
        // (`out` is ascending).
        cols.keep_in_front(node, |p, _| out.binary_search(&p).is_ok(), &mut self.tmp)
    }

    fn node_trim_at_least(
        &mut self,
        cols: &Columns<'_>,
        node: Range<usize>,
        measured: Measured,
    ) -> Option<usize> {
        if !self.trim_nodes || node.len() < 2 * self.m {
            return None;
        }
        // The node is a run of SA-sorted pieces: the stable sort merges them.
        let mut measure = || {
            let sorted = &mut self.half_sa[0];
            sorted.clear();
            sorted.extend_from_slice(&cols.payload[node.clone()]);
            sorted.sort_by(f64::total_cmp);
            left_out_estimate(sorted, self.nb, self.m)
        };
        // Measured at the node's cut, on the same rows (`Measured`).
        match measured.left_out {
            Some(left_out) => {
                debug_assert_eq!(left_out, measure(), "the node's rows changed since its cut");
                Some(left_out)
            }
            None => Some(measure()),
        }
    }

    fn node_trim(&mut self, cols: &Columns<'_>, node: Range<usize>) -> Option<Vec<bool>> {
        let (nb, m) = (self.nb, self.m);
        let n = node.len();
        if !self.trim_nodes || n < 2 * m {
            return None;
        }
        // Positions by SA value, ties by QI keys: which of two rows the
        // thinning leaves out then depends on their values only, never on
        // the upload's order (rows equal in both are interchangeable).
        let sa = &cols.payload[node.clone()];
        let keys: Vec<&[u32]> = cols.keys.iter().map(|k| &k[node.clone()]).collect();
        let order = by_value_then_keys(sa, &keys);
        let sorted: Vec<f64> = order.iter().map(|&p| sa[p as usize]).collect();
        let leave = match nb.fixed_width() {
            Some(w) => window_thinning(&sorted, w, m, Progress::none()).ok()?,
            // The greedy rounds are quadratic at worst: small nodes only.
            None if n <= NODE_TRIM_GREEDY_MAX => anonymity_trim(n, |k| sorted[k], nb, m),
            None => return None,
        };
        if leave.is_empty() || leave.len() + m > n {
            return None;
        }
        let mut flags = vec![false; n];
        for &k in &leave {
            flags[order[k] as usize] = true;
        }
        // The kept rows must pass as one group; a trimming that fell short
        // is not offered (the engine then keeps what it had).
        let kept: Vec<f64> = (0..n)
            .filter(|&k| !flags[order[k] as usize])
            .map(|k| sorted[k])
            .collect();
        anonymity_check(kept.len(), |k| kept[k], nb, m).then_some(flags)
    }

    /// Sorts the node's positions by SA value, ties by row id (the order
    /// of the one initial sort), in every column.
    fn restore_order(&mut self, cols: &mut Columns<'_>, node: Range<usize>) {
        let sa = cols.payload[node.clone()].to_vec();
        cols.sort_range_by(node, |p, _| sa[p], &mut self.tmp);
    }
}

/// The positions of `sa` ordered by SA value (`total_cmp`), ties by the
/// QI keys in dimension order, then by position. The values are sorted as
/// integers with their positions (a node's values are a few SA-sorted
/// runs, so this is mostly merging); only runs of equal values compare
/// keys — a comparator reading every key of every pair cost a tenth of
/// em-sal-s25's time.
fn by_value_then_keys(sa: &[f64], keys: &[&[u32]]) -> Vec<u32> {
    let mut by_value: Vec<(u64, u32)> = sa
        .iter()
        .enumerate()
        .map(|(p, &v)| (total_order_bits(v), p as u32))
        .collect();
    by_value.sort();
    let mut order: Vec<u32> = by_value.iter().map(|&(_, p)| p).collect();
    let mut start = 0;
    for end in 1..=by_value.len() {
        if end < by_value.len() && by_value[end].0 == by_value[start].0 {
            continue;
        }
        if end - start > 1 {
            order[start..end].sort_unstable_by(|&a, &b| {
                let (a, b) = (a as usize, b as usize);
                keys.iter()
                    .map(|k| k[a].cmp(&k[b]))
                    .find(|o| o.is_ne())
                    .unwrap_or(std::cmp::Ordering::Equal)
                    .then(a.cmp(&b))
            });
        }
        start = end;
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::epsilon_m::maxsize::window_thinning;
    use crate::epsilon_m::reduce::Offsets;
    use crate::split::recursive_split;
    use crate::table::{QiValues, SaValues, Table};
    use proptest::prelude::*;
    use std::sync::Arc;

    /// Whether a cut's halves pass by the node's runs, and whether each
    /// half passes anonymity-check on its own values.
    fn by_runs_and_alone<N: Neighborhoods + Copy>(
        node: &[f64],
        flags: &[bool],
        (left, right): (&[f64], &[f64]),
        nb: N,
        m: usize,
    ) -> (bool, bool) {
        let (mut starts, mut ends, mut before) = (Vec::new(), Vec::new(), Vec::new());
        neighbourhood_runs(node.len(), |k| node[k], nb, (&mut starts, &mut ends));
        (
            halves_pass_by_runs(flags, (&starts, &ends), m, &mut before),
            anonymity_check(left.len(), |k| left[k], nb, m)
                && anonymity_check(right.len(), |k| right[k], nb, m),
        )
    }

    proptest! {
        /// A cut's halves pass by the node's runs exactly when each half's
        /// own values pass anonymity-check, for absolute and relative
        /// neighbourhoods, any m, ties and sides of any size (empty too).
        #[test]
        fn halves_pass_by_runs_as_each_half_passes_alone(
            mut node in proptest::collection::vec(
                prop_oneof![(0u8..12).prop_map(f64::from), 1.0f64..12.0], 0..50),
            sides in proptest::collection::vec(any::<bool>(), 50),
            m in 1usize..5,
            e in prop::sample::select(vec![0.0, 0.5, 1.0, 3.0]),
            relative in any::<bool>(),
        ) {
            node.sort_by(f64::total_cmp);
            let flags = &sides[..node.len()];
            let half = |side: bool| -> Vec<f64> {
                node.iter().zip(flags).filter(|(_, &f)| f == side).map(|(&v, _)| v).collect()
            };
            let (left, right) = (half(true), half(false));
            let (got, want) = if relative {
                let nb = crate::epsilon_m::reduce::RelativeBand { epsilon: e / 10.0 };
                by_runs_and_alone(&node, flags, (&left, &right), nb, m)
            } else {
                by_runs_and_alone(&node, flags, (&left, &right), Offsets { e1: e, e2: e }, m)
            };
            prop_assert_eq!(got, want);
        }

        /// The node's trimming order is the comparator's: SA value
        /// (`total_cmp`: -0 before 0), then each QI key, then position.
        #[test]
        fn positions_order_by_value_then_keys_then_position(
            rows in proptest::collection::vec(
                (prop_oneof![Just(0.0f64), Just(-0.0f64), 0.0f64..4.0, (0u8..4).prop_map(f64::from)],
                 0u32..3, 0u32..3),
                0..60,
            ),
        ) {
            let sa: Vec<f64> = rows.iter().map(|r| r.0).collect();
            let k0: Vec<u32> = rows.iter().map(|r| r.1).collect();
            let k1: Vec<u32> = rows.iter().map(|r| r.2).collect();
            let keys = [&k0[..], &k1[..]];
            let mut want: Vec<u32> = (0..sa.len() as u32).collect();
            want.sort_by(|&a, &b| {
                let (a, b) = (a as usize, b as usize);
                sa[a].total_cmp(&sa[b])
                    .then(k0[a].cmp(&k0[b]))
                    .then(k1[a].cmp(&k1[b]))
                    .then(a.cmp(&b))
            });
            prop_assert_eq!(by_value_then_keys(&sa, &keys), want);
        }

        /// The integer keys sort exactly as `f64::total_cmp` does, bit for
        /// bit (negative zero below zero, subnormals, runs already sorted).
        #[test]
        fn values_sort_as_total_cmp_does(
            values in proptest::collection::vec(
                prop_oneof![
                    Just(0.0f64), Just(-0.0f64), Just(f64::MIN_POSITIVE / 4.0),
                    Just(-f64::MIN_POSITIVE / 4.0), -1e9f64..1e9, Just(f64::MAX), Just(f64::MIN),
                ],
                0..80,
            ),
            presorted in 0usize..80,
        ) {
            let mut values = values;
            let k = presorted.min(values.len());
            values[..k].sort_by(f64::total_cmp);
            let mut want = values.clone();
            want.sort_by(f64::total_cmp);
            let mut keys = Vec::new();
            sort_values(&mut values, &mut keys);
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            prop_assert_eq!(bits(&values), bits(&want));
        }
    }

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
                if !ok(&l) || !ok(&r) || !labels_apart(space, dim, &l, &r) {
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

    /// A categorical cut's halves publish disjoint labels (the safe split
    /// takes no other; numeric halves always do).
    fn labels_apart(space: &QiSpace<'_>, dim: usize, l: &[u32], r: &[u32]) -> bool {
        let crate::table::QiValues::Categorical { codes, hierarchy } =
            &space.table().qis()[dim].values
        else {
            return true;
        };
        let label = |rows: &[u32]| {
            let ranks = rows.iter().map(|&x| hierarchy.leaf_rank(codes[x as usize]));
            let (lo, hi) = ranks.fold((u32::MAX, 0), |(a, b), k| (a.min(k), b.max(k)));
            let (level, node) = hierarchy.lca_of_rank_range(lo, hi);
            let first = hierarchy.first_rank(level, node);
            (first, first + hierarchy.leaves_under(level, node) - 1)
        };
        let ((l_lo, l_hi), (r_lo, r_hi)) = (label(l), label(r));
        l_hi < r_lo || r_hi < l_lo
    }

    /// Row ids sorted by SA value, ties by id (the order the split needs).
    pub(super) fn sorted_by_sa(sa: &[f64]) -> Vec<u32> {
        let mut rows: Vec<u32> = (0..sa.len() as u32).collect();
        rows.sort_by(|&x, &y| sa[x as usize].total_cmp(&sa[y as usize]).then(x.cmp(&y)));
        rows
    }

    #[test]
    fn groups_pass_anonymity_check_and_keep_sa_order() {
        // QI a separates {0..3} from {4..7}; SA values repeat per half so
        // both halves stay anonymous for ε = 0.5, m = 2.
        let qi: Vec<f64> = (0..8).map(|i| i as f64).collect();
        let sa = vec![1.0, 5.0, 9.0, 13.0, 1.0, 5.0, 9.0, 13.0];
        let t = Table::from_columns(
            vec![("a".into(), QiValues::Numeric(qi))],
            vec![("s".into(), SaValues::Numeric(sa.clone()))],
        );
        let space = QiSpace::new(&t);
        let rows = sorted_by_sa(&sa);
        let nb = Offsets { e1: 0.5, e2: 0.5 };
        let (groups, unplaced) = split_phase(&space, &sa, nb, 2, rows, Progress::none()).unwrap();
        assert!(unplaced.is_empty());
        crate::Partition::new(groups.clone())
            .check_covers(8)
            .unwrap();
        assert!(groups.len() >= 2);
        for g in &groups {
            assert!(anonymity_check(g.len(), |k| sa[g[k] as usize], nb, 2));
            assert!(g.windows(2).all(|w| sa[w[0] as usize] <= sa[w[1] as usize]));
        }
        // With ε = 4 every two consecutive SA values are neighbours: the
        // halves of 4 are generalizable (maxsize 2) but not anonymous (5
        // sees 1, 5 and 9: 3/4 > 1/2), and neither is the whole table. The
        // paper would deal each half into two buckets, which publish the
        // half's box twice — a breach in the attacker's view. Here each half
        // keeps the rows that pass together and leaves the rest out (to be
        // suppressed within the job's limit, or the job fails).
        let nb = Offsets { e1: 4.0, e2: 4.0 };
        let rows: Vec<u32> = vec![0, 4, 1, 5, 2, 6, 3, 7];
        let (groups, unplaced) = split_phase(&space, &sa, nb, 2, rows, Progress::none()).unwrap();
        assert!(!unplaced.is_empty());
        for g in &groups {
            assert!(anonymity_check(g.len(), |k| sa[g[k] as usize], nb, 2));
        }
        assert_eq!(groups.concat().len() + unplaced.len(), 8);
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
        let split = |m| {
            let (groups, unplaced) =
                split_phase(&space, &sa, nb, m, all.clone(), Progress::none()).unwrap();
            assert!(unplaced.is_empty());
            groups
        };
        assert_eq!(split(4), vec![vec![0, 1, 2, 3], vec![4, 5, 6, 7]]);
        assert_eq!(split(5), vec![all.clone()]);
        assert_eq!(split(4), reference(&space, &sa, nb, 4, all.clone()));
    }

    /// Six leaves under two parents (v0..v2 under g0, v3..v5 under g1).
    pub(super) fn hierarchy() -> Arc<crate::Hierarchy> {
        let paths: Vec<Vec<String>> = (0..6)
            .map(|i| vec![format!("v{i}"), format!("g{}", i / 3), "*".to_string()])
            .collect();
        Arc::new(crate::Hierarchy::from_paths(&paths).unwrap())
    }

    /// The random tables of the split's proptests: per row (a, c, b, s) a
    /// numeric QI a, a categorical QI c over [`hierarchy`]'s six leaves, a
    /// numeric QI b², and the numeric SA s.
    fn row_table(rows: &[(u8, u8, u8, u8)]) -> Table {
        let numeric = |f: fn(&(u8, u8, u8, u8)) -> f64| rows.iter().map(f).collect();
        Table::from_columns(
            vec![
                ("a".into(), QiValues::Numeric(numeric(|r| r.0 as f64))),
                (
                    "c".into(),
                    QiValues::Categorical {
                        codes: rows.iter().map(|r| r.1 as u32).collect(),
                        hierarchy: hierarchy(),
                    },
                ),
                (
                    "b".into(),
                    QiValues::Numeric(numeric(|r| (r.2 as f64).powi(2))),
                ),
            ],
            vec![("s".into(), SaValues::Numeric(numeric(|r| r.3 as f64)))],
        )
    }

    proptest! {
        /// When every leaf of the paper's split (the definition, on row
        /// lists, taking only categorical cuts whose halves publish disjoint
        /// labels) passes anonymity-check and holds one category, the
        /// columnar split gives exactly those leaves, in order; always, its
        /// groups pass anonymity-check and, with the unplaced rows, cover
        /// the table. Numeric and categorical QIs with many ties.
        #[test]
        fn equals_the_definition_on_row_lists(
            rows in proptest::collection::vec((0u8..7, 0u8..6, 0u8..4, 0u8..9), 1..120),
            m in 1usize..4,
            e in prop::sample::select(vec![0.0, 1.0, 2.5]),
        ) {
            let t = row_table(&rows);
            let sa = t.single_numeric_sa().unwrap().to_vec();
            let space = QiSpace::new(&t);
            let nb = Offsets { e1: e, e2: e };
            let sorted = sorted_by_sa(&sa);
            let (groups, unplaced) =
                split_phase(&space, &sa, nb, m, sorted.clone(), Progress::none()).unwrap();
            let mut all = groups.clone();
            all.push(unplaced.clone());
            all.retain(|g| !g.is_empty());
            crate::Partition::new(all).check_covers(sa.len()).unwrap();
            for g in &groups {
                prop_assert!(anonymity_check(g.len(), |k| sa[g[k] as usize], nb, m));
            }
            let leaves = reference(&space, &sa, nb, m, sorted);
            let anonymous = leaves
                .iter()
                .all(|g| anonymity_check(g.len(), |k| sa[g[k] as usize], nb, m));
            // Leaves holding one category publish that leaf: no label can
            // cover another leaf's rows (wider labels may, and are then
            // merged up, so the partitions may differ).
            let clean = leaves
                .iter()
                .all(|g| g.iter().all(|&r| rows[r as usize].1 == rows[g[0] as usize].1));
            if anonymous && clean {
                prop_assert!(unplaced.is_empty());
                prop_assert_eq!(groups, leaves);
            }
        }
    }

    proptest! {
        /// The tree grown by the model alone: on rows that pass as a whole,
        /// every group passes, nothing is left unplaced and the rows are
        /// covered; and where the root has a median cut whose halves both
        /// pass (and publish disjoint labels), the root is cut.
        #[test]
        fn the_tree_by_the_model_cuts_where_both_halves_pass(
            rows in proptest::collection::vec((0u8..7, 0u8..6, 0u8..4, 0u8..9), 1..120),
            m in 1usize..4,
            e in prop::sample::select(vec![0.0, 1.0, 2.5]),
        ) {
            let t = row_table(&rows);
            let sa = t.single_numeric_sa().unwrap().to_vec();
            let space = QiSpace::new(&t);
            let nb = Offsets { e1: e, e2: e };
            let sorted = sorted_by_sa(&sa);
            let passes = |g: &[u32]| anonymity_check(g.len(), |k| sa[g[k] as usize], nb, m);
            prop_assume!(passes(&sorted));
            let (groups, unplaced) =
                split_by_model(&space, &sa, nb, m, sorted.clone(), Progress::none()).unwrap();
            prop_assert!(unplaced.is_empty());
            crate::Partition::new(groups.clone()).check_covers(sa.len()).unwrap();
            for g in &groups {
                prop_assert!(g.len() >= m && passes(g));
            }
            let root_cut = (0..space.dims()).any(|dim| {
                space.cut(&sorted, dim).is_some_and(|(l, r)| {
                    l.len() >= m && r.len() >= m && passes(&l) && passes(&r)
                        && labels_apart(&space, dim, &l, &r)
                })
            });
            if root_cut {
                prop_assert!(groups.len() >= 2, "a valid median cut was not taken");
            }
        }
    }

    proptest! {
        /// Where rows must be left out, a cut hands each half the estimate
        /// of its own trimming, and fills in the node's: both equal the
        /// estimate measured afresh on those rows, which the half's own cut
        /// and the node's settling then read instead.
        #[test]
        fn a_cut_hands_its_halves_their_measured_trimming(
            rows in proptest::collection::vec((0u8..7, 0u8..6, 0u8..4, 0u8..3), 4..120),
            m in 2usize..5,
        ) {
            let t = row_table(&rows);
            let sa = t.single_numeric_sa().unwrap().to_vec();
            let space = QiSpace::new(&t);
            let (dims, keys) = Dims::new(&space);
            let sorted = sorted_by_sa(&sa);
            let values: Vec<f64> = sorted.iter().map(|&r| sa[r as usize]).collect();
            let mut store = ColumnStore::new(keys, sorted, values.clone());
            let mut cols = store.view();
            let nb = Offsets { e1: 0.0, e2: 0.0 };
            let mut scratch = Scratch::new(&dims, nb, m);
            scratch.trim_nodes = true;
            let territory = vec![(0, u32::MAX); dims.len()];
            let mut own = Measured::default();
            let n = values.len();
            let cut = scratch.cut(&mut cols, 0..n, false, &territory, &mut own);
            prop_assume!(cut.is_some());
            let ((left, ..), [l, r]) = cut.unwrap();
            prop_assert_eq!(own.left_out, Some(left_out_estimate(&values, nb, m)));
            let halves = [&cols.payload[..left], &cols.payload[left..]];
            prop_assert_eq!(l.left_out, Some(left_out_estimate(halves[0], nb, m)));
            prop_assert_eq!(r.left_out, Some(left_out_estimate(halves[1], nb, m)));
        }
    }

    /// A node's own trimming, on a table of one QI whose rows are `sa`.
    fn node_trim_of(sa: &[f64], e: f64, m: usize, trim_nodes: bool) -> Option<Vec<bool>> {
        let t = Table::from_columns(
            vec![(
                "q".into(),
                QiValues::Numeric((0..sa.len()).map(|i| (i % 7) as f64).collect()),
            )],
            vec![("s".into(), SaValues::Numeric(sa.to_vec()))],
        );
        let space = QiSpace::new(&t);
        let (dims, keys) = Dims::new(&space);
        let ids: Vec<u32> = (0..sa.len() as u32).collect();
        let mut store = ColumnStore::new(keys, ids, sa.to_vec());
        let cols = store.view();
        let mut scratch = Scratch::new(&dims, Offsets { e1: e, e2: e }, m);
        scratch.trim_nodes = trim_nodes;
        scratch.node_trim(&cols, 0..sa.len())
    }

    fn passes(values: &[f64], e: f64, m: usize) -> bool {
        let mut v = values.to_vec();
        v.sort_unstable_by(f64::total_cmp);
        anonymity_check(v.len(), |k| v[k], Offsets { e1: e, e2: e }, m)
    }

    #[test]
    fn a_node_trims_itself_only_where_the_whole_table_fails() {
        // Nine rows at 0 among 18: at m = 3 a row at 0 sees half the node.
        let sa: Vec<f64> = (0..18)
            .map(|i| if i < 9 { 0.0 } else { 10.0 * i as f64 })
            .collect();
        assert!(!passes(&sa, 1.0, 3));
        assert_eq!(node_trim_of(&sa, 1.0, 3, false), None);
        let leave = node_trim_of(&sa, 1.0, 3, true).expect("a trimming");
        let kept: Vec<f64> = sa
            .iter()
            .zip(&leave)
            .filter(|(_, &l)| !l)
            .map(|(&v, _)| v)
            .collect();
        // Only rows at 0 go, and only as many as the others cannot dilute.
        assert!(sa.iter().zip(&leave).all(|(&v, &l)| !l || v == 0.0));
        assert_eq!(kept.len(), 13, "{leave:?}");
        assert!(passes(&kept, 1.0, 3));
    }

    proptest! {
        #[test]
        fn what_a_node_keeps_passes_and_the_estimate_stays_below_the_thinning(
            values in proptest::collection::vec(0u8..12, 4..60),
            m in 2usize..5,
        ) {
            let sa: Vec<f64> = values.iter().map(|&v| v as f64).collect();
            let e = 1.0;
            if let Some(leave) = node_trim_of(&sa, e, m, true) {
                let kept: Vec<f64> =
                    sa.iter().zip(&leave).filter(|(_, &l)| !l).map(|(&v, _)| v).collect();
                prop_assert!(kept.len() >= m && passes(&kept, e, m));
            }
            let mut sorted = sa.clone();
            sorted.sort_unstable_by(f64::total_cmp);
            let nb = Offsets { e1: e, e2: e };
            let estimate = left_out_estimate(&sorted, nb, m);
            if anonymity_check(sorted.len(), |k| sorted[k], nb, m) {
                prop_assert_eq!(estimate, 0);
            } else {
                let thinned = window_thinning(&sorted, 2.0 * e, m, Progress::none()).unwrap();
                prop_assert!(estimate <= thinned.len(), "{} > {}", estimate, thinned.len());
            }
        }
    }
}
