//! Population uniqueness: how many people in the population are alone in
//! their QI class, estimated from the sample (ARX's
//! `RiskModelPopulationUniqueness`).
//!
//! Three models estimate the number of population uniques from the
//! sample's class sizes and the population size N: [`pitman`] (Hoshino
//! 2001), [`zayatz`] (Zayatz 1991) and [`snb`] (Chen & Keller-McNulty
//! 1998). Dankar, El Emam, Neisa & Roffey (2012, "Estimating the
//! re-identification risk of clinical data sets", *BMC Medical Informatics
//! and Decision Making* 12:66) compared them on clinical data and derived
//! a decision rule, which we apply exactly as ARX does
//! (`getNumUniqueTuplesDankar` with the Zayatz fallback on):
//!
//! 1. no sample uniques (f₁ = 0): every estimate is 0, no model is chosen;
//! 2. sampling fraction π ≤ 0.1: Pitman, if it gives a valid estimate
//!    (converged, not NaN, not 0); otherwise Zayatz;
//! 3. π > 0.1: if SNB gives a valid estimate, the smaller of Zayatz and
//!    SNB (Zayatz when strictly smaller, SNB otherwise); otherwise Zayatz.
//!
//! If the chosen value is itself not valid (NaN or 0), ARX reports 0; so
//! do we (with [`Choice::NoValidEstimate`]). The population-uniqueness
//! fraction is uniques / N, as ARX's `getFractionOfUniqueTuples*`.
//!
//! Unlike ARX, which solves only the models the rule needs, all three are
//! always computed so a report can show each beside the choice.

use super::classes::ClassSizes;
use super::estimate::Estimate;
use super::pitman::pitman;
use super::population::Population;
use super::snb::snb;
use super::zayatz::zayatz;

/// Dankar's rule uses Pitman at or below this sampling fraction, SNB and
/// Zayatz above it (Dankar et al. 2012, as ARX applies it).
pub const PITMAN_MAX_SAMPLING_FRACTION: f64 = 0.1;

/// A population-uniqueness model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UniquenessModel {
    Pitman,
    Zayatz,
    Snb,
}

impl UniquenessModel {
    pub fn name(self) -> &'static str {
        match self {
            UniquenessModel::Pitman => "pitman",
            UniquenessModel::Zayatz => "zayatz",
            UniquenessModel::Snb => "snb",
        }
    }
}

/// Which branch of Dankar's rule decided, and so why its model was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    /// f₁ = 0: no record is unique in the sample, so none is estimated
    /// unique in the population; no model is consulted.
    NoSampleUniques,
    /// π ≤ 0.1 and Pitman gave a valid estimate.
    PitmanSmallFraction,
    /// π ≤ 0.1 but Pitman did not converge or gave no valid estimate:
    /// Zayatz, ARX's fallback.
    ZayatzPitmanFailed,
    /// π > 0.1, SNB valid, and Zayatz's estimate is strictly smaller.
    ZayatzBelowSnb,
    /// π > 0.1, SNB valid and not above Zayatz's estimate.
    SnbNotAboveZayatz,
    /// π > 0.1 but SNB did not converge or gave no valid estimate.
    ZayatzSnbFailed,
    /// The chosen model's value was not valid (NaN or 0): reported as 0.
    NoValidEstimate(UniquenessModel),
}

impl Choice {
    /// The model whose estimate is reported, if any.
    pub fn model(self) -> Option<UniquenessModel> {
        match self {
            Choice::NoSampleUniques | Choice::NoValidEstimate(_) => None,
            Choice::PitmanSmallFraction => Some(UniquenessModel::Pitman),
            Choice::ZayatzPitmanFailed | Choice::ZayatzBelowSnb | Choice::ZayatzSnbFailed => {
                Some(UniquenessModel::Zayatz)
            }
            Choice::SnbNotAboveZayatz => Some(UniquenessModel::Snb),
        }
    }

    /// A stable name for the branch.
    pub fn name(self) -> &'static str {
        match self {
            Choice::NoSampleUniques => "no_sample_uniques",
            Choice::PitmanSmallFraction => "pitman_small_fraction",
            Choice::ZayatzPitmanFailed => "zayatz_pitman_failed",
            Choice::ZayatzBelowSnb => "zayatz_below_snb",
            Choice::SnbNotAboveZayatz => "snb_not_above_zayatz",
            Choice::ZayatzSnbFailed => "zayatz_snb_failed",
            Choice::NoValidEstimate(_) => "no_valid_estimate",
        }
    }

    /// One sentence an officer can read.
    pub fn explanation(self) -> String {
        match self {
            Choice::NoSampleUniques => "No record is unique in the sample, so none is estimated to be unique in the population.".into(),
            Choice::PitmanSmallFraction => "The sampling fraction is at most 0.1, where Dankar et al. found Pitman's model the most accurate.".into(),
            Choice::ZayatzPitmanFailed => "The sampling fraction is at most 0.1, but Pitman's model did not converge; Zayatz's model is used instead.".into(),
            Choice::ZayatzBelowSnb => "The sampling fraction is above 0.1; Dankar et al. take the smaller of the SNB and Zayatz estimates, here Zayatz's.".into(),
            Choice::SnbNotAboveZayatz => "The sampling fraction is above 0.1; Dankar et al. take the smaller of the SNB and Zayatz estimates, here SNB's.".into(),
            Choice::ZayatzSnbFailed => "The sampling fraction is above 0.1, but the SNB model did not converge; Zayatz's model is used.".into(),
            Choice::NoValidEstimate(m) => format!("The rule chose the {} model, which gave no valid estimate; population uniqueness is reported as 0.", m.name()),
        }
    }
}

/// Population uniqueness of one table under one population.
#[derive(Debug, Clone, PartialEq)]
pub struct PopulationUniqueness {
    /// N.
    pub population_size: f64,
    /// π = n / N.
    pub sampling_fraction: f64,
    /// f₁.
    pub sample_uniques: usize,
    pub pitman: Estimate,
    pub zayatz: Estimate,
    pub snb: Estimate,
    pub choice: Choice,
    /// Expected number of population uniques by Dankar's rule.
    pub uniques: f64,
    /// uniques / N.
    pub fraction: f64,
}

/// Population uniqueness of the classes `classes` of a sample of
/// `population`, with each model and Dankar's choice. An empty table has
/// no uniques.
pub fn population_uniqueness(classes: &ClassSizes, population: Population) -> PopulationUniqueness {
    let n = classes.records();
    let big_n = population.population_size(n);
    let fraction = population.sampling_fraction_for(n);
    let pitman = pitman(classes, big_n);
    let zayatz = zayatz(classes, big_n);
    let snb = snb(classes, big_n);
    let choice = dankar(classes.classes_of_size(1), fraction, pitman, zayatz, snb);
    let uniques = match choice.model() {
        Some(UniquenessModel::Pitman) => pitman.uniques(),
        Some(UniquenessModel::Zayatz) => zayatz.uniques(),
        Some(UniquenessModel::Snb) => snb.uniques(),
        None => None,
    }
    .unwrap_or(0.0);
    PopulationUniqueness {
        population_size: big_n,
        sampling_fraction: fraction,
        sample_uniques: classes.classes_of_size(1),
        pitman,
        zayatz,
        snb,
        choice,
        uniques,
        fraction: uniques / big_n,
    }
}

/// Dankar et al.'s decision rule over the three estimates (module docs).
pub fn dankar(
    sample_uniques: usize,
    sampling_fraction: f64,
    pitman: Estimate,
    zayatz: Estimate,
    snb: Estimate,
) -> Choice {
    if sample_uniques == 0 {
        return Choice::NoSampleUniques;
    }
    let (choice, chosen) = if sampling_fraction <= PITMAN_MAX_SAMPLING_FRACTION {
        if pitman.is_valid() {
            (Choice::PitmanSmallFraction, pitman)
        } else {
            (Choice::ZayatzPitmanFailed, zayatz)
        }
    } else if snb.is_valid() {
        // Both valid here only if Zayatz is; ARX compares the raw values
        // (an invalid Zayatz of 0 would be "smaller" and then fail below).
        let z = zayatz.uniques().unwrap_or(f64::NAN);
        let s = snb.uniques().unwrap_or(f64::NAN);
        if z < s {
            (Choice::ZayatzBelowSnb, zayatz)
        } else {
            (Choice::SnbNotAboveZayatz, snb)
        }
    } else {
        (Choice::ZayatzSnbFailed, zayatz)
    };
    if chosen.is_valid() {
        choice
    } else {
        Choice::NoValidEstimate(choice.model().expect("every branch names a model"))
    }
}
