//! Re-identification risk of a published table, for the release report:
//! what the table is a sample of ([`Population`]), sample-based risk
//! ([`reidentification`]: prosecutor, journalist, marketer, sample
//! uniques), population uniqueness ([`population_uniqueness`]: the Pitman,
//! Zayatz and SNB models chosen by Dankar's rule) and the report's
//! warnings ([`warnings`]).
//!
//! Every measure reads the equivalence classes of the table (records that
//! share their published QI values) through [`ClassSizes`], the
//! frequency-of-frequencies table. The definitions follow ARX
//! (`org.deidentifier.arx.risk`) and the papers it implements; each file
//! states its formulas and sources:
//! * [`mod@sample`]: El Emam (2013), Dankar & El Emam (2010);
//! * [`uniqueness`]: Dankar, El Emam, Neisa & Roffey (2012), "Estimating
//!   the re-identification risk of clinical data sets", BMC Med. Inform.
//!   Decis. Mak. 12:66;
//! * [`mod@pitman`]: Hoshino (2001), after Pitman's sampling formula (Pitman
//!   1995, "Exchangeable and partially exchangeable random partitions");
//! * [`mod@zayatz`]: Zayatz (1991);
//! * [`mod@snb`]: Chen & Keller-McNulty (1998), with Haas & Stokes' (1998)
//!   form of Shlosser's estimator.
//!
//! Feeding it from a job (what the release report does), with `table` the
//! job's table, `kept` the table of the rows it published (the same when
//! it suppressed none) and `release` its release over `kept`:
//! * risk before: `ClassSizes::from_partition(&audit::group_by_published_qis(&table).0)`;
//! * risk after: `ClassSizes::from_release(&release)` (groups publishing
//!   identical values are one class: [`published_classes`]);
//! * both: [`reidentification`], and [`population_uniqueness`] with the
//!   dataset's population resolved once, `population.as_size(upload rows)`,
//!   so a release with fewer rows is a smaller sample of the same N;
//! * warnings: `sa_associations(&kept)`, `fine_grained_columns(&kept,
//!   &published_classes(&release), k)`, `ungeneralized_qis(&kept,
//!   &release)`, and per QI of `table`, `suppression_in_bins(name,
//!   &Bins::of_qi(qi, SUPPRESSION_BINS), &suppressed_by_model, &outside)`.
//!
//! Pure: no I/O, no JSON; the service renders these values.

mod classes;
pub mod estimate;
mod newton;
pub mod pitman;
mod population;
pub mod sample;
pub mod snb;
mod special;
pub mod suda;
pub mod uniqueness;
pub mod warnings;
pub mod zayatz;

#[cfg(test)]
mod tests;

pub use classes::{published_classes, ClassSizes};
pub use estimate::Estimate;
pub use pitman::pitman;
pub use population::Population;
pub use sample::{reidentification, ProsecutorRisk, Reidentification};
pub use snb::snb;
pub use uniqueness::{
    dankar, population_uniqueness, Choice, PopulationUniqueness, UniquenessModel,
};
pub use zayatz::zayatz;
