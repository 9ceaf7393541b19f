//! SUDA2's recursive search for minimal sample uniques (Manning, Haglin &
//! Keane 2008).
//!
//! An *item* is a column's value; a table's items are ranked by how many of
//! its rows hold them (then column, then value). Every MSU of size ≥ 2 has a
//! lowest-ranked item i, and S = {i} ∪ J is an MSU of table T exactly when
//! * J is an MSU of the subtable T_i — the rows of T holding i, over the
//!   items ranked after i — and
//! * J is not unique in T: some row of T other than J's holds all of J
//!   (SUDA2's *special row*; for |J| = 1 it always exists, since an item
//!   ranked after i is held by at least as many rows as i, at least two).
//!
//! So the search finds the 1-MSUs of T (items held by one row), and for
//! every other item recurses into T_i for MSUs one smaller, keeping those
//! that pass the special-row test. Each MSU is found once, through its
//! lowest-ranked item. Items held by every row of a subtable are dropped
//! (no MSU of it can hold one). The subtable's items are counted column by
//! column from its rows, in scratch arrays indexed by value, so building
//! one costs a pass over its rows and the columns still in play; the
//! deepest level only counts (its MSUs are its items held by one row).
//!
//! The top level leaves out a record's copies past the second (a set of
//! values is unique or not whatever the number of its holders past one).
//! The top level's items are searched in parallel (each thread with its own
//! scratch), and the parts are joined in item order, so the result does not
//! depend on the number of threads.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use rayon::prelude::*;

use super::{KeyColumns, Msu, MISSING};
use crate::error::{CoreError, CoreResult};
use crate::parallel;
use crate::progress::{Branches, Progress};

/// An item of a (sub)table and its rows (`rows[start .. start + len]`,
/// indexes of the (sub)table's own rows).
#[derive(Debug, Clone, Copy)]
struct Item {
    col: u16,
    /// The value's id over every column (the column's offset + its code):
    /// the scratch arrays are one array each, indexed by it.
    value: u32,
    start: u32,
    len: u32,
}

/// A (sub)table: its items in rank order, their rows, the columns that
/// hold at least one of them, and a copy of its rows' codes.
#[derive(Debug, Default)]
struct Level {
    items: Vec<Item>,
    rows: Vec<u32>,
    columns: Vec<u16>,
    /// Its rows' codes row by row (`cells[r * width + c]` for its row r): a
    /// pass over a subtable reads its own compact copy, not rows scattered
    /// over the whole table.
    cells: Vec<u32>,
    /// The table's row of each of its rows (`None` at the top: the same).
    global: Option<Vec<u32>>,
}

impl Level {
    fn rows_of(&self, item: &Item) -> &[u32] {
        &self.rows[item.start as usize..(item.start + item.len) as usize]
    }
    fn row(&self, r: u32, width: usize) -> &[u32] {
        &self.cells[r as usize * width..][..width]
    }
    fn global(&self, r: u32) -> u32 {
        self.global.as_ref().map_or(r, |g| g[r as usize])
    }
}

/// MSU candidates of one table, flat: `row, size, (column, value) × size`.
#[derive(Debug, Default)]
struct Found(Vec<u32>);

impl Found {
    fn push(&mut self, row: u32, items: &[(u16, u32)], extra: Option<(u16, u32)>) {
        self.0.push(row);
        self.0.push((items.len() + extra.is_some() as usize) as u32);
        for &(c, v) in items.iter().chain(extra.iter()) {
            self.0.push(c as u32);
            self.0.push(v);
        }
    }

    /// Calls `f(row, items)` for every candidate.
    fn for_each(&self, mut f: impl FnMut(u32, &[(u16, u32)])) {
        let mut items = Vec::new();
        let mut at = 0;
        while at < self.0.len() {
            let (row, size) = (self.0[at], self.0[at + 1] as usize);
            items.clear();
            for k in 0..size {
                items.push((self.0[at + 2 + 2 * k] as u16, self.0[at + 3 + 2 * k]));
            }
            f(row, &items);
            at += 2 + 2 * size;
        }
    }
}

/// One thread's scratch: every array indexed by value id and zero between
/// uses.
struct Scratch<'k> {
    width: usize,
    /// `rank[d]`: 1 + the rank of each item of the table at depth d (0 when
    /// not an item of it).
    rank: Vec<Vec<u32>>,
    count: Vec<u32>,
    /// The first row counted (deepest level), or 1 + the item's index in the
    /// subtable being built.
    slot: Vec<u32>,
    touched: Vec<(u16, u32)>,
    /// Subtables built since the last look at `stop`.
    since_check: usize,
    stop: &'k AtomicBool,
}

/// Subtables between two looks at the stop flag.
const SUBTABLES_PER_CHECK: usize = 4096;

impl<'k> Scratch<'k> {
    fn new(keys: &KeyColumns, top_rank: &[u32], depths: usize, stop: &'k AtomicBool) -> Self {
        let zeros = || vec![0u32; top_rank.len()];
        let mut rank = vec![top_rank.to_vec()];
        rank.extend((1..depths).map(|_| zeros()));
        Scratch {
            width: keys.columns(),
            rank,
            count: zeros(),
            slot: zeros(),
            touched: Vec::new(),
            since_check: 0,
            stop,
        }
    }

    fn stopped(&mut self) -> CoreResult<()> {
        self.since_check += 1;
        if self.since_check >= SUBTABLES_PER_CHECK {
            self.since_check = 0;
            if self.stop.load(Ordering::Relaxed) {
                return Err(CoreError::cancelled());
            }
        }
        Ok(())
    }

    /// Counts the items ranked after `p` in the rows of `level`'s item `p`
    /// (depth `d`): fills `touched`, `count` and (first row) `slot`.
    fn count_after(&mut self, d: usize, level: &Level, p: usize) {
        let rank = &self.rank[d];
        let after = p as u32 + 1;
        for &r in level.rows_of(&level.items[p]) {
            let row = level.row(r, self.width);
            for &c in &level.columns {
                let c = c as usize;
                let v = row[c];
                if v == MISSING || rank[v as usize] <= after {
                    continue;
                }
                let n = &mut self.count[v as usize];
                if *n == 0 {
                    self.touched.push((c as u16, v));
                    self.slot[v as usize] = r;
                }
                *n += 1;
            }
        }
    }

    /// The 1-MSUs of the subtable of `level`'s item `p`: its items ranked
    /// after `p` held by one row, lifted with item `p`.
    fn leaf(&mut self, d: usize, level: &Level, p: usize, out: &mut Found) {
        self.count_after(d, level, p);
        let item = &level.items[p];
        for &(c, v) in &self.touched {
            let (c, v) = (c as usize, v as usize);
            if self.count[v] == 1 {
                out.push(
                    level.global(self.slot[v]),
                    &[(c as u16, v as u32)],
                    Some((item.col, item.value)),
                );
            }
            self.count[v] = 0;
            self.slot[v] = 0;
        }
        self.touched.clear();
    }

    /// The subtable of `level`'s item `p`: its rows, over the items ranked
    /// after `p` that not every one of its rows holds.
    fn subtable(&mut self, d: usize, level: &Level, p: usize) -> Level {
        self.count_after(d, level, p);
        let rows_of_p = level.rows_of(&level.items[p]);
        let all = rows_of_p.len() as u32;
        let mut items: Vec<Item> = Vec::with_capacity(self.touched.len());
        for &(c, v) in &self.touched {
            let n = self.count[v as usize];
            self.slot[v as usize] = 0;
            if n < all {
                items.push(Item {
                    col: c,
                    value: v,
                    start: 0,
                    len: n,
                });
            }
        }
        items.sort_unstable_by_key(|it| (it.len, it.col, it.value));
        let mut start = 0u32;
        let mut columns = Vec::new();
        for (i, it) in items.iter_mut().enumerate() {
            it.start = start;
            start += it.len;
            self.slot[it.value as usize] = i as u32 + 1;
            columns.push(it.col);
        }
        columns.sort_unstable();
        columns.dedup();
        let mut rows = vec![0u32; start as usize];
        let mut fill: Vec<u32> = items.iter().map(|it| it.start).collect();
        let mut cells = Vec::with_capacity(rows_of_p.len() * self.width);
        let mut global = Vec::with_capacity(rows_of_p.len());
        for (local, &r) in rows_of_p.iter().enumerate() {
            let row = level.row(r, self.width);
            cells.extend_from_slice(row);
            global.push(level.global(r));
            for &c in &columns {
                let c = c as usize;
                let v = row[c];
                if v == MISSING {
                    continue;
                }
                let s = self.slot[v as usize];
                if s > 0 {
                    let at = &mut fill[s as usize - 1];
                    rows[*at as usize] = local as u32;
                    *at += 1;
                }
            }
        }
        for &(_, v) in &self.touched {
            self.count[v as usize] = 0;
            self.slot[v as usize] = 0;
        }
        self.touched.clear();
        Level {
            items,
            rows,
            columns,
            cells,
            global: Some(global),
        }
    }

    /// Whether some row of `level` (depth `d`) other than `row` holds every
    /// item of `items` (each an item of `level`): scans the rows of the
    /// least-held one.
    fn special_row(&self, d: usize, level: &Level, row: u32, items: &[(u16, u32)]) -> bool {
        let rank = &self.rank[d];
        let least = items
            .iter()
            .map(|&(_, v)| &level.items[rank[v as usize] as usize - 1])
            .min_by_key(|it| it.len)
            .expect("a candidate has items");
        level.rows_of(least).iter().any(|&r| {
            let cells = level.row(r, self.width);
            items.iter().all(|&(c, v)| cells[c as usize] == v) && level.global(r) != row
        })
    }

    /// The MSUs of up to `max` items of `level` (depth `d`) whose
    /// lowest-ranked item is item `p`.
    fn expand(
        &mut self,
        d: usize,
        level: &Level,
        p: usize,
        max: usize,
        out: &mut Found,
    ) -> CoreResult<()> {
        let item = level.items[p];
        if item.len == 1 {
            out.push(
                level.global(level.rows_of(&item)[0]),
                &[(item.col, item.value)],
                None,
            );
            return Ok(());
        }
        if max < 2 {
            return Ok(());
        }
        self.stopped()?;
        if max == 2 {
            self.leaf(d, level, p, out);
            return Ok(());
        }
        let sub = self.subtable(d, level, p);
        if sub.items.is_empty() {
            return Ok(());
        }
        for (i, it) in sub.items.iter().enumerate() {
            self.rank[d + 1][it.value as usize] = i as u32 + 1;
        }
        let mut found = Found::default();
        let searched =
            (0..sub.items.len()).try_for_each(|q| self.expand(d + 1, &sub, q, max - 1, &mut found));
        for it in &sub.items {
            self.rank[d + 1][it.value as usize] = 0;
        }
        searched?;
        found.for_each(|row, items| {
            if items.len() == 1 || self.special_row(d, level, row, items) {
                out.push(row, items, Some((item.col, item.value)));
            }
        });
        Ok(())
    }
}

/// The whole table as the top level, each record's identical copies past
/// the second left out: whether a set of values is unique depends only on
/// whether one record or more hold it, so the MSUs (all of them in records
/// unique over every column) are the same, and a table of many repeated
/// records searches far fewer rows. Its items are every value held by
/// fewer than all its rows (or by the only row), in rank order; with 1 +
/// each item's rank, by value id.
fn top_level(keys: &KeyColumns) -> CoreResult<(Level, Vec<u32>)> {
    let mut offsets = Vec::with_capacity(keys.columns());
    let mut ids = 0usize;
    for &card in keys.cardinality() {
        offsets.push(ids as u32);
        ids += card;
    }
    if ids >= MISSING as usize {
        return Err(CoreError::internal(
            "more than 2³² − 1 distinct values over the key columns",
        ));
    }
    let width = keys.columns();
    let mut all = vec![MISSING; keys.rows() * width];
    for (c, column) in keys.codes().iter().enumerate() {
        for (r, &v) in column.iter().enumerate() {
            if v != MISSING {
                all[r * width + c] = offsets[c] + v;
            }
        }
    }
    let keep = first_two_copies(&all, width);
    let cells = match &keep {
        None => all,
        Some(keep) => {
            let mut cells = Vec::with_capacity(keep.len() * width);
            for &r in keep {
                cells.extend_from_slice(&all[r as usize * width..][..width]);
            }
            cells
        }
    };
    let n = cells.len() / width.max(1);
    let mut counts = vec![0u32; ids];
    for &id in cells.iter().filter(|&&id| id != MISSING) {
        counts[id as usize] += 1;
    }
    let mut items = Vec::new();
    for (c, &card) in keys.cardinality().iter().enumerate() {
        for v in 0..card as u32 {
            let id = offsets[c] + v;
            let len = counts[id as usize];
            if len > 0 && (len < n as u32 || n == 1) {
                items.push(Item {
                    col: c as u16,
                    value: id,
                    start: 0,
                    len,
                });
            }
        }
    }
    items.sort_unstable_by_key(|it| (it.len, it.col, it.value));
    let mut rank = vec![0u32; ids];
    let mut start = 0u32;
    for (i, it) in items.iter_mut().enumerate() {
        it.start = start;
        start += it.len;
        rank[it.value as usize] = i as u32 + 1;
    }
    let mut fill: Vec<u32> = items.iter().map(|it| it.start).collect();
    let mut rows = vec![0u32; start as usize];
    for r in 0..n {
        for &id in &cells[r * width..][..width] {
            if id == MISSING {
                continue;
            }
            let k = rank[id as usize];
            if k > 0 {
                let at = &mut fill[k as usize - 1];
                rows[*at as usize] = r as u32;
                *at += 1;
            }
        }
    }
    let mut columns: Vec<u16> = items.iter().map(|it| it.col).collect();
    columns.sort_unstable();
    columns.dedup();
    Ok((
        Level {
            items,
            rows,
            columns,
            cells,
            global: keep,
        },
        rank,
    ))
}

/// The rows to search (ascending) when some record has three or more
/// identical copies: every row but the third and later copies (`cells` row
/// by row, `width` per row); `None` when every row is kept.
fn first_two_copies(cells: &[u32], width: usize) -> Option<Vec<u32>> {
    if width == 0 {
        return None;
    }
    let mut seen: HashMap<&[u32], u32, foldhash::fast::RandomState> = HashMap::default();
    let mut keep = Vec::with_capacity(cells.len() / width);
    for (r, row) in cells.chunks_exact(width).enumerate() {
        let copies = seen.entry(row).or_insert(0);
        *copies += 1;
        if *copies <= 2 {
            keep.push(r as u32);
        }
    }
    (keep.len() < cells.len() / width).then_some(keep)
}

/// Every MSU of `keys` of at most `max` columns (1 ≤ max ≤ columns), in
/// an order that does not depend on the number of threads.
pub(super) fn msus(keys: &KeyColumns, max: usize, progress: Progress) -> CoreResult<Vec<Msu>> {
    progress.report(0.0)?;
    if keys.rows() == 0 || max == 0 {
        return Ok(Vec::new());
    }
    let (top, rank) = top_level(keys)?;
    // The cost of an item's search grows with its rows.
    let parts = parallel::parts_for(keys.rows()) * 4;
    let ranges = parallel::balanced_ranges(top.items.len(), parts, |i| top.items[i].len as usize);
    let total: usize = top
        .items
        .iter()
        .map(|it| it.len as usize)
        .sum::<usize>()
        .max(1);
    let done = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let branches = Branches::new(progress);
    let parts: Vec<CoreResult<Found>> = ranges
        .into_par_iter()
        .map(|range| {
            let mut scratch = Scratch::new(keys, &rank, max, &stop);
            let mut out = Found::default();
            for p in range {
                if stop.load(Ordering::Relaxed) {
                    return Err(CoreError::cancelled());
                }
                if let Err(e) = scratch.expand(0, &top, p, max, &mut out) {
                    stop.store(true, Ordering::Relaxed);
                    return Err(e);
                }
                let len = top.items[p].len as usize;
                let so_far = done.fetch_add(len, Ordering::Relaxed) + len;
                // A report per percent of the work at most.
                let percent = |w: usize| w * 100 / total;
                if percent(so_far) != percent(so_far - len)
                    && !branches.report(so_far as f64 / total as f64)
                {
                    stop.store(true, Ordering::Relaxed);
                    return Err(CoreError::cancelled());
                }
            }
            Ok(out)
        })
        .collect();
    let mut msus = Vec::new();
    for part in parts {
        part?.for_each(|row, items| {
            let mut columns: Vec<u16> = items.iter().map(|&(c, _)| c).collect();
            columns.sort_unstable();
            msus.push(Msu { row, columns });
        });
    }
    progress.report(1.0)?;
    Ok(msus)
}
