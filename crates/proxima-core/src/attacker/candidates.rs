//! Who can be whom: every victim's candidate sets of groups, deduplicated.
//!
//! Set ids `0..G` are the singletons {g}: a group whose box meets no other
//! box gives every one of its rows the set {g} without a lookup, which is
//! the common case. Other sets are interned (sorted group lists → id), so
//! each distinct union is measured once however many victims share it.

use std::collections::HashMap;

use super::boxes::{Axis, GroupBoxes};
use super::budget::{set_bytes, Budget};
use super::bvh::Bvh;
use super::cells::cell_sets;
use super::{Spread, Victims};
use crate::error::{CoreError, CoreResult};
use crate::hierarchy::Hierarchy;
use crate::partition::Partition;
use crate::table::{QiValues, Table};
use crate::ticker::Ticker;
use rayon::prelude::*;

/// Overlap lists at most this long are stabbed by a scan; longer ones by
/// the hierarchy.
const SCAN_LIMIT: usize = 256;

/// One run of groups stabbed on its own: its interner and (set, row) pairs.
type Stabbed<'p> = (Interner<'p>, Vec<(u32, u32)>);

/// The candidate sets and which victims are judged against each.
pub(crate) struct CandidateSets {
    /// Members of set s: `groups[group_start[s]..group_start[s + 1]]`, sorted.
    group_start: Vec<usize>,
    groups: Vec<u32>,
    /// Rows in the union of set s (|C|).
    size: Vec<usize>,
    /// Victims judged against set s: `victims[victim_start[s]..victim_start[s + 1]]`.
    victim_start: Vec<usize>,
    victims: Vec<u32>,
    /// Over the rows: median and maximum of the most groups in any of a
    /// row's candidate sets.
    pub spread: Spread,
    /// True when every row is the victim of exactly one set.
    once: bool,
}

impl CandidateSets {
    pub fn len(&self) -> usize {
        self.size.len()
    }

    pub fn members(&self, s: usize) -> &[u32] {
        &self.groups[self.group_start[s]..self.group_start[s + 1]]
    }

    pub fn size(&self, s: usize) -> usize {
        self.size[s]
    }

    pub fn victims(&self, s: usize) -> &[u32] {
        &self.victims[self.victim_start[s]..self.victim_start[s + 1]]
    }

    /// The position of set s's first victim in the sets' victim lists, one
    /// after the other in set order (`victim_start(len())` = every victim).
    pub fn victim_start(&self, s: usize) -> usize {
        self.victim_start[s]
    }

    /// True when every row of the table is the victim of exactly one set
    /// (always so for victims at their original points): a row's figure is
    /// then its set's, with nothing to combine.
    pub fn once(&self) -> bool {
        self.once
    }

    /// Builds the sets for `victims` ([`Victims`]); `partition` and
    /// `boxes` describe the same groups. Victims at their original points
    /// of a large table are stabbed by every thread of the pool
    /// ([`crate::parallel`]), each run of groups with its own interner; the
    /// later runs' sets are then interned into the first in their order of
    /// appearance, which gives every set the id one thread would have given
    /// it.
    pub fn build(
        table: &Table,
        partition: &Partition,
        boxes: &GroupBoxes,
        victims: &Victims,
        ticker: &mut Ticker,
        budget: Budget,
    ) -> CoreResult<CandidateSets> {
        Self::build_on(
            table,
            partition,
            boxes,
            victims,
            ticker,
            crate::parallel::parts_for(table.rows()),
            budget,
        )
    }

    /// [`CandidateSets::build`] with the groups in `parts` runs of about
    /// equal rows, stabbed concurrently (victims at their original points
    /// only). Every structure that grows with the boxes' overlap is charged
    /// to `budget` before it grows ([`super::budget`]); concurrent runs
    /// share it equally.
    pub(crate) fn build_on(
        table: &Table,
        partition: &Partition,
        boxes: &GroupBoxes,
        victims: &Victims,
        ticker: &mut Ticker,
        parts: usize,
        mut budget: Budget,
    ) -> CoreResult<CandidateSets> {
        let n = table.rows();
        let bvh = Bvh::new(boxes);
        // (set, row) pairs, sorted into per-set lists at the end. One pair
        // per row is the table's own size, like the per-check figures, and
        // is not charged: victims at their original points never have more.
        // The pairs of an overlapped group's cells are charged as they come.
        let mut pairs: Vec<(u32, u32)> = Vec::with_capacity(n);
        let mut interner = Interner::new(partition, budget.clone());
        match victims {
            Victims::OriginalPoints => {
                let stabber = Stabber {
                    partition,
                    boxes,
                    bvh: &bvh,
                    points: Points::new(table, boxes),
                };
                let groups = partition.len();
                if parts <= 1 {
                    stabber.run(0..groups, &mut interner, &mut pairs, ticker)?;
                    budget = interner.budget.clone();
                } else {
                    let size = |g: usize| partition.groups[g].len();
                    let ranges = crate::parallel::balanced_ranges(groups, parts, size);
                    let base = &*ticker;
                    let share = budget.share(parts);
                    let runs: Vec<CoreResult<Stabbed<'_>>> = ranges
                        .into_par_iter()
                        .map(|range| {
                            let mut own = Interner::new(partition, share.clone());
                            let mut found = Vec::new();
                            stabber.run(range, &mut own, &mut found, &mut base.fork())?;
                            Ok((own, found))
                        })
                        .collect();
                    // The first run is the base; the later ones are
                    // interned into it in order of appearance: the ids one
                    // thread would have given.
                    let mut runs = runs.into_iter();
                    (interner, pairs) = runs.next().expect("at least one range")?;
                    // The later runs' sets are interned again into the first:
                    // from here on it draws on what is left of the whole.
                    let first = interner.budget.used();
                    interner.budget = budget.share(1);
                    interner.budget.charge(first)?;
                    for run in runs {
                        let (other, later) = run?;
                        let remap = interner.absorb(&other)?;
                        pairs.extend(later.into_iter().map(|(s, r)| (remap[s as usize], r)));
                    }
                    budget = interner.budget.clone();
                }
            }
            Victims::AnyPointOfItsBox => {
                let mut near: Vec<u32> = Vec::new();
                for (g, rows) in partition.groups.iter().enumerate() {
                    near.clear();
                    bvh.overlapping(boxes.of(g), &mut near);
                    near.retain(|&h| h != g as u32);
                    ticker.tick(near.len() + 8)?;
                    if near.is_empty() {
                        pairs.extend(rows.iter().map(|&r| (g as u32, r)));
                        continue;
                    }
                    let (sets, transient) =
                        cell_sets(boxes, g as u32, &near, ticker, &mut interner.budget)?;
                    for set in &sets {
                        let id = interner.intern(set)?;
                        if pairs.len() + rows.len() > MAX_ENTRIES {
                            return Err(too_overlapped());
                        }
                        interner.budget.charge(rows.len() * PAIR_BYTES)?;
                        pairs.extend(rows.iter().map(|&r| (id, r)));
                        ticker.tick(rows.len())?;
                    }
                    interner.budget.release(transient);
                }
                budget = interner.budget.clone();
            }
        }
        // The per-set victim lists and starts past one victim per row and
        // one set per group (the per-row widths are table-sized).
        let groups = partition.len();
        budget.charge(
            pairs.len().saturating_sub(n) * 4 + interner.size.len().saturating_sub(groups) * 8,
        )?;
        Ok(interner.finish(pairs, n))
    }
}

/// Victims at their original points: per group, the boxes that meet its
/// box, then each distinct point of its rows stabbed against them.
struct Stabber<'a> {
    partition: &'a Partition,
    boxes: &'a GroupBoxes,
    bvh: &'a Bvh,
    points: Points<'a>,
}

impl Stabber<'_> {
    /// Adds a (set, row) pair for every row of the groups in `groups`.
    fn run(
        &self,
        groups: std::ops::Range<usize>,
        interner: &mut Interner,
        pairs: &mut Vec<(u32, u32)>,
        ticker: &mut Ticker,
    ) -> CoreResult<()> {
        let (partition, boxes, bvh, points) = (self.partition, self.boxes, self.bvh, &self.points);
        let dims = boxes.dimensions();
        // The group's rows' points, row-major, and their order.
        let mut keys: Vec<f64> = Vec::new();
        let mut order: Vec<u32> = Vec::new();
        let mut found: Vec<u32> = Vec::new();
        let mut near: Vec<u32> = Vec::new();
        let mut near_boxes: Vec<[f64; 2]> = Vec::new();
        let end = groups.end;
        for g in groups {
            let rows = &partition.groups[g];
            // A group's rows are scattered over the columns: the next
            // group's coordinates are asked for now, to arrive while this
            // group's boxes are searched.
            if let Some(next) = partition.groups.get(g + 1).filter(|_| g + 1 < end) {
                next.iter().for_each(|&r| points.prefetch(r));
            }
            near.clear();
            bvh.overlapping(boxes.of(g), &mut near);
            ticker.tick(near.len() + 8)?;
            if near.len() <= 1 {
                pairs.extend(rows.iter().map(|&r| (g as u32, r)));
                continue;
            }
            near.sort_unstable();
            // The near boxes side by side: every point scans them.
            near_boxes.clear();
            for &h in &near {
                near_boxes.extend_from_slice(boxes.of(h as usize));
            }
            keys.clear();
            for &r in rows {
                keys.extend((0..dims).map(|d| points.get(d, r)));
            }
            let key = |i: u32| &keys[i as usize * dims..(i as usize + 1) * dims];
            let same = |a: &[f64], b: &[f64]| a.iter().zip(b).all(|(x, y)| x == y);
            // Rows with equal points share their set: stab once per point.
            order.clear();
            order.extend(0..rows.len() as u32);
            order.sort_unstable_by(|&a, &b| {
                key(a)
                    .iter()
                    .zip(key(b))
                    .map(|(x, y)| x.total_cmp(y))
                    .find(|o| o.is_ne())
                    .unwrap_or(std::cmp::Ordering::Equal)
            });
            let mut set = g as u32;
            for (i, &at) in order.iter().enumerate() {
                let point = key(at);
                if i == 0 || !same(key(order[i - 1]), point) {
                    found.clear();
                    if near.len() <= SCAN_LIMIT {
                        found.extend(
                            near.iter()
                                .zip(near_boxes.chunks_exact(dims))
                                .filter(|(_, b)| contains(b, point))
                                .map(|(&h, _)| h),
                        );
                    } else {
                        bvh.containing(point, &mut found);
                        found.sort_unstable();
                    }
                    // v's own group is always a candidate.
                    if let Err(at) = found.binary_search(&(g as u32)) {
                        found.insert(at, g as u32);
                    }
                    ticker.tick(near.len().min(SCAN_LIMIT) + found.len())?;
                    set = interner.intern(&found)?;
                }
                pairs.push((set, rows[at as usize]));
            }
        }
        Ok(())
    }
}

fn contains(b: &[[f64; 2]], point: &[f64]) -> bool {
    b.iter().zip(point).all(|(b, &x)| b[0] <= x && x <= b[1])
}

/// Sorted group lists → set ids, singletons implicit. Sets live in one
/// arena; a map from each set's hash to the last id with that hash, and a
/// chain to earlier ones, find them without a key allocation per lookup.
struct Interner<'p> {
    partition: &'p Partition,
    /// Charged for every set stored.
    budget: Budget,
    by_hash: HashMap<u64, u32>,
    /// Per set id: the previous set with the same hash (`u32::MAX`: none).
    same_hash: Vec<u32>,
    group_start: Vec<usize>,
    groups: Vec<u32>,
    size: Vec<usize>,
}

/// FxHash's multiply-rotate mix over a set's group ids (the keys are our
/// own ids: no need for a DoS-resistant hash on this hot path).
fn hash_set(set: &[u32]) -> u64 {
    set.iter().fold(set.len() as u64, |h, &g| {
        (h.rotate_left(5) ^ g as u64).wrapping_mul(0x517c_c1b7_2722_0a95)
    })
}

/// Bytes of one (set, victim) pair.
const PAIR_BYTES: usize = 8;

/// The most group ids the distinct candidate sets may hold in all, and the
/// most (set, victim) pairs of an uploaded table: 2^25 each (128 MiB and
/// 256 MiB). A release far past them — every group's box covering most
/// others', as colour classes spread over the whole QI space — would
/// otherwise take memory quadratic in its size.
const MAX_ENTRIES: usize = 1 << 25;

/// A release whose boxes overlap too much to judge within [`MAX_ENTRIES`]:
/// it cannot be shown safe, so it is treated as failing.
fn too_overlapped() -> CoreError {
    CoreError::new(
        crate::error::ErrorKind::ModelNotSatisfied,
        format!(
            "the release's groups publish boxes that overlap too much to judge in the attacker's view \
             (more than {MAX_ENTRIES} candidate-set entries): victims see most of the table's groups, \
             so it is treated as not satisfying its model"
        ),
    )
}

impl<'p> Interner<'p> {
    fn new(partition: &'p Partition, budget: Budget) -> Self {
        let g = partition.len();
        Interner {
            partition,
            budget,
            by_hash: HashMap::new(),
            same_hash: vec![u32::MAX; g],
            group_start: (0..=g).collect(),
            groups: (0..g as u32).collect(),
            size: partition.groups.iter().map(Vec::len).collect(),
        }
    }

    fn members(&self, id: u32) -> &[u32] {
        &self.groups[self.group_start[id as usize]..self.group_start[id as usize + 1]]
    }

    /// The id of a sorted, non-empty group list; an error past
    /// [`MAX_ENTRIES`] stored group ids (see [`too_overlapped`]).
    fn intern(&mut self, set: &[u32]) -> CoreResult<u32> {
        if let [g] = set {
            return Ok(*g);
        }
        let h = hash_set(set);
        let mut id = self.by_hash.get(&h).copied().unwrap_or(u32::MAX);
        while id != u32::MAX {
            if self.members(id) == set {
                return Ok(id);
            }
            id = self.same_hash[id as usize];
        }
        if self.groups.len() + set.len() > MAX_ENTRIES {
            return Err(too_overlapped());
        }
        self.budget.charge(set_bytes(set.len()))?;
        let id = self.size.len() as u32;
        self.same_hash
            .push(self.by_hash.insert(h, id).unwrap_or(u32::MAX));
        self.groups.extend_from_slice(set);
        self.group_start.push(self.groups.len());
        self.size.push(
            set.iter()
                .map(|&g| self.partition.groups[g as usize].len())
                .sum(),
        );
        Ok(id)
    }

    /// Interns every set of `other` (built over the same partition) in its
    /// order of creation; returns `other`'s id → this interner's id.
    fn absorb(&mut self, other: &Interner) -> CoreResult<Vec<u32>> {
        (0..other.size.len() as u32)
            .map(|id| self.intern(other.members(id)))
            .collect()
    }

    /// Sorts the (set, row) pairs into per-set victim lists (a counting
    /// sort, stable: rows keep the order they were judged in), and counts
    /// each row's widest set.
    fn finish(self, pairs: Vec<(u32, u32)>, rows: usize) -> CandidateSets {
        let sets = self.size.len();
        let width =
            |s: u32| (self.group_start[s as usize + 1] - self.group_start[s as usize]) as u32;
        let mut victim_start = vec![0usize; sets + 1];
        // Whether every row is in exactly one pair: a bit per row.
        let mut seen = vec![0u64; rows.div_ceil(64)];
        let mut once = pairs.len() == rows;
        for &(s, r) in &pairs {
            victim_start[s as usize + 1] += 1;
            let (word, bit) = (r as usize / 64, 1u64 << (r % 64));
            once &= seen[word] & bit == 0;
            seen[word] |= bit;
        }
        drop(seen);
        for s in 0..sets {
            victim_start[s + 1] += victim_start[s];
        }
        // Each row's widest set: with one set per row, the widths of the
        // sets weighted by their victims, with no per-row array.
        let spread = if once {
            let mut by_width: Vec<(u32, usize)> = (0..sets)
                .map(|s| (width(s as u32), victim_start[s + 1] - victim_start[s]))
                .filter(|&(_, v)| v > 0)
                .collect();
            by_width.sort_unstable();
            weighted_spread(&by_width, rows)
        } else {
            let mut widest = vec![0u32; rows];
            for &(s, r) in &pairs {
                widest[r as usize] = widest[r as usize].max(width(s));
            }
            spread_of(&mut widest)
        };
        let mut next = victim_start.clone();
        let mut victims = vec![0u32; pairs.len()];
        for (s, r) in pairs {
            victims[next[s as usize]] = r;
            next[s as usize] += 1;
        }
        CandidateSets {
            group_start: self.group_start,
            groups: self.groups,
            size: self.size,
            victim_start,
            victims,
            spread,
            once,
        }
    }
}

/// Median (the lower one for an even count) and maximum of `counts`
/// (reordered).
pub(crate) fn spread_of(counts: &mut [u32]) -> Spread {
    if counts.is_empty() {
        return Spread { median: 0, max: 0 };
    }
    let max = counts.iter().copied().max().unwrap_or(0) as usize;
    let mid = (counts.len() - 1) / 2;
    let (_, &mut median, _) = counts.select_nth_unstable(mid);
    Spread {
        median: median as usize,
        max,
    }
}

/// [`spread_of`] the multiset holding `count` times each `(value, count)`
/// of `by_value` (ascending values), `total` in all.
fn weighted_spread(by_value: &[(u32, usize)], total: usize) -> Spread {
    if total == 0 {
        return Spread { median: 0, max: 0 };
    }
    let mid = (total - 1) / 2;
    let mut seen = 0usize;
    let mut median = 0;
    for &(value, count) in by_value {
        if seen + count > mid {
            median = value;
            break;
        }
        seen += count;
    }
    Spread {
        median: median as usize,
        max: by_value.last().map_or(0, |&(v, _)| v as usize),
    }
}

/// A victim's point on one QI.
enum PointColumn<'t> {
    Number(&'t [f64]),
    Day(&'t [i32]),
    Rank(&'t [u32], &'t Hierarchy),
}

/// Rows' original QI points, in the boxes' key spaces.
struct Points<'t> {
    columns: Vec<PointColumn<'t>>,
}

impl<'t> Points<'t> {
    /// Callers check first that every QI has points
    /// ([`GroupBoxes::check_points`]).
    fn new(table: &'t Table, boxes: &GroupBoxes) -> Self {
        let columns = table
            .qis()
            .iter()
            .zip(&boxes.dims)
            .map(|(c, dim)| {
                debug_assert!(dim.axis != Axis::Labels, "checked by check_points");
                match &c.values {
                    QiValues::Numeric(v) => PointColumn::Number(v),
                    QiValues::Date(v) => PointColumn::Day(v),
                    QiValues::Categorical { codes, hierarchy } => {
                        PointColumn::Rank(codes, hierarchy)
                    }
                }
            })
            .collect();
        Points { columns }
    }

    /// Hints to fetch `row`'s coordinates (see [`crate::prefetch`]).
    #[inline]
    fn prefetch(&self, row: u32) {
        let r = row as usize;
        for column in &self.columns {
            let p: *const u8 = match column {
                PointColumn::Number(v) => v[r..].as_ptr().cast(),
                PointColumn::Day(v) => v[r..].as_ptr().cast(),
                PointColumn::Rank(codes, _) => codes[r..].as_ptr().cast(),
            };
            crate::prefetch::line(p);
        }
    }

    #[inline]
    fn get(&self, d: usize, row: u32) -> f64 {
        let r = row as usize;
        match &self.columns[d] {
            PointColumn::Number(v) => v[r],
            PointColumn::Day(v) => v[r] as f64,
            PointColumn::Rank(codes, h) => h.leaf_rank(codes[r]) as f64,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generalize::generalize;
    use crate::progress::Progress;
    use crate::table::SaValues;

    /// The spread of a weighted histogram is the spread of the multiset it
    /// stands for.
    #[test]
    fn weighted_spread_is_the_spread_of_its_multiset() {
        let histograms: [&[(u32, usize)]; 5] = [
            &[(1, 1)],
            &[(1, 2), (2, 2)],
            &[(1, 3), (4, 1), (9, 5)],
            &[(2, 1), (3, 1), (5, 1), (8, 1)],
            &[(1, 10), (2, 1)],
        ];
        for by_value in histograms {
            let mut all: Vec<u32> = by_value
                .iter()
                .flat_map(|&(v, c)| std::iter::repeat_n(v, c))
                .collect();
            let total = all.len();
            assert_eq!(weighted_spread(by_value, total), spread_of(&mut all));
        }
        assert_eq!(weighted_spread(&[], 0), Spread { median: 0, max: 0 });
    }

    /// Several threads build the very sets one builds: same ids, members,
    /// sizes, victims in the same order, same widths.
    #[test]
    fn several_threads_build_the_sets_one_builds() {
        let n = 3000u32;
        // Rows dealt round-robin over the QI order into 300 groups whose
        // boxes overlap heavily; two QIs, so points differ in which boxes
        // cover them.
        let a: Vec<f64> = (0..n).map(|i| ((i * 7) % 1000) as f64).collect();
        let b: Vec<f64> = (0..n).map(|i| ((i * 11) % 37) as f64).collect();
        let t = Table::from_columns(
            vec![
                ("a".into(), QiValues::Numeric(a)),
                ("b".into(), QiValues::Numeric(b)),
            ],
            vec![("s".into(), SaValues::Numeric(vec![1.0; n as usize]))],
        );
        let mut groups = vec![Vec::new(); 300];
        for i in 0..n {
            groups[((i / 3) % 300) as usize].push(i);
        }
        let release = generalize(&t, Partition::new(groups)).unwrap();
        let p = release.partition();
        let boxes = GroupBoxes::from_release(&t, &release);
        let mut ticker = Ticker::new(Progress::none());
        let build = |parts: usize, ticker: &mut Ticker| {
            let budget = Budget::new(usize::MAX);
            CandidateSets::build_on(
                &t,
                p,
                &boxes,
                &Victims::OriginalPoints,
                ticker,
                parts,
                budget,
            )
            .unwrap()
        };
        let one = build(1, &mut ticker);
        assert!(one.len() > p.len() + 10, "many multi-group sets");
        for parts in [2, 3, 8] {
            let many = build(parts, &mut ticker);
            assert_eq!(one.group_start, many.group_start);
            assert_eq!(one.groups, many.groups);
            assert_eq!(one.size, many.size);
            assert_eq!(one.victim_start, many.victim_start);
            assert_eq!(one.victims, many.victims);
            assert_eq!(one.spread, many.spread);
            assert_eq!(one.once, many.once);
        }
        // Every victim's set holds its own group and its point.
        let group_of = p.group_of_rows(t.rows());
        for s in 0..one.len() {
            for &v in one.victims(s) {
                assert!(one.members(s).contains(&group_of[v as usize]));
            }
        }
    }
}
