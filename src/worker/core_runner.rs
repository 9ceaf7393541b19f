//! The real job body: load the stored dataset, run the core's job entry
//! point (partition → generalize → audit), and hand back the compact
//! release (row → group) with the summary and the audit.

use std::time::Instant;

use proxima_core::{CoreError, Progress};

use super::dataset::{job_spec, load_stored_with_progress};
use super::{JobError, JobInput, JobOutput, JobRunner};
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
            load_stored_with_progress(&input.dataset, &input.files, progress.sub(0.0, 0.0))?;
        let spec = job_spec(
            &input.model,
            Some(&input.algorithm),
            input.sensitive_metric.as_ref(),
            input.xcolor.as_ref(),
            input.suppression_limit,
            table.schema(),
        )?;
        let outcome = proxima_core::run::run_job(&table, &spec, progress)?;
        let elapsed = started.elapsed().as_millis() as u64;
        let to_json = |v: Result<serde_json::Value, serde_json::Error>| {
            v.map_err(|e| JobError::from(CoreError::internal(e.to_string())))
        };
        let summary = to_json(serde_json::to_value(JobSummaryDto::from_summary(
            &outcome.summary,
            elapsed,
        )))?;
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
