//! The published box of every group: one closed interval per QI, in the
//! QI's key space (see the module doc of [`super`] for the rules).

use crate::error::{CoreError, CoreResult};
use crate::generalize::{parse_date_interval_label, parse_numeric_label, GeneralizedQi, Release};
use crate::hierarchy::Hierarchy;
use crate::partition::Partition;
use crate::progress::{Progress, ROWS_PER_CHECKPOINT};
use crate::table::{QiValues, Table};

/// Where a victim's point on one QI comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Axis {
    /// The QI's own value: a number, or a date as its day.
    Value,
    /// A categorical QI: the depth-first rank of the row's leaf.
    Rank,
    /// Intervals read from generalized labels: the rows' original values
    /// are unknown, so they have no point here.
    Labels,
}

/// One QI's key space.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Dim {
    pub axis: Axis,
    /// Keys are integers (days, leaf ranks): there is no point strictly
    /// between two consecutive integers.
    pub discrete: bool,
}

/// One closed interval per QI dimension per group, in the QI's key space:
/// numeric QIs by value, date QIs by day (as f64), categorical QIs by
/// depth-first leaf rank ([`Hierarchy::leaf_rank`]; a node label covers the
/// rank range of the leaves under it).
#[derive(Debug, Clone, PartialEq)]
pub struct GroupBoxes {
    /// `bounds[g * dims + d]` = `[lo, hi]` of group g on QI d.
    pub(crate) bounds: Vec<[f64; 2]>,
    pub(crate) dims: Vec<Dim>,
}

impl GroupBoxes {
    /// The boxes a job's release publishes (`Release::generalized()`).
    pub fn from_release(table: &Table, release: &Release) -> GroupBoxes {
        Self::from_release_checked(table, release, Progress::none())
            .expect("never cancelled without a callback")
    }

    /// [`GroupBoxes::from_release`] with a checkpoint every block of groups
    /// holding [`ROWS_PER_CHECKPOINT`] intervals (the fraction of the groups
    /// done): `Cancelled` when `progress` says stop.
    pub fn from_release_checked(
        table: &Table,
        release: &Release,
        progress: Progress,
    ) -> CoreResult<GroupBoxes> {
        let qis = table.qis();
        let dims: Vec<Dim> = qis
            .iter()
            .map(|c| match c.values {
                QiValues::Numeric(_) => Dim {
                    axis: Axis::Value,
                    discrete: false,
                },
                QiValues::Date(_) => Dim {
                    axis: Axis::Value,
                    discrete: true,
                },
                QiValues::Categorical { .. } => Dim {
                    axis: Axis::Rank,
                    discrete: true,
                },
            })
            .collect();
        let mut bounds = Vec::with_capacity(release.groups() * dims.len());
        let per_block = (ROWS_PER_CHECKPOINT / dims.len().max(1)).max(1);
        let groups = release.generalized().len().max(1) as f64;
        for (i, generalized) in release.generalized().iter().enumerate() {
            if i % per_block == 0 {
                progress.report(i as f64 / groups)?;
            }
            for (g, column) in generalized.iter().zip(qis) {
                bounds.push(match (*g, &column.values) {
                    (GeneralizedQi::Numeric { lo, hi }, _) => [lo, hi],
                    (GeneralizedQi::Date { lo, hi }, _) => [lo as f64, hi as f64],
                    (GeneralizedQi::Categorical { level, node }, values) => {
                        let QiValues::Categorical { hierarchy, .. } = values else {
                            unreachable!("a categorical generalization of a non-categorical QI")
                        };
                        node_ranks(hierarchy, level, node)
                    }
                });
            }
        }
        progress.report(1.0)?;
        Ok(GroupBoxes { bounds, dims })
    }

    /// The boxes of an uploaded (already generalized) table, read from each
    /// group's published QI text (rules in the module doc of [`super`]).
    /// Errors (internal) when the partition does not cover the table.
    pub fn from_labels(table: &Table, partition: &Partition) -> CoreResult<GroupBoxes> {
        partition.check_covers(table.rows())?;
        let groups = partition.len();
        let qis = table.qis();
        let mut dims = Vec::with_capacity(qis.len());
        // columns[d][row] = the row's interval on QI d.
        let mut per_dim: Vec<Vec<[f64; 2]>> = Vec::with_capacity(qis.len());
        for column in qis {
            let declared = table
                .schema()
                .columns()
                .get(column.schema_index)
                .is_some_and(|spec| spec.hierarchy.is_some());
            let (dim, intervals) = match &column.values {
                QiValues::Numeric(v) => (
                    Dim {
                        axis: Axis::Value,
                        discrete: false,
                    },
                    v.iter().map(|&x| [x, x]).collect(),
                ),
                QiValues::Date(v) => (
                    Dim {
                        axis: Axis::Value,
                        discrete: true,
                    },
                    v.iter().map(|&x| [x as f64, x as f64]).collect(),
                ),
                QiValues::Categorical { codes, hierarchy } => {
                    let (dim, of_leaf) = if declared {
                        // Ingest checked every value is a leaf.
                        (
                            Dim {
                                axis: Axis::Rank,
                                discrete: true,
                            },
                            leaf_points(hierarchy),
                        )
                    } else {
                        label_intervals(hierarchy)
                    };
                    (dim, codes.iter().map(|&c| of_leaf[c as usize]).collect())
                }
            };
            dims.push(dim);
            per_dim.push(intervals);
        }
        let mut bounds = vec![[f64::INFINITY, f64::NEG_INFINITY]; groups * dims.len()];
        for (g, rows) in partition.groups.iter().enumerate() {
            let b = &mut bounds[g * dims.len()..(g + 1) * dims.len()];
            for (d, intervals) in per_dim.iter().enumerate() {
                for &r in rows {
                    let [lo, hi] = intervals[r as usize];
                    b[d][0] = b[d][0].min(lo);
                    b[d][1] = b[d][1].max(hi);
                }
            }
        }
        Ok(GroupBoxes { bounds, dims })
    }

    /// Number of groups.
    pub fn groups(&self) -> usize {
        if self.dims.is_empty() {
            0
        } else {
            self.bounds.len() / self.dims.len()
        }
    }

    /// Number of QI dimensions.
    pub fn dimensions(&self) -> usize {
        self.dims.len()
    }

    /// `(lo, hi)` of group `g` on QI `d` (in `Table::qis()` order).
    pub fn bounds(&self, g: usize, d: usize) -> (f64, f64) {
        let [lo, hi] = self.bounds[g * self.dims.len() + d];
        (lo, hi)
    }

    /// The box of group `g`, one `[lo, hi]` per QI.
    pub(crate) fn of(&self, g: usize) -> &[[f64; 2]] {
        let n = self.dims.len();
        &self.bounds[g * n..(g + 1) * n]
    }

    /// Checks that the rows of the table have a point on every QI (what
    /// `Victims::OriginalPoints` needs).
    pub(crate) fn check_points(&self, table: &Table) -> CoreResult<()> {
        match self.dims.iter().position(|d| d.axis == Axis::Labels) {
            Some(d) => Err(CoreError::internal(format!(
                "the QI '{}' holds generalized labels: its rows have no original point, so only \
                 the any-point-of-its-box view applies",
                table.qis()[d].name
            ))),
            None => Ok(()),
        }
    }
}

/// The leaf-rank range `[first, last]` under a hierarchy node.
fn node_ranks(h: &Hierarchy, level: usize, node: u32) -> [f64; 2] {
    let (first, last) = h.rank_range(level, node);
    [first as f64, last as f64]
}

/// Each leaf code's point: its rank.
fn leaf_points(h: &Hierarchy) -> Vec<[f64; 2]> {
    (0..h.leaf_count() as u32)
        .map(|leaf| {
            let r = h.leaf_rank(leaf) as f64;
            [r, r]
        })
        .collect()
}

/// The key space and each label's interval for a categorical QI without a
/// declared hierarchy (its flat hierarchy's leaves are the distinct labels):
/// numeric intervals when every label parses as one, else day intervals
/// when every label parses as one, else opaque labels by rank, `*` covering
/// every rank.
fn label_intervals(h: &Hierarchy) -> (Dim, Vec<[f64; 2]>) {
    let labels = h.leaf_labels();
    let numeric: Option<Vec<[f64; 2]>> = labels
        .iter()
        .map(|l| parse_numeric_label(l).map(|(lo, hi)| [lo, hi]))
        .collect();
    if let Some(v) = numeric {
        let dim = Dim {
            axis: Axis::Labels,
            discrete: false,
        };
        return (dim, v);
    }
    let dates: Option<Vec<[f64; 2]>> = labels
        .iter()
        .map(|l| parse_date_interval_label(l).map(|(lo, hi)| [lo as f64, hi as f64]))
        .collect();
    if let Some(v) = dates {
        let dim = Dim {
            axis: Axis::Labels,
            discrete: true,
        };
        return (dim, v);
    }
    let last = (h.leaf_count() - 1) as f64;
    let v = labels
        .iter()
        .enumerate()
        .map(|(leaf, l)| {
            if l == "*" {
                [0.0, last]
            } else {
                let r = h.leaf_rank(leaf as u32) as f64;
                [r, r]
            }
        })
        .collect();
    (
        Dim {
            axis: Axis::Rank,
            discrete: true,
        },
        v,
    )
}
