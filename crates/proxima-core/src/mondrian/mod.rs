//! Mondrian (LeFevre, DeWitt & Ramakrishnan, ICDE 2006), strict
//! multidimensional partitioning, as the baseline of docs/design.md §4.
//!
//! A part is cut on the QI with the widest normalized range whose median
//! cut (crate::split) keeps both halves allowable; when no dimension gives
//! an allowable cut the part is a final group. The constraint is any
//! predicate on a set of rows that holds on the whole table
//! ([`anonymize_with`]); [`anonymize`] builds it from a privacy model
//! (k-anonymity, l-diversity, t-closeness) after checking feasibility.

mod constraint;

use std::ops::Range;

use crate::columnar::{predicate_cut, split_forking, ColumnStore, Columns, Dims, PredicateScratch};
use crate::error::{CoreError, CoreResult, ErrorKind};
use crate::params::PrivacyModel;
use crate::partition::Partition;
use crate::progress::Progress;
use crate::split::QiSpace;
use crate::table::Table;

pub use constraint::Constraint;

/// Mondrian under a privacy model: k-anonymity, l-diversity (distinct,
/// entropy, recursive (c,l), each with k) or t-closeness (with k).
///
/// Errors: `invalid_parameters` at `/algorithm` for the other models;
/// `invalid_parameters` at `/model` when an SA-based model meets a table
/// without exactly one SA column (or a ground distance that does not fit
/// it); `infeasible_parameters` when the whole table misses the model, with
/// the reachable value in the details (`max_k`, `max_l`).
pub fn anonymize(table: &Table, model: &PrivacyModel, progress: Progress) -> CoreResult<Partition> {
    let constraint = Constraint::for_model(table, model)?;
    partition(
        table,
        |rows: &[u32]| constraint.allows(rows),
        constraint.min_size(),
        constraint.sizes_only(),
        progress,
    )
}

/// The generic constrained Mondrian: `allows` decides whether a set of rows
/// may be a group (and so whether a cut may be taken). It must hold on the
/// whole table, else `infeasible_parameters`. Every output group is allowed
/// and the groups cover every row once.
pub fn anonymize_with<F>(table: &Table, allows: F, progress: Progress) -> CoreResult<Partition>
where
    F: Fn(&[u32]) -> bool + Sync,
{
    anonymize_with_min_size(table, allows, 1, progress)
}

/// Mondrian's choice of cut on a node: the dimension with the widest
/// normalized range first, the next widest when its median cut would leave
/// a half that is not allowed.
struct Chooser<'d, 'a, F> {
    dims: &'d Dims<'a>,
    allows: &'d F,
    min_size: usize,
    /// `allows` is `|rows| rows.len() >= min_size` (k-anonymity).
    sizes_only: bool,
}

impl<F> Chooser<'_, '_, F>
where
    F: Fn(&[u32]) -> bool + Sync,
{
    /// Cuts the node `range` of `cols` in place and returns its left size,
    /// or `None` when it stays a group.
    fn choose(
        &self,
        cols: &mut Columns<'_>,
        range: Range<usize>,
        s: &mut PredicateScratch,
    ) -> Option<usize> {
        s.sizes_only = self.sizes_only;
        // k, l and t survive unions of groups: labels may overlap.
        predicate_cut(self.dims, cols, range, self.allows, self.min_size, None, s)
            .map(|(left, ..)| left)
    }
}

/// [`anonymize_with`] knowing that no allowed group has fewer than
/// `min_size` rows (k, or m for (ε,m)): a part below 2·min_size cannot be
/// cut, so it becomes a group without computing widths and cuts. A
/// `min_size` above the true bound would only stop the split early.
pub fn anonymize_with_min_size<F>(
    table: &Table,
    allows: F,
    min_size: usize,
    progress: Progress,
) -> CoreResult<Partition>
where
    F: Fn(&[u32]) -> bool + Sync,
{
    partition(table, allows, min_size, false, progress)
}

/// [`anonymize_with_min_size`], told whether `allows` reads only the
/// group's size (`sizes_only`: it is `|rows| rows.len() >= min_size`), in
/// which case a cut's halves are judged by their sizes without listing
/// their rows.
fn partition<F>(
    table: &Table,
    allows: F,
    min_size: usize,
    sizes_only: bool,
    progress: Progress,
) -> CoreResult<Partition>
where
    F: Fn(&[u32]) -> bool + Sync,
{
    let n = table.rows();
    let all: Vec<u32> = (0..n as u32).collect();
    if !allows(&all) {
        return Err(CoreError::new(
            ErrorKind::InfeasibleParameters,
            format!(
                "the whole table ({n} rows) does not satisfy the privacy constraint, so no partition can"
            ),
        ));
    }
    // A checkpoint between the set-up passes over the whole table (each
    // a sort or a scan of every row): a cancel during them is honoured
    // before the next.
    progress.report(0.0)?;
    let space = QiSpace::new(table);
    progress.report(0.0)?;
    let (dims, row_keys) = Dims::new_checked(&space, progress)?;
    let chooser = Chooser {
        dims: &dims,
        allows: &allows,
        min_size,
        sizes_only,
    };
    let mut store = ColumnStore::new_checked(row_keys, all, Vec::new(), progress)?;
    let mut cols = store.view();
    // Both halves of every large node are split concurrently (the pool of
    // crate::parallel); the groups come out in the sequential order.
    let finals = split_forking(&mut cols, progress, &|cols: &mut Columns<'_>, node, s| {
        chooser.choose(cols, node, s)
    })?;
    let groups = cols.groups(&finals);
    let partition = Partition::new(groups);
    partition.check_covers(n)?;
    Ok(partition)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{LDiversity, LDiversityVariant, K};
    use crate::split::recursive_split;
    use crate::table::{QiValues, SaValues};

    fn grid(n: usize) -> Table {
        Table::from_columns(
            vec![
                (
                    "a".into(),
                    QiValues::Numeric((0..n).map(|i| (i % 13) as f64).collect()),
                ),
                (
                    "b".into(),
                    QiValues::Numeric((0..n).map(|i| (i / 13) as f64).collect()),
                ),
            ],
            vec![(
                "s".into(),
                SaValues::Numeric((0..n).map(|i| (i % 3) as f64).collect()),
            )],
        )
    }

    #[test]
    fn k_anonymity_groups_have_k_rows_and_cover_the_table() {
        let t = grid(200);
        let k = K::new(7, "/model/k").unwrap();
        let p = anonymize(&t, &PrivacyModel::KAnonymity(k), Progress::none()).unwrap();
        assert!(p.min_group_size() >= 7);
        assert!(p.len() > 10, "cuts happened: {}", p.len());
        p.check_covers(200).unwrap();
    }

    #[test]
    fn cuts_are_not_taken_when_a_half_is_not_allowed() {
        let t = grid(60);
        // Only parts of at least 31 rows are allowed: no cut is possible.
        let p = anonymize_with(&t, |rows| rows.len() >= 31, Progress::none()).unwrap();
        assert_eq!(p.len(), 1);
        let err = anonymize_with(&t, |rows| rows.len() > 60, Progress::none()).unwrap_err();
        assert_eq!(err.kind, ErrorKind::InfeasibleParameters);
    }

    #[test]
    fn l_diversity_groups_are_diverse() {
        let t = grid(300);
        let k = K::new(2, "/model/k").unwrap();
        let ld = LDiversity::new(3.0, LDiversityVariant::Distinct, k, "/model").unwrap();
        let p = anonymize(&t, &PrivacyModel::LDiversity(ld), Progress::none()).unwrap();
        let sa = t.single_numeric_sa().unwrap();
        for g in &p.groups {
            let mut v: Vec<i64> = g.iter().map(|&r| sa[r as usize] as i64).collect();
            v.sort_unstable();
            v.dedup();
            assert_eq!(v.len(), 3);
        }
        assert!(p.len() > 5);
    }

    #[test]
    fn parallel_halves_give_the_sequential_partition() {
        let t = grid(60_000);
        let k = K::new(5, "/model/k").unwrap();
        let parallel = anonymize(&t, &PrivacyModel::KAnonymity(k), Progress::none()).unwrap();
        let space = QiSpace::new(&t);
        let sequential = recursive_split((0..60_000).collect(), Progress::none(), |rows| {
            if rows.len() < 10 {
                return None;
            }
            space.dims_by_width(rows).into_iter().find_map(|dim| {
                let (l, r) = space.cut(rows, dim)?;
                (l.len() >= 5 && r.len() >= 5).then_some((l, r))
            })
        })
        .unwrap();
        assert_eq!(parallel.groups, sequential);
        // Cancelling stops both threads.
        let stop = |_f: f64| false;
        let err = anonymize(&t, &PrivacyModel::KAnonymity(k), Progress::new(&stop)).unwrap_err();
        assert_eq!(err.kind, ErrorKind::Cancelled);
    }

    #[test]
    fn k_anonymity_judged_by_sizes_gives_the_partition_of_its_predicate() {
        // The sizes-only path of `anonymize` against the generic predicate
        // path, on tables with ties and several widths.
        for (n, k) in [(200, 2), (997, 7), (5_000, 10), (60_000, 25)] {
            let t = grid(n);
            let model = PrivacyModel::KAnonymity(K::new(k as u64, "/model/k").unwrap());
            let by_size = anonymize(&t, &model, Progress::none()).unwrap();
            let by_rows =
                anonymize_with_min_size(&t, |rows| rows.len() >= k, k, Progress::none()).unwrap();
            assert_eq!(by_size.groups, by_rows.groups, "n = {n}, k = {k}");
            assert!(by_size.min_group_size() >= k);
        }
    }

    #[test]
    fn cancellation_stops_the_split() {
        let t = grid(2000);
        let stop = |_f: f64| false;
        let k = K::new(2, "/model/k").unwrap();
        let err = anonymize(&t, &PrivacyModel::KAnonymity(k), Progress::new(&stop)).unwrap_err();
        assert_eq!(err.kind, ErrorKind::Cancelled);
    }
}
