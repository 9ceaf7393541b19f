//! Risk before and after: `proxima_core::risk` over the classes of
//! [`super::classes`]. The measures themselves (prosecutor, journalist,
//! marketer, sample uniques, population uniqueness by Dankar's rule) are
//! the core's; this file only feeds them and names the figures.

use proxima_core::error::CoreResult;
use proxima_core::risk::{population_uniqueness, reidentification, ClassSizes, Population};

use super::classes::{frequencies_of_records, RawClasses};
use super::content::{PopulationTableRisk, PopulationUniqueness, RiskFigures};

/// The uploaded table's classes of identical QI values. `p` is the
/// dataset's population as a size (`Population::as_size` of the rows
/// uploaded), the same for the figures before and after.
pub fn figures_before(raw: &RawClasses, p: Option<Population>) -> CoreResult<RiskFigures> {
    let classes = ClassSizes::from_frequencies(raw.frequencies.iter().copied());
    figures(&classes, p)
}

/// Candidate-set sizes per victim (`classes::candidate_sizes`). Victims
/// with |C| = s make ⌈victims / s⌉ classes of size s: exact when candidate
/// sets partition the rows (disjoint boxes), and never fewer classes —
/// so never a lower marketer risk — when they overlap.
pub fn figures_after(candidates: &[u32], p: Option<Population>) -> CoreResult<RiskFigures> {
    let freq = frequencies_of_records(candidates.iter().copied());
    let classes = ClassSizes::from_frequencies(
        freq.iter()
            .map(|&(size, classes)| (size as usize, classes.ceil() as usize)),
    );
    figures(&classes, p)
}

fn figures(classes: &ClassSizes, p: Option<Population>) -> CoreResult<RiskFigures> {
    let r = reidentification(classes);
    let population_uniqueness = match p {
        None => None,
        Some(p) => {
            let u = population_uniqueness(classes, p);
            Some(PopulationUniqueness {
                model: u.choice.model().map(|m| m.name().to_string()),
                rule: u.choice.name().to_string(),
                explanation: u.choice.explanation(),
                uniques: u.uniques,
                share: u.fraction,
                population_size: u.population_size,
                sampling_fraction: u.sampling_fraction,
                pitman: u.pitman.uniques(),
                zayatz: u.zayatz.uniques(),
                snb: u.snb.uniques(),
            })
        }
    };
    Ok(RiskFigures {
        records: r.records as u64,
        classes: r.classes as u64,
        min_class_size: if classes.is_empty() {
            0
        } else {
            classes.min_size() as u64
        },
        prosecutor_max: r.prosecutor.max,
        prosecutor_average: r.prosecutor.average,
        records_at_max: r.prosecutor.records_at_max as u64,
        journalist_max: r.journalist.max,
        marketer: r.marketer,
        sample_uniques: r.sample_uniques as u64,
        sample_uniques_share: r.sample_uniques_fraction,
        population_uniqueness,
        population_table: None,
    })
}

/// Puts the population table's journalist risk (`counts[g]`: the
/// population records class g's labels cover) into `figures`; its
/// `journalist_max` becomes the table's exact figure.
pub fn with_population_table(
    figures: &mut RiskFigures,
    partition: &proxima_core::Partition,
    counts: &[u64],
    population_rows: usize,
) {
    let j = proxima_core::population::journalist_risk(partition, counts);
    figures.journalist_max = j.max;
    figures.population_table = Some(PopulationTableRisk {
        population_rows: population_rows as u64,
        min_population_count: counts.iter().copied().min().unwrap_or(0),
        journalist_max: j.max,
        journalist_average: j.average,
        records_at_max: j.records_at_max as u64,
        population_uniques: partition
            .groups
            .iter()
            .zip(counts)
            .filter(|(_, &c)| c == 1)
            .map(|(g, _)| g.len() as u64)
            .sum(),
    });
}
