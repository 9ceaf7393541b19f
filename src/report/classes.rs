//! The equivalence classes the risk measures are taken over.
//!
//! * **Before**: rows of the uploaded table (after missing-value
//!   suppression) with identical QI values.
//! * **After**: the attacker's view (docs/design.md §4). A victim's candidates are
//!   every row of every group whose published labels cover its QI values;
//!   its re-identification probability is 1/|C(v)|. |C(v)| comes from
//!   [`proxima_core::attacker::victim_figures`] (the k-anonymity figure), the
//!   very definition the job's guard and audit use. Candidate sets that are
//!   groups (disjoint boxes: every (ε,m) and XColor release) are classes
//!   exactly; where boxes overlap, victims with |C| = s are counted as
//!   (their number)/s classes of size s, so marketer risk stays the mean of
//!   1/|C(v)| and sample uniques the victims with |C| = 1.

use std::collections::HashMap;

use proxima_core::attacker::{victim_figures, GroupBoxes};
use proxima_core::audit::AuditCheck;
use proxima_core::error::CoreResult;
use proxima_core::generalize::Release;
use proxima_core::params::K;
use proxima_core::table::QiValues;
use proxima_core::Table;

/// Per-row class size and the rows' class ids, before generalization.
pub struct RawClasses {
    /// `class_of[row]`: a dense class id.
    pub class_of: Vec<u32>,
    /// `sizes[class]`.
    pub sizes: Vec<u32>,
    /// `first[class]`: the class's first row (to print its QI values).
    pub first: Vec<u32>,
}

/// The classes of identical QI values (keys: f64 bits, leaf codes, days).
pub fn raw_classes(table: &Table) -> RawClasses {
    let n = table.rows();
    let qis = table.qis();
    let d = qis.len();
    let mut keys = vec![0u64; n * d];
    for (j, c) in qis.iter().enumerate() {
        match &c.values {
            QiValues::Numeric(v) => {
                // +0.0 and -0.0 are one value.
                v.iter()
                    .enumerate()
                    .for_each(|(r, x)| keys[r * d + j] = (x + 0.0).to_bits())
            }
            QiValues::Categorical { codes, .. } => codes
                .iter()
                .enumerate()
                .for_each(|(r, &x)| keys[r * d + j] = x as u64),
            QiValues::Date(v) => v
                .iter()
                .enumerate()
                .for_each(|(r, &x)| keys[r * d + j] = x as i64 as u64),
        }
    }
    // foldhash, not SipHash: the keys are our own (no flooding concern)
    // and this map is a third of a 500k-row report's time otherwise.
    let mut ids: HashMap<&[u64], u32, foldhash::fast::FixedState> =
        HashMap::with_capacity_and_hasher(n / 2, Default::default());
    let mut class_of = Vec::with_capacity(n);
    let mut sizes: Vec<u32> = Vec::new();
    let mut first: Vec<u32> = Vec::new();
    for r in 0..n {
        let key = &keys[r * d..(r + 1) * d];
        let next = sizes.len() as u32;
        let id = *ids.entry(key).or_insert(next);
        if id == next {
            sizes.push(0);
            first.push(r as u32);
        }
        sizes[id as usize] += 1;
        class_of.push(id);
    }
    RawClasses {
        class_of,
        sizes,
        first,
    }
}

/// |C(v)| per row of the release's table, in the attacker's view.
pub fn candidate_sizes(table: &Table, release: &Release) -> CoreResult<Vec<u32>> {
    let boxes = GroupBoxes::from_release(table, release);
    let k1 = AuditCheck::KAnonymity {
        k: K::new(1, "/k")?,
    };
    let figures = victim_figures(table, release.partition(), &boxes, &k1)?;
    Ok(figures.iter().map(|&c| c as u32).collect())
}

/// Class counts per class size from per-record class sizes: `(size,
/// classes)` ascending by size, classes = records of that size / size
/// (exact when the classes partition the records).
pub fn frequencies_of_records(sizes: impl Iterator<Item = u32>) -> Vec<(u64, f64)> {
    let mut records: HashMap<u32, u64> = HashMap::new();
    for s in sizes {
        *records.entry(s).or_default() += 1;
    }
    let mut out: Vec<(u64, f64)> = records
        .into_iter()
        .filter(|&(s, _)| s > 0)
        .map(|(s, r)| (s as u64, r as f64 / s as f64))
        .collect();
    out.sort_by_key(|&(s, _)| s);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_classes_group_identical_qi_values() {
        let t = Table::from_columns(
            vec![
                (
                    "a".into(),
                    QiValues::Numeric(vec![1.0, 1.0, 2.0, 1.0, -0.0, 0.0]),
                ),
                ("b".into(), QiValues::Date(vec![5, 5, 5, 6, 1, 1])),
            ],
            vec![],
        );
        let c = raw_classes(&t);
        assert_eq!(c.class_of, vec![0, 0, 1, 2, 3, 3]);
        assert_eq!(c.sizes, vec![2, 1, 1, 2]);
        assert_eq!(c.first, vec![0, 2, 3, 4]);
    }

    #[test]
    fn frequencies_count_classes_per_size() {
        // Two classes of 2, one of 3, one unique.
        let f = frequencies_of_records([2, 2, 3, 1, 2, 3, 3, 2].into_iter());
        assert_eq!(f, vec![(1, 1.0), (2, 2.0), (3, 1.0)]);
    }
}
