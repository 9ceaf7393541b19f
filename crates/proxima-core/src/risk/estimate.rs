//! One population-uniqueness model's result, shared by the models
//! ([`mod@super::pitman`], [`mod@super::snb`], [`mod@super::zayatz`]) and Dankar's rule
//! that chooses among them ([`super::uniqueness`]).

/// One model's estimate of the number of population uniques.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Estimate {
    /// The expected number of population uniques (0 when the sample has no
    /// uniques, as ARX sets it without solving).
    Uniques(f64),
    /// The model's equations have no root the solver reaches from any of
    /// its start values.
    NotConverged,
    /// The model is not defined on this table (a parameter or the estimate
    /// falls outside its domain, e.g. SNB at π = 1).
    Undefined,
}

impl Estimate {
    /// The estimate, when there is one.
    pub fn uniques(self) -> Option<f64> {
        match self {
            Estimate::Uniques(u) => Some(u),
            _ => None,
        }
    }

    /// ARX's `isValid`: an estimate that is neither missing, NaN nor 0.
    pub fn is_valid(self) -> bool {
        matches!(self, Estimate::Uniques(u) if !u.is_nan() && u != 0.0)
    }
}
