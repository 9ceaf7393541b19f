//! The real job body: load the stored dataset, run the core's job entry
//! point (partition → generalize → audit), and hand back the compact
//! release (row → group) with the summary and the audit.

use std::time::Instant;

use proxima_core::{CoreError, Progress};

use super::{JobError, JobInput, JobOutput, JobRunner};
use crate::spec::dataset::load_stored_with_progress;
use crate::spec::report::AuditReportDto;
use crate::spec::JobSummaryDto;
use crate::store::results::NewResult;

pub struct CoreRunner;

impl JobRunner for CoreRunner {
    fn run(
        &self,
        input: JobInput,
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
        let spec = input.params.to_spec(table.schema())?;
        let outcome = proxima_core::run::run_job(&table, &spec, progress)?;
        let elapsed = started.elapsed().as_millis() as u64;
        let to_json = |v: Result<serde_json::Value, serde_json::Error>| {
            v.map_err(|e| JobError::from(CoreError::internal(e.to_string())))
        };
        let mut summary = JobSummaryDto::from_summary(&outcome.summary, elapsed);
        // Measured here, once, while the table and the release are in
        // memory: on a read it would mean reloading both for every point.
        if input.sweep_id.is_some() {
            (summary.query_error, summary.query_error_median) =
                crate::sweep::query_error(&outcome.anonymized.published(&table));
        }
        let audit = to_json(serde_json::to_value(AuditReportDto::from_view(
            &outcome.audit,
            &outcome.view,
            None,
        )))?;
        Ok(JobOutput {
            summary,
            result: NewResult {
                // Rows the model suppressed are marked, not stored.
                group_of_rows: outcome.anonymized.assignment(table.rows()),
                audit,
            },
        })
    }
}
