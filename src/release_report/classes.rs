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

use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap};
use std::hash::{BuildHasher, Hasher};

use proxima_core::attacker::{victim_figures, GroupBoxes};
use proxima_core::audit::AuditCheck;
use proxima_core::error::CoreResult;
use proxima_core::generalize::Release;
use proxima_core::params::K;
use proxima_core::table::QiValues;
use proxima_core::Table;

use super::MAX_LISTED;

/// The uploaded table's classes of identical QI values, as the report uses
/// them: their size distribution and the smallest ones. Nothing per row or
/// per class is kept (a 500k-row table has about as many classes as rows).
pub struct RawClasses {
    /// `(size, classes of that size)`, ascending by size.
    pub frequencies: Vec<(usize, usize)>,
    /// `sizes[c]` and `first[c]` (the class's first row, to print its QI
    /// values): the [`MAX_LISTED`] smallest classes, by size then first
    /// row, smallest first.
    pub sizes: Vec<u32>,
    pub first: Vec<u32>,
}

/// One QI column's values as keys: +0.0 and -0.0 are one value (otherwise
/// f64s are their bits), leaf codes and days as integers.
enum Key<'a> {
    Numeric(&'a [f64]),
    Code(&'a [u32]),
    Day(&'a [i32]),
}

impl Key<'_> {
    #[inline]
    fn bits(&self, r: usize) -> u64 {
        match self {
            Key::Numeric(v) => (v[r] + 0.0).to_bits(),
            Key::Code(v) => v[r] as u64,
            Key::Day(v) => v[r] as i64 as u64,
        }
    }
}

/// Hash buckets the rows are spread over: about 8 rows a bucket, at most
/// 2^16 of them (the buckets' offsets are 256 KiB then, whatever the rows).
const MAX_BUCKETS: usize = 1 << 16;

/// The classes of identical QI values. Rows are laid out by a hash of their
/// QI values into buckets (a permutation of row indices, 4 bytes a row,
/// freed on return: no per-row key and no map of every class), each bucket
/// is sorted by the values, and each run of equal values is one class.
pub fn raw_classes(table: &Table) -> RawClasses {
    let keys: Vec<Key<'_>> = table
        .qis()
        .iter()
        .map(|c| match &c.values {
            QiValues::Numeric(v) => Key::Numeric(v),
            QiValues::Categorical { codes, .. } => Key::Code(codes),
            QiValues::Date(v) => Key::Day(v),
        })
        .collect();
    let n = table.rows();
    let buckets = (n / 8).next_power_of_two().min(MAX_BUCKETS);
    // foldhash, not SipHash: the keys are our own (no flooding concern).
    let state = foldhash::fast::FixedState::default();
    let bucket = |r: usize| -> usize {
        let mut h = state.build_hasher();
        keys.iter().for_each(|k| h.write_u64(k.bits(r)));
        h.finish() as usize & (buckets - 1)
    };
    // Counting sort of the rows by bucket: `start[b]..start[b + 1]`.
    let mut start = vec![0u32; buckets + 1];
    (0..n).for_each(|r| start[bucket(r) + 1] += 1);
    for b in 0..buckets {
        start[b + 1] += start[b];
    }
    let mut next = start.clone();
    let mut order = vec![0u32; n];
    for r in 0..n {
        let b = bucket(r);
        order[next[b] as usize] = r as u32;
        next[b] += 1;
    }
    drop(next);
    let cmp = |a: &u32, b: &u32| -> Ordering {
        let (a, b) = (*a as usize, *b as usize);
        keys.iter()
            .map(|k| k.bits(a).cmp(&k.bits(b)))
            .find(|o| o.is_ne())
            .unwrap_or(Ordering::Equal)
    };
    let mut per_size: HashMap<usize, usize> = HashMap::new();
    // A max-heap of the smallest (size, first row) seen: the top is the
    // largest of them, evicted when a smaller class comes.
    let mut smallest: BinaryHeap<(u32, u32)> = BinaryHeap::with_capacity(MAX_LISTED + 1);
    for b in 0..buckets {
        let rows = &mut order[start[b] as usize..start[b + 1] as usize];
        rows.sort_unstable_by(cmp);
        for class in rows.chunk_by(|a, b| cmp(a, b).is_eq()) {
            let size = class.len() as u32;
            let first = *class.iter().min().expect("a run is never empty");
            *per_size.entry(size as usize).or_default() += 1;
            smallest.push((size, first));
            if smallest.len() > MAX_LISTED {
                smallest.pop();
            }
        }
    }
    drop(order);
    let mut frequencies: Vec<(usize, usize)> = per_size.into_iter().collect();
    frequencies.sort_unstable();
    let (sizes, first) = smallest.into_sorted_vec().into_iter().unzip();
    RawClasses {
        frequencies,
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
        // Classes {0, 1}, {2}, {3}, {4, 5}: smallest first, then by row.
        assert_eq!(c.frequencies, vec![(1, 2), (2, 2)]);
        assert_eq!(c.sizes, vec![1, 1, 2, 2]);
        assert_eq!(c.first, vec![2, 3, 0, 4]);
    }

    #[test]
    fn raw_classes_agree_with_a_map_of_every_class() {
        // 3,000 rows over few values: classes of every size from 1 up, more
        // than MAX_LISTED of the smallest size, and ties broken by row.
        let mut x = 7u64;
        let mut next = |m: u64| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) % m
        };
        let n = 3000;
        let a: Vec<f64> = (0..n).map(|_| next(12) as f64 - 3.0).collect();
        let b: Vec<i32> = (0..n).map(|_| (next(40) * next(40) / 40) as i32).collect();
        let t = Table::from_columns(
            vec![
                ("a".into(), QiValues::Numeric(a.clone())),
                ("b".into(), QiValues::Date(b.clone())),
            ],
            vec![],
        );
        let mut map: HashMap<(u64, i32), (u32, u32)> = HashMap::new();
        for r in 0..n {
            let e = map
                .entry(((a[r] + 0.0).to_bits(), b[r]))
                .or_insert((0, r as u32));
            e.0 += 1;
        }
        let mut all: Vec<(u32, u32)> = map.into_values().collect();
        all.sort();
        let c = raw_classes(&t);
        let mut per_size = std::collections::BTreeMap::new();
        all.iter()
            .for_each(|&(s, _)| *per_size.entry(s as usize).or_insert(0) += 1);
        assert_eq!(c.frequencies, per_size.into_iter().collect::<Vec<_>>());
        assert!(all.iter().filter(|&&(s, _)| s == 1).count() > MAX_LISTED);
        let (sizes, first): (Vec<u32>, Vec<u32>) = all.into_iter().take(MAX_LISTED).unzip();
        assert_eq!(c.sizes, sizes);
        assert_eq!(c.first, first);
    }

    #[test]
    fn frequencies_count_classes_per_size() {
        // Two classes of 2, one of 3, one unique.
        let f = frequencies_of_records([2, 2, 3, 1, 2, 3, 3, 2].into_iter());
        assert_eq!(f, vec![(1, 1.0), (2, 2.0), (3, 1.0)]);
    }
}
