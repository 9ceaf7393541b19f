//! What the published table is a sample of (docs/api.md: the dataset's
//! `population`): the population models need the population size N, or
//! equivalently the sampling fraction π = n / N for a sample of n records.

use crate::error::{CoreError, CoreResult, Field};

/// The population a table was sampled from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Population {
    /// N people in the population (N ≥ 1; the service also checks N ≥ the
    /// table's rows with [`Population::check_rows`]).
    Size(u64),
    /// π = n / N, in (0, 1]; 1 means the table is the whole population.
    SamplingFraction(f64),
}

impl Population {
    /// A population of `size` people; `invalid_schema` at
    /// `/population/size` when 0.
    pub fn size(size: u64) -> CoreResult<Population> {
        if size == 0 {
            return Err(CoreError::invalid_schema(
                Field::Population("size"),
                "the population size must be at least 1",
            ));
        }
        Ok(Population::Size(size))
    }

    /// A sampling fraction; `invalid_schema` at `/population/sampling_fraction`
    /// unless finite and in (0, 1].
    pub fn sampling_fraction(fraction: f64) -> CoreResult<Population> {
        if !fraction.is_finite() || fraction <= 0.0 || fraction > 1.0 {
            return Err(CoreError::invalid_schema(
                Field::Population("sampling_fraction"),
                format!("the sampling fraction must be in (0, 1], got {fraction}"),
            ));
        }
        Ok(Population::SamplingFraction(fraction))
    }

    /// `invalid_schema` at `/population/size` when the population is
    /// smaller than the sample of `rows` records it is said to contain.
    pub fn check_rows(&self, rows: usize) -> CoreResult<()> {
        match *self {
            Population::Size(n) if (n as u128) < rows as u128 => Err(CoreError::invalid_schema(
                Field::Population("size"),
                format!("the population ({n}) cannot be smaller than the table ({rows} rows)"),
            )),
            _ => Ok(()),
        }
    }

    /// N for a sample of `rows` records. From a sampling fraction, N =
    /// round(n / π) (as ARX's `ARXPopulationModel` derives it), never below
    /// n; at least 1.
    pub fn population_size(&self, rows: usize) -> f64 {
        let n = match *self {
            Population::Size(n) => n as f64,
            Population::SamplingFraction(f) => (rows as f64 / f).round(),
        };
        n.max(rows as f64).max(1.0)
    }

    /// The population as a size, N resolved for a sample of `rows`
    /// records (the upload's data rows). Pass this to
    /// [`super::population_uniqueness`] for a subset of the upload (a
    /// release that left rows out): the population stays the dataset's,
    /// only the sample shrinks.
    pub fn as_size(&self, rows: usize) -> Population {
        Population::Size(self.population_size(rows) as u64)
    }

    /// π = n / N for a sample of `rows` records, in [0, 1]: the models use
    /// this (as ARX does) rather than a given fraction, so a fraction and
    /// the size it implies give the same figures.
    pub fn sampling_fraction_for(&self, rows: usize) -> f64 {
        (rows as f64 / self.population_size(rows)).min(1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;

    #[test]
    fn parsing_rejects_what_cannot_be_a_population() {
        assert_eq!(Population::size(10).unwrap(), Population::Size(10));
        let e = Population::size(0).unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidSchema);
        for bad in [0.0, -0.1, 1.0001, f64::NAN, f64::INFINITY] {
            assert!(Population::sampling_fraction(bad).is_err(), "{bad}");
        }
        assert!(Population::sampling_fraction(1.0).is_ok());
        assert!(Population::sampling_fraction(1e-9).is_ok());
        assert!(Population::Size(99).check_rows(100).is_err());
        assert!(Population::Size(100).check_rows(100).is_ok());
        assert!(Population::SamplingFraction(0.5).check_rows(100).is_ok());
    }

    #[test]
    fn size_and_fraction_agree() {
        let by_fraction = Population::SamplingFraction(0.01);
        assert_eq!(by_fraction.population_size(30_162), 3_016_200.0);
        assert_eq!(by_fraction.sampling_fraction_for(30_162), 0.01);
        let by_size = Population::Size(3_016_200);
        assert_eq!(by_size.sampling_fraction_for(30_162), 0.01);
        // Rounding: 7 / 0.3 = 23.33 → N = 23, π = 7/23.
        let f = Population::SamplingFraction(0.3);
        assert_eq!(f.population_size(7), 23.0);
        assert!((f.sampling_fraction_for(7) - 7.0 / 23.0).abs() < 1e-15);
        assert_eq!(
            Population::SamplingFraction(1.0).sampling_fraction_for(5),
            1.0
        );
    }
}
