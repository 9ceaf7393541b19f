//! Re-identification risk measured on the sample itself (ARX's
//! `RiskModelSampleRisks`, `RiskModelSampleUniqueness`,
//! `RiskModelSampleSummary`; El Emam, *Guide to the De-Identification of
//! Personal Health Information*, 2013, ch. "Measuring the probability of
//! re-identification"; Dankar & El Emam 2010, "A method for evaluating
//! marketer re-identification risk").
//!
//! A record in an equivalence class of size f is re-identified with
//! probability 1/f by an attacker who knows its QI values and knows it is
//! in the table:
//! * **prosecutor** (the attacker knows the target is in the table):
//!   highest risk max 1/f_j = 1/min f_j; average over records
//!   Σ_j f_j·(1/f_j) / n = u/n (classes over records); records at the
//!   highest risk = those in the smallest classes.
//! * **journalist** (the attacker does not know whether the target is in
//!   the table, and matches against the population): the risk of a record
//!   is 1/F_j where F_j ≥ f_j is its class's size in the population. With
//!   only a population size or sampling fraction, the F_j are unknown; ARX
//!   then bounds F_j ≥ f_j and reports the prosecutor figures as the
//!   journalist risk (`getEstimatedJournalistRisk` = 1/min f_j;
//!   `RiskModelSampleSummary` with no population table uses the sample as
//!   its own population). We do the same and say so: it is an upper bound.
//!   Where the population enters is population uniqueness (see
//!   [`super::uniqueness`]).
//! * **marketer** (the attacker re-identifies as many records as possible,
//!   not one target): the expected share re-identified, Σ_j f_j / F_j / n;
//!   with F_j bounded by f_j it is u/n (ARX: `getEstimatedMarketerRisk` =
//!   1 / average class size).
//! * **sample uniques**: records alone in their class (f₁ of them), and
//!   their share f₁/n.

use super::classes::ClassSizes;

/// Prosecutor re-identification risk (1/|G| for a record in group G),
/// the audit's and the sample-based risk's.
#[derive(Debug, Clone, PartialEq)]
pub struct ProsecutorRisk {
    pub max: f64,
    pub average: f64,
    pub records_at_max: usize,
}

/// Sample-based re-identification risk of one table's classes.
#[derive(Debug, Clone, PartialEq)]
pub struct Reidentification {
    /// n.
    pub records: usize,
    /// u.
    pub classes: usize,
    /// Same definition and type as the audit's `risk`.
    pub prosecutor: ProsecutorRisk,
    /// Upper bound: equals the prosecutor figures (see the module docs).
    pub journalist: ProsecutorRisk,
    /// Expected share of records a marketer re-identifies, u/n (upper bound).
    pub marketer: f64,
    /// Records alone in their class (f₁).
    pub sample_uniques: usize,
    /// f₁ / n (0 for an empty table).
    pub sample_uniques_fraction: f64,
    /// The lowest risk of any record: 1 / largest class (0 when empty).
    pub lowest_risk: f64,
}

/// The sample-based risks of `classes` (all 0 for an empty table).
pub fn reidentification(classes: &ClassSizes) -> Reidentification {
    let n = classes.records();
    let u = classes.classes();
    let prosecutor = if n == 0 {
        ProsecutorRisk {
            max: 0.0,
            average: 0.0,
            records_at_max: 0,
        }
    } else {
        let min = classes.min_size();
        ProsecutorRisk {
            max: 1.0 / min as f64,
            average: u as f64 / n as f64,
            records_at_max: min * classes.classes_of_size(min),
        }
    };
    let uniques = classes.classes_of_size(1);
    Reidentification {
        records: n,
        classes: u,
        journalist: prosecutor.clone(),
        marketer: prosecutor.average,
        prosecutor,
        sample_uniques: uniques,
        sample_uniques_fraction: if n == 0 {
            0.0
        } else {
            uniques as f64 / n as f64
        },
        lowest_risk: if n == 0 {
            0.0
        } else {
            1.0 / classes.max_size() as f64
        },
    }
}
