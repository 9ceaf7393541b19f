//! The frequency-of-frequencies table every risk model reads: how many
//! equivalence classes (groups of records sharing their published QI
//! values) there are of each size.

use std::collections::HashMap;

use crate::generalize::{GeneralizedQi, Release};
use crate::partition::Partition;

/// `(class size, number of classes of that size)`, ascending by size, with
/// the totals. ARX calls this the equivalence-class histogram
/// (`RiskModelHistogram`); the papers write f_j for the number of classes
/// of size j in the sample (so f₁ is the number of sample uniques).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ClassSizes {
    entries: Vec<(usize, usize)>,
    records: usize,
    classes: usize,
}

impl ClassSizes {
    /// From the size of every class (sizes 0 are ignored: an empty class
    /// is no class).
    pub fn from_sizes(sizes: impl IntoIterator<Item = usize>) -> ClassSizes {
        let mut all: Vec<usize> = sizes.into_iter().filter(|&s| s > 0).collect();
        all.sort_unstable();
        let mut entries: Vec<(usize, usize)> = Vec::new();
        for s in all {
            match entries.last_mut() {
                Some((size, count)) if *size == s => *count += 1,
                _ => entries.push((s, 1)),
            }
        }
        ClassSizes::from_entries(entries)
    }

    /// From `(size, count)` pairs in any order (repeated sizes add up,
    /// zero sizes and counts are dropped).
    pub fn from_frequencies(pairs: impl IntoIterator<Item = (usize, usize)>) -> ClassSizes {
        let mut pairs: Vec<(usize, usize)> =
            pairs.into_iter().filter(|&(s, c)| s > 0 && c > 0).collect();
        pairs.sort_unstable();
        let mut entries: Vec<(usize, usize)> = Vec::new();
        for (s, c) in pairs {
            match entries.last_mut() {
                Some((size, count)) if *size == s => *count += c,
                _ => entries.push((s, c)),
            }
        }
        ClassSizes::from_entries(entries)
    }

    /// The groups of a partition (a release, or a table grouped by its
    /// published QI values with [`crate::audit::group_by_published_qis`]).
    pub fn from_partition(partition: &Partition) -> ClassSizes {
        ClassSizes::from_sizes(partition.groups.iter().map(Vec::len))
    }

    /// The equivalence classes of a release as an attacker sees them:
    /// groups that publish identical QI values are one class (see
    /// [`published_classes`]).
    pub fn from_release(release: &Release) -> ClassSizes {
        ClassSizes::from_partition(&published_classes(release))
    }

    fn from_entries(entries: Vec<(usize, usize)>) -> ClassSizes {
        ClassSizes {
            records: entries.iter().map(|&(s, c)| s * c).sum(),
            classes: entries.iter().map(|&(_, c)| c).sum(),
            entries,
        }
    }

    /// `(size, classes of that size)`, ascending by size.
    pub fn entries(&self) -> &[(usize, usize)] {
        &self.entries
    }
    /// n: records in all classes.
    pub fn records(&self) -> usize {
        self.records
    }
    /// u: number of classes.
    pub fn classes(&self) -> usize {
        self.classes
    }
    /// f_j: classes of exactly `size` records.
    pub fn classes_of_size(&self, size: usize) -> usize {
        self.entries
            .binary_search_by_key(&size, |&(s, _)| s)
            .map(|i| self.entries[i].1)
            .unwrap_or(0)
    }
    pub fn is_empty(&self) -> bool {
        self.records == 0
    }
    /// The smallest class size (0 when empty).
    pub fn min_size(&self) -> usize {
        self.entries.first().map_or(0, |&(s, _)| s)
    }
    /// The largest class size (0 when empty).
    pub fn max_size(&self) -> usize {
        self.entries.last().map_or(0, |&(s, _)| s)
    }
}

/// The release's rows grouped by their published QI values: groups whose
/// generalizations are identical on every QI print the same labels, so an
/// attacker cannot tell them apart and they form one equivalence class (a
/// partitioner may publish the same box twice, e.g. two Mondrian groups
/// under one categorical ancestor with equal intervals). Classes come in
/// order of their first group; rows keep the release's order.
pub fn published_classes(release: &Release) -> Partition {
    let key = |g: &[GeneralizedQi]| -> Vec<(u8, u64, u64)> {
        g.iter()
            .map(|q| match *q {
                GeneralizedQi::Numeric { lo, hi } => (0, lo.to_bits(), hi.to_bits()),
                GeneralizedQi::Categorical { level, node } => (1, level as u64, node as u64),
                GeneralizedQi::Date { lo, hi } => (2, lo as u64, hi as u64),
            })
            .collect()
    };
    let mut index: HashMap<Vec<(u8, u64, u64)>, usize> = HashMap::new();
    let mut classes: Vec<Vec<u32>> = Vec::new();
    for (rows, g) in release.partition().groups.iter().zip(release.generalized()) {
        let next = classes.len();
        let c = *index.entry(key(g)).or_insert(next);
        if c == next {
            classes.push(Vec::new());
        }
        classes[c].extend_from_slice(rows);
    }
    Partition::new(classes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_the_frequency_of_frequencies() {
        let c = ClassSizes::from_sizes([3, 1, 1, 2, 3, 0, 1]);
        assert_eq!(c.entries(), &[(1, 3), (2, 1), (3, 2)]);
        assert_eq!((c.records(), c.classes()), (11, 6));
        assert_eq!((c.classes_of_size(1), c.classes_of_size(4)), (3, 0));
        assert_eq!((c.min_size(), c.max_size()), (1, 3));
        assert_eq!(
            c,
            ClassSizes::from_frequencies([(3, 2), (1, 2), (2, 1), (1, 1), (5, 0)])
        );
        let p = Partition::new(vec![vec![0, 1], vec![2], vec![3, 4, 5]]);
        assert_eq!(
            ClassSizes::from_partition(&p).entries(),
            &[(1, 1), (2, 1), (3, 1)]
        );
        assert!(ClassSizes::from_sizes([]).is_empty());
    }

    #[test]
    fn groups_publishing_the_same_values_are_one_class() {
        use crate::table::{QiValues, SaValues, Table};
        // Groups {0,1}, {2,3}, {4,5}: the first and third cover age 1–2,
        // the second 5–6. An attacker sees two classes, of 4 and 2.
        let t = Table::from_columns(
            vec![(
                "age".into(),
                QiValues::Numeric(vec![1.0, 2.0, 5.0, 6.0, 2.0, 1.0]),
            )],
            vec![("s".into(), SaValues::Numeric(vec![0.0; 6]))],
        );
        let r = Release::from_assignment(&t, &[0, 0, 1, 1, 2, 2]).unwrap();
        let p = published_classes(&r);
        assert_eq!(p.len(), 2);
        assert_eq!(p.groups[0].len(), 4);
        assert_eq!(ClassSizes::from_release(&r).entries(), &[(2, 1), (4, 1)]);
    }
}
