//! Warning: suppression concentrated in one value of a QI.
//!
//! Rows left out of a release (by the model, to satisfy it, or for
//! missing values) are usually the unusual ones. When most of them share
//! one value of a QI, the release under-represents that subgroup (a bias
//! every analysis of it inherits) and the gap itself tells an attacker
//! who is missing. For each value v of the QI (numeric and date QIs in
//! [`SUPPRESSION_BINS`] quantile bins), with S suppressed rows of T and
//! s_v of the t_v rows with value v suppressed:
//!
//! * share among suppressed s_v / S, beside the share in the table t_v / T;
//! * the value's suppression rate s_v / t_v, beside the overall S / T.
//!
//! The reported value is the one whose share among suppressed rows most
//! exceeds its share in the table (the largest s_v/S − t_v/T). The warning
//! fires when S ≥ [`MIN_SUPPRESSED`], the excess is ≥
//! [`CONCENTRATION_EXCESS`] and the value is suppressed at least
//! [`CONCENTRATION_LIFT`] times as often as the table overall.

use std::collections::HashMap;

use super::bins::Bins;

/// Quantile bins for numeric and date QIs: deciles, so "one value" is a
/// tenth of the records.
pub const SUPPRESSION_BINS: usize = 10;

/// Fewer suppressed rows than this say nothing about concentration (one
/// or two rows always "concentrate" in some value).
pub const MIN_SUPPRESSED: usize = 10;

/// The value's share among suppressed rows must exceed its share in the
/// table by 25 percentage points: a quarter of all suppression is then
/// attributable to that value alone.
pub const CONCENTRATION_EXCESS: f64 = 0.25;

/// …and its rows must be suppressed at least twice as often as the
/// table's, so a value that is simply most of the table does not warn.
pub const CONCENTRATION_LIFT: f64 = 2.0;

/// The most over-represented value among suppressed rows.
#[derive(Debug, Clone, PartialEq)]
pub struct SuppressionConcentration {
    pub qi: String,
    pub value: String,
    /// s_v and S.
    pub suppressed_with_value: usize,
    pub suppressed: usize,
    /// t_v and T (suppressed rows included).
    pub rows_with_value: usize,
    pub rows: usize,
}

impl SuppressionConcentration {
    /// s_v / S.
    pub fn share_of_suppressed(&self) -> f64 {
        ratio(self.suppressed_with_value, self.suppressed)
    }
    /// t_v / T.
    pub fn share_of_table(&self) -> f64 {
        ratio(self.rows_with_value, self.rows)
    }
    /// s_v / t_v.
    pub fn value_rate(&self) -> f64 {
        ratio(self.suppressed_with_value, self.rows_with_value)
    }
    /// S / T.
    pub fn overall_rate(&self) -> f64 {
        ratio(self.suppressed, self.rows)
    }

    pub fn fires(&self) -> bool {
        self.suppressed >= MIN_SUPPRESSED
            && self.share_of_suppressed() - self.share_of_table() >= CONCENTRATION_EXCESS
            && self.value_rate() >= CONCENTRATION_LIFT * self.overall_rate()
    }

    /// The message for the release officer, naming the value.
    pub fn message(&self) -> String {
        self.message_naming(&format!("{} = {}", self.qi, self.value))
    }

    /// The message for an external reader: the same figures, naming the
    /// QI but not its value (the suppressed rows are the riskiest records,
    /// and their value is a QI value of theirs).
    pub fn message_without_value(&self) -> String {
        self.message_naming(&format!("one value of {}", self.qi))
    }

    fn message_naming(&self, what: &str) -> String {
        format!(
            "{} of the {} suppressed rows ({:.0}%) have {what}, which holds {:.0}% of the table: \
             {:.1}% of its rows were suppressed against {:.1}% overall. The release under-represents them.",
            self.suppressed_with_value,
            self.suppressed,
            100.0 * self.share_of_suppressed(),
            100.0 * self.share_of_table(),
            100.0 * self.value_rate(),
            100.0 * self.overall_rate(),
        )
    }
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

/// The concentration of suppression over one QI: `rows` gives every row
/// of the upload (published and suppressed) as `(value label, suppressed)`.
/// For a QI of the table, [`suppression_in_bins`] does the same faster and
/// puts numeric values into deciles. `None` when no row was suppressed.
pub fn suppression_concentration<S: AsRef<str>>(
    qi: &str,
    rows: impl IntoIterator<Item = (S, bool)>,
) -> Option<SuppressionConcentration> {
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut labels: Vec<String> = Vec::new();
    let mut counts: Vec<(usize, usize)> = Vec::new();
    for (label, suppressed) in rows {
        let label = label.as_ref();
        let i = match index.get(label) {
            Some(&i) => i,
            None => {
                index.insert(label.to_string(), labels.len());
                labels.push(label.to_string());
                counts.push((0, 0));
                labels.len() - 1
            }
        };
        counts[i].0 += 1;
        counts[i].1 += usize::from(suppressed);
    }
    most_concentrated(qi, &labels, &counts)
}

/// The same over a QI coded with [`Bins::of_qi`] (deciles for numbers and
/// dates, [`SUPPRESSION_BINS`]): `bins.codes[r]` and `suppressed[r]` for
/// every row r of the table the bins were built from (the job's table
/// before it left rows out), plus `outside`, the categories of suppressed
/// rows that are not in that table (rows left out for missing values,
/// placed with [`Bins::code_of_text`]; a missing cell has no category and
/// is simply not listed). `None` when no row was suppressed.
pub fn suppression_in_bins(
    qi: &str,
    bins: &Bins,
    suppressed: &[bool],
    outside: &[u32],
) -> Option<SuppressionConcentration> {
    let mut counts = vec![(0usize, 0usize); bins.len()];
    for (&c, &s) in bins.codes.iter().zip(suppressed) {
        counts[c as usize].0 += 1;
        counts[c as usize].1 += usize::from(s);
    }
    for &c in outside {
        counts[c as usize].0 += 1;
        counts[c as usize].1 += 1;
    }
    most_concentrated(qi, &bins.labels, &counts)
}

/// The category with the largest excess share among suppressed rows
/// (ties: the first); `counts[i]` = (rows, suppressed rows).
fn most_concentrated(
    qi: &str,
    labels: &[String],
    counts: &[(usize, usize)],
) -> Option<SuppressionConcentration> {
    let total: usize = counts.iter().map(|c| c.0).sum();
    let suppressed: usize = counts.iter().map(|c| c.1).sum();
    if suppressed == 0 {
        return None;
    }
    let mut best: Option<(f64, usize)> = None;
    for (i, &(t, s)) in counts.iter().enumerate() {
        let excess = ratio(s, suppressed) - ratio(t, total);
        if best.is_none_or(|(b, _)| excess > b) {
            best = Some((excess, i));
        }
    }
    let (_, i) = best?;
    Some(SuppressionConcentration {
        qi: qi.to_string(),
        value: labels[i].clone(),
        suppressed_with_value: counts[i].1,
        suppressed,
        rows_with_value: counts[i].0,
        rows: total,
    })
}
