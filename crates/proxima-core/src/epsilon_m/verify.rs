//! The last line of defence: every output group is re-checked against the
//! definition (Def. 5–7) on the raw SA values, with the neighbourhood
//! functions the audits use, by code that shares nothing with the sweeps
//! (sorting plus binary search, O(|G| log |G|) per group). A violation is a
//! bug and fails the job with `internal` rather than publish.

use crate::error::{CoreError, CoreResult};
use crate::neighborhood::{in_closed_interval, relative_interval, within};
use crate::params::{EpsilonM, Neighborhood};

/// Row index of the first breach in `groups`, as (group index, row, count
/// of the group's values in the row's neighbourhood). The groups are
/// checked in consecutive ranges on the pool's threads; the first range's
/// breach is the first.
fn first_breach(groups: &[Vec<u32>], sa: &[f64], params: &EpsilonM) -> Option<(usize, u32, usize)> {
    let size = |g: usize| groups[g].len();
    let found = crate::parallel::map_ranges(groups.len(), size, |range| {
        let start = range.start;
        let (gi, row, count) = first_breach_in(&groups[range], sa, params)?;
        Some((start + gi, row, count))
    });
    found.into_iter().flatten().next()
}

/// [`first_breach`] on one thread.
fn first_breach_in(
    groups: &[Vec<u32>],
    sa: &[f64],
    params: &EpsilonM,
) -> Option<(usize, u32, usize)> {
    let (e, m) = (params.epsilon.get(), params.m.get());
    let mut sorted: Vec<f64> = Vec::new();
    for (gi, group) in groups.iter().enumerate() {
        sorted.clear();
        sorted.extend(group.iter().map(|&r| sa[r as usize]));
        sorted.sort_unstable_by(f64::total_cmp);
        for &row in group {
            let x = sa[row as usize];
            // Both predicates are monotone along the sorted values.
            let (below, through) = match params.neighborhood {
                Neighborhood::Absolute => (
                    sorted.partition_point(|&y| y < x && !within((x - y).abs(), e)),
                    sorted.partition_point(|&y| y <= x || within((x - y).abs(), e)),
                ),
                Neighborhood::Relative => {
                    let (lo, hi) = relative_interval(x, e);
                    (
                        sorted.partition_point(|&y| y < lo),
                        sorted.partition_point(|&y| y <= hi),
                    )
                }
            };
            let count = through - below;
            // Pbrh = count/|G| must be ≤ 1/m; x is in its own neighbourhood.
            let own = match params.neighborhood {
                Neighborhood::Absolute => true,
                Neighborhood::Relative => {
                    let (lo, hi) = relative_interval(x, e);
                    in_closed_interval(x, lo, hi)
                }
            };
            if !own || count.saturating_mul(m) > group.len() {
                return Some((gi, row, count));
            }
        }
    }
    None
}

/// `internal` error naming the first group that breaches (ε,m).
pub(crate) fn verify_groups(groups: &[Vec<u32>], sa: &[f64], params: &EpsilonM) -> CoreResult<()> {
    match first_breach(groups, sa, params) {
        None => Ok(()),
        Some((gi, row, count)) => Err(CoreError::internal(format!(
            "(epsilon, m) partition breach: in group {} of {} rows, row {} (value {}) has {} values in its neighbourhood, more than |G|/m with m = {}",
            gi + 1,
            groups[gi].len(),
            row,
            sa[row as usize],
            count,
            params.m.get()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{Epsilon, M};

    #[test]
    fn finds_breaches_with_the_audit_definition() {
        let p = |e: f64, m: u64, nb| {
            EpsilonM::new(
                Epsilon::new(e, "/e").unwrap(),
                M::new(m, "/m").unwrap(),
                nb,
                "/e",
            )
            .unwrap()
        };
        let sa = vec![150.0, 165.0, 10.0, 20.0, 5.0];
        // Relative 0.1: 165 = 150·1.1 is a neighbour, so {150, 165} breaches m = 2.
        let err =
            verify_groups(&[vec![0, 1]], &sa, &p(0.1, 2, Neighborhood::Relative)).unwrap_err();
        assert_eq!(err.kind, crate::ErrorKind::Internal);
        assert!(err.message.contains("group 1 of 2 rows"), "{}", err.message);
        assert!(verify_groups(
            &[vec![0, 2], vec![1, 3]],
            &sa,
            &p(0.1, 2, Neighborhood::Relative)
        )
        .is_ok());
        // Absolute 10: 10 and 20 are neighbours at exactly ε; 5 and 20 are not.
        assert!(verify_groups(&[vec![2, 3]], &sa, &p(10.0, 2, Neighborhood::Absolute)).is_err());
        assert!(verify_groups(&[vec![4, 3]], &sa, &p(10.0, 2, Neighborhood::Absolute)).is_ok());
        assert_eq!(
            first_breach(&[vec![2, 3, 4]], &sa, &p(10.0, 2, Neighborhood::Absolute)),
            Some((0, 2, 3))
        );
    }

    #[test]
    fn the_first_breach_is_found_on_any_number_of_threads() {
        // 40,000 pairs {2i, 2i+1} at values 10i and 10i + 100 (apart at
        // ε = 1, m = 2), but for two pairs whose values coincide: one early,
        // one late. Enough rows to be checked in several parts.
        let pairs = 40_000u32;
        let mut sa: Vec<f64> = (0..2 * pairs)
            .map(|r| 10.0 * (r / 2) as f64 + 100.0 * (r % 2) as f64)
            .collect();
        for breaching in [1_000, 39_000] {
            sa[2 * breaching + 1] = sa[2 * breaching];
        }
        let groups: Vec<Vec<u32>> = (0..pairs).map(|i| vec![2 * i, 2 * i + 1]).collect();
        let params = EpsilonM::new(
            Epsilon::new(1.0, "/e").unwrap(),
            M::new(2, "/m").unwrap(),
            Neighborhood::Absolute,
            "/e",
        )
        .unwrap();
        for n in [1, 3] {
            let threads = crate::parallel::Threads::new(n, "/threads").unwrap();
            let found =
                crate::parallel::with_threads(threads, || first_breach(&groups, &sa, &params));
            assert_eq!(found, Some((1_000, 2_000, 2)), "{n} threads");
        }
    }
}
