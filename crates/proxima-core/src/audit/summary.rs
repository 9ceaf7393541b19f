//! Turning per-group figures into a [`CheckReport`], and the check-free
//! parts of a report: prosecutor risk and the group-size histogram.

use crate::error::Detail;
use crate::partition::Partition;

use super::{CheckReport, SizeBucket, WorstGroup, MAX_WORST_GROUPS};
use crate::risk::ProsecutorRisk;

/// Which direction of a group's figure is worse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Worse {
    Higher,
    Lower,
}

/// Per-group results of one check.
pub(crate) struct Figures {
    /// The check's figure for each group (size, l, Pbrh, risk, EMD…).
    pub values: Vec<f64>,
    /// Whether each group fails the check.
    pub failed: Vec<bool>,
    /// Rows that fail: per-row for checks with a per-row figure, else the
    /// rows of failed groups.
    pub violating_rows: usize,
}

/// Assembles a check report; `worst_groups` lists the groups with the worst
/// figures (failing or not), worst first, ties by group order.
pub(crate) fn check_report(
    kind: &'static str,
    params: Vec<(String, Detail)>,
    value: Vec<(String, Detail)>,
    figures: Figures,
    worse: Worse,
    partition: &Partition,
    ids: Option<&[String]>,
) -> CheckReport {
    let violating_groups = figures.failed.iter().filter(|&&f| f).count();
    CheckReport {
        kind,
        params,
        passed: violating_groups == 0,
        value,
        violating_groups,
        violating_rows: figures.violating_rows,
        worst_groups: worst_groups(&figures.values, worse, partition, ids),
        records: None,
    }
}

fn worst_groups(
    values: &[f64],
    worse: Worse,
    partition: &Partition,
    ids: Option<&[String]>,
) -> Vec<WorstGroup> {
    let cmp = |a: &usize, b: &usize| {
        let by_value = match worse {
            Worse::Higher => values[*b].total_cmp(&values[*a]),
            Worse::Lower => values[*a].total_cmp(&values[*b]),
        };
        by_value.then(a.cmp(b))
    };
    let mut order: Vec<usize> = (0..values.len()).collect();
    if order.len() > MAX_WORST_GROUPS {
        order.select_nth_unstable_by(MAX_WORST_GROUPS - 1, cmp);
        order.truncate(MAX_WORST_GROUPS);
    }
    order.sort_by(cmp);
    order
        .into_iter()
        .map(|g| WorstGroup {
            group_id: group_id(ids, g),
            size: partition.groups[g].len(),
            value: values[g],
        })
        .collect()
}

/// The id of group `g`: the caller's id, else its 1-based index.
pub(crate) fn group_id(ids: Option<&[String]>, g: usize) -> String {
    match ids {
        Some(ids) => ids[g].clone(),
        None => (g + 1).to_string(),
    }
}

/// Rows of the failed groups.
pub(crate) fn rows_of_failed(partition: &Partition, failed: &[bool]) -> usize {
    partition
        .groups
        .iter()
        .zip(failed)
        .filter(|(_, &f)| f)
        .map(|(g, _)| g.len())
        .sum()
}

/// Prosecutor risk: a record in group G is re-identified with probability
/// 1/|G|. Max = 1/min size; the average over records is G/n (each group
/// contributes |G|·1/|G| = 1); records at max are the rows of the smallest
/// groups.
pub(crate) fn prosecutor(partition: &Partition) -> ProsecutorRisk {
    let n = partition.rows();
    let min = partition.min_group_size();
    if n == 0 || min == 0 {
        return ProsecutorRisk {
            max: 0.0,
            average: 0.0,
            records_at_max: 0,
        };
    }
    ProsecutorRisk {
        max: 1.0 / min as f64,
        average: partition.len() as f64 / n as f64,
        records_at_max: partition
            .groups
            .iter()
            .filter(|g| g.len() == min)
            .map(Vec::len)
            .sum(),
    }
}

/// The histogram bucket of a group size, in Google DLP's k-anonymity
/// histogram shape: sizes 1 to 10 each have their own bucket, then one
/// bucket per power of ten (11–100, 101–1000, 1001–10000, …).
fn bucket_of(size: usize) -> (usize, usize) {
    if size <= 10 {
        return (size, size);
    }
    let mut hi = 100usize;
    while size > hi {
        hi = hi.saturating_mul(10);
    }
    (hi / 10 + 1, hi)
}

/// Non-empty buckets in ascending order. As DLP reports its equivalence
/// class size bounds, `min_size`/`max_size` are the smallest and largest
/// group sizes actually in the bucket.
pub(crate) fn size_buckets(partition: &Partition) -> Vec<SizeBucket> {
    let mut by_bucket: std::collections::BTreeMap<usize, SizeBucket> = Default::default();
    for g in &partition.groups {
        let size = g.len();
        let (lo, _) = bucket_of(size);
        let b = by_bucket.entry(lo).or_insert(SizeBucket {
            min_size: size,
            max_size: size,
            groups: 0,
            rows: 0,
        });
        b.min_size = b.min_size.min(size);
        b.max_size = b.max_size.max(size);
        b.groups += 1;
        b.rows += size;
    }
    by_bucket.into_values().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sizes(s: &[usize]) -> Partition {
        let mut next = 0u32;
        Partition::new(
            s.iter()
                .map(|&n| {
                    let g: Vec<u32> = (next..next + n as u32).collect();
                    next += n as u32;
                    g
                })
                .collect(),
        )
    }

    #[test]
    fn prosecutor_risk_by_hand() {
        // Groups of 2, 2, 4: max 1/2, average 3 groups / 8 rows, 4 rows at max.
        let r = prosecutor(&sizes(&[2, 4, 2]));
        assert_eq!(r.max, 0.5);
        assert_eq!(r.average, 3.0 / 8.0);
        assert_eq!(r.records_at_max, 4);
    }

    #[test]
    fn buckets_follow_dlp_shape() {
        assert_eq!(bucket_of(1), (1, 1));
        assert_eq!(bucket_of(10), (10, 10));
        assert_eq!(bucket_of(11), (11, 100));
        assert_eq!(bucket_of(100), (11, 100));
        assert_eq!(bucket_of(101), (101, 1000));
        assert_eq!(bucket_of(25_000), (10_001, 100_000));
        let b = size_buckets(&sizes(&[3, 12, 3, 57, 150]));
        assert_eq!(
            b,
            vec![
                SizeBucket {
                    min_size: 3,
                    max_size: 3,
                    groups: 2,
                    rows: 6
                },
                SizeBucket {
                    min_size: 12,
                    max_size: 57,
                    groups: 2,
                    rows: 69
                },
                SizeBucket {
                    min_size: 150,
                    max_size: 150,
                    groups: 1,
                    rows: 150
                },
            ]
        );
    }

    #[test]
    fn worst_groups_are_capped_and_ordered() {
        let p = sizes(&[1; 50]);
        let values: Vec<f64> = (0..50).map(|i| (i % 7) as f64).collect();
        let w = worst_groups(&values, Worse::Higher, &p, None);
        assert_eq!(w.len(), MAX_WORST_GROUPS);
        assert!(w.windows(2).all(|x| x[0].value >= x[1].value));
        // Value 6 first: groups 7, 14, 21, … (1-based ids).
        assert_eq!(w[0].group_id, "7");
        assert_eq!(w[0].value, 6.0);
        let ids: Vec<String> = (0..50).map(|i| format!("g{i}")).collect();
        let w = worst_groups(&values, Worse::Lower, &p, Some(&ids));
        assert_eq!(w[0].group_id, "g0");
        // 8 groups at 0, 7 at 1, then 5 of the 7 at 2.
        let counts = |v: f64| w.iter().filter(|g| g.value == v).count();
        assert_eq!((counts(0.0), counts(1.0), counts(2.0)), (8, 7, 5));
        assert!(w.windows(2).all(|x| x[0].value <= x[1].value));
    }
}
