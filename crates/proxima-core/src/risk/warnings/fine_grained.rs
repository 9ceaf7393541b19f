//! Warning: an insensitive column so fine-grained that it makes records
//! unique, i.e. it acts as a quasi-identifier.
//!
//! The release's groups are what an attacker sees through the QIs. An
//! insensitive column is published beside them as is; an attacker who
//! knows a target's value of it (a bill amount, a timestamp) splits the
//! target's group by it. We count the published records that are alone
//! (and, given the model's k, in fewer than k records) once each group is
//! split by the column's text, beside the same counts without the column.
//!
//! The warning fires when the column makes at least
//! [`FINE_GRAINED_SHARE`] of the published records newly unique. The
//! records it pushes below k are reported but do not decide: any column
//! with two values leaves some records of nearly every group below k (on
//! creditcard's Mondrian k = 10 release, the binary default flag puts 1,450
//! of 30,000 records below k while isolating 25), so counting them would
//! flag every column, not the fine-grained ones.

use std::collections::HashMap;

use crate::partition::Partition;
use crate::schema::Role;
use crate::table::{Table, TextColumn};

/// Warn when ≥ 1% of the published records become unique through the
/// column: at that rate an attacker who knows the column singles out one
/// record in a hundred, which the model promised never to allow; below
/// it, isolated coincidences (a rare value in one group) are reported in
/// the figures but do not warn.
pub const FINE_GRAINED_SHARE: f64 = 0.01;

/// What adding one column to the published QI labels does to the groups.
#[derive(Debug, Clone, PartialEq)]
pub struct FineGrainedColumn {
    pub column: String,
    /// Distinct values of the column among the published records.
    pub distinct_values: usize,
    /// Published records.
    pub records: usize,
    /// Records alone in their group, without / with the column.
    pub unique_before: usize,
    pub unique_after: usize,
    /// With the model's k: records in groups of fewer than k, without /
    /// with the column.
    pub below_k: Option<BelowK>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BelowK {
    pub k: usize,
    pub before: usize,
    pub after: usize,
}

impl FineGrainedColumn {
    /// Records alone in their group with the column and not without it.
    pub fn newly_unique(&self) -> usize {
        self.unique_after - self.unique_before
    }

    /// True when the column makes at least [`FINE_GRAINED_SHARE`] of the
    /// published records newly unique.
    pub fn fires(&self) -> bool {
        self.records > 0
            && self.newly_unique() > 0
            && self.newly_unique() as f64 >= FINE_GRAINED_SHARE * self.records as f64
    }

    pub fn message(&self) -> String {
        let share = |c: usize| 100.0 * c as f64 / self.records.max(1) as f64;
        let mut s = format!(
            "'{}' is published as is with {} distinct values. Added to the published QI values, it leaves {} of {} records ({:.1}%) alone in their group, against {} without it",
            self.column,
            self.distinct_values,
            self.unique_after,
            self.records,
            share(self.unique_after),
            self.unique_before,
        );
        if let Some(b) = self.below_k {
            s += &format!(
                "; {} records ({:.1}%) fall below k = {} (against {})",
                b.after,
                share(b.after),
                b.k,
                b.before
            );
        }
        s += ". An attacker who knows it can use it as a quasi-identifier.";
        s
    }
}

/// The effect of every insensitive column of `table` on `partition`: a
/// release's classes ([`crate::risk::published_classes`]), or the raw
/// table grouped by its published QI values.
pub fn fine_grained_columns(
    table: &Table,
    partition: &Partition,
    k: Option<usize>,
) -> Vec<FineGrainedColumn> {
    table
        .schema()
        .indices_with_role(Role::Insensitive)
        .into_iter()
        .filter_map(|i| {
            let text = table.text_column(i)?;
            Some(fine_grained_column(
                &table.schema().columns()[i].name,
                text,
                partition,
                k,
            ))
        })
        .collect()
}

/// The effect of one column (its text per row of the table the partition
/// groups) on the partition.
pub fn fine_grained_column(
    column: &str,
    values: &TextColumn,
    partition: &Partition,
    k: Option<usize>,
) -> FineGrainedColumn {
    // Code the values once (one hash a row), then count codes per group
    // in a reusable array.
    let mut index: HashMap<&str, u32> = HashMap::new();
    let codes: Vec<u32> = (0..values.len())
        .map(|r| {
            let next = index.len() as u32;
            *index.entry(values.get(r)).or_insert(next)
        })
        .collect();
    let mut counts = vec![0u32; index.len()];
    let mut seen = vec![false; index.len()];
    let (mut unique_before, mut unique_after) = (0, 0);
    let (mut below_before, mut below_after) = (0, 0);
    let k = k.filter(|&k| k > 1);
    for group in &partition.groups {
        if group.len() == 1 {
            unique_before += 1;
        }
        if k.is_some_and(|k| group.len() < k) {
            below_before += group.len();
        }
        for &r in group {
            counts[codes[r as usize] as usize] += 1;
        }
        for &r in group {
            let c = codes[r as usize] as usize;
            seen[c] = true;
            if counts[c] == 1 {
                unique_after += 1;
            }
            if k.is_some_and(|k| (counts[c] as usize) < k) {
                below_after += 1;
            }
        }
        for &r in group {
            counts[codes[r as usize] as usize] = 0;
        }
    }
    let distinct = seen.iter().filter(|&&s| s).count();
    FineGrainedColumn {
        column: column.to_string(),
        distinct_values: distinct,
        records: partition.rows(),
        unique_before,
        unique_after,
        below_k: k.map(|k| BelowK {
            k,
            before: below_before,
            after: below_after,
        }),
    }
}
