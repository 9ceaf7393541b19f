//! The real job body: load the stored dataset, run the core's job entry
//! point (partition → generalize → audit), and hand back the compact
//! release (row → group) with the summary and the audit.

use std::time::Instant;

use proxima_core::stages::Stage;
use proxima_core::{CoreError, Progress};

use super::{JobError, JobInput, JobOutput, JobRunner};
use crate::api::audit_report::{AuditReportDto, CheckReportDto};
use crate::api::policy::{PolicySource, ReleasePolicy};
use crate::api::FieldPointer;
use crate::api::JobSummaryDto;
use crate::app::tables::load_stored_with_progress;
use crate::release_report::content::Audience;
use crate::release_report::verdict::Facts;
use crate::store::results::NewResult;
use proxima_core::population::PopulationIndex;

pub struct CoreRunner;

impl JobRunner for CoreRunner {
    fn run(
        &self,
        mut input: JobInput,
        progress: &(dyn Fn(f64) -> bool + Sync),
    ) -> Result<JobOutput, JobError> {
        let started = Instant::now();
        let progress = Progress::new(progress);
        // The load reports no fraction of its own (the row count is unknown
        // until the end): it only gives cancels a chance to land.
        let table =
            load_stored_with_progress(&input.dataset.schema, &input.files, progress.sub(0.0, 0.0))?;
        tracing::info!(
            job_id = %input.job_id,
            rows = table.rows(),
            from = if input.files.table.is_some() { "stored table" } else { "csv" },
            ms = started.elapsed().as_secs_f64() * 1e3,
            "job input decoded"
        );
        // The stored bytes (the table's frames, or the CSV) are not read
        // again: freed before the job's peak instead of held through it.
        drop(std::mem::take(&mut input.files));
        // The decoder's blocks, freed, would stay resident beside the job.
        crate::allocator::release_after_load(table.rows());
        // The parameters were checked against this schema when the job was
        // queued: one that no longer binds to it was stored by an older
        // version, and is the service's failure, not the request's (its
        // pointers and messages would name a body nobody is sending).
        let spec = input.params.to_spec(table.schema()).map_err(|e| {
            let pointers: Vec<String> = e.errors.iter().map(|f| f.pointer()).collect();
            tracing::error!(
                job_id = %input.job_id,
                code = e.kind.code(),
                ?pointers,
                "the job's stored parameters no longer fit its dataset's schema"
            );
            JobError::from(CoreError::internal("stored job parameters do not bind"))
        })?;
        // The population's files and table likewise end with its index.
        let index = match input.population.take() {
            Some((row, files)) => {
                let population =
                    load_stored_with_progress(&row.schema, &files, progress.sub(0.0, 0.0))?;
                Some(PopulationIndex::for_release(
                    &table,
                    &population,
                    "/dataset_id",
                    progress.sub(0.0, 0.0),
                )?)
            }
            None => None,
        };
        let outcome = proxima_core::run::run_job_with(&table, &spec, index.as_ref(), progress)?;
        let elapsed = started.elapsed().as_millis() as u64;
        let ms = |stage| outcome.stages.total(stage).as_millis() as u64;
        tracing::info!(
            job_id = %input.job_id,
            partition_ms = ms(Stage::Partition),
            generalize_ms = ms(Stage::Generalize),
            guard_ms = ms(Stage::Guard),
            "job's stages timed"
        );
        let to_json = |v: Result<serde_json::Value, serde_json::Error>| {
            v.map_err(|e| JobError::from(CoreError::internal(e.to_string())))
        };
        let mut summary = JobSummaryDto::from_summary(&outcome.summary, elapsed);
        // Measured here, once, while the table and the release are in
        // memory: on a read it would mean reloading both (every job, so
        // that its summary, its sweep point and its report agree).
        let measuring = Instant::now();
        (summary.query_error, summary.query_error_median) =
            crate::sweep::query_error(&outcome.anonymized.published(&table));
        // What follows the core job is the service's own share of a job's
        // time (docs/performance.md §Threads): logged to be split.
        tracing::info!(
            job_id = %input.job_id,
            ms = measuring.elapsed().as_secs_f64() * 1e3,
            "job's query error measured"
        );
        let mut audit_dto = AuditReportDto::from_view(&outcome.audit, &outcome.view, None);
        // A population model's own check comes first, as every model's does.
        if let Some(check) = &outcome.population {
            audit_dto.checks.insert(0, CheckReportDto::from(check));
            audit_dto.passed &= check.passed;
        }
        // A sweep point's verdict facts: its release report, built as
        // `GET …/report` builds it, reduced to what the verdict reads.
        let verdict_facts = match input.sweep_id {
            None => None,
            Some(_) => Some(to_json(serde_json::to_value(verdict_facts(
                &input,
                &table,
                &outcome.anonymized,
                &audit_dto,
                progress.sub(1.0, 1.0),
            )?))?),
        };
        let audit = to_json(serde_json::to_value(audit_dto))?;
        Ok(JobOutput {
            summary,
            result: NewResult {
                // Rows the model suppressed are marked, not stored.
                group_of_rows: outcome.anonymized.assignment(table.rows()),
                audit,
                verdict_facts,
            },
        })
    }
}

/// The facts the verdict of the job's report is decided on: the report is
/// built exactly as `GET /v1/jobs/{id}/report` builds it (the policy and
/// the approvals play no part in the facts), so a sweep point and its
/// report judge the same figures.
fn verdict_facts(
    input: &JobInput,
    table: &proxima_core::Table,
    anonymized: &proxima_core::run::Anonymized,
    audit: &AuditReportDto,
    progress: Progress,
) -> Result<Facts, CoreError> {
    let report = crate::release_report::build(&crate::release_report::Input {
        job: &input.job,
        dataset: &input.dataset,
        table,
        outcome: Some((anonymized, audit)),
        // The population table's counts are figures the verdict does not
        // read (it reads the estimators of the dataset's size or fraction).
        population: None,
        // The audience changes words, never a fact.
        audience: Audience::External,
        progress,
        policy: (ReleasePolicy::default(), PolicySource::Default),
        approvals: &[],
    })?;
    Ok(report.verdict_facts())
}
