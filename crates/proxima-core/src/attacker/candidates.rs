//! Who can be whom: every victim's candidate sets of groups, deduplicated.
//!
//! Set ids `0..G` are the singletons {g}: a group whose box meets no other
//! box gives every one of its rows the set {g} without a lookup, which is
//! the common case. Other sets are interned (sorted group lists → id), so
//! each distinct union is measured once however many victims share it.

use std::collections::HashMap;

use super::boxes::{Axis, GroupBoxes};
use super::bvh::Bvh;
use super::cells::cell_sets;
use super::ticker::Ticker;
use super::Victims;
use crate::error::CoreResult;
use crate::hierarchy::Hierarchy;
use crate::partition::Partition;
use crate::table::{QiValues, Table};

/// Overlap lists at most this long are stabbed by a scan; longer ones by
/// the hierarchy.
const SCAN_LIMIT: usize = 32;

/// The candidate sets and which victims are judged against each.
pub(crate) struct CandidateSets {
    /// Members of set s: `groups[group_start[s]..group_start[s + 1]]`, sorted.
    group_start: Vec<usize>,
    groups: Vec<u32>,
    /// Rows in the union of set s (|C|).
    size: Vec<usize>,
    /// Victims judged against set s: `victims[victim_start[s]..victim_start[s + 1]]`,
    /// ascending.
    victim_start: Vec<usize>,
    victims: Vec<u32>,
    /// Per row: the most groups in any of its candidate sets.
    pub spread: Vec<u32>,
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

    /// Builds the sets for `victims` ([`Victims`]); `partition` and
    /// `boxes` describe the same groups.
    pub fn build(
        table: &Table,
        partition: &Partition,
        boxes: &GroupBoxes,
        victims: &Victims,
        ticker: &mut Ticker,
    ) -> CoreResult<CandidateSets> {
        let n = table.rows();
        let mut interner = Interner::new(partition);
        // (set, row) pairs, sorted into per-set lists at the end.
        let mut pairs: Vec<(u32, u32)> = Vec::with_capacity(n);
        let mut spread = vec![1u32; n];
        let bvh = Bvh::new(boxes);
        let mut near: Vec<u32> = Vec::new();
        match victims {
            Victims::OriginalPoints => {
                let points = Points::new(table, boxes);
                let mut order: Vec<u32> = Vec::new();
                let mut found: Vec<u32> = Vec::new();
                let mut point = vec![0.0; boxes.dimensions()];
                for (g, rows) in partition.groups.iter().enumerate() {
                    near.clear();
                    bvh.overlapping(boxes, boxes.of(g), &mut near);
                    ticker.tick(near.len() + 8)?;
                    if near.len() <= 1 {
                        pairs.extend(rows.iter().map(|&r| (g as u32, r)));
                        continue;
                    }
                    near.sort_unstable();
                    // Rows with equal points share their set: stab once per point.
                    order.clear();
                    order.extend_from_slice(rows);
                    order.sort_unstable_by(|&a, &b| points.cmp(a, b));
                    let mut set = g as u32;
                    for (i, &r) in order.iter().enumerate() {
                        if i == 0 || points.cmp(order[i - 1], r).is_ne() {
                            points.fill(r, &mut point);
                            found.clear();
                            if near.len() <= SCAN_LIMIT {
                                found.extend(
                                    near.iter()
                                        .copied()
                                        .filter(|&h| contains(boxes.of(h as usize), &point)),
                                );
                            } else {
                                bvh.containing(boxes, &point, &mut found);
                                found.sort_unstable();
                            }
                            // v's own group is always a candidate.
                            if let Err(at) = found.binary_search(&(g as u32)) {
                                found.insert(at, g as u32);
                            }
                            ticker.tick(near.len().min(SCAN_LIMIT) + found.len())?;
                            set = interner.intern(&found);
                        }
                        spread[r as usize] = interner.groups_in(set);
                        pairs.push((set, r));
                    }
                }
            }
            Victims::AnyPointOfItsBox => {
                for (g, rows) in partition.groups.iter().enumerate() {
                    near.clear();
                    bvh.overlapping(boxes, boxes.of(g), &mut near);
                    near.retain(|&h| h != g as u32);
                    ticker.tick(near.len() + 8)?;
                    if near.is_empty() {
                        pairs.extend(rows.iter().map(|&r| (g as u32, r)));
                        continue;
                    }
                    let sets = cell_sets(boxes, g as u32, &near, ticker)?;
                    let widest = sets.iter().map(Vec::len).max().unwrap_or(1) as u32;
                    for set in &sets {
                        let id = interner.intern(set);
                        pairs.extend(rows.iter().map(|&r| (id, r)));
                    }
                    for &r in rows {
                        spread[r as usize] = widest;
                    }
                    ticker.tick(rows.len() * sets.len())?;
                }
            }
        }
        Ok(interner.finish(pairs, spread))
    }
}

fn contains(b: &[[f64; 2]], point: &[f64]) -> bool {
    b.iter().zip(point).all(|(b, &x)| b[0] <= x && x <= b[1])
}

/// Sorted group lists → set ids, singletons implicit.
struct Interner<'p> {
    partition: &'p Partition,
    ids: HashMap<Vec<u32>, u32>,
    group_start: Vec<usize>,
    groups: Vec<u32>,
    size: Vec<usize>,
}

impl<'p> Interner<'p> {
    fn new(partition: &'p Partition) -> Self {
        let g = partition.len();
        Interner {
            partition,
            ids: HashMap::new(),
            group_start: (0..=g).collect(),
            groups: (0..g as u32).collect(),
            size: partition.groups.iter().map(Vec::len).collect(),
        }
    }

    /// The id of a sorted, non-empty group list.
    fn intern(&mut self, set: &[u32]) -> u32 {
        if let [g] = set {
            return *g;
        }
        if let Some(&id) = self.ids.get(set) {
            return id;
        }
        let id = self.size.len() as u32;
        self.groups.extend_from_slice(set);
        self.group_start.push(self.groups.len());
        self.size.push(
            set.iter()
                .map(|&g| self.partition.groups[g as usize].len())
                .sum(),
        );
        self.ids.insert(set.to_vec(), id);
        id
    }

    fn groups_in(&self, set: u32) -> u32 {
        let s = set as usize;
        (self.group_start[s + 1] - self.group_start[s]) as u32
    }

    /// Sorts the (set, row) pairs into per-set victim lists (a counting
    /// sort; rows stay ascending inside a set).
    fn finish(self, mut pairs: Vec<(u32, u32)>, spread: Vec<u32>) -> CandidateSets {
        let sets = self.size.len();
        let mut victim_start = vec![0usize; sets + 1];
        for &(s, _) in &pairs {
            victim_start[s as usize + 1] += 1;
        }
        for s in 0..sets {
            victim_start[s + 1] += victim_start[s];
        }
        pairs.sort_unstable_by_key(|&(_, r)| r);
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
        }
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

    #[inline]
    fn get(&self, d: usize, row: u32) -> f64 {
        let r = row as usize;
        match &self.columns[d] {
            PointColumn::Number(v) => v[r],
            PointColumn::Day(v) => v[r] as f64,
            PointColumn::Rank(codes, h) => h.leaf_rank(codes[r]) as f64,
        }
    }

    fn fill(&self, row: u32, out: &mut [f64]) {
        for (d, x) in out.iter_mut().enumerate() {
            *x = self.get(d, row);
        }
    }

    fn cmp(&self, a: u32, b: u32) -> std::cmp::Ordering {
        (0..self.columns.len())
            .map(|d| self.get(d, a).total_cmp(&self.get(d, b)))
            .find(|o| o.is_ne())
            .unwrap_or(std::cmp::Ordering::Equal)
    }
}
