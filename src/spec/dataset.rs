//! A dataset from its stored bytes to the core's types, and the `Dataset`
//! resource (docs/api.md §Datasets). The uploaded schema document and
//! hierarchy files become a validated `Schema`, the CSV a `Table`; uploads,
//! job validation, the worker, audits and result rendering all go through
//! here, so they agree.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use proxima_core::error::CoreResult;
use proxima_core::ingest::{load_table_with_progress, ColumnStats};
use proxima_core::{CoreError, Progress, Schema, Table};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

use super::{HierarchyFile, PopulationDto, RoleDto, SchemaDto, TypeDto};

/// A dataset's stored files: the table as loaded at upload (or, for a
/// dataset stored before tables were, the CSV) and the hierarchy parts.
#[derive(Debug, Clone, Default)]
pub struct DatasetFiles {
    /// The stored table part as stored (`store::table_frames`: LZ4 frames
    /// of `proxima_core::table_codec`), when there is one.
    pub table: Option<Vec<u8>>,
    /// The CSV; empty when `table` is there.
    pub data: Vec<u8>,
    /// `(column, file bytes)` for every hierarchy part.
    pub hierarchies: Vec<(String, Vec<u8>)>,
}

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

/// A column of an uploaded dataset with its statistics.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = DatasetColumn)]
pub struct DatasetColumnDto {
    pub name: String,
    pub role: RoleDto,
    /// Null when the schema gives none (identifiers, insensitive columns).
    #[schema(required = true)]
    pub r#type: Option<TypeDto>,
    /// Distinct values (0 for identifiers).
    pub distinct: u64,
    /// The smallest value of a numeric or date column (a date as its day
    /// number since 1970-01-01); null for other columns.
    #[schema(required = true)]
    pub min: Option<f64>,
    /// The largest value, as `min`.
    #[schema(required = true)]
    pub max: Option<f64>,
    /// Levels of the column's hierarchy; null without one.
    #[schema(required = true)]
    pub hierarchy_height: Option<u64>,
}

/// `Dataset.columns`: per-column statistics (of a table, `column_stats`,
/// or gathered block by block at upload, `StatsBuilder`).
pub fn columns_of(stats: Vec<ColumnStats>) -> Vec<DatasetColumnDto> {
    stats
        .into_iter()
        .map(|c| DatasetColumnDto {
            name: c.name,
            role: c.role.into(),
            r#type: c.value_type.map(Into::into),
            distinct: c.distinct as u64,
            min: c.min,
            max: c.max,
            hierarchy_height: c.hierarchy_height.map(|h| h as u64),
        })
        .collect()
}

/// The `Dataset` resource.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[schema(as = Dataset)]
pub struct DatasetDto {
    pub id: Uuid,
    pub name: String,
    pub rows: u64,
    /// Rows left out of every release (`on_missing: suppress`).
    pub suppressed_rows: u64,
    pub size_bytes: u64,
    /// Hex SHA-256 of the uploaded CSV.
    pub sha256: String,
    pub created_at: DateTime<Utc>,
    pub columns: Vec<DatasetColumnDto>,
    /// What the table is a sample of (the schema's `population`); null
    /// when the upload did not say.
    #[schema(required = true)]
    pub population: Option<PopulationDto>,
}

/// A page of datasets, newest first.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[schema(as = DatasetList)]
pub struct DatasetListDto {
    pub items: Vec<DatasetDto>,
    /// Pass as `?cursor=` for the next page; null on the last page.
    #[schema(required = true)]
    pub next_cursor: Option<String>,
}
