//! Risk against a population table: k-map and δ-presence (ARX's
//! definitions; docs/risk-measures.md §Population table).
//!
//! * **k-map**: every class's labels cover at least k population records.
//! * **δ-presence**: for every class, |sample records in the class| /
//!   |population records its labels cover| lies in [δmin, δmax]; the sample
//!   must be a subset of the population.
//!
//! Both are judged in the attacker's view: a class's population count is
//! over **every** population record its labels cover ([`PopulationIndex`]),
//! not over the records that would have fallen in the class — labels of
//! different classes may overlap, and a person covered by two classes'
//! labels counts in both. A class's figure is then its own, whatever the
//! other classes publish, so the per-class report is the attacker's view.

mod index;
mod kdtree;
#[cfg(test)]
mod tests;

pub use index::{box_of_rows, PopulationIndex};

use crate::attacker::GroupBoxes;
use crate::audit::summary::{check_report, rows_of_failed, Figures, Worse};
use crate::audit::{group_by_published_qis, CheckReport};
use crate::error::{CoreError, CoreResult, Detail, ErrorKind, Field};
use crate::params::PopulationModel;
use crate::partition::Partition;
use crate::progress::Progress;
use crate::table::Table;

fn d(key: &str, value: impl Into<Detail>) -> (String, Detail) {
    (key.to_string(), value.into())
}

// The model is a parameter (crate::params); judging it needs the index.
impl PopulationModel {
    /// Whether the published labels of `rows` (one class of a release of
    /// `table`) satisfy the model, counting only as far as
    /// [`PopulationModel::cap`].
    pub fn allows_rows(&self, index: &PopulationIndex, table: &Table, rows: &[u32]) -> bool {
        let covered = index.count_up_to(&box_of_rows(table, rows), self.cap(rows.len()));
        self.allows(rows.len(), covered)
    }
}

/// Each class's population count: the records its box covers.
pub fn class_counts(index: &PopulationIndex, boxes: &GroupBoxes) -> Vec<u64> {
    use rayon::prelude::*;
    // On the job's pool (crate::parallel); each class's count is its own.
    (0..boxes.groups())
        .into_par_iter()
        .map(|g| index.count(boxes.of(g)))
        .collect()
}

/// The raw table's classes (rows with identical QI values) with the
/// population records at each class's point: the "before" of a release.
pub fn raw_classes(table: &Table, index: &PopulationIndex) -> (Partition, Vec<u64>) {
    let (partition, _) = group_by_published_qis(table);
    let counts = partition
        .groups
        .iter()
        .map(|rows| index.count_rows(table, &rows[..1]))
        .collect();
    (partition, counts)
}

/// Checks that the sample (at its original QI points) is a subset of the
/// population: at every point, no more sample records than population
/// records. `population_mismatch` at `field` otherwise, with the number
/// of sample records the population cannot hold.
pub fn check_subset(
    table: &Table,
    index: &PopulationIndex,
    field: impl Into<Field>,
) -> CoreResult<()> {
    let (partition, counts) = raw_classes(table, index);
    check_class_subset(&partition, &counts, field)
}

/// The weaker subset test of a generalized table, whose original points
/// are unknown: no class holds more records than its labels cover.
pub fn check_class_subset(
    partition: &Partition,
    counts: &[u64],
    field: impl Into<Field>,
) -> CoreResult<()> {
    let missing: u64 = partition
        .groups
        .iter()
        .zip(counts)
        .map(|(g, &c)| (g.len() as u64).saturating_sub(c))
        .sum();
    if missing == 0 {
        return Ok(());
    }
    let message = format!(
        "the table is not a subset of the population: {missing} of its records have no \
         population record with their quasi-identifier values left to match"
    );
    Err(
        CoreError::new(ErrorKind::PopulationMismatch, message.clone())
            .with_error(field, message)
            .with_detail("unmatched_records", missing as i64),
    )
}

/// Judges `model` on every class (`counts` from [`class_counts`]): k-map
/// reports `min_population_count` (worst = fewest covered), δ-presence
/// `min_delta` and `max_delta` (worst = highest δ).
pub fn judge(
    model: &PopulationModel,
    partition: &Partition,
    counts: &[u64],
    ids: Option<&[String]>,
) -> CheckReport {
    let sizes = partition.groups.iter().map(|g| g.len());
    let failed: Vec<bool> = sizes
        .clone()
        .zip(counts)
        .map(|(s, &c)| !model.allows(s, c))
        .collect();
    let violating_rows = rows_of_failed(partition, &failed);
    let (values, value, worse) = match model {
        PopulationModel::KMap { .. } => {
            let values: Vec<f64> = counts.iter().map(|&c| c as f64).collect();
            let min = counts.iter().copied().min().unwrap_or(0);
            (
                values,
                vec![d("min_population_count", min as i64)],
                Worse::Lower,
            )
        }
        PopulationModel::DeltaPresence { .. } => {
            let values: Vec<f64> = sizes
                .zip(counts)
                .map(|(s, &c)| {
                    if c == 0 {
                        f64::INFINITY
                    } else {
                        s as f64 / c as f64
                    }
                })
                .collect();
            let finite = |x: f64| if x.is_finite() { x } else { f64::MAX };
            let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = values.iter().copied().fold(0.0, f64::max);
            let lo = if values.is_empty() { 0.0 } else { finite(lo) };
            (
                values.iter().map(|&x| finite(x)).collect(),
                vec![d("min_delta", lo), d("max_delta", finite(hi))],
                Worse::Higher,
            )
        }
    };
    check_report(
        model.kind_name(),
        model.params(),
        value,
        Figures {
            values,
            failed,
            violating_rows,
        },
        worse,
        partition,
        ids,
    )
}

/// Journalist re-identification risk against a population table: a record
/// of a class whose labels cover c population records is re-identified
/// with probability 1/c (ARX's journalist model with a population table).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JournalistRisk {
    pub max: f64,
    pub average: f64,
    pub records_at_max: usize,
}

/// [`JournalistRisk`] over the records of the classes (a class covering no
/// population record counts as risk 1: the sample is not a subset there).
pub fn journalist_risk(partition: &Partition, counts: &[u64]) -> JournalistRisk {
    let risk = |c: u64| if c == 0 { 1.0 } else { 1.0 / c as f64 };
    let n = partition.rows();
    let max = counts.iter().map(|&c| risk(c)).fold(0.0, f64::max);
    let (mut sum, mut at_max) = (0.0, 0usize);
    for (g, &c) in partition.groups.iter().zip(counts) {
        sum += g.len() as f64 * risk(c);
        if risk(c) == max {
            at_max += g.len();
        }
    }
    JournalistRisk {
        max,
        average: if n == 0 { 0.0 } else { sum / n as f64 },
        records_at_max: at_max,
    }
}

/// Mondrian under a population model: a cut is taken only when both
/// halves' published labels (the tightest generalization of their rows)
/// cover enough population records — counted over every record the labels
/// cover, so every final class satisfies the model in the attacker's view.
///
/// Errors: `population_mismatch` (at `/dataset_id`) when δ-presence's
/// sample is not a subset of the population; `infeasible_parameters` when
/// the whole table misses the model (with `max_k`, or the whole table's
/// `delta`).
pub fn anonymize(
    table: &Table,
    index: &PopulationIndex,
    model: &PopulationModel,
    progress: Progress,
) -> CoreResult<Partition> {
    check_feasible(table, index, model)?;
    // Population counts shrink with the class but say nothing about its
    // sample size, so no part is too small to try a cut.
    crate::mondrian::anonymize_with(
        table,
        |rows: &[u32]| model.allows_rows(index, table, rows),
        progress,
    )
}

/// The checks of [`anonymize`] before it runs (the job's validation before
/// queueing calls them too).
pub fn check_feasible(
    table: &Table,
    index: &PopulationIndex,
    model: &PopulationModel,
) -> CoreResult<()> {
    if model.needs_subset() {
        check_subset(table, index, Field::Dataset)?;
    }
    let all: Vec<u32> = (0..table.rows() as u32).collect();
    let covered = if all.is_empty() {
        0
    } else {
        index.count_rows(table, &all)
    };
    if model.allows(all.len(), covered) {
        return Ok(());
    }
    Err(match model {
        PopulationModel::KMap { k } => {
            let message = format!(
                "k = {} exceeds the {covered} population records the whole table's labels cover",
                k.get()
            );
            CoreError::new(ErrorKind::InfeasibleParameters, message.clone())
                .with_error(Field::ModelParam("k"), message)
                .with_detail("max_k", covered as i64)
        }
        PopulationModel::DeltaPresence { min, max } => {
            let delta = all.len() as f64 / covered.max(1) as f64;
            let message = format!(
                "the whole table is {} of the {covered} population records it covers \
                 (δ = {delta:.4}), outside [{}, {}]: no partition can satisfy it",
                all.len(),
                min.get(),
                max.get()
            );
            let at = if delta < min.get() {
                Field::ModelParam("delta_min")
            } else {
                Field::ModelParam("delta_max")
            };
            CoreError::new(ErrorKind::InfeasibleParameters, message.clone())
                .with_error(at, message)
                .with_detail("delta", delta)
        }
    })
}
