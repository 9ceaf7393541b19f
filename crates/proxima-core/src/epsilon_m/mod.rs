//! The (ε,m)-anonymity partitioner (Li, Tao, Xiao: "Preservation of
//! Proximity Privacy in Publishing Numerical Sensitive Data", §4–5).
//!
//! A release is (ε,m)-anonymous when, in every QI-group G, each row t has
//! at most |G|/m rows of G (itself included) whose SA value lies in t's
//! closed neighbourhood I(t): [t−ε, t+ε] (absolute) or [t(1−ε), t(1+ε)]
//! (relative).
//!
//! The algorithm, as in §5.2:
//! 1. [`reduce`]: the (e1, e2, m) form (absolute e1 = e2 = ε; relative
//!    e1 = log₂(1/(1−ε)), e2 = log₂(1+ε)); membership itself is decided on
//!    the raw values by the definition, see [`reduce`]'s module doc.
//! 2. Sort the rows by SA value once; check Theorem 1 on the whole table
//!    ([`check_feasible`]).
//! 3. Split ([`split`]): Mondrian median cuts over the QIs, keeping only
//!    cuts whose halves are both generalizable (maxsize, Fig. 1), least
//!    information loss first. Progress 0–0.8.
//! 4. Partition ([`partition`]): a leaf passing anonymity-check (Fig. 3)
//!    stays, others are dealt round-robin into maxsize(G) buckets
//!    (Theorem 1). Progress 0.8–1.0.
//! 5. Verify every group against the definition with independent code
//!    ([`verify`]) and the cover of the rows; a failure is `internal`.
//!
//! Everything after the one sort is linear per split level; the partition
//! is deterministic (ties in SA value are broken by row index).

pub mod feasibility;
pub mod maxsize;
mod partition;
pub mod reduce;
mod split;
mod verify;

pub use feasibility::{check_feasible, max_epsilon, max_m, MaxM};
pub use maxsize::{group_satisfies, is_generalizable};
pub use reduce::{reduce, Reduced};

use crate::error::{CoreError, CoreResult};
use crate::params::{EpsilonM, Neighborhood};
use crate::partition::Partition;
use crate::progress::Progress;
use crate::split::QiSpace;
use crate::table::Table;
use reduce::{check_values, Neighborhoods, Offsets, RelativeBand};

/// Partitions `table` into (ε,m)-anonymous QI-groups.
///
/// Needs exactly one numeric sensitive column (`invalid_parameters` at
/// `/model` otherwise), finite values and, for relative neighbourhoods,
/// values > 0 (the first offending data line is named). Unreachable
/// parameters fail with `infeasible_parameters` before any work (see
/// [`check_feasible`]). An empty table gives an empty partition.
pub fn anonymize(table: &Table, params: &EpsilonM, progress: Progress) -> CoreResult<Partition> {
    let sa = single_numeric_sa(table)?;
    let lines = table.source_lines();
    check_values(sa, params.neighborhood, |i| {
        ("data line".to_string(), lines[i])
    })?;
    if sa.is_empty() {
        return Ok(Partition::default());
    }
    // The one sort: by value, ties by row, so the result is deterministic.
    let mut rows: Vec<u32> = (0..sa.len() as u32).collect();
    rows.sort_unstable_by(|&a, &b| sa[a as usize].total_cmp(&sa[b as usize]).then(a.cmp(&b)));
    let sorted: Vec<f64> = rows.iter().map(|&r| sa[r as usize]).collect();
    feasibility::check_feasible_sorted(&sorted, params)?;
    drop(sorted);

    let e = params.epsilon.get();
    let groups = match params.neighborhood {
        Neighborhood::Absolute => run(table, sa, Offsets { e1: e, e2: e }, params, rows, progress)?,
        Neighborhood::Relative => run(
            table,
            sa,
            RelativeBand { epsilon: e },
            params,
            rows,
            progress,
        )?,
    };
    verify::verify_groups(&groups, sa, params)?;
    let partition = Partition::new(groups);
    partition.check_covers(sa.len())?;
    Ok(partition)
}

/// Split then partition, monomorphized per neighbourhood kind.
fn run<N: Neighborhoods>(
    table: &Table,
    sa: &[f64],
    nb: N,
    params: &EpsilonM,
    rows: Vec<u32>,
    progress: Progress<'_>,
) -> CoreResult<Vec<Vec<u32>>> {
    let m = params.m.get();
    let space = QiSpace::new(table);
    let leaves = split::split_phase(&space, sa, nb, m, rows, progress.sub(0.0, 0.8))?;
    partition::partition_phase(leaves, sa, nb, m, progress.sub(0.8, 1.0))
}

fn single_numeric_sa(table: &Table) -> CoreResult<&[f64]> {
    if let Some(values) = table.single_numeric_sa() {
        return Ok(values);
    }
    let message = match table.sensitive() {
        [] => "(epsilon, m)-anonymity needs one numeric sensitive column; the dataset has none"
            .to_string(),
        // One column that `single_numeric_sa` refused: a categorical one.
        [one] => format!(
            "(epsilon, m)-anonymity needs a numeric sensitive column; '{}' is categorical",
            one.name
        ),
        many => format!(
            "(epsilon, m)-anonymity needs exactly one numeric sensitive column; the dataset has {} ({})",
            many.len(),
            many.iter().map(|c| c.name.as_str()).collect::<Vec<_>>().join(", ")
        ),
    };
    Err(CoreError::invalid_parameters("/model", message))
}
