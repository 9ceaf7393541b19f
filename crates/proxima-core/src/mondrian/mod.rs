//! Mondrian (LeFevre, DeWitt & Ramakrishnan, ICDE 2006), strict
//! multidimensional partitioning, as the baseline of DESIGN §4.
//!
//! A part is cut on the QI with the widest normalized range whose median
//! cut (crate::split) keeps both halves allowable; when no dimension gives
//! an allowable cut the part is a final group. The constraint is any
//! predicate on a set of rows that holds on the whole table
//! ([`anonymize_with`]); [`anonymize`] builds it from a privacy model
//! (k-anonymity, l-diversity, t-closeness) after checking feasibility.

mod constraint;

use crate::error::{CoreError, CoreResult, ErrorKind};
use crate::params::PrivacyModel;
use crate::partition::Partition;
use crate::progress::Progress;
use crate::split::{recursive_split, QiSpace};
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
    anonymize_with(table, |rows: &[u32]| constraint.allows(rows), progress)
}

/// The generic constrained Mondrian: `allows` decides whether a set of rows
/// may be a group (and so whether a cut may be taken). It must hold on the
/// whole table, else `infeasible_parameters`. Every output group is allowed
/// and the groups cover every row once.
pub fn anonymize_with<F>(table: &Table, allows: F, progress: Progress) -> CoreResult<Partition>
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
    let space = QiSpace::new(table);
    let groups = recursive_split(all, progress, |rows| {
        // Widest normalized range first; the next widest when its cut would
        // leave a half that is not allowed.
        space.dims_by_width(rows).into_iter().find_map(|dim| {
            let (left, right) = space.cut(rows, dim)?;
            (allows(&left) && allows(&right)).then_some((left, right))
        })
    })?;
    let partition = Partition::new(groups);
    partition.check_covers(n)?;
    Ok(partition)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{LDiversity, LDiversityVariant, K};
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
    fn cancellation_stops_the_split() {
        let t = grid(2000);
        let stop = |_f: f64| false;
        let k = K::new(2, "/model/k").unwrap();
        let err = anonymize(&t, &PrivacyModel::KAnonymity(k), Progress::new(&stop)).unwrap_err();
        assert_eq!(err.kind, ErrorKind::Cancelled);
    }
}
