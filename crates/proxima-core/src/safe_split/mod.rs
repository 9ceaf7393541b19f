//! Partitions whose groups publish pairwise disjoint boxes, so that the
//! attacker's view of the release equals its per-group view (docs/design.md §4).
//!
//! **Why.** An attacker who knows a victim's QI values sees every group whose
//! published labels cover them. (ε,m)-anonymity and (ε,δ)^k-dissimilarity
//! are not preserved by unions of groups, so a partition whose groups pass
//! one by one can still breach when two groups publish overlapping boxes.
//! If no QI point is covered by two groups' labels, each victim's
//! candidates are exactly its own group, and the per-group check *is* the
//! attacker's check. This module builds such partitions for any model given
//! as [`Rules`].
//!
//! **How.** Median cuts (the columnar engine, [`crate::columnar`]) build a
//! tree in two phases:
//! 1. *Grow* (the partitioner's own split phase): a node is cut while its
//!    rules' guide accepts both halves — for (ε,m) the paper's
//!    generalizability, a weaker test than the model that lets the split go
//!    deeper, exactly as §5.2 does.
//! 2. *Settle*, bottom-up: a leaf is final when it satisfies the model by
//!    itself and is **clean** (below); a failing leaf is *pending*. A node
//!    with pending rows below it places them locally first (`pending.rs`):
//!    each pending piece merges with the fewest, cheapest neighbouring
//!    groups whose union satisfies the model and publishes a box that meets
//!    no other group's, and the merge is cut again with the model itself as
//!    the criterion (*refine*: halves must satisfy the model, at the median
//!    or, failing that, at any other position). Pieces that no local merge
//!    places go up to the parent; a node that satisfies the model and is
//!    clean as a whole takes all of them (and is refined), as the paper's
//!    engine would. Rows that even the root cannot place are *unplaced*:
//!    the caller suppresses them within the job's suppression limit, or
//!    fails the job. Where the whole table fails, rules may offer a node's
//!    own trimming ([`Rules::node_trim`]): the node then leaves out its
//!    densest rows and publishes the rest as one group (refined), when that
//!    costs less than what its subtree holds.
//!
//! **Clean labels.** Every node owns a *territory*: per dimension, the key
//! range left to it by its ancestors' cuts (a cut sends keys below the right
//! side's smallest key left). Territories of different leaves are disjoint.
//! A numeric or date group publishes the tight interval of its values,
//! which lies inside its territory. A categorical group publishes the
//! lowest common ancestor of its leaves, which may also cover leaves of a
//! sibling's territory (a cut that sends two of three children of a node
//! left publishes that node). A group is clean when every categorical label
//! covers only ranks of its own territory; clean groups' boxes are
//! therefore pairwise disjoint, and a victim's only candidate group is its
//! own.
//!
//! **Rows with identical QI values** always share their fate: median cuts
//! never separate equal keys, so they sit in the same leaf and move up
//! together. The partition depends only on the data (cuts use values and
//! counts, never row order), so reordering the upload does not change it.

use std::ops::Range;

use crate::columnar::{extent, predicate_cut, ColumnStore, Columns, Dims, PredicateScratch, Tmp};
use crate::error::CoreResult;
use crate::partition::{Partition, Placement};
use crate::progress::Progress;
use crate::split::{QiSpace, SplitCheckpoints};
use crate::table::Table;

mod pending;

/// What a partitioner supplies to [`safe_partition`].
pub(crate) trait Rules: Send {
    /// A copy for another thread: the same model, fresh working memory.
    /// (Rules hold no state that changes a decision, only scratch space.)
    fn fork(&self) -> Self
    where
        Self: Sized;

    /// Cuts `node` of `cols` in place along one QI and returns (left size,
    /// dimension, the smallest key that went right — [`Cut::right_start`]),
    /// or `None` to leave it whole. With `exact` both halves must satisfy
    /// the model; without, the partitioner's guide decides. A cut must keep
    /// both halves' labels inside their territories (the node's is
    /// `territory`, [`Dims::keeps_labels_inside`]), so that categorical
    /// cuts do not leave unclean leaves behind.
    ///
    /// With the cut come what the rules measured of each half; `own` is
    /// what is known of the node (given when its parent's cut measured it,
    /// filled in when this cut measures it). A node's rows stay the same
    /// multiset from its cut to its settling (its children move rows only
    /// inside their own ranges), so a measurement taken at the cut still
    /// holds when the node is settled. Rules that measure nothing return
    /// `Measured::default()` for both halves.
    ///
    /// [`Dims::keeps_labels_inside`]: crate::columnar::Dims::keeps_labels_inside
    ///
    /// [`Cut::right_start`]: crate::columnar::Cut::right_start
    fn cut(
        &mut self,
        cols: &mut Columns<'_>,
        node: Range<usize>,
        exact: bool,
        territory: &[(u32, u32)],
        own: &mut Measured,
    ) -> Option<((usize, usize, u32), [Measured; 2])>;
    /// Whether the rows of `node` satisfy the model as one group.
    /// `in_order`: the range is in the order the cuts keep (a leaf, or a node
    /// after [`Rules::restore_order`]); false for a node whose children were
    /// cut in place since.
    fn satisfied(&mut self, cols: &Columns<'_>, node: Range<usize>, in_order: bool) -> bool;
    /// [`Rules::satisfied`] for a node of which `measured` is known (its
    /// cut's, [`Rules::cut`]): rules whose measurement answers the
    /// question need not look at the rows again.
    fn satisfied_measured(
        &mut self,
        cols: &Columns<'_>,
        node: Range<usize>,
        in_order: bool,
        _measured: Measured,
    ) -> bool {
        self.satisfied(cols, node, in_order)
    }
    /// Whether the rows at the union of `ranges` (in no particular order)
    /// satisfy the model as one group: a candidate merge, tested before
    /// any row moves.
    fn satisfied_union(&mut self, cols: &Columns<'_>, ranges: &[Range<usize>]) -> bool;
    /// How far the rows at the union of `ranges` are from satisfying the
    /// model (0 when they do; larger is farther), when the model has such a
    /// measure: it steers which neighbours dilute a failing piece.
    fn excess_union(&mut self, _cols: &Columns<'_>, _ranges: &[Range<usize>]) -> Option<usize> {
        None
    }
    /// Puts `node`'s positions back in the order cuts rely on (e.g. sorted
    /// by SA value) before it is cut again.
    fn restore_order(&mut self, cols: &mut Columns<'_>, node: Range<usize>);

    /// For a leaf (in order) that fails the model: moves a few rows to
    /// leave out to the end of the range and returns how many stay in front,
    /// such that those satisfy the model; 0 (the default) when no such
    /// trimming is known. Only used when no ancestor can absorb the leaf, as
    /// suppression within the job's limit.
    fn trim(&mut self, _cols: &mut Columns<'_>, _node: Range<usize>) -> usize {
        0
    }

    /// For a node (its positions in any order) whose failing pieces no
    /// merge placed: per position of the node, whether to leave the row out
    /// so that the rest satisfies the model as one group — the alternative
    /// to trimming each failing leaf on its own, where the node's rows
    /// share their slack. `None` when the rules leave out no whole-node
    /// rows (the job allows no suppression, or the model knows no such
    /// trimming). Only asked when the whole table fails the model.
    fn node_trim(&mut self, _cols: &Columns<'_>, _node: Range<usize>) -> Option<Vec<bool>> {
        None
    }

    /// A cheap lower bound on how many rows [`Rules::node_trim`] would
    /// leave out of `node`, so that the engine can skip a trimming that
    /// cannot pay; `None` when the rules offer no node trimming.
    /// `measured`: what [`Rules::cut`] learned of the node.
    fn node_trim_at_least(
        &mut self,
        _cols: &Columns<'_>,
        _node: Range<usize>,
        _measured: Measured,
    ) -> Option<usize> {
        None
    }
}

/// What the rules measured of a node's rows when it, or its parent, was
/// cut ([`Rules::cut`]), kept with the node so that it is not
/// measured again when the node is settled.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Measured {
    /// How many rows trimming the node as a whole would leave out, as the
    /// rules estimate it ([`Rules::node_trim_at_least`]); 0 when the node
    /// satisfies the model as one group.
    pub left_out: Option<usize>,
}

/// The result of [`safe_partition`]: ranges of `cols` positions.
#[derive(Debug, Default)]
pub(crate) struct Outcome {
    /// Final groups, in depth-first (publication) order; each satisfies the
    /// model and publishes a clean box.
    pub groups: Vec<Range<usize>>,
    /// Rows no group could hold: empty unless the whole table fails.
    pub unplaced: Vec<Range<usize>>,
}

impl Outcome {
    /// Appends `later`'s groups and unplaced rows, whose positions start
    /// at `offset` in this outcome's columns.
    fn append_at(&mut self, later: Outcome, offset: usize) {
        let shift = |g: Range<usize>| g.start + offset..g.end + offset;
        self.groups.extend(later.groups.into_iter().map(shift));
        self.unplaced.extend(later.unplaced.into_iter().map(shift));
    }

    /// Row ids of the groups and of the unplaced rows.
    pub fn rows(&self, cols: &Columns<'_>) -> (Vec<Vec<u32>>, Vec<u32>) {
        let groups = cols.groups(&self.groups);
        let unplaced = self
            .unplaced
            .iter()
            .flat_map(|r| cols.ids[r.clone()].iter().copied())
            .collect();
        (groups, unplaced)
    }
}

/// How [`safe_partition`] grows its tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Growth {
    /// By the rules' guide (`exact` false), then settled bottom-up: the
    /// paper's tree, whose failing leaves are merged.
    Guide,
    /// By the model itself (`exact` true): every node satisfies the model,
    /// so this needs a root that does, and no leaf fails.
    Model,
}

/// Per dimension, the inclusive key range a node may publish labels in.
pub(crate) type Territory = Vec<(u32, u32)>;

/// One node of a grown tree.
struct Node {
    range: Range<usize>,
    children: Option<(usize, usize)>,
    /// Per dimension, the inclusive key range the ancestors' cuts left.
    territory: Territory,
    /// What the rules measured of its rows at its parent's cut or its own.
    measured: Measured,
}

/// Partitions every position of `cols` into clean groups that satisfy the
/// rules' model (see the module doc). `cols` must start in the order the
/// rules' cuts need.
///
/// **Threads.** On a pool of several threads ([`crate::parallel`]), a node
/// of at least [`FORK_MIN_ROWS`] rows is cut, and its
/// two halves — disjoint views of `cols` — are grown and settled
/// concurrently (each with its own [`Rules::fork`]); the node then settles
/// as in the sequential engine (absorbing its subtree when a half failed).
/// Every decision reads only the node's own rows, and the halves' groups
/// are concatenated left first, so the outcome is the sequential one
/// whatever the number of threads.
///
/// [`FORK_MIN_ROWS`]: crate::parallel::FORK_MIN_ROWS
pub(crate) fn safe_partition<R: Rules>(
    dims: &Dims<'_>,
    cols: &mut Columns<'_>,
    rules: &mut R,
    growth: Growth,
    progress: Progress<'_>,
) -> CoreResult<Outcome> {
    let n = cols.len();
    let checkpoints = SplitCheckpoints::new(n, progress);
    let engine = Engine {
        dims,
        checkpoints: &checkpoints,
    };
    let mut out = Outcome::default();
    if n == 0 {
        return Ok(out);
    }
    let territory = vec![(0, u32::MAX); dims.len()];
    let exact = growth == Growth::Model;
    // A tree grown by the model has no failing leaf to absorb; refining
    // would only find its own cuts again.
    let root = (territory, Measured::default());
    engine.solve(rules, cols, root, exact, !exact, &mut out)?;
    checkpoints.finish()?;
    Ok(out)
}

struct Engine<'d, 'a, 'c, 'p> {
    dims: &'d Dims<'a>,
    checkpoints: &'c SplitCheckpoints<'p>,
}

impl Engine<'_, '_, '_, '_> {
    /// Grows and settles the whole of `cols` (a node of a tree grown by the
    /// guide, with `territory`), appending its groups and unplaced rows to
    /// `out` in `cols`' positions. Returns whether every row is in a group
    /// (as [`Engine::settle`]).
    #[allow(clippy::too_many_arguments)]
    fn solve<R: Rules>(
        &self,
        rules: &mut R,
        cols: &mut Columns<'_>,
        (territory, mut measured): (Territory, Measured),
        exact: bool,
        refine: bool,
        out: &mut Outcome,
    ) -> CoreResult<bool> {
        let n = cols.len();
        if !crate::parallel::fork_worthwhile(n) {
            let nodes = self.grow(rules, cols, 0..n, (territory, measured), exact)?;
            return self.settle(rules, cols, &nodes, 0, refine, out);
        }
        self.checkpoints.before_node()?;
        let cut = rules.cut(cols, 0..n, exact, &territory, &mut measured);
        let Some(((left, dim, first_right), [l_measured, r_measured])) = cut else {
            self.checkpoints.final_group(n)?;
            let leaf = [Node {
                range: 0..n,
                children: None,
                territory,
                measured,
            }];
            return self.settle(rules, cols, &leaf, 0, refine, out);
        };
        debug_assert!(left > 0 && left < n && first_right > 0);
        let (lt, rt) = part_territory(&territory, dim, first_right);
        let (groups_before, unplaced_before) = (out.groups.len(), out.unplaced.len());
        let (left_ok, right_ok) = {
            let (mut l, mut r) = cols.split_at(left);
            let mut r_rules = rules.fork();
            let mut r_out = Outcome::default();
            // The node's working memory, sized by its cut, is not needed
            // while its halves are solved: each half starts afresh, as a
            // fork does, and the left half's is given back before this
            // node waits for the right one. Otherwise every node on the
            // path to the working leaves would hold working memory of its
            // own size (about twice the table's rows in all). Rules keep no
            // state that changes a decision, so this changes no result.
            *rules = rules.fork();
            let (l_ok, r_ok) = crate::parallel::join(
                || {
                    let ok = self.solve(rules, &mut l, (lt, l_measured), exact, refine, out);
                    *rules = rules.fork();
                    ok
                },
                || {
                    let half = (rt, r_measured);
                    self.solve(&mut r_rules, &mut r, half, exact, refine, &mut r_out)
                },
            );
            out.append_at(r_out, left);
            (l_ok?, r_ok?)
        };
        if left_ok && right_ok {
            return Ok(true);
        }
        self.place_pending(
            rules,
            cols,
            (0..n, measured),
            &territory,
            refine,
            (groups_before, unplaced_before),
            out,
        )
    }

    /// Grows a tree from `root` by the rules' cuts; nodes come parent first.
    fn grow<R: Rules>(
        &self,
        rules: &mut R,
        cols: &mut Columns<'_>,
        root: Range<usize>,
        (territory, measured): (Territory, Measured),
        exact: bool,
    ) -> CoreResult<Vec<Node>> {
        let mut nodes = vec![Node {
            range: root,
            children: None,
            territory,
            measured,
        }];
        let mut stack = vec![0usize];
        while let Some(i) = stack.pop() {
            self.checkpoints.before_node()?;
            let range = nodes[i].range.clone();
            let Node {
                territory,
                measured,
                ..
            } = &mut nodes[i];
            let cut = rules.cut(cols, range.clone(), exact, territory, measured);
            let Some(((left, dim, first_right), [l_measured, r_measured])) = cut else {
                self.checkpoints.final_group(range.len())?;
                continue;
            };
            debug_assert!(left > 0 && left < range.len());
            debug_assert!(first_right > 0);
            let mid = range.start + left;
            let (lt, rt) = part_territory(&nodes[i].territory, dim, first_right);
            let l = nodes.len();
            nodes.push(Node {
                range: range.start..mid,
                children: None,
                territory: lt,
                measured: l_measured,
            });
            nodes.push(Node {
                range: mid..range.end,
                children: None,
                territory: rt,
                measured: r_measured,
            });
            nodes[i].children = Some((l, l + 1));
            stack.push(l + 1);
            stack.push(l);
        }
        Ok(nodes)
    }

    /// Settles node `i` bottom-up (module doc). Returns whether every row of
    /// the node is in a final group; otherwise its failing rows are in
    /// `out.unplaced` (tentatively: an ancestor may still absorb them).
    /// `refine`: a node that absorbs its subtree is cut again by the model
    /// (true in a tree grown by the guide; in a tree grown by the model
    /// itself the same cuts would come back, so the node stays whole).
    fn settle<R: Rules>(
        &self,
        rules: &mut R,
        cols: &mut Columns<'_>,
        nodes: &[Node],
        i: usize,
        refine: bool,
        out: &mut Outcome,
    ) -> CoreResult<bool> {
        let node = &nodes[i];
        let range = node.range.clone();
        let Some((l, r)) = node.children else {
            let ok = self.clean(cols, range.clone(), &node.territory)
                && rules.satisfied(cols, range.clone(), true);
            if ok {
                out.groups.push(range);
                return Ok(true);
            }
            // Tentatively keep what survives trimming: if no ancestor
            // absorbs this leaf, only the trimmed rows need suppressing.
            let kept = rules.trim(cols, range.clone());
            let front = range.start..range.start + kept;
            if kept > 0
                && self.clean(cols, front.clone(), &node.territory)
                && rules.satisfied(cols, front.clone(), true)
            {
                out.groups.push(front.clone());
                out.unplaced.push(front.end..range.end);
            } else {
                out.unplaced.push(range);
            }
            return Ok(false);
        };
        let (groups_before, unplaced_before) = (out.groups.len(), out.unplaced.len());
        let left_ok = self.settle(rules, cols, nodes, l, refine, out)?;
        let right_ok = self.settle(rules, cols, nodes, r, refine, out)?;
        if left_ok && right_ok {
            return Ok(true);
        }
        let before = (groups_before, unplaced_before);
        let node_measured = (range, node.measured);
        self.place_pending(
            rules,
            cols,
            node_measured,
            &node.territory,
            refine,
            before,
            out,
        )
    }

    /// Whether every categorical label of `node`'s rows covers only ranks of
    /// its territory.
    /// (A numeric or date label is its rows' key extent, inside the node's
    /// territory by construction; the test matters for categorical ones.)
    fn clean(&self, cols: &Columns<'_>, node: Range<usize>, territory: &[(u32, u32)]) -> bool {
        // Dimension by dimension, stopping at the first label outside: the
        // same answer as `inside(label_box(key_extents))`, without building
        // either box.
        territory
            .iter()
            .enumerate()
            .take(self.dims.len())
            .all(|(d, &room)| {
                let keys = extent(&cols.keys[d][node.clone()]);
                pending::inside_on(self.label_on(d, keys), room)
            })
    }
}

/// The territories of a node's halves after a cut on `dim` whose right side
/// starts at key `first_right`: keys below it went left, the others right —
/// the bound is where the territories part (for a categorical cut, a child
/// boundary, so a side holding one child keeps a label inside its
/// territory).
pub(crate) fn part_territory(
    territory: &[(u32, u32)],
    dim: usize,
    first_right: u32,
) -> (Territory, Territory) {
    let mut lt = territory.to_vec();
    let mut rt = lt.clone();
    lt[dim].1 = first_right - 1;
    rt[dim].0 = first_right;
    (lt, rt)
}

/// [`Rules`] from a predicate on row ids: cuts as Mondrian takes them
/// (widest normalized range first, [`predicate_cut`]) with the model itself
/// as guide, for partitioners whose model has no cheaper guide.
pub(crate) struct PredicateRules<'d, 'a, 'f> {
    pub dims: &'d Dims<'a>,
    /// Whether rows may form a group.
    pub allows: &'f (dyn Fn(&[u32]) -> bool + Sync),
    /// Rows of a failing leaf to leave out so the rest is allowed (empty
    /// when none is found).
    pub trim: &'f (dyn Fn(&[u32]) -> Vec<u32> + Sync),
    /// A per-row key the predicate reads faster when the rows come sorted
    /// by it (the SA value), or `None`.
    pub order: Option<&'f [f64]>,
    /// No allowed group is smaller (k, or m).
    pub min_size: usize,
    pub scratch: PredicateScratch,
}

impl Rules for PredicateRules<'_, '_, '_> {
    fn fork(&self) -> Self {
        PredicateRules {
            scratch: PredicateScratch::default(),
            ..*self
        }
    }

    fn cut(
        &mut self,
        cols: &mut Columns<'_>,
        node: Range<usize>,
        _: bool,
        territory: &[(u32, u32)],
        _: &mut Measured,
    ) -> Option<((usize, usize, u32), [Measured; 2])> {
        let cut = predicate_cut(
            self.dims,
            cols,
            node,
            self.allows,
            self.min_size,
            Some(territory),
            &mut self.scratch,
        )?;
        Some((cut, [Measured::default(); 2]))
    }

    fn satisfied(&mut self, cols: &Columns<'_>, node: Range<usize>, _: bool) -> bool {
        (self.allows)(&cols.ids[node])
    }

    fn satisfied_union(&mut self, cols: &Columns<'_>, ranges: &[Range<usize>]) -> bool {
        (self.allows)(&cols.ids_of(ranges))
    }

    fn restore_order(&mut self, cols: &mut Columns<'_>, node: Range<usize>) {
        let Some(key) = self.order else {
            return;
        };
        cols.sort_range_by(node, |_, id| key[id as usize], &mut Tmp::default());
    }

    fn trim(&mut self, cols: &mut Columns<'_>, node: Range<usize>) -> usize {
        let dropped = (self.trim)(&cols.ids[node.clone()]);
        if dropped.is_empty() || dropped.len() >= node.len() {
            return 0;
        }
        let drop: std::collections::HashSet<u32> = dropped.into_iter().collect();
        cols.keep_in_front(node, |_, id| drop.contains(&id), &mut Tmp::default())
    }
}

/// Places the rows of `table` into clean groups that `allows` accepts (see
/// the module doc): Mondrian's cuts with the model as the criterion. Rows
/// come to the predicate sorted by `order` when given.
pub(crate) fn place_by_predicate(
    table: &Table,
    allows: &(dyn Fn(&[u32]) -> bool + Sync),
    trim: &(dyn Fn(&[u32]) -> Vec<u32> + Sync),
    order: Option<&[f64]>,
    min_size: usize,
    progress: Progress<'_>,
) -> CoreResult<Placement> {
    let n = table.rows();
    let ids: Vec<u32> = match order {
        Some(key) => crate::columnar::radix_order(key),
        None => (0..n as u32).collect(),
    };
    progress.report(0.0)?;
    let space = QiSpace::new(table);
    let (dims, row_keys) = Dims::new_checked(&space, progress)?;
    let mut store = ColumnStore::new_checked(row_keys, ids, Vec::new(), progress)?;
    let mut cols = store.view();
    let mut rules = PredicateRules {
        dims: &dims,
        allows,
        trim,
        order,
        min_size,
        scratch: PredicateScratch::default(),
    };
    let outcome = safe_partition(&dims, &mut cols, &mut rules, Growth::Guide, progress)?;
    let (groups, unplaced) = outcome.rows(&cols);
    let placement = Placement::new(Partition::new(groups), unplaced);
    placement.check_covers(n)?;
    Ok(placement)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::{QiValues, SaValues};
    use std::sync::Arc;

    /// Rules from a predicate on row ids, cutting like Mondrian (widest
    /// first) — enough to exercise the engine.
    struct Pred<'d, 'a, G, F> {
        dims: &'d Dims<'a>,
        guide: G,
        ok: F,
        scratch: crate::columnar::PredicateScratch,
    }

    impl<G, F> Rules for Pred<'_, '_, G, F>
    where
        G: Fn(&[u32]) -> bool + Copy + Send,
        F: Fn(&[u32]) -> bool + Copy + Send,
    {
        fn fork(&self) -> Self {
            Pred {
                scratch: Default::default(),
                ..*self
            }
        }
        fn cut(
            &mut self,
            cols: &mut Columns<'_>,
            node: Range<usize>,
            exact: bool,
            territory: &[(u32, u32)],
            _: &mut Measured,
        ) -> Option<((usize, usize, u32), [Measured; 2])> {
            let test: &dyn Fn(&[u32]) -> bool = if exact { &self.ok } else { &self.guide };
            let cut = crate::columnar::predicate_cut(
                self.dims,
                cols,
                node,
                test,
                1,
                Some(territory),
                &mut self.scratch,
            )?;
            Some((cut, [Measured::default(); 2]))
        }
        fn satisfied(&mut self, cols: &Columns<'_>, node: Range<usize>, _: bool) -> bool {
            (self.ok)(&cols.ids[node])
        }
        fn satisfied_union(&mut self, cols: &Columns<'_>, ranges: &[Range<usize>]) -> bool {
            (self.ok)(&cols.ids_of(ranges))
        }
        fn restore_order(&mut self, _: &mut Columns, _: Range<usize>) {}
    }

    fn hierarchy() -> Arc<crate::Hierarchy> {
        // * → {ab → {a, b}, c}: three leaves, "ab" an inner node.
        let paths: Vec<Vec<String>> = [["a", "ab", "*"], ["b", "ab", "*"], ["c", "c'", "*"]]
            .iter()
            .map(|p| p.iter().map(|s| s.to_string()).collect())
            .collect();
        Arc::new(crate::Hierarchy::from_paths(&paths).unwrap())
    }

    fn run(
        t: &Table,
        guide: impl Fn(&[u32]) -> bool + Copy + Send,
        ok: impl Fn(&[u32]) -> bool + Copy + Send,
    ) -> (Vec<Vec<u32>>, Vec<u32>) {
        let space = QiSpace::new(t);
        let (dims, keys) = Dims::new(&space);
        let mut store = ColumnStore::new(keys, (0..t.rows() as u32).collect(), Vec::new());
        let mut cols = store.view();
        let mut rules = Pred {
            dims: &dims,
            guide,
            ok,
            scratch: Default::default(),
        };
        let out = safe_partition(
            &dims,
            &mut cols,
            &mut rules,
            Growth::Guide,
            Progress::none(),
        )
        .unwrap();
        let (mut groups, unplaced) = out.rows(&cols);
        groups.iter_mut().for_each(|g| g.sort_unstable());
        (groups, unplaced)
    }

    /// The published box of `rows`, computed from the table by its
    /// definition (values' extent; the leaves under the lowest common
    /// ancestor), not from the engine's keys.
    fn published_box(t: &Table, rows: &[u32]) -> Vec<(f64, f64)> {
        t.qis()
            .iter()
            .map(|qi| match &qi.values {
                QiValues::Numeric(v) => rows.iter().fold((f64::MAX, f64::MIN), |(lo, hi), &r| {
                    (lo.min(v[r as usize]), hi.max(v[r as usize]))
                }),
                QiValues::Categorical { codes, hierarchy } => {
                    let ranks = rows.iter().map(|&r| hierarchy.leaf_rank(codes[r as usize]));
                    let (lo, hi) = ranks.fold((u32::MAX, 0), |(a, b), k| (a.min(k), b.max(k)));
                    let (level, node) = hierarchy.lca_of_rank_range(lo, hi);
                    let first = hierarchy.first_rank(level, node);
                    let last = first + hierarchy.leaves_under(level, node) - 1;
                    (f64::from(first), f64::from(last))
                }
                QiValues::Date(_) => unreachable!("no dates here"),
            })
            .collect()
    }

    /// Rows 0..8 on one numeric QI, SA all 0: leaves of two by median cuts.
    fn line_of_eight() -> Table {
        Table::from_columns(
            vec![(
                "x".into(),
                QiValues::Numeric((0..8).map(f64::from).collect()),
            )],
            vec![("s".into(), SaValues::Numeric(vec![0.0; 8]))],
        )
    }

    proptest::proptest! {
        /// Whatever the model and however pieces merge, the groups publish
        /// pairwise disjoint boxes (so the attacker's view is the per-group
        /// view), each satisfies the model, and groups and unplaced rows
        /// cover the table once. The model: no SA value may make up more
        /// than half of a group (not monotone under unions, like (ε,m)).
        #[test]
        fn merged_groups_publish_disjoint_boxes(
            rows in proptest::collection::vec((0u8..9, 0u8..3, 0u8..5), 2..90),
            guide_min in 1usize..4,
        ) {
            let t = Table::from_columns(
                vec![
                    ("x".into(), QiValues::Numeric(rows.iter().map(|r| f64::from(r.0)).collect())),
                    ("c".into(), QiValues::Categorical {
                        codes: rows.iter().map(|r| u32::from(r.1)).collect(),
                        hierarchy: hierarchy(),
                    }),
                ],
                vec![("s".into(), SaValues::Numeric(rows.iter().map(|r| f64::from(r.2)).collect()))],
            );
            let sa: Vec<u8> = rows.iter().map(|r| r.2).collect();
            let guide = move |g: &[u32]| g.len() >= guide_min;
            // The rules' closures are Copy: the SA copy lives for the test.
            let sa_ok: &'static [u8] = Box::leak(sa.into_boxed_slice());
            let ok = move |g: &[u32]| {
                g.len() >= 2 && (0u8..5).all(|v| {
                    2 * g.iter().filter(|&&r| sa_ok[r as usize] == v).count() <= g.len()
                })
            };
            let (groups, unplaced) = run(&t, guide, ok);
            let mut seen = vec![0u8; rows.len()];
            for &r in groups.iter().flatten().chain(&unplaced) {
                seen[r as usize] += 1;
            }
            proptest::prop_assert!(seen.iter().all(|&c| c == 1));
            let boxes: Vec<_> = groups.iter().map(|g| published_box(&t, g)).collect();
            for (i, g) in groups.iter().enumerate() {
                proptest::prop_assert!(ok(g), "group {g:?} fails the model");
                for j in 0..i {
                    let meet = boxes[i]
                        .iter()
                        .zip(&boxes[j])
                        .all(|(a, b)| a.0 <= b.1 && b.0 <= a.1);
                    proptest::prop_assert!(!meet, "groups {:?} and {:?} publish overlapping boxes", groups[i], groups[j]);
                }
            }
        }
    }

    #[test]
    fn numeric_cuts_give_disjoint_groups() {
        let t = line_of_eight();
        let two = |g: &[u32]| g.len() >= 2;
        let (groups, unplaced) = run(&t, two, two);
        assert!(unplaced.is_empty());
        assert_eq!(groups, vec![vec![0, 1], vec![2, 3], vec![4, 5], vec![6, 7]]);
    }

    #[test]
    fn a_categorical_label_covering_a_sibling_is_merged_up() {
        // Rows a, b, c, c: the only cut sends {a, b} left (label "ab",
        // clean) and {c, c} right. With groups of ≥ 2 both halves pass.
        let codes = |v: &[u32]| QiValues::Categorical {
            codes: v.to_vec(),
            hierarchy: hierarchy(),
        };
        let sa = |n| vec![("s".into(), SaValues::Numeric(vec![0.0; n]))];
        let t = Table::from_columns(vec![("c".into(), codes(&[0, 1, 2, 2]))], sa(4));
        let two = |g: &[u32]| g.len() >= 2;
        let (groups, _) = run(&t, two, two);
        assert_eq!(groups, vec![vec![0, 1], vec![2, 3]]);
        // Rows a, b, b, c, c, c with a hierarchy * → {a, b, c} (flat): a
        // cut {a, b, b} | {c, c, c} publishes "*" on the left, which covers
        // c: not clean, so the root stays one group.
        let flat = Arc::new(crate::Hierarchy::flat(["a", "b", "c"]));
        let t = Table::from_columns(
            vec![(
                "c".into(),
                QiValues::Categorical {
                    codes: vec![0, 1, 1, 2, 2, 2],
                    hierarchy: flat,
                },
            )],
            sa(6),
        );
        let three = |g: &[u32]| g.len() >= 3;
        let (groups, unplaced) = run(&t, three, three);
        assert!(unplaced.is_empty());
        assert_eq!(groups, vec![vec![0, 1, 2, 3, 4, 5]]);
    }

    #[test]
    fn a_failing_leaf_merges_with_a_cousin_when_no_ancestor_can_take_it() {
        // Leaves {0,1} {2,3} {4,5} {6,7}. {2,3} fails alone, with its
        // sibling, and so does every ancestor (no group above 4 rows): the
        // whole-node rule would leave it out. Its cousin {4,5} dilutes it:
        // {2..5} publishes [2-5], which meets no other group's box.
        let t = line_of_eight();
        let two = |g: &[u32]| g.len() >= 2;
        let ok = |g: &[u32]| (2..=4).contains(&g.len()) && (!g.contains(&2) || g.contains(&4));
        let (groups, unplaced) = run(&t, two, ok);
        assert!(unplaced.is_empty(), "{unplaced:?}");
        assert_eq!(groups, vec![vec![0, 1], vec![2, 3, 4, 5], vec![6, 7]]);
    }

    #[test]
    fn failing_leaves_are_absorbed_or_left_unplaced() {
        // A predicate that fails on {0, 1} but holds on {0..3}: the parent
        // of the failing leaf absorbs it.
        let t = line_of_eight();
        let two = |g: &[u32]| g.len() >= 2;
        let bad = |g: &[u32]| g.len() >= 2 && !(g.len() == 2 && g.contains(&0));
        let (groups, unplaced) = run(&t, two, bad);
        assert!(unplaced.is_empty());
        assert_eq!(groups, vec![vec![0, 1, 2, 3], vec![4, 5], vec![6, 7]]);
        // Row 0 can never be in a group: its leaf is unplaced, and no
        // ancestor can absorb it; the other leaves stay groups.
        let never0 = |g: &[u32]| !g.contains(&0);
        let (groups, unplaced) = run(&t, two, never0);
        assert_eq!(unplaced, vec![0, 1]);
        assert_eq!(groups, vec![vec![2, 3], vec![4, 5], vec![6, 7]]);
    }
}
