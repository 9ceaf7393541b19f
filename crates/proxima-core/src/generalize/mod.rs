//! Generalization: the published form of a partition.
//!
//! For every QI-group and every quasi-identifier the group's rows are
//! replaced by the smallest value that covers them: a numeric `[lo-hi]`
//! interval, the lowest common ancestor in a categorical hierarchy, a date
//! interval. A [`Release`] holds the partition with these generalizations;
//! [`for_each_release_row`] prints it (docs/api.md §Results) and [`Release::from_assignment`]
//! rebuilds it from a compact row → group vector, so the service can store
//! a result and render it later without re-running the partitioner.

mod label;
mod row_text;
mod rows;

pub use label::{label, parse_date_interval_label, parse_numeric_label};
pub use row_text::RowText;
pub use rows::{
    for_each_release_row, for_each_release_row_in, for_each_release_row_of, release_chunks,
    release_header, release_row_text,
};

use std::sync::atomic::{AtomicUsize, Ordering as AtomicOrdering};

use rayon::prelude::*;
use std::cmp::Ordering;

use crate::error::{CoreError, CoreResult};
use crate::hierarchy::Hierarchy;
use crate::partition::Partition;
use crate::progress::Progress;
use crate::schema::Role;
use crate::table::{QiValues, SaValues, Table, TextColumn};

/// The generalized value of one QI over one group.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum GeneralizedQi {
    /// The smallest closed interval containing the group's values.
    Numeric { lo: f64, hi: f64 },
    /// The lowest common ancestor `(level, node)` of the group's leaves.
    Categorical { level: usize, node: u32 },
    /// The smallest closed day interval (days since 1970-01-01).
    Date { lo: i32, hi: i32 },
}

/// A partition together with the generalization of every QI per group.
/// Invariant: `generalized[g][d]` covers exactly the values of group `g`'s
/// rows on QI `d` (it is the tightest cover), and the partition covers the
/// table it was built from.
#[derive(Debug, Clone, PartialEq)]
pub struct Release {
    partition: Partition,
    /// `[group][qi]`, QIs in `Table::qis()` order.
    generalized: Vec<Vec<GeneralizedQi>>,
}

impl Release {
    pub fn partition(&self) -> &Partition {
        &self.partition
    }

    pub fn into_partition(self) -> Partition {
        self.partition
    }

    /// `[group][qi]` generalizations (QIs in `Table::qis()` order).
    pub fn generalized(&self) -> &[Vec<GeneralizedQi>] {
        &self.generalized
    }

    /// Number of groups.
    pub fn groups(&self) -> usize {
        self.partition.len()
    }

    /// Rebuilds a release from `assignment[row]` = the row's 0-based group.
    /// Group ids must be dense (`0..groups`, each used) and every row of the
    /// table assigned; otherwise an internal error (a stored result that
    /// does not fit its table is corrupt, never the user's input). Rows
    /// inside a group come in [`publication_order`], as from [`generalize`],
    /// so a stored release renders exactly as the fresh one did.
    pub fn from_assignment(table: &Table, assignment: &[u32]) -> CoreResult<Release> {
        if assignment.len() != table.rows() {
            return Err(CoreError::internal(format!(
                "the stored group assignment has {} rows, the table has {}",
                assignment.len(),
                table.rows()
            )));
        }
        let groups = assignment
            .iter()
            .map(|&g| g as usize + 1)
            .max()
            .unwrap_or(0);
        if groups > assignment.len() {
            return Err(CoreError::internal(format!(
                "the stored group assignment names group {} but has only {} rows",
                groups - 1,
                assignment.len()
            )));
        }
        let mut members: Vec<Vec<u32>> = vec![Vec::new(); groups];
        for (row, &g) in assignment.iter().enumerate() {
            members[g as usize].push(row as u32);
        }
        if let Some(empty) = members.iter().position(Vec::is_empty) {
            return Err(CoreError::internal(format!(
                "the stored group assignment skips group {empty} (group ids must be dense)"
            )));
        }
        generalize(table, Partition::new(members))
    }
}

/// Generalizes every QI of every group of `partition` over `table`.
/// Errors (internal) when the partition does not cover the table exactly.
///
/// The rows of each group are put in publication order (see
/// [`publication_order`]); group order is kept.
pub fn generalize(table: &Table, partition: Partition) -> CoreResult<Release> {
    generalize_with_progress(table, partition, Progress::none())
}

/// Rows between two cancellation checkpoints of [`generalize_with_progress`].
const CHECKPOINT_ROWS: usize = 16_384;

/// [`generalize`] with cancellation checkpoints (every few thousand rows:
/// ordering 600k rows by their text columns takes seconds).
pub fn generalize_with_progress(
    table: &Table,
    partition: Partition,
    progress: Progress,
) -> CoreResult<Release> {
    partition.check_covers(table.rows())?;
    let mut partition = partition;
    // Checkpoints by rows sorted: ordering a large table's groups by their
    // text columns is the slow part (the column passes below are linear).
    let total = table.rows().max(1) as f64;
    let done = AtomicUsize::new(0);
    let next = AtomicUsize::new(CHECKPOINT_ROWS);
    let checkpoint = |rows: usize| -> CoreResult<()> {
        let done = done.fetch_add(rows, AtomicOrdering::Relaxed) + rows;
        let due = next.load(AtomicOrdering::Relaxed);
        if done >= due
            && next
                .compare_exchange(
                    due,
                    done + CHECKPOINT_ROWS,
                    AtomicOrdering::Relaxed,
                    AtomicOrdering::Relaxed,
                )
                .is_ok()
        {
            progress.report(done as f64 / total)?;
        }
        Ok(())
    };
    // A group's rows are scattered over the table: every column is read
    // once in row order (sort keys, per-group extents) rather than once per
    // row of each group, which on large tables is a cache miss per read.
    // Checkpoints between these whole-table passes as well.
    progress.report(0.0)?;
    let order = PublicationOrder::new(table);
    let keys = order.row_keys(table.rows());
    progress.report(0.0)?;
    // Groups are sorted independently: on the job's pool (crate::parallel).
    partition
        .groups
        .par_iter_mut()
        .try_for_each_init(Vec::new, |buf, rows| {
            order.sort(rows, &keys, buf);
            checkpoint(rows.len())
        })?;
    // Freed before the row → group map and the labels take their memory.
    drop(keys);
    let group_of = partition.group_of_rows(table.rows());
    let columns: Vec<Vec<GeneralizedQi>> = table
        .qis()
        .par_iter()
        .map(|c| {
            let column = generalize_groups(&c.values, &group_of, partition.len());
            progress.report(1.0)?;
            Ok(column)
        })
        .collect::<CoreResult<_>>()?;
    // The row → group map is not read again: freed before the per-group
    // labels are laid out.
    drop(group_of);
    let generalized: Vec<Vec<GeneralizedQi>> = (0..partition.len())
        .map(|g| columns.iter().map(|c| c[g]).collect())
        .collect();
    drop(columns);
    progress.report(1.0)?;
    order_identical_labels(&order, &mut partition, &generalized);
    progress.report(1.0)?;
    Ok(Release {
        partition,
        generalized,
    })
}

/// Groups that publish identical labels are told apart only by their ids.
/// The partitioners number groups in the order their cuts produce them —
/// for a categorical cut, the lower leaf ranks first — so the lower id of
/// two identically labelled siblings would tell an attacker which one holds
/// the lower-ranked (hidden) values. Among the groups of one label, ids are
/// therefore given by what the groups publish anyway: their rows in
/// publication order (SA, then insensitive columns), then their size; the
/// positions the label's groups occupy stay the same.
fn order_identical_labels(
    order: &PublicationOrder<'_>,
    partition: &mut Partition,
    generalized: &[Vec<GeneralizedQi>],
) {
    // Groups of one label are found by sorting the group ids by their
    // labels, ties by id (so each label's ids stay ascending), not by a map
    // keyed by a copy of every group's labels. A total order: the sort runs
    // on the job's pool (crate::parallel) and gives the same ids anyway.
    let labels = |g: u32| generalized[g as usize].iter().map(label_key);
    let mut ids: Vec<u32> = (0..generalized.len() as u32).collect();
    crate::parallel::sort_unstable_by(&mut ids, |&a, &b| labels(a).cmp(labels(b)).then(a.cmp(&b)));
    let content = |a: &[u32], b: &[u32]| -> Ordering {
        a.iter()
            .zip(b)
            .map(|(&x, &y)| order.cmp_content(x, y))
            .find(|o| o.is_ne())
            .unwrap_or_else(|| a.len().cmp(&b.len()))
    };
    // Each label's groups are taken out, sorted by content (labels apart,
    // on the pool) and put back in the positions the label occupies.
    let mut labels_groups: Vec<(&[u32], Vec<Vec<u32>>)> = ids
        .chunk_by(|&a, &b| labels(a).eq(labels(b)))
        .filter(|p| p.len() > 1)
        .map(|positions| {
            let members = positions
                .iter()
                .map(|&g| std::mem::take(&mut partition.groups[g as usize]))
                .collect();
            (positions, members)
        })
        .collect();
    labels_groups
        .par_iter_mut()
        .for_each(|(_, members)| members.sort_by(|a, b| content(a, b)));
    for (positions, members) in labels_groups {
        for (&g, rows) in positions.iter().zip(members) {
            partition.groups[g as usize] = rows;
        }
    }
}

/// A label as integers that order labels of one QI (the tag keeps kinds
/// apart).
fn label_key(q: &GeneralizedQi) -> (u8, u64, u64) {
    match *q {
        GeneralizedQi::Numeric { lo, hi } => (0, lo.to_bits(), hi.to_bits()),
        GeneralizedQi::Categorical { level, node } => (1, level as u64, node as u64),
        GeneralizedQi::Date { lo, hi } => (2, lo as u64, hi as u64),
    }
}

/// [`generalize_column`] of every group at once, in one pass over the
/// column: `group_of[row]` is the row's group (every row has one, every
/// group some row).
fn generalize_groups(values: &QiValues, group_of: &[u32], groups: usize) -> Vec<GeneralizedQi> {
    fn extents<T: Copy + PartialOrd>(
        values: impl Iterator<Item = T>,
        group_of: &[u32],
        groups: usize,
        (empty_lo, empty_hi): (T, T),
    ) -> Vec<(T, T)> {
        let mut ext = vec![(empty_lo, empty_hi); groups];
        for (x, &g) in values.zip(group_of) {
            let e = &mut ext[g as usize];
            if x < e.0 {
                e.0 = x;
            }
            if x > e.1 {
                e.1 = x;
            }
        }
        ext
    }
    match values {
        // Finite values: plain comparisons give fold(min, max)'s extent.
        QiValues::Numeric(v) => extents(
            v.iter().copied(),
            group_of,
            groups,
            (f64::INFINITY, f64::NEG_INFINITY),
        )
        .into_iter()
        .map(|(lo, hi)| GeneralizedQi::Numeric { lo, hi })
        .collect(),
        QiValues::Date(v) => extents(v.iter().copied(), group_of, groups, (i32::MAX, i32::MIN))
            .into_iter()
            .map(|(lo, hi)| GeneralizedQi::Date { lo, hi })
            .collect(),
        // The LCA of a set of leaves is that of its extreme ranks.
        QiValues::Categorical { codes, hierarchy } => extents(
            codes.iter().map(|&c| hierarchy.leaf_rank(c)),
            group_of,
            groups,
            (u32::MAX, 0),
        )
        .into_iter()
        .map(|(lo, hi)| {
            let (level, node) = hierarchy.lca_of_rank_range(lo, hi);
            GeneralizedQi::Categorical { level, node }
        })
        .collect(),
    }
}

/// Sorts a group's rows by their published, non-generalized content: the
/// sensitive columns (numbers by value, categories in the hierarchy's
/// depth-first order), then the insensitive columns' text in schema order,
/// ties by row index.
///
/// Why: the order inside a group must not depend on the upload order. An
/// upload sorted by age (or by name, or by arrival) would otherwise
/// reveal which published row belongs to the youngest member of a group and
/// undo the generalization. This order derives only from what the group
/// publishes anyway; the row-index tie-break only orders rows whose
/// published cells are identical.
pub fn publication_order(table: &Table, rows: &mut [u32]) {
    let order = PublicationOrder::new(table);
    let keys = order.row_keys(table.rows());
    order.sort(rows, &keys, &mut Vec::new());
}

/// One column of the publication order, resolved once per table.
enum OrderKey<'t> {
    Number(&'t [f64]),
    /// Leaf codes, compared by depth-first rank.
    Leaf(&'t [u32], &'t Hierarchy),
    Text(&'t TextColumn),
}

impl OrderKey<'_> {
    fn cmp(&self, a: usize, b: usize) -> Ordering {
        match self {
            OrderKey::Number(v) => v[a].total_cmp(&v[b]),
            OrderKey::Leaf(codes, h) => h.leaf_rank(codes[a]).cmp(&h.leaf_rank(codes[b])),
            OrderKey::Text(t) => t.get(a).cmp(t.get(b)),
        }
    }

    /// A u64 whose order agrees with [`OrderKey::cmp`] wherever two such
    /// u64 differ, and whether equal u64 mean equal values (`exact`).
    /// Numbers and leaves are exact. A text is its first 7 bytes followed
    /// by its length capped at 8: exact up to 7 bytes; a longer text sorts
    /// after every shorter text it starts with.
    fn sort_key(&self, row: usize) -> (u64, bool) {
        match self {
            OrderKey::Number(v) => {
                // The usual map of f64::total_cmp's order onto u64.
                let bits = v[row].to_bits();
                let key = if bits >> 63 == 1 {
                    !bits
                } else {
                    bits | 1 << 63
                };
                (key, true)
            }
            OrderKey::Leaf(codes, h) => (h.leaf_rank(codes[row]) as u64, true),
            OrderKey::Text(t) => {
                let text = t.get(row).as_bytes();
                let mut key = [0u8; 8];
                let len = text.len().min(7);
                key[..len].copy_from_slice(&text[..len]);
                key[7] = text.len().min(8) as u8;
                (u64::from_be_bytes(key), text.len() <= 7)
            }
        }
    }
}

/// How many leading columns of the publication order get a u64 sort key.
const SORT_KEYS: usize = 4;

/// [`publication_order`]'s comparison with its columns resolved once.
struct PublicationOrder<'t> {
    keys: Vec<OrderKey<'t>>,
}

impl<'t> PublicationOrder<'t> {
    fn new(table: &'t Table) -> Self {
        let sa = table.sensitive().iter().map(|c| match &c.values {
            SaValues::Numeric(v) => OrderKey::Number(v),
            SaValues::Categorical {
                codes, hierarchy, ..
            } => OrderKey::Leaf(codes, hierarchy),
        });
        let text = table
            .schema()
            .indices_with_role(Role::Insensitive)
            .into_iter()
            .filter_map(|i| table.text_column(i).map(OrderKey::Text));
        PublicationOrder {
            keys: sa.chain(text).collect(),
        }
    }

    /// The published content of two rows compared (no row-index tie-break).
    fn cmp_content(&self, a: u32, b: u32) -> Ordering {
        let (ai, bi) = (a as usize, b as usize);
        self.keys
            .iter()
            .map(|k| k.cmp(ai, bi))
            .find(|o| o.is_ne())
            .unwrap_or(Ordering::Equal)
    }

    /// The full comparison from column `from` on (the earlier ones being
    /// equal), ties by row index.
    fn cmp_from(&self, from: usize, a: u32, b: u32) -> Ordering {
        let (ai, bi) = (a as usize, b as usize);
        self.keys[from..]
            .iter()
            .map(|k| k.cmp(ai, bi))
            .find(|o| o.is_ne())
            .unwrap_or_else(|| a.cmp(&b))
    }

    /// Every row's [`RowKey`], in row order, packed: only as many keys per
    /// row as the order has columns (one for a single SA and no
    /// insensitive columns: 9 bytes per row rather than 40).
    fn row_keys(&self, rows: usize) -> RowKeys {
        let width = self.keys.len().min(SORT_KEYS);
        let mut packed = RowKeys {
            width,
            keys: Vec::with_capacity(rows * width),
            exact_prefix: Vec::with_capacity(rows),
        };
        for row in 0..rows {
            let mut keys = [0u64; SORT_KEYS];
            let mut exact_prefix = 0;
            for (slot, key) in keys.iter_mut().zip(&self.keys) {
                let (k, exact) = key.sort_key(row);
                *slot = k;
                if !exact {
                    break;
                }
                exact_prefix += 1;
            }
            packed.keys.extend_from_slice(&keys[..width]);
            packed.exact_prefix.push(exact_prefix);
        }
        packed
    }

    /// Sorts `rows` by their [`RowKey`]s (`keys[row]`), so most comparisons
    /// are integer ones on contiguous memory. Rows whose keys all tie agree
    /// on every column before the first inexact one (the same for both, as
    /// its key ties), and are ordered by the full comparison from there.
    /// `buf` is working memory.
    ///
    /// Two passes, the order of the one comparison "keys, then the rest":
    /// by keys alone, then each run of equal keys by the rest. A run's
    /// rows (duplicated records, common in real tables) are compared cell
    /// by cell in text columns scattered over memory, so their cells are
    /// asked for all at once first ([`crate::prefetch`]) rather than
    /// fetched one miss after another inside the comparisons.
    fn sort(&self, rows: &mut [u32], keys: &RowKeys, buf: &mut Vec<(RowKey, u32)>) {
        buf.clear();
        buf.extend(rows.iter().map(|&r| (keys.get(r as usize), r)));
        buf.sort_unstable_by(|(a, ra), (b, rb)| a.keys.cmp(&b.keys).then(ra.cmp(rb)));
        let mut start = 0;
        while start < buf.len() {
            let key = buf[start].0;
            let end = start
                + buf[start..]
                    .iter()
                    .take_while(|(k, _)| k.keys == key.keys)
                    .count();
            let from = key.exact_prefix as usize;
            if end - start > 1 && from < self.keys.len() {
                let run = &mut buf[start..end];
                self.prefetch_from(from, run.iter().map(|&(_, r)| r as usize));
                run.sort_unstable_by(|(_, ra), (_, rb)| self.cmp_from(from, *ra, *rb));
            }
            start = end;
        }
        for (row, &(_, r)) in rows.iter_mut().zip(buf.iter()) {
            *row = r;
        }
    }

    /// Hints to fetch the text cells of `rows` in the columns from `from`
    /// on: every offset first, then every text (each text's address needs
    /// its offset).
    fn prefetch_from(&self, from: usize, rows: impl Iterator<Item = usize> + Clone) {
        let texts = || {
            self.keys[from..].iter().filter_map(|k| match k {
                OrderKey::Text(t) => Some(*t),
                _ => None,
            })
        };
        for t in texts() {
            rows.clone().for_each(|r| t.prefetch_offsets(r));
        }
        for t in texts() {
            rows.clone().for_each(|r| t.prefetch_text(r));
        }
    }
}

/// Every row's [`RowKey`]: `width` keys per row (the rest are 0) and the
/// exact prefix.
struct RowKeys {
    width: usize,
    keys: Vec<u64>,
    exact_prefix: Vec<u8>,
}

impl RowKeys {
    #[inline]
    fn get(&self, row: usize) -> RowKey {
        let mut keys = [0u64; SORT_KEYS];
        keys[..self.width].copy_from_slice(&self.keys[row * self.width..(row + 1) * self.width]);
        RowKey {
            keys,
            exact_prefix: self.exact_prefix[row],
        }
    }
}

/// A row's sort keys for the leading columns of the publication order, up
/// to and including the first whose key is not exact (the rest are 0).
#[derive(Debug, Clone, Copy)]
struct RowKey {
    keys: [u64; SORT_KEYS],
    /// How many leading columns have exact keys.
    exact_prefix: u8,
}

/// The tightest generalization of one QI column over a non-empty set of rows.
pub fn generalize_column(values: &QiValues, rows: &[u32]) -> GeneralizedQi {
    debug_assert!(!rows.is_empty(), "groups are never empty");
    match values {
        QiValues::Numeric(v) => {
            let (lo, hi) = rows
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &r| {
                    let x = v[r as usize];
                    (lo.min(x), hi.max(x))
                });
            GeneralizedQi::Numeric { lo, hi }
        }
        QiValues::Date(v) => {
            let (lo, hi) = rows.iter().fold((i32::MAX, i32::MIN), |(lo, hi), &r| {
                let x = v[r as usize];
                (lo.min(x), hi.max(x))
            });
            GeneralizedQi::Date { lo, hi }
        }
        QiValues::Categorical { codes, hierarchy } => {
            let (level, node) = hierarchy
                .lca(rows.iter().map(|&r| codes[r as usize]))
                .expect("groups are never empty");
            GeneralizedQi::Categorical { level, node }
        }
    }
}

/// `assignment[row]` = the row's 0-based group: the compact form a service
/// stores (4 bytes a row) and [`Release::from_assignment`] reads back.
pub fn group_assignment(release: &Release) -> Vec<u32> {
    release.partition.group_of_rows(release.partition.rows())
}

#[cfg(test)]
mod tests;
