//! From stored bytes to the core's types: the uploaded schema document and
//! hierarchy files → a validated `Schema`, the CSV → a `Table`, and a job's
//! stored parameters → the core's `JobSpec`. Uploads, job validation, the
//! worker and result rendering all go through here, so they agree.

use std::sync::Arc;

use proxima_core::error::CoreResult;
use proxima_core::ingest::{column_stats, load_table_with_progress};
use proxima_core::run::JobSpec;
use proxima_core::{Progress, Schema, Table};
use serde_json::{json, Value};

use crate::spec::{HierarchyFile, JobRequestDto, SchemaDto};
use crate::store::datasets::{DatasetFiles, DatasetRow};

/// Parses and validates a schema document with its hierarchy files.
pub fn parse_schema(
    schema_json: &[u8],
    hierarchies: &[(String, Vec<u8>)],
) -> CoreResult<(SchemaDto, Schema)> {
    let dto = SchemaDto::from_json(schema_json)?;
    let files: Vec<HierarchyFile<'_>> = hierarchies
        .iter()
        .map(|(column, bytes)| HierarchyFile { column, bytes })
        .collect();
    let schema = dto.to_schema(&files)?;
    Ok((dto, schema))
}

/// Loads a stored dataset's table.
pub fn load_stored(dataset: &DatasetRow, files: &DatasetFiles) -> CoreResult<Table> {
    load_stored_with_progress(dataset, files, Progress::none())
}

/// [`load_stored`] with the core's cancellation checkpoints: a job's load
/// of a large table takes seconds, and a cancel must not wait for it.
pub fn load_stored_with_progress(
    dataset: &DatasetRow,
    files: &DatasetFiles,
    progress: Progress,
) -> CoreResult<Table> {
    let schema_json = serde_json::to_vec(&dataset.schema)
        .map_err(|e| proxima_core::CoreError::internal(e.to_string()))?;
    let (_, schema) = parse_schema(&schema_json, &files.hierarchies)?;
    load_table_with_progress(Arc::new(schema), files.data.as_slice(), progress)
}

/// `Dataset.columns`: per-column statistics.
pub fn columns_json(table: &Table) -> Value {
    Value::Array(
        column_stats(table)
            .iter()
            .map(|c| {
                json!({
                    "name": c.name,
                    "role": c.role.name(),
                    "type": c.value_type.map(|t| t.name()),
                    "distinct": c.distinct,
                    "min": c.min,
                    "max": c.max,
                    "hierarchy_height": c.hierarchy_height,
                })
            })
            .collect(),
    )
}

/// A job's stored parameters (as in the request) → the core's job spec,
/// validated against the schema. Pointers are the request's (`/model/m`…).
pub fn job_spec(
    model: &Value,
    algorithm: Option<&str>,
    sensitive_metric: Option<&Value>,
    xcolor: Option<&Value>,
    suppression_limit: f64,
    schema: &Schema,
) -> CoreResult<JobSpec> {
    let mut request = json!({"dataset_id": "", "model": model});
    if suppression_limit != 0.0 {
        request["suppression_limit"] = json!(suppression_limit);
    }
    if let Some(a) = algorithm {
        request["algorithm"] = json!(a);
    }
    if let Some(m) = sensitive_metric {
        request["sensitive_metric"] = m.clone();
    }
    if let Some(x) = xcolor {
        request["xcolor"] = x.clone();
    }
    let bytes = serde_json::to_vec(&request)
        .map_err(|e| proxima_core::CoreError::internal(e.to_string()))?;
    JobRequestDto::from_json(&bytes)?.to_spec(schema)
}
