//! `proxima anonymize`: schema + data + model → the release and a summary.

use std::sync::Arc;

use std::time::Instant;

use proxima_core::params::SuppressionLimit;
use proxima_core::run::run_job;
use proxima_core::stages::{Stage, Stopwatch};
use proxima_core::{CoreError, ErrorKind, Progress, Table};

use super::error::OfflineError;
use super::input::json_arg;
use super::load::{load_schema, load_table_for_release};
use super::output::write_output;
use super::{AnonymizeArgs, FormatArg};
use crate::api::json::from_json;
use crate::api::{JobRequest, JobSpec, JobSummaryDto, MetricDto, ModelDto, XColorOptionsDto};
use crate::render::{write_release, Format};

/// A validated job on a loaded table (without the QIs' text: see
/// [`load_table_for_release`]).
pub struct Prepared {
    pub table: Table,
    pub job: JobSpec,
}

/// Validates the parameters against the schema first (cheap, so a typo in
/// the model is reported before a large file is read), then loads the data.
pub fn prepare(args: &AnonymizeArgs) -> Result<Prepared, OfflineError> {
    let schema = load_schema(&args.input.schema, &args.input.hierarchies)?;
    let model: ModelDto = from_json(
        &json_arg(&args.model)?,
        "the model",
        "/model",
        ErrorKind::InvalidParameters,
    )?;
    let metric: Option<MetricDto> = match &args.metric {
        Some(m) => Some(from_json(
            &json_arg(m)?,
            "the metric",
            "/sensitive_metric",
            ErrorKind::InvalidParameters,
        )?),
        None => None,
    };
    let xcolor = args
        .xcolor_initial
        .map(|i| XColorOptionsDto { initial: i.into() });
    // The flags as one typed request, as `POST /v1/jobs` parses its body.
    let request = JobRequest {
        model,
        algorithm: args.algorithm.map(Into::into),
        sensitive_metric: metric,
        xcolor,
        suppression_limit: SuppressionLimit::new(
            args.suppression_limit.unwrap_or(0.0),
            "/suppression_limit",
        )?,
    };
    let job = request.to_spec(&schema)?;
    // Nothing below reads the QIs' cells (the release prints their labels),
    // and their text is about a sixth of the table.
    let table = load_table_for_release(Arc::new(schema), &args.input)?;
    Ok(Prepared { table, job })
}

/// Runs the job, writes the release (to `--out` or stdout) and prints the
/// job summary as one JSON line on stderr. `elapsed_ms` covers loading,
/// partitioning and writing.
pub fn anonymize(args: &AnonymizeArgs) -> Result<(), OfflineError> {
    let started = Instant::now();
    let mut clock = Stopwatch::start();
    let Prepared { table, job } = prepare(args)?;
    // The load's blocks, freed, would stay resident beside the job.
    crate::allocator::release_after_load(table.rows());
    clock.lap(Stage::Read);
    // The core's job runner: validates against the data (feasibility),
    // partitions, generalizes and audits the release against its own model
    // (model_not_satisfied rather than a release that misses it).
    clock.skip();
    let outcome = run_job(&table, &job, Progress::none())?;
    clock.extend(&outcome.stages);
    let release = &outcome.anonymized.release;
    // Rows the model suppressed are not in the release's table.
    let table = outcome.anonymized.table(&table);
    let format = match args.format {
        FormatArg::Csv => Format::Csv,
        FormatArg::Json => Format::Json,
    };
    // The download's writer: the same bytes as `GET …/result`.
    write_output(args.out.as_deref(), |w| {
        write_release(format, w, table, release, args.row_id).map(|_| ())
    })?;
    clock.lap(Stage::Write);
    let summary =
        JobSummaryDto::from_summary(&outcome.summary, started.elapsed().as_millis() as u64);
    let line = serde_json::to_string(&summary).map_err(|e| CoreError::internal(e.to_string()))?;
    eprintln!("{line}");
    if args.timings {
        eprintln!("{}", timings_line(&clock, started.elapsed()));
    }
    Ok(())
}

/// `{"timings_ms":{"read":…,"partition":…,…,"total":…}}`: each stage's
/// wall-clock milliseconds, and the whole run's.
fn timings_line(clock: &Stopwatch, total: std::time::Duration) -> String {
    let ms = |d: std::time::Duration| serde_json::json!(d.as_secs_f64() * 1e3);
    let mut stages = serde_json::Map::new();
    for stage in [
        Stage::Read,
        Stage::Partition,
        Stage::Generalize,
        Stage::Guard,
        Stage::Write,
    ] {
        stages.insert(stage.name().into(), ms(clock.total(stage)));
    }
    stages.insert("total".into(), ms(total));
    serde_json::json!({ "timings_ms": stages }).to_string()
}
