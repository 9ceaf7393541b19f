//! A stored dataset back into the core's table: the schema document (as
//! stored at upload) with its hierarchy files becomes a validated `Schema`,
//! the stored frames (or, for a dataset stored before tables were, the CSV)
//! a `Table`. Job validation, the worker, audits, feasibility, reports and
//! result rendering all load through here, so they agree.

use std::sync::Arc;

use proxima_core::error::CoreResult;
use proxima_core::ingest::load_table_with_progress;
use proxima_core::{CoreError, Progress, Table};
use serde_json::Value;

use crate::api::dataset::parse_schema;
use crate::store::datasets::{DatasetFiles, DatasetRow};
use crate::store::Store;

/// What loading a dataset for a job needs from the store: its files and,
/// for a model judged against a population table (k-map, δ-presence),
/// that table's row and files.
#[derive(Debug, Clone)]
pub struct Stored {
    pub files: DatasetFiles,
    pub population: Option<(DatasetRow, DatasetFiles)>,
}

/// Reads a dataset's stored files, and its population table's when
/// `with_population` (a job's preparation and its run read alike).
pub async fn read(
    store: &Store,
    dataset: &DatasetRow,
    with_population: bool,
) -> anyhow::Result<Stored> {
    let files = store.dataset_files(&dataset.tenant, dataset.id).await?;
    let population = if with_population {
        store.population_of(dataset).await?
    } else {
        None
    };
    Ok(Stored { files, population })
}

/// Loads a stored dataset's table from its schema document (as stored at
/// upload) and files.
pub fn load_stored(schema: &Value, files: &DatasetFiles) -> CoreResult<Table> {
    load_stored_with_progress(schema, files, Progress::none())
}

/// [`load_stored`] with the core's cancellation checkpoints: a job's load
/// of a large table takes seconds, and a cancel must not wait for it.
pub fn load_stored_with_progress(
    schema: &Value,
    files: &DatasetFiles,
    progress: Progress,
) -> CoreResult<Table> {
    let schema_json = serde_json::to_vec(schema).map_err(|e| CoreError::internal(e.to_string()))?;
    let (_, schema) = parse_schema(&schema_json, &files.hierarchies)?;
    match &files.table {
        // Decoding takes milliseconds: no checkpoint needed. A table stored
        // before line breaks were refused in every column is checked for
        // them, so nothing is computed or published from a cell a stray
        // quote filled with other rows.
        Some(stored) => {
            let table = crate::store::table_frames::decode(Arc::new(schema), stored)?;
            proxima_core::ingest::check_line_breaks(&table)?;
            Ok(table)
        }
        None => load_table_with_progress(Arc::new(schema), files.data.as_slice(), progress),
    }
}
