//! Placing a node's pending rows: the rows of failing leaves below it that
//! no lower node could place.
//!
//! **What may merge.** Safety needs only that the published boxes of any
//! two groups be disjoint (module doc of [`super`]); territories are just
//! the cheap way the tree gets there. So a node may merge any of its
//! pending pieces with any of its groups, provided the merged box meets no
//! other group's box and stays inside the node's territory (then it is
//! disjoint from every group outside the node too). A merge is closed
//! under overlap: whatever the merged box meets is merged as well, until
//! nothing more does.
//!
//! **Why merge locally.** (ε,m) and (ε,δ)^k are not monotone: a failing
//! piece usually needs *diluting* with valid neighbours (rows whose SA
//! values lie elsewhere), not pooling with other failing pieces whose SA
//! values are just as concentrated. Taking the whole node as one group —
//! the fallback, and what the engine did before — costs the detail of
//! every valid group in the node; taking the one or few cheapest
//! neighbours costs only theirs.
//!
//! **How.** For each pending piece in turn: close it under overlap; if it
//! satisfies the model, it becomes a group (cut again by the model when
//! the tree is the guide's); otherwise take in the neighbour whose merge
//! costs least information (`|G| · Σ normalized widths`, the split phase's
//! own measure) and try again, up to [`DILUTION_ROUNDS`] times. Then the
//! pieces still pending try once more together. Rows still pending go up
//! to the parent — unless the whole node satisfies the model and is clean,
//! in which case it takes everything, as before, so no node ever leaves
//! more rows unplaced than the whole-node rule did.
//!
//! Every decision reads only the node's own rows, in an order fixed by
//! their positions, so the outcome does not depend on the number of
//! threads; candidate merges are tested on the rows where they lie
//! ([`Rules::satisfied_union`]) and rows move once per node, when merges
//! were taken.

use std::ops::Range;

use super::{Engine, Measured, Outcome, Rules, Territory};
use crate::columnar::{extent, Columns, Tmp};
use crate::error::CoreResult;

/// How many neighbours one pending piece may take in before it is passed
/// up to the parent.
const DILUTION_ROUNDS: usize = 8;

/// How many of the cheapest neighbours a dilution round tries.
const CANDIDATES: usize = 12;

/// A merge of more pieces is not pursued: the parent, or the whole-node
/// rule, places such rows at less cost of time.
const MAX_MEMBERS: usize = 64;

/// A pending piece tries merges on its own at nodes of at most this many
/// times its rows (about the ten levels above it).
const PIECE_REACH: usize = 1024;

/// Nodes with more pieces than this try only the pending pieces together
/// (each piece had its own tries at the nodes below, with fewer pieces).
const PER_PIECE_ITEMS: usize = 1024;

/// A piece of the node: a group, a pending piece, or a merge of several.
struct Item {
    /// The positions it holds (several ranges once merged).
    ranges: Vec<Range<usize>>,
    rows: usize,
    /// Per dimension, the extent of its rows' keys.
    keys: Territory,
    /// Per dimension, the key or leaf-rank range its label publishes.
    label: Territory,
    pending: bool,
    merged: bool,
    alive: bool,
}

/// A merge being grown: its members (indices into the node's items) and
/// the extent of their keys.
#[derive(Default)]
struct Merge {
    member: Vec<bool>,
    members: Vec<usize>,
    keys: Territory,
}

impl Merge {
    fn new(items: usize, keys: &[(u32, u32)]) -> Self {
        Merge {
            member: vec![false; items],
            members: Vec::new(),
            keys: keys.to_vec(),
        }
    }

    fn take(&mut self, items: &[Item], i: usize) {
        self.member[i] = true;
        self.members.push(i);
        widen(&mut self.keys, &items[i].keys);
    }

    /// Becomes a copy of `other`, in its own buffers: a round's trials
    /// each start from the merge so far, and reusing two buffers spares
    /// an allocation per vector per trial.
    fn copy_from(&mut self, other: &Merge) {
        self.member.clone_from(&other.member);
        self.members.clone_from(&other.members);
        self.keys.clone_from(&other.keys);
    }

    /// The positions of its members, into `out`.
    fn ranges_into(&self, items: &[Item], out: &mut Vec<Range<usize>>) {
        out.clear();
        out.extend(
            self.members
                .iter()
                .flat_map(|&i| items[i].ranges.iter().cloned()),
        );
    }
}

/// The work a node may spend on merges: each tested merge costs the rows
/// it sorts and the items its closure scanned. Proportional to the node's
/// size, so placing pending rows never costs more than a few passes over
/// the rows at each level of the tree — where the whole table fails, most
/// pieces cannot be placed anyway, and looking costs time only.
struct Budget(usize);

/// Passes over a node's rows (and items) that its merges may spend.
const BUDGET_PASSES: usize = 4;

/// And scans of its items (a tested merge scans them all), so that a node
/// of many small pieces can still try that many merges.
const BUDGET_ITEM_SCANS: usize = 16;

impl Budget {
    fn new(rows: usize, items: usize) -> Self {
        Budget(BUDGET_PASSES * (rows + items * items.min(BUDGET_ITEM_SCANS)))
    }

    /// Charges a tested merge; false once the budget is spent.
    fn spend(&mut self, items: &[Item], merge: &Merge) -> bool {
        let rows: usize = merge.members.iter().map(|&i| items[i].rows).sum();
        let cost = rows + items.len();
        if cost > self.0 {
            self.0 = 0;
            return false;
        }
        self.0 -= cost;
        true
    }
}

impl Engine<'_, '_, '_, '_> {
    /// A node whose subtree left rows unplaced (its groups and unplaced
    /// rows start at `before` in `out`): places what it can (module doc).
    /// Returns whether no row of the node is left unplaced.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn place_pending<R: Rules>(
        &self,
        rules: &mut R,
        cols: &mut Columns<'_>,
        (node, measured): (Range<usize>, Measured),
        territory: &[(u32, u32)],
        refine: bool,
        before: (usize, usize),
        out: &mut Outcome,
    ) -> CoreResult<bool> {
        let (groups_before, unplaced_before) = before;
        let mut items: Vec<Item> = Vec::new();
        for r in &out.groups[groups_before..] {
            items.push(self.item(cols, r.clone(), false));
        }
        for r in &out.unplaced[unplaced_before..] {
            items.push(self.item(cols, r.clone(), true));
        }
        let mut merged = false;
        let mut budget = Budget::new(node.len(), items.len());
        let pending: Vec<usize> = (0..items.len()).filter(|&i| items[i].pending).collect();
        for &p in &pending {
            // A piece tries on its own at the few lowest nodes above it:
            // higher up the neighbours are the same kind of rows again,
            // and a hopeless piece (where the whole table fails) would
            // cost a search at every level.
            let near = node.len() <= PIECE_REACH * items[p].rows;
            if items[p].alive && near && items.len() <= PER_PIECE_ITEMS {
                self.checkpoints.before_node()?;
                merged |= self.try_merge(rules, cols, &mut items, &[p], territory, &mut budget)?;
            }
        }
        let left: Vec<usize> = pending
            .iter()
            .copied()
            .filter(|&p| items[p].alive)
            .collect();
        if left.len() > 1 {
            self.checkpoints.before_node()?;
            merged |= self.try_merge(rules, cols, &mut items, &left, territory, &mut budget)?;
        }
        let placed_all = !items.iter().any(|it| it.alive && it.pending);
        self.checkpoints.before_node()?;
        if !placed_all && self.whole_node_absorbs(rules, cols, (node.clone(), measured), territory)
        {
            return self.absorb_whole(rules, cols, node, territory, refine, before, out);
        }
        if placed_all {
            // Nothing to leave out below this node.
        } else if let Some(kept) =
            self.trim_whole_if_cheaper(rules, cols, (&node, measured), territory, &items)?
        {
            out.groups.truncate(groups_before);
            out.unplaced.truncate(unplaced_before);
            return self.settle_trimmed(rules, cols, node, kept, territory, refine, out);
        }
        if merged {
            self.lay_out(rules, cols, node, refine, items, before, out)?;
        }
        Ok(placed_all)
    }

    /// The piece at `range`, with its extents.
    fn item(&self, cols: &Columns<'_>, range: Range<usize>, pending: bool) -> Item {
        let keys = self.key_extents(cols, range.clone());
        Item {
            rows: range.len(),
            ranges: vec![range],
            label: self.label_box(&keys),
            keys,
            pending,
            merged: false,
            alive: true,
        }
    }

    /// Per dimension, the extent of the keys at `range`.
    pub(super) fn key_extents(&self, cols: &Columns<'_>, range: Range<usize>) -> Territory {
        (0..self.dims.len())
            .map(|d| extent(&cols.keys[d][range.clone()]))
            .collect()
    }

    /// The box a group whose keys span `keys` publishes: the keys' extent
    /// on numeric and date dimensions, the leaves under the lowest common
    /// ancestor on categorical ones.
    pub(super) fn label_box(&self, keys: &[(u32, u32)]) -> Territory {
        self.label_ranks(keys).collect()
    }

    /// [`Self::label_box`], dimension by dimension.
    pub(super) fn label_ranks<'k>(
        &'k self,
        keys: &'k [(u32, u32)],
    ) -> impl Iterator<Item = (u32, u32)> + 'k {
        keys.iter().enumerate().map(|(d, &k)| self.label_on(d, k))
    }

    /// The range a label publishes on dimension `d` for keys spanning `k`.
    pub(super) fn label_on(&self, d: usize, k: (u32, u32)) -> (u32, u32) {
        self.dims.label_ranks(d, k).unwrap_or(k)
    }

    /// `|G| · Σ normalized widths` of a group of `rows` rows whose keys
    /// span `keys`.
    fn loss(&self, rows: usize, keys: impl Iterator<Item = (u32, u32)>) -> f64 {
        let width: f64 = keys
            .enumerate()
            .map(|(d, (lo, hi))| self.dims.width(d, lo, hi))
            .sum();
        rows as f64 * width
    }

    /// Grows a merge from `seeds` (closure under overlap, then neighbours,
    /// up to [`DILUTION_ROUNDS`] rounds) until it satisfies the model; then
    /// replaces its members by one merged item. Returns whether it did;
    /// nothing changes otherwise.
    ///
    /// A round tries the [`CANDIDATES`] neighbours whose merge adds the
    /// least loss, cheapest first, and takes the first whose merge (closed
    /// under overlap) satisfies the model. When none does, the merge takes
    /// in the one that brings it closest to satisfying
    /// ([`Rules::excess_union`]; the cheapest when the model has no such
    /// measure) and the next round looks again.
    fn try_merge<R: Rules>(
        &self,
        rules: &mut R,
        cols: &Columns<'_>,
        items: &mut Vec<Item>,
        seeds: &[usize],
        territory: &[(u32, u32)],
        budget: &mut Budget,
    ) -> CoreResult<bool> {
        let mut merge = Merge::new(items.len(), &items[seeds[0]].keys);
        for &s in seeds {
            merge.take(items, s);
        }
        self.close(items, &mut merge);
        if !self.fits(&merge, territory) || !budget.spend(items, &merge) {
            return Ok(false);
        }
        let mut union = Vec::new();
        merge.ranges_into(items, &mut union);
        let mut done = rules.satisfied_union(cols, &union);
        let mut rounds = 0;
        // The trial being tested, and the round's best so far (its excess
        // in `step`): buffers swapped rather than merges cloned.
        let (mut trial, mut best) = (Merge::default(), Merge::default());
        while !done {
            // A round tests up to CANDIDATES merges: a checkpoint each.
            self.checkpoints.before_node()?;
            if rounds == DILUTION_ROUNDS {
                return Ok(false);
            }
            rounds += 1;
            let mut step: Option<usize> = None;
            for i in self.cheapest_neighbours(items, &merge) {
                trial.copy_from(&merge);
                trial.take(items, i);
                self.close(items, &mut trial);
                if !self.fits(&trial, territory) {
                    continue;
                }
                if !budget.spend(items, &trial) {
                    return Ok(false);
                }
                trial.ranges_into(items, &mut union);
                let excess = match rules.excess_union(cols, &union) {
                    Some(e) => e,
                    None => usize::from(!rules.satisfied_union(cols, &union)),
                };
                if step.is_none_or(|e| excess < e) {
                    step = Some(excess);
                    std::mem::swap(&mut best, &mut trial);
                }
                if excess == 0 {
                    done = true;
                    break;
                }
            }
            if step.is_none() {
                return Ok(false);
            }
            std::mem::swap(&mut merge, &mut best);
        }
        let mut ranges = Vec::new();
        let mut rows = 0;
        for &i in &merge.members {
            let it = &mut items[i];
            it.alive = false;
            rows += it.rows;
            ranges.append(&mut it.ranges);
        }
        items.push(Item {
            ranges,
            rows,
            label: self.label_box(&merge.keys),
            keys: merge.keys,
            pending: false,
            merged: true,
            alive: true,
        });
        Ok(true)
    }

    /// Whether a merge publishes a box inside the node's territory and has
    /// few enough members to pursue.
    fn fits(&self, merge: &Merge, territory: &[(u32, u32)]) -> bool {
        merge.members.len() <= MAX_MEMBERS && inside(&self.label_box(&merge.keys), territory)
    }

    /// The alive items outside `merge` whose merge with it adds the least
    /// loss (`|G| · Σ normalized widths`), cheapest first, at most
    /// [`CANDIDATES`]; ties by position in `items`.
    fn cheapest_neighbours(&self, items: &[Item], merge: &Merge) -> Vec<usize> {
        let rows: usize = merge.members.iter().map(|&i| items[i].rows).sum();
        let base = self.loss(rows, merge.keys.iter().copied());
        let cost = |it: &Item| {
            let union = merge
                .keys
                .iter()
                .zip(&it.keys)
                .map(|(a, b)| (a.0.min(b.0), a.1.max(b.1)));
            self.loss(rows + it.rows, union) - base - self.loss(it.rows, it.keys.iter().copied())
        };
        let mut near: Vec<(f64, usize)> = (0..items.len())
            .filter(|&i| items[i].alive && !merge.member[i])
            .map(|i| (cost(&items[i]), i))
            .collect();
        let by_cost = |a: &(f64, usize), b: &(f64, usize)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
        if near.len() > CANDIDATES {
            near.select_nth_unstable_by(CANDIDATES - 1, by_cost);
            near.truncate(CANDIDATES);
        }
        near.sort_unstable_by(by_cost);
        near.into_iter().map(|(_, i)| i).collect()
    }

    /// Closes a merge under overlap: whatever its box meets joins, until
    /// nothing more does.
    fn close(&self, items: &[Item], merge: &mut Merge) {
        let mut label = Vec::with_capacity(merge.keys.len());
        loop {
            // A pass takes every item its label meets, against the label it
            // began with (taking an item widens the keys, not this label):
            // the next pass looks again with the wider one.
            label.clear();
            label.extend(self.label_ranks(&merge.keys));
            let mut took = false;
            for (i, it) in items.iter().enumerate() {
                if it.alive && !merge.member[i] && overlaps(&label, &it.label) {
                    merge.take(items, i);
                    took = true;
                }
            }
            if !took {
                return;
            }
        }
    }

    /// Whether the whole node is clean and satisfies the model.
    fn whole_node_absorbs<R: Rules>(
        &self,
        rules: &mut R,
        cols: &Columns<'_>,
        (node, measured): (Range<usize>, Measured),
        territory: &[(u32, u32)],
    ) -> bool {
        self.clean(cols, node.clone(), territory)
            && rules.satisfied_measured(cols, node, false, measured)
    }

    /// Whether leaving out the rows of the node's own trimming
    /// ([`Rules::node_trim`]) and publishing the rest as one clean group
    /// costs less than what the subtree holds now, with its pending rows
    /// counted as left out (a left-out row costs as much as a row
    /// generalized to the whole domain, as GCP counts it). Where the whole
    /// table fails, failing leaves trimmed one by one lose every row above
    /// their own bound while their neighbours' slack goes unused; trimmed
    /// together, the node's rows share it. When it does, the node's
    /// positions are left with the kept rows in front and the trimmed ones
    /// after, and their number is returned.
    fn trim_whole_if_cheaper<R: Rules>(
        &self,
        rules: &mut R,
        cols: &mut Columns<'_>,
        (node, measured): (&Range<usize>, Measured),
        territory: &[(u32, u32)],
        items: &[Item],
    ) -> CoreResult<Option<usize>> {
        self.checkpoints.before_node()?;
        let full = self.dims.len() as f64;
        let alive = || items.iter().filter(|it| it.alive);
        let now: f64 = alive()
            .map(|it| match it.pending {
                true => it.rows as f64 * full,
                false => self.loss(it.rows, it.keys.iter().copied()),
            })
            .sum();
        // First the bound: at least `least` rows go, and the rest keep the
        // node's extent (the trimming drops SA values, not QI extremes, so
        // a kept box narrower than the node's is the exception).
        let Some(least) = rules.node_trim_at_least(cols, node.clone(), measured) else {
            return Ok(None);
        };
        let mut extent: Territory = vec![(u32::MAX, 0); self.dims.len()];
        for it in alive() {
            widen(&mut extent, &it.keys);
        }
        let at_least = least as f64 * full + self.loss(node.len() - least, extent.into_iter());
        if at_least >= now {
            return Ok(None);
        }
        self.checkpoints.before_node()?;
        let Some(leave) = rules.node_trim(cols, node.clone()) else {
            return Ok(None);
        };
        let mut keys: Territory = vec![(u32::MAX, 0); self.dims.len()];
        let mut kept = 0usize;
        for (p, _) in leave.iter().enumerate().filter(|(_, &l)| !l) {
            kept += 1;
            for (d, k) in keys.iter_mut().enumerate() {
                let key = cols.keys[d][node.start + p];
                *k = (k.0.min(key), k.1.max(key));
            }
        }
        let left_out = node.len() - kept;
        if kept == 0 || !inside(&self.label_box(&keys), territory) {
            return Ok(None);
        }
        let trimmed = left_out as f64 * full + self.loss(kept, keys.iter().copied());
        if trimmed >= now {
            return Ok(None);
        }
        cols.keep_in_front(node.clone(), |p, _| leave[p], &mut Default::default());
        Ok(Some(kept))
    }

    /// The node after [`Engine::trim_whole_if_cheaper`]: its kept rows
    /// (in front) one group, cut again by the model when `refine`; the rows
    /// after them left out (an ancestor may still place them).
    #[allow(clippy::too_many_arguments)]
    fn settle_trimmed<R: Rules>(
        &self,
        rules: &mut R,
        cols: &mut Columns<'_>,
        node: Range<usize>,
        kept: usize,
        territory: &[(u32, u32)],
        refine: bool,
        out: &mut Outcome,
    ) -> CoreResult<bool> {
        let front = node.start..node.start + kept;
        self.checkpoints.before_node()?;
        rules.restore_order(cols, front.clone());
        self.settle_merged(rules, cols, front, territory.to_vec(), refine, out)?;
        out.unplaced.push(node.start + kept..node.end);
        Ok(false)
    }

    /// The node replaces its subtree: one group, or cut again by the model
    /// itself when `refine`.
    #[allow(clippy::too_many_arguments)]
    fn absorb_whole<R: Rules>(
        &self,
        rules: &mut R,
        cols: &mut Columns<'_>,
        node: Range<usize>,
        territory: &[(u32, u32)],
        refine: bool,
        (groups_before, unplaced_before): (usize, usize),
        out: &mut Outcome,
    ) -> CoreResult<bool> {
        out.groups.truncate(groups_before);
        out.unplaced.truncate(unplaced_before);
        self.checkpoints.before_node()?;
        rules.restore_order(cols, node.clone());
        self.checkpoints.before_node()?;
        self.settle_merged(rules, cols, node, territory.to_vec(), refine, out)?;
        Ok(true)
    }

    /// A merged group at `range` (in the rules' order): one group, or cut
    /// again by the model inside `label` when `refine` (a tree grown by the
    /// model settles without refining: the same cuts would come back).
    /// The cuts fork like the first tree's: a merge may be most of the
    /// table.
    fn settle_merged<R: Rules>(
        &self,
        rules: &mut R,
        cols: &mut Columns<'_>,
        range: Range<usize>,
        label: Territory,
        refine: bool,
        out: &mut Outcome,
    ) -> CoreResult<()> {
        if !refine {
            out.groups.push(range);
            return Ok(());
        }
        let (_, mut rest) = cols.split_at(range.start);
        let (mut node, _) = rest.split_at(range.len());
        let mut sub = Outcome::default();
        let fresh = (label, Measured::default());
        let ok = self.solve(rules, &mut node, fresh, true, false, &mut sub)?;
        out.append_at(sub, range.start);
        debug_assert!(ok, "a satisfied, clean merge always settles");
        Ok(())
    }

    /// Moves the node's rows so that every item is one range (items in the
    /// order of their first position), then writes the node's groups and
    /// unplaced rows anew; merged items settle ([`Engine::settle_merged`]).
    #[allow(clippy::too_many_arguments)]
    fn lay_out<R: Rules>(
        &self,
        rules: &mut R,
        cols: &mut Columns<'_>,
        node: Range<usize>,
        refine: bool,
        items: Vec<Item>,
        (groups_before, unplaced_before): (usize, usize),
        out: &mut Outcome,
    ) -> CoreResult<()> {
        let mut alive: Vec<Item> = items.into_iter().filter(|it| it.alive).collect();
        for it in &mut alive {
            it.ranges.sort_by_key(|r| r.start);
        }
        alive.sort_by_key(|it| it.ranges[0].start);
        let mut perm: Vec<u32> = Vec::with_capacity(node.len());
        for r in alive.iter().flat_map(|it| &it.ranges) {
            perm.extend((r.start - node.start) as u32..(r.end - node.start) as u32);
        }
        debug_assert_eq!(perm.len(), node.len());
        cols.permute(node.clone(), &perm, &mut Tmp::default());
        out.groups.truncate(groups_before);
        out.unplaced.truncate(unplaced_before);
        let mut at = node.start;
        for it in alive {
            let range = at..at + it.rows;
            at = range.end;
            if it.pending {
                out.unplaced.push(range);
            } else if !it.merged {
                out.groups.push(range);
            } else {
                self.checkpoints.before_node()?;
                rules.restore_order(cols, range.clone());
                self.settle_merged(rules, cols, range, it.label, refine, out)?;
            }
        }
        Ok(())
    }
}

/// Whether two boxes share a point on every dimension.
fn overlaps(a: &[(u32, u32)], b: &[(u32, u32)]) -> bool {
    a.iter()
        .zip(b)
        .all(|(&(a_lo, a_hi), &(b_lo, b_hi))| a_lo <= b_hi && b_lo <= a_hi)
}

/// Widens each extent of `into` to cover the one of `by` on its dimension.
fn widen(into: &mut [(u32, u32)], by: &[(u32, u32)]) {
    for (k, &(lo, hi)) in into.iter_mut().zip(by) {
        *k = (k.0.min(lo), k.1.max(hi));
    }
}

/// Whether box `a` lies inside `territory` on every dimension.
pub(super) fn inside(a: &[(u32, u32)], territory: &[(u32, u32)]) -> bool {
    a.iter().zip(territory).all(|(&a, &t)| inside_on(a, t))
}

/// [`inside`] on one dimension.
pub(super) fn inside_on((lo, hi): (u32, u32), (t_lo, t_hi): (u32, u32)) -> bool {
    t_lo <= lo && hi <= t_hi
}
