//! `POST /v1/audits`: audit a table before publication, synchronously — an
//! uploaded dataset grouped by identical QI values or by a column, or a
//! job's result with the given checks.

use axum::extract::State;
use axum::{Extension, Json};
use proxima_core::attacker::{self, GroupBoxes, Victims};
use proxima_core::audit::{group_by_column, group_by_published_qis, AuditCheck};
use proxima_core::risk::suda::PublishedQis;
use proxima_core::run::Anonymized;
use proxima_core::table::Table;
use proxima_core::{CoreError, ErrorKind, Partition};
use serde_json::Value;

use super::auth::Tenant;
use super::error::{ApiError, PROBLEM_JSON};
use super::id::parse_id;
use super::json::ApiJson;
use super::path_docs::{
    ComputationBusy, Internal, NotJson, PayloadTooLarge, ResultNotReady, Unauthorized,
};
use super::AppState;
use crate::api::audit::split_checks;
use crate::api::audit_report::CheckReportDto;
use crate::api::audit_report::ViewDto;
use crate::api::{AuditReportDto, AuditRequestDto, AuditTarget, GroupsDto};
use crate::app::tables::load_stored_with_progress;
use crate::store::datasets::DatasetFiles;
use crate::store::datasets::DatasetRow;
use proxima_core::population::{self, PopulationIndex};
use uuid::Uuid;

#[utoipa::path(
    post,
    path = "/v1/audits",
    operation_id = "create_audit",
    tag = "audits",
    summary = "Audit a dataset or a job's release",
    security(("bearer" = [])),
    request_body(content = crate::api::AuditRequestDto, content_type = "application/json"),
    responses(
        (status = 200, description = "The audit report", body = crate::api::AuditReportDto),
        (status = 400, description = "Unparseable JSON (`malformed_json`), or a dataset stored by an earlier version whose cells hold line breaks without `csv.allow_line_breaks` (`malformed_csv`)", body = crate::api::ProblemDto, content_type = PROBLEM_JSON),
        PayloadTooLarge,
        NotJson,
        Unauthorized,
        (status = 404, description = "No such dataset or job (`not_found`)", body = crate::api::ProblemDto, content_type = PROBLEM_JSON),
        ResultNotReady,
        (status = 422, description = "Invalid request or checks, or more checks than `--max-audit-checks` (`invalid_parameters`, `unknown_column`), a population table that does not fit the audited table (`population_mismatch`: a missing quasi-identifier, another type, or for `delta_presence` a table that is not a subset of it), or an attacker's view that would need more memory than `--max-attacker-view-bytes` (`attacker_view_too_large`, the budget in `details`)", body = crate::api::ProblemDto, content_type = PROBLEM_JSON),
        Internal,
        ComputationBusy,
    )
)]
pub async fn audit(
    State(state): State<AppState>,
    Extension(tenant): Extension<Tenant>,
    ApiJson(body): ApiJson<Value>,
) -> Result<Json<Value>, ApiError> {
    let bytes = serde_json::to_vec(&body).map_err(|e| ApiError::internal(e.into()))?;
    let request = AuditRequestDto::from_json(&bytes)?;
    // Each check is a pass over the table (in the attacker's view, over
    // every victim's candidates): their number bounds the request's time
    // and the report's size.
    let max_checks = state.limits.max_audit_checks.max(1);
    if request.checks.len() > max_checks {
        return Err(ApiError::invalid_parameters(
            "/checks",
            format!(
                "{} checks were asked for; at most {max_checks} are accepted in one audit \
                 (--max-audit-checks): split them over several requests",
                request.checks.len()
            ),
        )
        .with_details(serde_json::json!({
            "checks": request.checks.len(),
            "max_audit_checks": max_checks,
        })));
    }
    // By job: the job's partition on its dataset. By dataset: the grouping
    // the request names.
    let (dataset_id, assignment) = match request.target()? {
        AuditTarget::Dataset(id) => (parse_id(id, "dataset")?, None),
        AuditTarget::Job(id) => {
            let id = parse_id(id, "job")?;
            let job = state
                .store
                .get_job(&tenant.0, id)
                .await?
                .ok_or_else(|| ApiError::not_found("job"))?;
            if job.status != crate::api::JobStatus::Succeeded {
                return Err(ApiError::result_not_ready(job.status.as_str()));
            }
            let stored = state
                .store
                .get_result(&tenant.0, id)
                .await?
                .ok_or_else(|| ApiError::internal(anyhow::anyhow!("job {id} has no result")))?;
            (job.dataset_id, Some(stored.group_of_rows))
        }
    };
    let dataset = state
        .store
        .get_dataset(&tenant.0, dataset_id)
        .await?
        .ok_or_else(|| ApiError::not_found("dataset"))?;
    // The population tables the checks name, each loaded once (404s as a
    // field error of the first check that names it).
    let mut populations: Vec<(Uuid, DatasetRow, DatasetFiles)> = Vec::new();
    for (i, check) in request.checks.iter().enumerate() {
        let at = format!("/checks/{i}");
        let Some((_, id)) = check.population_check(&at)? else {
            continue;
        };
        if populations.iter().any(|(p, ..)| *p == id) {
            continue;
        }
        let row = state
            .store
            .get_dataset(&tenant.0, id)
            .await?
            .ok_or_else(|| {
                ApiError::invalid_parameters(
                    &format!("{at}/population_dataset_id"),
                    format!("the population table {id} is not one of this tenant's datasets"),
                )
            })?;
        let files = state.store.dataset_files(&tenant.0, id).await?;
        populations.push((id, row, files));
    }
    let computation = super::compute::begin(&state, &tenant.0).await?;
    let files = state.store.dataset_files(&tenant.0, dataset_id).await?;
    let view = request.view();
    let view_budget = state.limits.max_view_bytes;
    let report = computation
        .run("an audit", move |progress| {
            let table = load_stored_with_progress(&dataset.schema, &files, progress.sub(0.0, 0.2))?;
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
                    table, partition, ids, checks, qis, progress,
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
                    let index =
                        PopulationIndex::for_boxes(table, boxes, population, &at, progress)?;
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
        })
        .await?;
    Ok(Json(
        serde_json::to_value(report).map_err(|e| ApiError::internal(e.into()))?,
    ))
}
