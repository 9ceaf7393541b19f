//! Summary statistics of a case's timed runs.

use serde::Serialize;

/// Median, minimum and maximum of a sample, in the sample's unit.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Stats {
    pub median: f64,
    pub min: f64,
    pub max: f64,
}

impl Stats {
    /// `None` for an empty sample. The median of an even count is the mean
    /// of the two middle values. NaNs sort last (`total_cmp`).
    pub fn of(sample: &[f64]) -> Option<Stats> {
        if sample.is_empty() {
            return None;
        }
        let mut v = sample.to_vec();
        v.sort_by(f64::total_cmp);
        let mid = v.len() / 2;
        let median = if v.len() % 2 == 1 {
            v[mid]
        } else {
            (v[mid - 1] + v[mid]) / 2.0
        };
        Some(Stats {
            median,
            min: v[0],
            max: v[v.len() - 1],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odd_and_even_samples() {
        assert_eq!(
            Stats::of(&[3.0, 1.0, 2.0]),
            Some(Stats {
                median: 2.0,
                min: 1.0,
                max: 3.0
            })
        );
        assert_eq!(
            Stats::of(&[4.0, 1.0, 3.0, 2.0]),
            Some(Stats {
                median: 2.5,
                min: 1.0,
                max: 4.0
            })
        );
        assert_eq!(
            Stats::of(&[0.25]),
            Some(Stats {
                median: 0.25,
                min: 0.25,
                max: 0.25
            })
        );
    }

    #[test]
    fn empty_sample_has_no_stats() {
        assert_eq!(Stats::of(&[]), None);
    }

    #[test]
    fn order_and_duplicates_do_not_matter() {
        let a = Stats::of(&[5.0, 5.0, 1.0, 9.0, 5.0]).unwrap();
        let b = Stats::of(&[9.0, 5.0, 5.0, 5.0, 1.0]).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.median, 5.0);
    }
}
