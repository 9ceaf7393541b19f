//! Generalization: the published form of a partition.
//!
//! For every QI-group and every quasi-identifier the group's rows are
//! replaced by the smallest value that covers them: a numeric `[lo-hi]`
//! interval, the lowest common ancestor in a categorical hierarchy, a date
//! interval. A [`Release`] holds the partition with these generalizations;
//! [`for_each_release_row`] prints it (API.md §Results) and [`Release::from_assignment`]
//! rebuilds it from a compact row → group vector, so the service can store
//! a result and render it later without re-running the partitioner.

mod label;
mod rows;

pub use label::{label, parse_date_interval_label, parse_numeric_label};
pub use rows::{for_each_release_row, release_header};

use crate::error::{CoreError, CoreResult};
use crate::partition::Partition;
use crate::progress::Progress;
use crate::schema::Role;
use crate::table::{QiValues, SaValues, Table};
use crate::utility::gcp;

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
    let total = 2.0 * table.rows().max(1) as f64;
    let (mut done, mut next) = (0usize, CHECKPOINT_ROWS);
    let mut checkpoint = |rows: usize| -> CoreResult<()> {
        done += rows;
        if done >= next {
            next = done + CHECKPOINT_ROWS;
            progress.report(done as f64 / total)?;
        }
        Ok(())
    };
    for rows in &mut partition.groups {
        publication_order(table, rows);
        checkpoint(rows.len())?;
    }
    let mut generalized = Vec::with_capacity(partition.groups.len());
    for rows in &partition.groups {
        generalized.push(
            table
                .qis()
                .iter()
                .map(|c| generalize_column(&c.values, rows))
                .collect(),
        );
        checkpoint(rows.len())?;
    }
    Ok(Release {
        partition,
        generalized,
    })
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
    let schema = table.schema();
    let insensitive = schema.indices_with_role(Role::Insensitive);
    let sa = table.sensitive();
    rows.sort_unstable_by(|&a, &b| {
        let (a, b) = (a as usize, b as usize);
        sa.iter()
            .map(|c| match &c.values {
                SaValues::Numeric(v) => v[a].total_cmp(&v[b]),
                SaValues::Categorical {
                    codes, hierarchy, ..
                } => hierarchy
                    .leaf_rank(codes[a])
                    .cmp(&hierarchy.leaf_rank(codes[b])),
            })
            .chain(
                insensitive
                    .iter()
                    .map(|&i| table.text(i, a).cmp(&table.text(i, b))),
            )
            .find(|o| o.is_ne())
            .unwrap_or_else(|| a.cmp(&b))
    });
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

/// The job summary (API.md §Jobs, `summary`).
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// Data rows of the upload, suppressed ones included.
    pub rows: usize,
    pub published_rows: usize,
    /// Rows left out for missing values.
    pub suppressed_rows: usize,
    pub groups: usize,
    pub min_group_size: usize,
    /// Global certainty penalty (GCP, in [0, 1]); see [`crate::utility`].
    pub information_loss: f64,
}

pub fn summary(table: &Table, release: &Release) -> Summary {
    Summary {
        rows: table.rows() + table.suppressed_rows(),
        published_rows: release.partition.rows(),
        suppressed_rows: table.suppressed_rows(),
        groups: release.groups(),
        min_group_size: release.partition.min_group_size(),
        information_loss: gcp(table, release),
    }
}

#[cfg(test)]
mod tests;
