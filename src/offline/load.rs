//! Schema + hierarchy files + data → a validated table.

use std::sync::Arc;

use proxima_core::ingest::BlockLimits;
use proxima_core::{Schema, Table};

use super::error::OfflineError;
use super::input::{json_arg, open_data, read_file, HierarchyArg};
use super::InputArgs;
use crate::api::{HierarchyFile, SchemaDto};

/// Parses the schema and builds it with the given hierarchy files.
pub fn load_schema(schema_arg: &str, hierarchies: &[HierarchyArg]) -> Result<Schema, OfflineError> {
    let dto = SchemaDto::from_json(&json_arg(schema_arg)?)?;
    let files: Vec<(String, Vec<u8>)> = hierarchies
        .iter()
        .map(|h| Ok((h.column.clone(), read_file(&h.path)?)))
        .collect::<Result<_, OfflineError>>()?;
    let files: Vec<HierarchyFile<'_>> = files
        .iter()
        .map(|(column, bytes)| HierarchyFile { column, bytes })
        .collect();
    Ok(dto.to_schema(&files)?)
}

/// Reads and validates the data against the schema, under the input's
/// cell and record limits.
pub fn load_table(schema: Arc<Schema>, input: &InputArgs) -> Result<Table, OfflineError> {
    let reader = open_data(&input.data)?;
    let limits = BlockLimits {
        max_cell: input.max_cell_bytes,
        max_record: input.max_record_bytes,
        ..BlockLimits::whole()
    };
    Ok(proxima_core::ingest::load_table_with_limits(
        schema,
        reader,
        &limits,
        proxima_core::Progress::none(),
    )?)
}
