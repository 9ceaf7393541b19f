//! Auditing a stored table or a job's release (`POST /v1/audits`): the
//! checks run on the loaded tables — per group, in the attacker's view, and
//! against the population tables the checks name. The handler finds the
//! inputs (the dataset, the job's assignment of rows to groups, the
//! population tables) and maps the answer; this computes it.

use proxima_core::attacker::{self, GroupBoxes, Victims};
use proxima_core::audit::{group_by_column, group_by_published_qis, AuditCheck};
use proxima_core::population::{self, PopulationIndex};
use proxima_core::risk::suda::PublishedQis;
use proxima_core::run::Anonymized;
use proxima_core::table::Table;
use proxima_core::{CoreError, ErrorKind, Partition, Progress};
use uuid::Uuid;

use crate::api::audit::split_checks;
use crate::api::audit_report::{CheckReportDto, ViewDto};
use crate::api::{AuditReportDto, AuditRequestDto, GroupsDto};
use crate::app::tables::load_stored_with_progress;
use crate::store::datasets::{DatasetFiles, DatasetRow};

/// The audit report of `request` on the stored table `dataset` (its
/// stored schema document and files): by its
/// groups (`assignment` = None: the grouping the request names) or as the
/// job whose `assignment` maps rows to groups published it. `populations`
/// are the population tables the checks name, each once. The attacker's
/// view is bounded by `view_budget` bytes.
pub fn audit_stored(
    request: &AuditRequestDto,
    dataset: (&serde_json::Value, &DatasetFiles),
    populations: &[(Uuid, DatasetRow, DatasetFiles)],
    assignment: Option<Vec<u32>>,
    view_budget: usize,
    progress: Progress<'_>,
) -> Result<AuditReportDto, CoreError> {
    let (schema, files) = dataset;
    let view = request.view();
    let table = load_stored_with_progress(schema, files, progress.sub(0.0, 0.2))?;
    let share = 0.2 / (populations.len() + 1) as f64;
    let populations = populations
        .iter()
        .enumerate()
        .map(|(j, (id, row, files))| {
            let at = progress.sub(0.2 + share * j as f64, 0.2 + share * (j + 1) as f64);
            Ok((*id, load_stored_with_progress(&row.schema, files, at)?))
        })
        .collect::<Result<Vec<(Uuid, Table)>, CoreError>>()?;
    let progress = progress.sub(0.4, 1.0);
    let split = split_checks(&request.checks, table.schema())?;
    let checks = &split.table;
    let run = |table: &Table,
               partition: &Partition,
               ids: Option<&[String]>,
               qis: PublishedQis,
               boxes: Option<(GroupBoxes, Victims)>| {
        let report = proxima_core::audit::audit_published(
            table, partition, ids, checks, qis, None, progress,
        )?;
        Ok::<_, CoreError>(match boxes {
            None => AuditReportDto::from(&report),
            Some((boxes, victims)) => {
                // Table-wide scans (special uniques) read what is
                // published and are the same in both views.
                let per_victim: Vec<AuditCheck> = checks
                    .iter()
                    .filter(|c| c.judged_per_victim())
                    .cloned()
                    .collect();
                let judged = if per_victim.is_empty() {
                    Vec::new()
                } else {
                    attacker::evaluate_within(
                        table,
                        partition,
                        &boxes,
                        victims,
                        &per_victim,
                        ids,
                        view_budget,
                        None,
                        progress,
                    )?
                };
                let mut judged = judged.iter();
                let view: Vec<_> = checks
                    .iter()
                    .map(|c| c.judged_per_victim().then(|| judged.next()).flatten())
                    .collect();
                AuditReportDto::from_partial_view(&report, &view, ids)
            }
        })
    };
    // The population checks, in the request's order among the
    // others: each class counted over every population record its
    // labels cover (the attacker's view, in either view).
    let with_population = |mut dto: AuditReportDto,
                           table: &Table,
                           partition: &Partition,
                           ids: Option<&[String]>,
                           boxes: &GroupBoxes,
                           original_points: bool| {
        for check in &split.population {
            let at = format!("/checks/{}/population_dataset_id", check.index);
            let population = populations
                .iter()
                .find(|(id, _)| *id == check.population)
                .map(|(_, t)| t)
                .ok_or_else(|| CoreError::internal("a population table not loaded"))?;
            let index = PopulationIndex::for_boxes(table, boxes, population, &at, progress)?;
            let counts = population::class_counts(&index, boxes);
            if check.model.needs_subset() {
                if original_points {
                    population::check_subset(table, &index, &at)?;
                } else {
                    population::check_class_subset(partition, &counts, &at)?;
                }
            }
            let report = population::judge(&check.model, partition, &counts, ids);
            dto.passed &= report.passed;
            let at = check.index.min(dto.checks.len());
            dto.checks.insert(at, CheckReportDto::from(&report));
        }
        Ok::<_, CoreError>(dto)
    };
    let needs_boxes = !split.population.is_empty();
    match assignment {
        Some(assignment) => {
            // Rows the job suppressed are not part of its release.
            let anonymized = Anonymized::from_assignment(&table, &assignment)?;
            let kept = anonymized.table(&table);
            let release = &anonymized.release;
            let boxes = (view == ViewDto::Attacker || needs_boxes)
                .then(|| GroupBoxes::from_release(kept, release));
            let judged = boxes.clone().filter(|_| view == ViewDto::Attacker);
            let dto = run(
                kept,
                release.partition(),
                None,
                PublishedQis::Release(release),
                judged.map(|b| (b, Victims::OriginalPoints)),
            )
            .map_err(|e| split.renumber(e))?;
            match boxes.filter(|_| needs_boxes) {
                Some(b) => with_population(dto, kept, release.partition(), None, &b, true),
                None => Ok(dto),
            }
        }
        None => {
            let (partition, ids) = match &request.groups {
                GroupsDto::QuasiIdentifiers {} => group_by_published_qis(&table),
                GroupsDto::Column { column } => {
                    let (index, _) = table.schema().column(column).ok_or_else(|| {
                        CoreError::new(
                            ErrorKind::UnknownColumn,
                            format!("the groups column '{column}' is not in the dataset"),
                        )
                        .with_error("/groups/column", "no such column in the dataset")
                    })?;
                    group_by_column(&table, index)?
                }
            };
            let boxes = (view == ViewDto::Attacker || needs_boxes)
                .then(|| GroupBoxes::from_labels(&table, &partition))
                .transpose()?;
            let judged = boxes.clone().filter(|_| view == ViewDto::Attacker);
            let dto = run(
                &table,
                &partition,
                Some(&ids),
                PublishedQis::AsStored,
                judged.map(|b| (b, Victims::AnyPointOfItsBox)),
            )
            .map_err(|e| split.renumber(e))?;
            match boxes.filter(|_| needs_boxes) {
                Some(b) => with_population(dto, &table, &partition, Some(&ids), &b, false),
                None => Ok(dto),
            }
        }
    }
}
