//! The `Dataset` resource (docs/api.md §Datasets) and the schema document:
//! the uploaded schema with its hierarchy files becomes a validated
//! `Schema` here, for uploads and for every load of a stored table
//! (`app::tables`), so they agree.

use chrono::{DateTime, Utc};
use proxima_core::error::CoreResult;
use proxima_core::ingest::ColumnStats;
use proxima_core::Schema;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::{HierarchyFile, PopulationDto, RoleDto, SchemaDto, TypeDto};

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
