//! A sample's population table (`population: {"dataset_id": …}`): checked
//! at upload against the population's stored schema and statistics, so a
//! job or audit never meets a population that cannot hold the sample.
//!
//! For each of the sample's quasi-identifiers the population must have a
//! quasi-identifier of the same name and type; numeric and date values must
//! lie inside the population's range; a categorical QI with a declared
//! hierarchy needs the population to declare one of the same height in
//! which every sample leaf has the same ancestors (labels are matched as
//! text, so a release's label covers the same population values it covers
//! in the sample's hierarchy). Every mismatch is listed, each at the
//! sample column's pointer (`/columns/{i}`), in one `population_mismatch`.

use proxima_core::error::CoreResult;
use proxima_core::schema::{Role, ValueType};
use proxima_core::{CoreError, ErrorKind, Schema};

use super::dataset::DatasetColumnDto;

/// One side of the comparison: a parsed schema, its column statistics and
/// its rows.
pub struct Side<'a> {
    pub schema: &'a Schema,
    pub columns: &'a [DatasetColumnDto],
    pub rows: u64,
}

fn type_name(t: Option<ValueType>) -> &'static str {
    match t {
        Some(ValueType::Numeric) => "numeric",
        Some(ValueType::Categorical) => "categorical",
        Some(ValueType::Date) => "date",
        None => "untyped",
    }
}

/// Checks that `population` can be the population of `sample`.
pub fn check_population(sample: &Side<'_>, population: &Side<'_>) -> CoreResult<()> {
    let mut errors: Vec<(String, String)> = Vec::new();
    if population.rows < sample.rows {
        errors.push((
            "/population/dataset_id".into(),
            format!(
                "the population table has {} rows, fewer than the sample's {}",
                population.rows, sample.rows
            ),
        ));
    }
    let stats = |side: &Side<'_>, name: &str| side.columns.iter().find(|c| c.name == name).cloned();
    for (i, ours) in sample.schema.columns().iter().enumerate() {
        if ours.role != Role::QuasiIdentifier {
            continue;
        }
        let at = format!("/columns/{i}");
        let name = &ours.name;
        let Some((_, theirs)) = population.schema.column(name) else {
            errors.push((at, format!("the population table has no column '{name}'")));
            continue;
        };
        if theirs.role != Role::QuasiIdentifier {
            errors.push((
                at,
                format!("'{name}' is not a quasi-identifier of the population table"),
            ));
            continue;
        }
        if theirs.value_type != ours.value_type {
            errors.push((
                format!("{at}/type"),
                format!(
                    "'{name}' is {} in the sample but {} in the population table",
                    type_name(ours.value_type),
                    type_name(theirs.value_type)
                ),
            ));
            continue;
        }
        match ours.value_type {
            Some(ValueType::Numeric | ValueType::Date) => {
                let (Some(s), Some(p)) = (stats(sample, name), stats(population, name)) else {
                    continue;
                };
                if let (Some(smin), Some(smax), Some(pmin), Some(pmax)) =
                    (s.min, s.max, p.min, p.max)
                {
                    if smin < pmin || smax > pmax {
                        errors.push((
                            at,
                            format!(
                                "'{name}' ranges over [{smin}, {smax}] in the sample, outside \
                                 the population table's [{pmin}, {pmax}]"
                            ),
                        ));
                    }
                }
            }
            Some(ValueType::Categorical) => {
                let Some(h) = &ours.hierarchy else { continue };
                let Some(ph) = &theirs.hierarchy else {
                    errors.push((
                        format!("{at}/hierarchy"),
                        format!(
                            "'{name}' has a hierarchy in the sample but none in the population \
                             table: declare the same hierarchy on both"
                        ),
                    ));
                    continue;
                };
                if h.height() != ph.height() {
                    errors.push((
                        format!("{at}/hierarchy"),
                        format!(
                            "the hierarchy of '{name}' has {} levels in the sample but {} in \
                             the population table",
                            h.height(),
                            ph.height()
                        ),
                    ));
                    continue;
                }
                let differing: Vec<&str> = (0..h.leaf_count() as u32)
                    .filter(|&leaf| {
                        let label = h.leaf_label(leaf);
                        match ph.leaf_code(label) {
                            None => true,
                            Some(pl) => (1..=h.height()).any(|level| {
                                h.label(level, h.ancestor(leaf, level))
                                    != ph.label(level, ph.ancestor(pl, level))
                            }),
                        }
                    })
                    .map(|leaf| h.leaf_label(leaf))
                    .take(5)
                    .collect();
                if !differing.is_empty() {
                    errors.push((
                        format!("{at}/hierarchy"),
                        format!(
                            "the hierarchy of '{name}' differs from the population table's \
                             (missing there, or with other ancestors): {}",
                            differing
                                .iter()
                                .map(|l| format!("'{l}'"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    ));
                }
            }
            None => {}
        }
    }
    if errors.is_empty() {
        return Ok(());
    }
    let mut err = CoreError::new(
        ErrorKind::PopulationMismatch,
        format!(
            "the population table does not fit the sample: {}",
            errors[0].1
        ),
    );
    for (pointer, message) in errors {
        err = err.with_error(pointer, message);
    }
    Err(err)
}
