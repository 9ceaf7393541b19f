//! Leaf label → leaf code: the lookup every categorical cell of an upload
//! makes.
//!
//! **Why not a map keyed by the label.** Hashing a `String` key and then
//! comparing it (a `memcmp` call) cost about a fifth of parsing adult
//! 600k. Labels are short: one of at most 16 bytes is read as two
//! overlapping words (its first and last eight bytes, or four, or its few
//! bytes), which with its length determine it, so the lookup hashes and
//! compares integers. Longer labels keep a map by their text.

use std::collections::HashMap;

use super::LabelMap;

/// A short label's words and length (see the module doc).
type Packed = (u128, u8);

#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct LeafIndex {
    short: HashMap<Packed, u32, foldhash::fast::RandomState>,
    long: LabelMap,
}

impl LeafIndex {
    pub(crate) fn insert(&mut self, label: &str, code: u32) {
        match pack(label.as_bytes()) {
            Some(key) => self.short.insert(key, code),
            None => self.long.insert(label.to_string(), code),
        };
    }

    #[inline]
    pub(crate) fn get(&self, label: &str) -> Option<u32> {
        match pack(label.as_bytes()) {
            Some(key) => self.short.get(&key).copied(),
            None => self.long.get(label).copied(),
        }
    }
}

/// The words of a label of at most 16 bytes, with its length; `None` for
/// a longer one. Overlapping reads cover every byte, and for a given length
/// they are at fixed places, so two labels get the same key only if they
/// are equal.
#[inline]
fn pack(b: &[u8]) -> Option<Packed> {
    let n = b.len();
    let word = |s: &[u8]| u64::from_le_bytes(s.try_into().expect("eight bytes"));
    let half = |s: &[u8]| u64::from(u32::from_le_bytes(s.try_into().expect("four bytes")));
    let (lo, hi) = match n {
        8..=16 => (word(&b[..8]), word(&b[n - 8..])),
        4..=7 => (half(&b[..4]) | half(&b[n - 4..]) << 32, 0),
        0..=3 => (
            b.iter()
                .enumerate()
                .fold(0u64, |x, (i, &c)| x | u64::from(c) << (8 * i)),
            0,
        ),
        _ => return None,
    };
    Some((u128::from(lo) | u128::from(hi) << 64, n as u8))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_label_finds_its_own_code_and_no_other() {
        // Every length around the word sizes, labels that share their
        // first or last bytes, and labels with NUL bytes.
        let mut labels: Vec<String> = Vec::new();
        for n in 0..=20 {
            labels.push("a".repeat(n));
            labels.push(format!("{}b", "a".repeat(n)));
            labels.push(format!("b{}", "a".repeat(n)));
            labels.push(format!("{}\0", "a".repeat(n)));
            labels.push(format!("\0{}", "a".repeat(n)));
        }
        labels.push("Self-emp-not-inc".into());
        labels.push("Outlying-US(Guam-USVI-etc)".into());
        labels.sort();
        labels.dedup();
        let mut index = LeafIndex::default();
        for (code, label) in labels.iter().enumerate() {
            index.insert(label, code as u32);
        }
        for (code, label) in labels.iter().enumerate() {
            assert_eq!(index.get(label), Some(code as u32), "{label:?}");
        }
        for absent in ["c", "aaaaaaaac", "caaaaaaaaaaaaaaa", "aaaa\0aaa", "é"] {
            assert_eq!(index.get(absent), None, "{absent:?}");
        }
    }
}
