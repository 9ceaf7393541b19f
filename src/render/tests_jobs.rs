//! What the render tests share: a table loaded from a schema and a CSV as
//! the CLI loads them, and a job on it as a request would run it.

use std::sync::Arc;

use proxima_core::params::SuppressionLimit;
use proxima_core::run::{run_job, JobOutcome};
use proxima_core::{Progress, Schema, Table};

use crate::api::{JobRequest, ModelDto};

/// The schema (API JSON) and the table of `csv` under it.
pub(super) fn loaded(schema: &str, csv: &str) -> (Schema, Table) {
    let schema = crate::offline::load_schema(schema, &[]).unwrap();
    let table = proxima_core::ingest::load_table(Arc::new(schema.clone()), csv.as_bytes()).unwrap();
    (schema, table)
}

/// `model` (API JSON) run on `table` with `suppression_limit`, the other
/// choices left to their defaults.
pub(super) fn run_model(
    schema: &Schema,
    table: &Table,
    model: &str,
    suppression_limit: f64,
) -> JobOutcome {
    let request = JobRequest {
        model: serde_json::from_str::<ModelDto>(model).unwrap(),
        algorithm: None,
        sensitive_metric: None,
        xcolor: None,
        suppression_limit: SuppressionLimit::new(suppression_limit, "/suppression_limit").unwrap(),
    };
    let job = request.to_spec(schema).unwrap();
    run_job(table, &job, Progress::none()).unwrap()
}
