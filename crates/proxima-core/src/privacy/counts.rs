//! Dense SA value codes for a table and sparse per-group value counts.

use std::sync::Arc;

use rayon::prelude::*;

use crate::columnar::sorted_distinct_checked;
use crate::error::{CoreError, CoreResult, Field};
use crate::hierarchy::Hierarchy;
use crate::progress::{Progress, ROWS_PER_CHECKPOINT};
use crate::table::{format_number, SaValues, Table};

/// What the codes stand for.
#[derive(Debug, Clone)]
pub(crate) enum CodeDomain {
    /// `values[code]`: the table's distinct SA values, ascending.
    Numeric { values: Vec<f64> },
    /// `leaves[code]`: the hierarchy leaf code, in depth-first leaf order
    /// (only leaves that occur in the table get a code).
    Categorical {
        leaves: Vec<u32>,
        hierarchy: Arc<Hierarchy>,
        has_hierarchy: bool,
    },
}

/// The single SA column of a table as dense codes `0..m` (m = number of
/// distinct values in the table), with the table's count of each code.
#[derive(Debug, Clone)]
pub struct SaCodes {
    name: String,
    codes: Vec<u32>,
    table_counts: Vec<u64>,
    pub(crate) domain: CodeDomain,
}

impl SaCodes {
    /// Codes for the table's one SA column (numeric or categorical).
    /// `field` locates the request field that asked for an SA-based
    /// measure; a table without exactly one SA column is invalid there.
    pub fn new(table: &Table, field: impl Into<Field>) -> CoreResult<SaCodes> {
        Self::new_checked(table, field, Progress::none())
    }

    /// [`SaCodes::new`] with a checkpoint every [`ROWS_PER_CHECKPOINT`]
    /// rows of each pass (the sort of a numeric SA, the codes, the counts):
    /// `Cancelled` when `progress` says stop. Its fractions stay in the
    /// handle's range and never go back.
    pub fn new_checked(
        table: &Table,
        field: impl Into<Field>,
        progress: Progress,
    ) -> CoreResult<SaCodes> {
        let column = match table.sensitive() {
            [one] => one,
            [] => {
                return Err(CoreError::invalid_parameters(
                    field,
                    "this model needs a sensitive column and the dataset has none",
                ))
            }
            many => {
                return Err(CoreError::invalid_parameters(
                    field,
                    format!(
                        "this model needs exactly one sensitive column; the dataset's sensitive attribute spans {} columns ({})",
                        many.len(),
                        many.iter().map(|c| c.name.as_str()).collect::<Vec<_>>().join(", ")
                    ),
                ))
            }
        };
        // A pass starting at `from` of the whole takes a fifth of it or less;
        // `at(from, b)` reports its b-th block.
        let rows = table.rows().max(1) as f64;
        let at = |from: f64, b: usize| {
            progress.report(from + 0.1 * (b * ROWS_PER_CHECKPOINT) as f64 / rows)
        };
        let (codes, domain) = match &column.values {
            SaValues::Numeric(v) => {
                // Ascending in `total_cmp` order, as a sort by it gives
                // (values equal under it have the same bits).
                // Ascending in `total_cmp` order (values equal under it have
                // the same bits); -0.0 and 0.0 are one value.
                let values = sorted_distinct_checked(v, progress.sub(0.0, 0.6))?;
                // A search per row (most of the codes' time on a large
                // table), on every thread of the pool: a wave of blocks,
                // one per thread, between two checkpoints.
                let mut codes = vec![0u32; v.len()];
                let threads = rayon::current_num_threads().max(1);
                let wave = ROWS_PER_CHECKPOINT * threads;
                for (w, (from, into)) in v.chunks(wave).zip(codes.chunks_mut(wave)).enumerate() {
                    at(0.6, w * threads)?;
                    from.par_chunks(ROWS_PER_CHECKPOINT)
                        .zip(into.par_chunks_mut(ROWS_PER_CHECKPOINT))
                        .for_each(|(from, into)| {
                            for (x, code) in from.iter().zip(into) {
                                *code = values.partition_point(|y| y < x) as u32;
                            }
                        });
                }
                (codes, CodeDomain::Numeric { values })
            }
            SaValues::Categorical {
                codes: leaf_codes,
                hierarchy,
                has_hierarchy,
            } => {
                let mut present = vec![false; hierarchy.leaf_count()];
                for (b, block) in leaf_codes.chunks(ROWS_PER_CHECKPOINT).enumerate() {
                    at(0.0, b)?;
                    for &l in block {
                        present[l as usize] = true;
                    }
                }
                let mut leaves: Vec<u32> = (0..hierarchy.leaf_count() as u32)
                    .filter(|&l| present[l as usize])
                    .collect();
                leaves.sort_unstable_by_key(|&l| hierarchy.leaf_rank(l));
                let mut code_of = vec![u32::MAX; hierarchy.leaf_count()];
                for (code, &leaf) in leaves.iter().enumerate() {
                    code_of[leaf as usize] = code as u32;
                }
                let mut codes = Vec::with_capacity(leaf_codes.len());
                for (b, block) in leaf_codes.chunks(ROWS_PER_CHECKPOINT).enumerate() {
                    at(0.5, b)?;
                    codes.extend(block.iter().map(|&l| code_of[l as usize]));
                }
                (
                    codes,
                    CodeDomain::Categorical {
                        leaves,
                        hierarchy: hierarchy.clone(),
                        has_hierarchy: *has_hierarchy,
                    },
                )
            }
        };
        let m = match &domain {
            CodeDomain::Numeric { values } => values.len(),
            CodeDomain::Categorical { leaves, .. } => leaves.len(),
        };
        let mut table_counts = vec![0u64; m];
        for (b, block) in codes.chunks(ROWS_PER_CHECKPOINT).enumerate() {
            at(0.8, b)?;
            for &c in block {
                table_counts[c as usize] += 1;
            }
        }
        progress.report(1.0)?;
        Ok(SaCodes {
            name: column.name.clone(),
            codes,
            table_counts,
            domain,
        })
    }

    /// The SA column's name (for messages).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.codes.len()
    }

    /// Number of distinct SA values in the table (m).
    pub fn distinct_values(&self) -> usize {
        self.table_counts.len()
    }

    /// The code of a row's SA value.
    #[inline]
    pub fn code(&self, row: u32) -> u32 {
        self.codes[row as usize]
    }

    /// The table's count of each code.
    pub fn table_counts(&self) -> &[u64] {
        &self.table_counts
    }

    pub fn is_numeric(&self) -> bool {
        matches!(self.domain, CodeDomain::Numeric { .. })
    }

    /// The value a code stands for, as text.
    pub fn label(&self, code: u32) -> String {
        match &self.domain {
            CodeDomain::Numeric { values } => format_number(values[code as usize]),
            CodeDomain::Categorical {
                leaves, hierarchy, ..
            } => hierarchy.leaf_label(leaves[code as usize]).to_string(),
        }
    }

    /// The value counts of a group of rows.
    pub fn group_counts(&self, rows: &[u32]) -> GroupCounts {
        GroupCounts::from_codes(rows.iter().map(|&r| self.code(r)))
    }

    /// The value counts of the whole table.
    pub fn whole_table(&self) -> GroupCounts {
        GroupCounts {
            entries: self
                .table_counts
                .iter()
                .enumerate()
                .filter(|(_, &c)| c > 0)
                .map(|(code, &c)| (code as u32, c))
                .collect(),
            total: self.codes.len() as u64,
        }
    }
}

/// A group's SA value counts: (code, count) sorted by code, counts > 0.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GroupCounts {
    entries: Vec<(u32, u64)>,
    total: u64,
}

impl GroupCounts {
    /// Counts codes (any order).
    pub fn from_codes(codes: impl Iterator<Item = u32>) -> GroupCounts {
        let mut v: Vec<u32> = codes.collect();
        v.sort_unstable();
        let total = v.len() as u64;
        let mut entries: Vec<(u32, u64)> = Vec::new();
        for c in v {
            match entries.last_mut() {
                Some((last, n)) if *last == c => *n += 1,
                _ => entries.push((c, 1)),
            }
        }
        GroupCounts { entries, total }
    }

    /// Counts from (code, count) pairs sorted by code, every count > 0
    /// (merged counts of several groups, without re-sorting their rows).
    pub(crate) fn from_sorted_entries(entries: Vec<(u32, u64)>) -> GroupCounts {
        debug_assert!(entries.windows(2).all(|w| w[0].0 < w[1].0));
        debug_assert!(entries.iter().all(|&(_, c)| c > 0));
        let total = entries.iter().map(|&(_, c)| c).sum();
        GroupCounts { entries, total }
    }

    /// The (code, count) pairs, to reuse their allocation.
    pub(crate) fn into_entries(self) -> Vec<(u32, u64)> {
        self.entries
    }

    /// (code, count) pairs sorted by code.
    pub fn entries(&self) -> &[(u32, u64)] {
        &self.entries
    }

    /// Number of rows in the group.
    pub fn total(&self) -> u64 {
        self.total
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::QiValues;

    #[test]
    fn numeric_codes_follow_value_order() {
        let t = Table::from_columns(
            vec![("a".into(), QiValues::Numeric(vec![1.0; 5]))],
            vec![(
                "s".into(),
                SaValues::Numeric(vec![30.0, 10.0, 20.0, 10.0, -0.0]),
            )],
        );
        let sa = SaCodes::new(&t, "/model").unwrap();
        assert_eq!(sa.distinct_values(), 4);
        assert_eq!(
            (0..5).map(|r| sa.code(r)).collect::<Vec<_>>(),
            vec![3, 1, 2, 1, 0]
        );
        assert_eq!(sa.table_counts(), &[1, 2, 1, 1]);
        assert_eq!(sa.label(1), "10");
        let g = sa.group_counts(&[1, 3, 0]);
        assert_eq!(g.entries(), &[(1, 2), (3, 1)]);
        assert_eq!(g.total(), 3);
        assert_eq!(sa.whole_table().total(), 5);
    }

    /// The codes are searched for on the pool in waves of blocks: the
    /// same codes on any number of threads, each the rank of its value
    /// among the distinct values, over several waves and a ragged end.
    #[test]
    fn numeric_codes_are_the_same_on_any_number_of_threads() {
        use crate::parallel::{with_threads, Threads};
        let n = 5 * ROWS_PER_CHECKPOINT + 123;
        let sa: Vec<f64> = (0..n).map(|i| ((i * 7919) % 1001) as f64 - 500.0).collect();
        let t = Table::from_columns(
            vec![("a".into(), QiValues::Numeric(vec![1.0; n]))],
            vec![("s".into(), SaValues::Numeric(sa.clone()))],
        );
        let on = |threads: usize| {
            let threads = Threads::new(threads, Field::Model).unwrap();
            with_threads(threads, || SaCodes::new(&t, Field::Model).unwrap())
        };
        let (one, three) = (on(1), on(3));
        assert_eq!(one.codes, three.codes);
        assert_eq!(one.table_counts(), three.table_counts());
        assert_eq!(one.distinct_values(), 1001);
        for (r, &x) in sa.iter().enumerate() {
            assert_eq!(one.code(r as u32), (x + 500.0) as u32, "row {r}");
        }
    }

    #[test]
    fn composite_sa_is_rejected_with_its_columns() {
        let t = Table::from_columns(
            vec![("a".into(), QiValues::Numeric(vec![1.0, 2.0]))],
            vec![
                ("x".into(), SaValues::Numeric(vec![1.0, 2.0])),
                ("y".into(), SaValues::Numeric(vec![1.0, 2.0])),
            ],
        );
        let err = SaCodes::new(&t, Field::Model).unwrap_err();
        assert_eq!(err.kind, crate::ErrorKind::InvalidParameters);
        assert!(err.message.contains("x, y"), "{}", err.message);
        assert_eq!(err.errors[0].field, Field::Model);
    }
}
