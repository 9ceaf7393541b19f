//! The computed warnings: `proxima_core::risk::warnings` measures, the
//! service picks the tables they run on and renders the ones that fire.
//!
//! * SA association: every insensitive column against every SA column over
//!   the published rows (the raw table for a failed job).
//! * Fine-grained insensitive column: over the release's groups (for a
//!   failed job, the raw table grouped by its QI values), with the model's k.
//! * QI almost ungeneralized: over the release.
//! * Suppression concentrated in one QI value: over every row of the
//!   uploaded table, suppressed by the model or not (rows suppressed for
//!   missing values have no values to bin). The `external` report names
//!   the QI but not the value: suppressed rows are the riskiest records.

use crate::api::ModelDto;
use proxima_core::audit::group_by_published_qis;
use proxima_core::error::CoreResult;
use proxima_core::risk::warnings::{
    fine_grained_columns, sa_associations, suppression_concentration, ungeneralized_qis, Bins,
    Warning as CoreWarning, ASSOCIATION_WARNING, CONCENTRATION_EXCESS, FINE_GRAINED_SHARE,
    SUPPRESSION_BINS, UNGENERALIZED_NCP,
};
use proxima_core::run::Anonymized;
use proxima_core::Table;

use super::content::{Audience, Warning};

/// `table` is the uploaded table; `model` the job's model (for its k).
pub fn warnings(
    table: &Table,
    anonymized: Option<&Anonymized>,
    model: &ModelDto,
    audience: Audience,
) -> CoreResult<Vec<Warning>> {
    let k = model_k(model);
    let fired = match anonymized {
        None => {
            let (grouped, _) = group_by_published_qis(table);
            CoreWarning::collect(
                &sa_associations(table),
                &fine_grained_columns(table, &grouped, k),
                &[],
                &[],
            )
        }
        Some(a) => {
            let kept = a.table(table);
            let release = &a.release;
            let suppression = match &a.kept {
                Some(k) if k.suppressed > 0 => {
                    let mut suppressed = vec![true; table.rows()];
                    k.original_rows
                        .iter()
                        .for_each(|&r| suppressed[r as usize] = false);
                    table
                        .qis()
                        .iter()
                        .filter_map(|qi| {
                            let bins = Bins::of_qi(qi, SUPPRESSION_BINS);
                            suppression_concentration(
                                &qi.name,
                                bins.codes
                                    .iter()
                                    .zip(&suppressed)
                                    .map(|(&c, &s)| (bins.labels[c as usize].as_str(), s)),
                            )
                        })
                        .collect()
                }
                _ => Vec::new(),
            };
            CoreWarning::collect(
                &sa_associations(kept),
                &fine_grained_columns(kept, release.partition(), k),
                &ungeneralized_qis(kept, release),
                &suppression,
            )
        }
    };
    Ok(fired.iter().map(|w| to_dto(w, audience)).collect())
}

/// The k a model promises (its own k, or m for (ε,m): a group of fewer
/// than m rows cannot be (ε,m)-anonymous).
/// The model's smallest group size (k, or m for (ε,m)), when it has one.
fn model_k(model: &ModelDto) -> Option<usize> {
    let k = match model {
        ModelDto::EpsilonM { m, .. } => Some(m),
        ModelDto::Dissimilarity { k, .. } | ModelDto::KAnonymity { k } => Some(k),
        ModelDto::LDiversity { k, .. } | ModelDto::TCloseness { k, .. } => k.as_ref(),
        // k-map's k counts population records, not the release's rows.
        ModelDto::KMap { .. } | ModelDto::DeltaPresence { .. } => None,
    };
    k.and_then(serde_json::Number::as_u64).map(|k| k as usize)
}

fn to_dto(w: &CoreWarning, audience: Audience) -> Warning {
    let kind = w.kind().to_string();
    match w {
        CoreWarning::SaAssociation(a) => Warning {
            kind,
            column: a.column.clone(),
            message: w.message(),
            value: a.strength,
            threshold: ASSOCIATION_WARNING,
            below_k_share: None,
        },
        CoreWarning::FineGrainedColumn(f) => Warning {
            kind,
            column: f.column.clone(),
            message: w.message(),
            value: if f.records == 0 {
                0.0
            } else {
                f.newly_unique() as f64 / f.records as f64
            },
            threshold: FINE_GRAINED_SHARE,
            below_k_share: f.below_k.map(|b| b.after as f64 / f.records.max(1) as f64),
        },
        CoreWarning::UngeneralizedQi(u) => Warning {
            kind,
            column: u.qi.clone(),
            message: w.message(),
            value: u.ncp,
            threshold: UNGENERALIZED_NCP,
            below_k_share: None,
        },
        CoreWarning::SuppressionConcentrated(s) => {
            let message = match audience {
                Audience::Internal => w.message(),
                Audience::External => s.message_without_value(),
            };
            Warning {
                kind,
                column: s.qi.clone(),
                message,
                value: s.share_of_suppressed() - s.share_of_table(),
                threshold: CONCENTRATION_EXCESS,
                below_k_share: None,
            }
        }
    }
}
