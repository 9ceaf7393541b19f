//! Special uniques: minimal sample uniques (MSUs) and the SUDA scores of
//! Elliot, Manning & Ford (2002), "A computational algorithm for handling
//! the special uniques problem", found by SUDA2's recursive search (Manning,
//! Haglin & Keane 2008, "A recursive search algorithm for statistical
//! disclosure assessment", Data Min. Knowl. Disc. 16:165–196), as sdcMicro's
//! `suda2` computes them.
//!
//! A record's *sample unique* is a set of its column values that no other
//! record shares; it is *minimal* when no proper subset is unique. A record
//! with a small MSU stands out through a combination an attacker can know
//! (age 17 and widowed) even when every single value is common.
//!
//! Scores (sdcMicro's `suda2` documentation, `original_scores = TRUE`): with
//! ATT the number of columns scanned and M the largest MSU size searched,
//! an MSU of size k scores ∏_{i=k}^{M} (ATT − i) — the factor for i = ATT
//! (zero) left out, so that with M = ATT a k-MSU scores (ATT − k)!, which is
//! what sdcMicro (always searching every size) computes. A record's SUDA
//! score is the sum over its MSUs. DIS-SUDA (sdcMicro's `disScore`) turns
//! the scores into the probability that a match on the record is correct
//! under the Data Intrusion Simulation with sampling fraction f:
//! `dis = 1 / (1 + P(1 − f) / (f · s^Q · Σ_t s_t^{−Q}))`, with P the records
//! in classes of exactly two over every column, Q = 1 + (8 − ATT)/20 and
//! the sum over records with a positive score; 0 for a score of 0. (sdcMicro
//! writes the first term as `U/DIS − U` with `DIS = U f / (U f + P (1 − f))`,
//! U the sample uniques; the two are equal.)
//!
//! [`KeyColumns`] is what one scan reads (codes per column, built from a
//! table by [`keys`]); [`suda`] runs the search ([`mod@search`]) and scores
//! it into a [`Suda`]. Pure: no I/O.

pub mod keys;
mod search;

#[cfg(test)]
mod brute;
#[cfg(test)]
mod tests;

use crate::error::{CoreError, CoreResult, Field};
use crate::progress::Progress;

pub use keys::{key_columns, KeyScope, PublishedQis};

/// A cell that matches nothing (a missing value of an insensitive column):
/// it is never part of an MSU.
pub const MISSING: u32 = u32::MAX;

/// The largest `max_size` accepted: the search's cost grows with the number
/// of column subsets up to that size.
pub const MAX_MSU_SIZE: usize = 16;

/// sdcMicro's default `DisFraction`.
pub const DEFAULT_DIS_FRACTION: f64 = 0.01;

/// The default largest MSU size (sdcMicro's examples and the API's default).
pub const DEFAULT_MAX_SIZE: usize = 4;

/// The columns one scan reads: per column a code per record (equal codes =
/// equal published values; [`MISSING`] matches nothing). Invariants: at
/// least one column, equal lengths, codes below the column's cardinality.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyColumns {
    names: Vec<String>,
    codes: Vec<Vec<u32>>,
    /// Per column, one more than its largest code (0 when all missing).
    cardinality: Vec<usize>,
    rows: usize,
}

impl KeyColumns {
    /// Columns from codes; codes need not be dense (they are renumbered
    /// when sparse). Internal error on no columns, unequal lengths, more
    /// than 65,535 columns or 2³² rows.
    pub fn new(names: Vec<String>, codes: Vec<Vec<u32>>) -> CoreResult<KeyColumns> {
        if names.is_empty() || names.len() != codes.len() {
            return Err(CoreError::internal(format!(
                "{} column names for {} key columns",
                names.len(),
                codes.len()
            )));
        }
        if names.len() > u16::MAX as usize {
            return Err(CoreError::internal("more than 65,535 key columns"));
        }
        let rows = codes[0].len();
        if codes.iter().any(|c| c.len() != rows) || u32::try_from(rows).is_err() {
            return Err(CoreError::internal("key columns differ in length"));
        }
        let mut codes = codes;
        let cardinality = codes.iter_mut().map(|c| densify(c)).collect();
        Ok(KeyColumns {
            names,
            codes,
            cardinality,
            rows,
        })
    }

    pub fn names(&self) -> &[String] {
        &self.names
    }
    pub fn codes(&self) -> &[Vec<u32>] {
        &self.codes
    }
    pub fn rows(&self) -> usize {
        self.rows
    }
    pub fn columns(&self) -> usize {
        self.names.len()
    }
    pub(crate) fn cardinality(&self) -> &[usize] {
        &self.cardinality
    }
}

/// Renumbers `column`'s codes densely (in order of value) when its largest
/// code is not below its length; returns the cardinality. Scratch arrays of
/// the search are indexed by code, so they stay as small as the column.
fn densify(column: &mut [u32]) -> usize {
    let max = column.iter().filter(|&&c| c != MISSING).max().copied();
    let Some(max) = max else { return 0 };
    if (max as usize) < column.len().max(1) {
        return max as usize + 1;
    }
    let mut distinct: Vec<u32> = column.iter().copied().filter(|&c| c != MISSING).collect();
    distinct.sort_unstable();
    distinct.dedup();
    for c in column.iter_mut().filter(|c| **c != MISSING) {
        *c = distinct.binary_search(c).expect("collected above") as u32;
    }
    distinct.len()
}

/// The largest MSU size searched: 1 ..= [`MAX_MSU_SIZE`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MaxSize(usize);

impl MaxSize {
    /// `invalid_parameters` at `field` outside 1 ..= [`MAX_MSU_SIZE`].
    pub fn new(size: u64, field: impl Into<Field>) -> CoreResult<MaxSize> {
        if size == 0 || size > MAX_MSU_SIZE as u64 {
            return Err(CoreError::invalid_parameters(
                field,
                format!("max_size must be an integer from 1 to {MAX_MSU_SIZE}, got {size}"),
            ));
        }
        Ok(MaxSize(size as usize))
    }
    pub fn get(self) -> usize {
        self.0
    }
}

impl Default for MaxSize {
    fn default() -> Self {
        MaxSize(DEFAULT_MAX_SIZE)
    }
}

/// DIS-SUDA's sampling fraction: in (0, 1].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DisFraction(f64);

impl DisFraction {
    /// `invalid_parameters` at `field` outside (0, 1].
    pub fn new(f: f64, field: impl Into<Field>) -> CoreResult<DisFraction> {
        if !(f > 0.0 && f <= 1.0) {
            return Err(CoreError::invalid_parameters(
                field,
                format!("dis_fraction must be a number in (0, 1], got {f}"),
            ));
        }
        Ok(DisFraction(f))
    }
    pub fn get(self) -> f64 {
        self.0
    }
}

impl Default for DisFraction {
    fn default() -> Self {
        DisFraction(DEFAULT_DIS_FRACTION)
    }
}

/// One MSU: its record and its columns (indexes into the scan's columns,
/// ascending).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Msu {
    pub row: u32,
    pub columns: Vec<u16>,
}

/// A scan's result, per record and over the table.
#[derive(Debug, Clone, PartialEq)]
pub struct Suda {
    /// The columns scanned.
    pub columns: Vec<String>,
    /// The largest MSU size searched: `max_size` capped at the number of
    /// columns.
    pub max_size: usize,
    /// Per record: the SUDA score (0 without an MSU).
    pub scores: Vec<f64>,
    /// Per record: the DIS-SUDA score.
    pub dis: Vec<f64>,
    /// Per record: its number of MSUs.
    pub msus: Vec<u32>,
    /// Per record with an MSU: its smallest (fewest columns, then first in
    /// column order).
    pub smallest: Vec<Option<Box<[u16]>>>,
    /// MSUs of each size (index k − 1 for size k).
    pub msus_by_size: Vec<usize>,
    /// Per column: its share of the total score in percent (sdcMicro's
    /// attribute contributions: each MSU's score counts for every column
    /// in it, so the shares add up to more than 100).
    pub contributions: Vec<f64>,
    /// Records unique over every column scanned.
    pub sample_uniques: usize,
}

impl Suda {
    pub fn records_with_msu(&self) -> usize {
        self.msus.iter().filter(|&&m| m > 0).count()
    }
    pub fn max_score(&self) -> f64 {
        self.scores.iter().copied().fold(0.0, f64::max)
    }
    pub fn max_dis(&self) -> f64 {
        self.dis.iter().copied().fold(0.0, f64::max)
    }
    /// DIS-SUDA averaged over every record.
    pub fn mean_dis(&self) -> f64 {
        if self.dis.is_empty() {
            0.0
        } else {
            self.dis.iter().sum::<f64>() / self.dis.len() as f64
        }
    }
    /// At most `n` records with an MSU, highest score first (then smallest
    /// MSU, then record order).
    pub fn worst(&self, n: usize) -> Vec<usize> {
        let mut rows: Vec<usize> = (0..self.scores.len())
            .filter(|&r| self.msus[r] > 0)
            .collect();
        let size = |r: usize| self.smallest[r].as_ref().map_or(usize::MAX, |s| s.len());
        rows.sort_by(|&a, &b| {
            self.scores[b]
                .total_cmp(&self.scores[a])
                .then(size(a).cmp(&size(b)))
                .then(a.cmp(&b))
        });
        rows.truncate(n);
        rows
    }
    /// The names of `row`'s smallest MSU's columns (empty without one).
    pub fn smallest_names(&self, row: usize) -> Vec<&str> {
        self.smallest[row]
            .iter()
            .flat_map(|s| s.iter())
            .map(|&c| self.columns[c as usize].as_str())
            .collect()
    }
}

/// The score of one MSU of `size` columns in a scan of `att` columns
/// searching up to `max_size` (module doc).
pub fn msu_weight(size: usize, max_size: usize, att: usize) -> f64 {
    let top = max_size.min(att.saturating_sub(1));
    (size..=top).map(|i| (att - i) as f64).product()
}

/// Finds every MSU of `keys` up to `max_size` columns and scores them.
/// Cancellation through `progress` (checked between the search's subtables).
pub fn suda(
    keys: &KeyColumns,
    max_size: MaxSize,
    dis_fraction: DisFraction,
    progress: Progress,
) -> CoreResult<Suda> {
    progress.report(0.0)?;
    let max = max_size.get().min(keys.columns());
    let found = search::msus(keys, max, progress.sub(0.0, 0.95))?;
    let out = score(keys, max, dis_fraction, &found);
    progress.report(1.0)?;
    Ok(out)
}

/// Every MSU of `keys` up to `max_size` columns (capped at the number of
/// columns), sorted by record then columns.
pub fn minimal_sample_uniques(keys: &KeyColumns, max_size: MaxSize) -> CoreResult<Vec<Msu>> {
    let max = max_size.get().min(keys.columns());
    let mut found = search::msus(keys, max, Progress::none())?;
    found.sort_unstable();
    Ok(found)
}

/// Scores the MSUs found (module doc).
fn score(keys: &KeyColumns, max_size: usize, f: DisFraction, found: &[Msu]) -> Suda {
    let n = keys.rows();
    let att = keys.columns();
    let mut scores = vec![0.0; n];
    let mut msus = vec![0u32; n];
    let mut smallest: Vec<Option<Box<[u16]>>> = vec![None; n];
    let mut by_size = vec![0usize; max_size];
    let mut column_score = vec![0.0; att];
    for m in found {
        let r = m.row as usize;
        let w = msu_weight(m.columns.len(), max_size, att);
        scores[r] += w;
        msus[r] += 1;
        by_size[m.columns.len() - 1] += 1;
        for &c in &m.columns {
            column_score[c as usize] += w;
        }
        let better = match &smallest[r] {
            None => true,
            Some(s) => (m.columns.len(), &m.columns[..]) < (s.len(), &s[..]),
        };
        if better {
            smallest[r] = Some(m.columns.clone().into_boxed_slice());
        }
    }
    let total: f64 = scores.iter().sum();
    let contributions = column_score
        .iter()
        .map(|&s| if total > 0.0 { 100.0 * s / total } else { 0.0 })
        .collect();
    let (uniques, in_pairs) = class_counts(keys);
    let dis = dis_scores(&scores, att, in_pairs, f.get());
    Suda {
        columns: keys.names().to_vec(),
        max_size,
        scores,
        dis,
        msus,
        smallest,
        msus_by_size: by_size,
        contributions,
        sample_uniques: uniques,
    }
}

/// DIS-SUDA per record (module doc): `in_pairs` records in classes of
/// exactly two, `f` the sampling fraction.
fn dis_scores(scores: &[f64], att: usize, in_pairs: usize, f: f64) -> Vec<f64> {
    let q = 1.0 + (8.0 - att as f64) / 20.0;
    let adj: f64 = scores
        .iter()
        .filter(|&&s| s > 0.0)
        .map(|&s| s.powf(-q))
        .sum();
    let odds = in_pairs as f64 * (1.0 - f) / f;
    scores
        .iter()
        .map(|&s| {
            if s > 0.0 {
                1.0 / (1.0 + odds / (s.powf(q) * adj))
            } else {
                0.0
            }
        })
        .collect()
}

/// (records unique over every column, records in classes of exactly two):
/// classes refined column by column (equal codes, [`MISSING`] included, are
/// equal values here, as sdcMicro compares whole records).
fn class_counts(keys: &KeyColumns) -> (usize, usize) {
    let n = keys.rows();
    let mut class = vec![0u32; n];
    let mut ids: std::collections::HashMap<(u32, u32), u32, foldhash::fast::RandomState> =
        std::collections::HashMap::default();
    for column in keys.codes() {
        ids.clear();
        for (c, &v) in class.iter_mut().zip(column) {
            let next = ids.len() as u32;
            *c = *ids.entry((*c, v)).or_insert(next);
        }
    }
    let mut sizes = vec![0u32; n.max(1)];
    for &c in &class {
        sizes[c as usize] += 1;
    }
    let uniques = sizes.iter().filter(|&&s| s == 1).count();
    let pairs = sizes.iter().filter(|&&s| s == 2).count() * 2;
    (uniques, pairs)
}
