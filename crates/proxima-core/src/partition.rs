//! A partition of a table's rows into QI-groups.

use crate::error::{CoreError, CoreResult};

/// Groups of row indices. Every row of the table is in exactly one group
/// (checked by [`Partition::check_covers`]); group order is the release's
/// `group_id` order (1-based when printed).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Partition {
    pub groups: Vec<Vec<u32>>,
}

impl Partition {
    pub fn new(groups: Vec<Vec<u32>>) -> Self {
        Partition { groups }
    }

    pub fn len(&self) -> usize {
        self.groups.len()
    }

    pub fn is_empty(&self) -> bool {
        self.groups.is_empty()
    }

    /// Total number of rows over all groups.
    pub fn rows(&self) -> usize {
        self.groups.iter().map(Vec::len).sum()
    }

    pub fn min_group_size(&self) -> usize {
        self.groups.iter().map(Vec::len).min().unwrap_or(0)
    }

    /// `group_of[row]` = index of the row's group.
    pub fn group_of_rows(&self, n: usize) -> Vec<u32> {
        let mut g = vec![u32::MAX; n];
        for (gi, rows) in self.groups.iter().enumerate() {
            for &r in rows {
                g[r as usize] = gi as u32;
            }
        }
        g
    }

    /// Checks that the groups are non-empty and cover `0..n` exactly once:
    /// an internal error otherwise (a partitioner bug must never publish).
    pub fn check_covers(&self, n: usize) -> CoreResult<()> {
        let mut seen = vec![false; n];
        for rows in &self.groups {
            if rows.is_empty() {
                return Err(CoreError::internal("a partition has an empty group"));
            }
            for &r in rows {
                let r = r as usize;
                if r >= n || seen[r] {
                    return Err(CoreError::internal(format!(
                        "row {r} is out of range or in two groups"
                    )));
                }
                seen[r] = true;
            }
        }
        if seen.iter().any(|s| !s) {
            return Err(CoreError::internal("a partition misses rows"));
        }
        Ok(())
    }

    /// Groups ordered by their smallest row, rows inside a group ascending:
    /// a canonical form for comparing partitions in tests (the `testing`
    /// feature, not the product's API).
    #[cfg(any(test, feature = "testing"))]
    pub fn canonical(&self) -> Partition {
        let mut groups: Vec<Vec<u32>> = self
            .groups
            .iter()
            .map(|g| {
                let mut g = g.clone();
                g.sort_unstable();
                g
            })
            .collect();
        groups.sort();
        Partition { groups }
    }
}

/// A partition of some of a table's rows and the rows left out because no
/// group could hold them safely (the job suppresses them within its
/// suppression limit, or fails).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Placement {
    pub partition: Partition,
    /// Row indices, ascending.
    pub unplaced: Vec<u32>,
    /// When the partitioner built other placements too (ways of leaving
    /// rows out, the one with the least loss chosen), the fewest rows any
    /// of them leaves out: a job allowed that many would have published
    /// (with coarser groups). At most `unplaced.len()`.
    pub fewest_unplaced: Option<usize>,
}

impl Placement {
    pub fn new(partition: Partition, mut unplaced: Vec<u32>) -> Self {
        unplaced.sort_unstable();
        Placement {
            partition,
            unplaced,
            fewest_unplaced: None,
        }
    }

    /// Every row placed: the partition.
    pub fn complete(partition: Partition) -> Self {
        Placement {
            partition,
            unplaced: Vec::new(),
            fewest_unplaced: None,
        }
    }

    /// Records the fewest rows another way of placing leaves out (kept
    /// only when fewer than this placement's).
    pub fn with_fewest_unplaced(mut self, fewest: usize) -> Self {
        self.fewest_unplaced = (fewest < self.unplaced.len()).then_some(fewest);
        self
    }

    /// The fewest rows a job must be allowed to leave out to publish:
    /// [`Self::fewest_unplaced`] when known, else this placement's own.
    pub fn rows_needed(&self) -> usize {
        self.fewest_unplaced.unwrap_or(self.unplaced.len())
    }

    /// Checks that the groups and the unplaced rows together cover `0..n`
    /// exactly once, groups non-empty (internal error otherwise).
    pub fn check_covers(&self, n: usize) -> CoreResult<()> {
        let mut all = self.partition.clone();
        if !self.unplaced.is_empty() {
            all.groups.push(self.unplaced.clone());
        }
        all.check_covers(n)
    }

    /// The partition when every row is placed; otherwise
    /// `model_not_satisfied` naming how many rows could not be.
    pub fn into_complete(self) -> CoreResult<Partition> {
        if self.unplaced.is_empty() {
            return Ok(self.partition);
        }
        Err(CoreError::new(
            crate::error::ErrorKind::ModelNotSatisfied,
            format!(
                "{} rows cannot be placed in any group that satisfies the model in the attacker's view; \
                 allow suppressing them (suppression_limit) or relax the parameters",
                self.unplaced.len()
            ),
        )
        .with_detail("rows_needing_suppression", self.unplaced.len()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cover_check_finds_holes_and_duplicates() {
        assert!(Partition::new(vec![vec![0, 2], vec![1]])
            .check_covers(3)
            .is_ok());
        assert!(Partition::new(vec![vec![0, 2], vec![2, 1]])
            .check_covers(3)
            .is_err());
        assert!(Partition::new(vec![vec![0], vec![1]])
            .check_covers(3)
            .is_err());
        assert!(Partition::new(vec![vec![0, 1, 2], vec![]])
            .check_covers(3)
            .is_err());
        let p = Partition::new(vec![vec![2, 0], vec![1]]);
        assert_eq!(p.group_of_rows(3), vec![0, 1, 0]);
        assert_eq!(p.canonical().groups, vec![vec![0, 2], vec![1]]);
    }
}
