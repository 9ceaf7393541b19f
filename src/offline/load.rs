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
/// cell and record limits. The file is parsed in pieces, at once on a pool
/// of several threads (`proxima_core::ingest::try_load_pieces`; a piece
/// without quotes is read line by line, which on one thread too takes
/// about half the time of the streaming reader); a file the pieces cannot
/// vouch for — a bad cell, a quoted line break — is read again by the
/// streaming reader, which reports the file's own error and lines.
pub fn load_table(schema: Arc<Schema>, input: &InputArgs) -> Result<Table, OfflineError> {
    load(schema, input, true)
}

/// [`load_table`] for a caller that only partitions, judges and writes a
/// release: the QIs' cells are checked but not kept as text (the release
/// prints their labels), which spares copying a third of the text and its
/// memory; the table is the one `Table::without_qi_text` gives.
pub fn load_table_for_release(
    schema: Arc<Schema>,
    input: &InputArgs,
) -> Result<Table, OfflineError> {
    load(schema, input, false)
}

fn load(schema: Arc<Schema>, input: &InputArgs, qi_text: bool) -> Result<Table, OfflineError> {
    let limits = BlockLimits {
        max_cell: input.max_cell_bytes,
        max_record: input.max_record_bytes,
        qi_text,
        ..BlockLimits::whole()
    };
    let reader = open_data(&input.data)?;
    if let Some(table) = proxima_core::ingest::try_load_pieces(
        schema.clone(),
        reader,
        &limits,
        proxima_core::ingest::PIECE_BYTES,
        proxima_core::Progress::none(),
    )? {
        return Ok(table);
    }
    let reader = open_data(&input.data)?;
    Ok(proxima_core::ingest::load_table_with_limits(
        schema,
        reader,
        &limits,
        proxima_core::Progress::none(),
    )?)
}
