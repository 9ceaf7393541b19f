//! The release report's warnings, each computed from the data with the
//! figures that justify it and a named threshold (see each module):
//!
//! * [`association`]: an insensitive column strongly associated with the
//!   SA (how much of the SA it gives away);
//! * [`fine_grained`]: an insensitive column that makes records unique
//!   (it acts as a quasi-identifier);
//! * [`ungeneralized`]: a QI left almost ungeneralized while others were
//!   generalized;
//! * [`suppression`]: suppression concentrated in one value of a QI.
//!
//! Each measurement has `fires()` (does it warn) and `message()` (what to
//! tell the officer); [`Warning`] wraps the ones that fire.

pub mod association;
pub mod bins;
pub mod fine_grained;
pub mod suppression;
pub mod ungeneralized;

#[cfg(test)]
mod tests;

pub use association::{
    association_bins, sa_association, sa_associations, AssociationFigures, SaAssociation,
    ASSOCIATION_BINS, ASSOCIATION_WARNING, RECORDS_PER_BIN,
};
pub use bins::Bins;
pub use fine_grained::{
    fine_grained_column, fine_grained_columns, BelowK, FineGrainedColumn, FINE_GRAINED_SHARE,
};
pub use suppression::{
    suppression_concentration, suppression_in_bins, SuppressionConcentration, CONCENTRATION_EXCESS,
    CONCENTRATION_LIFT, MIN_SUPPRESSED, SUPPRESSION_BINS,
};
pub use ungeneralized::{
    ungeneralized_qis, UngeneralizedQi, GENERALIZED_ELSEWHERE_NCP, UNGENERALIZED_NCP,
};

/// A warning that fired, with its figures.
#[derive(Debug, Clone, PartialEq)]
pub enum Warning {
    SaAssociation(SaAssociation),
    FineGrainedColumn(FineGrainedColumn),
    UngeneralizedQi(UngeneralizedQi),
    SuppressionConcentrated(SuppressionConcentration),
}

impl Warning {
    /// A stable name for the kind of warning.
    pub fn kind(&self) -> &'static str {
        match self {
            Warning::SaAssociation(_) => "sa_association",
            Warning::FineGrainedColumn(_) => "fine_grained_column",
            Warning::UngeneralizedQi(_) => "ungeneralized_qi",
            Warning::SuppressionConcentrated(_) => "suppression_concentrated",
        }
    }

    /// What to tell the officer.
    pub fn message(&self) -> String {
        match self {
            Warning::SaAssociation(w) => w.message(),
            Warning::FineGrainedColumn(w) => w.message(),
            Warning::UngeneralizedQi(w) => w.message(),
            Warning::SuppressionConcentrated(w) => w.message(),
        }
    }

    /// Only the measurements that fire, as warnings, in the order given.
    pub fn collect(
        associations: &[SaAssociation],
        fine_grained: &[FineGrainedColumn],
        ungeneralized: &[UngeneralizedQi],
        suppression: &[SuppressionConcentration],
    ) -> Vec<Warning> {
        let a = associations
            .iter()
            .filter(|w| w.fires())
            .cloned()
            .map(Warning::SaAssociation);
        let f = fine_grained
            .iter()
            .filter(|w| w.fires())
            .cloned()
            .map(Warning::FineGrainedColumn);
        let u = ungeneralized
            .iter()
            .filter(|w| w.fires())
            .cloned()
            .map(Warning::UngeneralizedQi);
        let s = suppression
            .iter()
            .filter(|w| w.fires())
            .cloned()
            .map(Warning::SuppressionConcentrated);
        a.chain(f).chain(u).chain(s).collect()
    }
}
