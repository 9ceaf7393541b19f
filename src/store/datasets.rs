//! Datasets: metadata rows plus their files stored compressed in chunks.

use anyhow::Result;
use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::types::Json;
use sqlx::{Postgres, Transaction};
use uuid::Uuid;

use super::{blob, notify, Cursor, Page, Store, GONE_CHANNEL};
use crate::api::dataset::DatasetColumnDto;
use crate::api::PopulationDto;

/// The part name of the uploaded CSV in `dataset_chunks`.
const DATA_PART: &str = "data";
/// Hierarchy files are the parts `hierarchy:<column>`.
const HIERARCHY_PREFIX: &str = "hierarchy:";
/// The table as loaded at upload: `proxima_core::table_codec` version 2's
/// frames, LZ4 (`super::table_frames`). Version 1's part, `table`, is no
/// longer written or read (migration 0005 removes it; those datasets are
/// read from their CSV).
const TABLE_PART: &str = "table-v2";

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

/// A dataset's stored metadata.
#[derive(Debug, Clone, PartialEq)]
pub struct DatasetRow {
    pub id: Uuid,
    pub tenant: String,
    pub name: String,
    pub schema: Value,
    pub rows: i64,
    pub suppressed_rows: i64,
    pub size_bytes: i64,
    pub sha256: String,
    pub columns: Vec<DatasetColumnDto>,
    /// What the table is a sample of, when the upload said.
    pub population: Option<PopulationDto>,
    pub created_at: DateTime<Utc>,
}

/// [`DatasetRow`] as [`dataset_select!`] reads it: the statistics as the
/// JSON document they are stored as.
struct DatasetRecord {
    id: Uuid,
    tenant: String,
    name: String,
    schema: Value,
    rows: i64,
    suppressed_rows: i64,
    size_bytes: i64,
    sha256: String,
    columns: Json<Vec<DatasetColumnDto>>,
    population: Option<PopulationDto>,
    created_at: DateTime<Utc>,
}

impl From<DatasetRecord> for DatasetRow {
    fn from(r: DatasetRecord) -> DatasetRow {
        DatasetRow {
            id: r.id,
            tenant: r.tenant,
            name: r.name,
            schema: r.schema,
            rows: r.rows,
            suppressed_rows: r.suppressed_rows,
            size_bytes: r.size_bytes,
            sha256: r.sha256,
            columns: r.columns.0,
            population: r.population,
            created_at: r.created_at,
        }
    }
}

/// What an upload stores besides its files.
#[derive(Debug, Clone)]
pub struct NewDataset {
    pub id: Uuid,
    pub tenant: String,
    pub name: String,
    pub schema: Value,
    pub rows: i64,
    pub suppressed_rows: i64,
    pub size_bytes: i64,
    pub sha256: String,
    pub columns: Vec<DatasetColumnDto>,
    pub population: Option<PopulationDto>,
}

/// A checked query into [`DatasetRecord`]: the columns every dataset read
/// selects, then `$rest` (`WHERE …`) and the arguments.
macro_rules! dataset_select {
    ($rest:literal $(, $arg:expr)* $(,)?) => {
        sqlx::query_as!(
            DatasetRecord,
            r#"SELECT id, tenant, name, schema, rows, suppressed_rows, size_bytes, sha256,
                    columns AS "columns: Json<Vec<DatasetColumnDto>>",
                    created_at,
                    -- The three population columns (at most one set, by the
                    -- table's CHECK) as the API's object.
                    CASE WHEN population_dataset_id IS NOT NULL
                              THEN jsonb_build_object('dataset_id', population_dataset_id)
                         WHEN population_size IS NOT NULL
                              THEN jsonb_build_object('size', population_size)
                         WHEN population_sampling_fraction IS NOT NULL
                              THEN jsonb_build_object('sampling_fraction',
                                                      population_sampling_fraction)
                    END AS "population: PopulationDto"
             FROM datasets "#
                + $rest
            $(, $arg)*
        )
    };
}

/// An upload being stored: the metadata row and its chunks go in one
/// transaction, so a failed upload stores nothing.
pub struct DatasetTx {
    tx: Transaction<'static, Postgres>,
    id: Uuid,
    tenant: String,
}

impl DatasetTx {
    /// Stores the uploaded CSV.
    pub async fn add_data(&mut self, data: &blob::Chunked) -> Result<()> {
        self.add_part(DATA_PART, data).await
    }

    /// Stores the loaded table (`super::table_frames`): what every job
    /// reads instead of the CSV.
    pub async fn add_table(&mut self, table: &blob::Chunked) -> Result<()> {
        self.add_part(TABLE_PART, table).await
    }

    /// Stores the hierarchy file of `column`.
    pub async fn add_hierarchy(&mut self, column: &str, file: &blob::Chunked) -> Result<()> {
        self.add_part(&format!("{HIERARCHY_PREFIX}{column}"), file)
            .await
    }

    async fn add_part(&mut self, part: &str, chunks: &blob::Chunked) -> Result<()> {
        for seq in 0..chunks.chunks() {
            let bytes = chunks.chunk(seq).await?;
            sqlx::query!(
                "INSERT INTO dataset_chunks (dataset_id, tenant, part, seq, bytes)
                 VALUES ($1, $2, $3, $4, $5)",
                self.id,
                self.tenant,
                part,
                seq as i32,
                bytes,
            )
            .execute(&mut *self.tx)
            .await?;
        }
        Ok(())
    }

    pub async fn commit(self) -> Result<DatasetRow> {
        let mut tx = self.tx;
        let row = dataset_select!("WHERE id = $1", self.id)
            .fetch_one(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(row.into())
    }
}

impl Store {
    /// Starts storing a dataset: inserts its metadata row in a transaction
    /// the caller fills with chunks and commits (or drops to roll back).
    pub async fn begin_dataset(&self, new: &NewDataset) -> Result<DatasetTx> {
        let mut tx = self.pool.begin().await?;
        let population_size = match new.population {
            Some(PopulationDto::Size(n)) => Some(n as i64),
            _ => None,
        };
        let population_sampling_fraction = match new.population {
            Some(PopulationDto::SamplingFraction(f)) => Some(f),
            _ => None,
        };
        sqlx::query!(
            "INSERT INTO datasets (id, tenant, name, schema, rows, suppressed_rows, size_bytes,
                                   sha256, columns, population_size, population_sampling_fraction,
                                   population_dataset_id)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
            new.id,
            new.tenant,
            new.name,
            new.schema,
            new.rows,
            new.suppressed_rows,
            new.size_bytes,
            new.sha256,
            Json(&new.columns) as _,
            population_size,
            population_sampling_fraction,
            new.population.and_then(PopulationDto::dataset_id),
        )
        .execute(&mut *tx)
        .await?;
        Ok(DatasetTx {
            tx,
            id: new.id,
            tenant: new.tenant.clone(),
        })
    }

    pub async fn get_dataset(&self, tenant: &str, id: Uuid) -> Result<Option<DatasetRow>> {
        let row = dataset_select!("WHERE tenant = $1 AND id = $2", tenant, id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(DatasetRow::from))
    }

    /// Newest first; `limit` items after `cursor`.
    pub async fn list_datasets(
        &self,
        tenant: &str,
        limit: i64,
        cursor: Option<Cursor>,
    ) -> Result<Page<DatasetRow>> {
        let rows = dataset_select!(
            "WHERE tenant = $1
               AND ($2::timestamptz IS NULL OR (created_at, id) < ($2, $3::uuid))
             ORDER BY created_at DESC, id DESC
             LIMIT $4",
            tenant,
            cursor.map(|c| c.created_at),
            cursor.map(|c| c.id),
            limit + 1,
        )
        .fetch_all(&self.pool)
        .await?;
        let mut items: Vec<DatasetRow> = rows.into_iter().map(DatasetRow::from).collect();
        let next_cursor = page_cursor(&mut items, limit, |d| Cursor {
            created_at: d.created_at,
            id: d.id,
        });
        Ok(Page { items, next_cursor })
    }

    /// The datasets of the tenant that name `id` as their population table
    /// (oldest first, at most `limit`).
    pub async fn samples_of(&self, tenant: &str, id: Uuid, limit: i64) -> Result<Vec<Uuid>> {
        Ok(sqlx::query_scalar!(
            "SELECT id FROM datasets WHERE tenant = $1 AND population_dataset_id = $2
             ORDER BY created_at, id LIMIT $3",
            tenant,
            id,
            limit,
        )
        .fetch_all(&self.pool)
        .await?)
    }

    /// Deletes a dataset with its chunks, jobs and results (ON DELETE
    /// CASCADE). False when the tenant has no such dataset.
    pub async fn delete_dataset(&self, tenant: &str, id: Uuid) -> Result<bool> {
        let mut tx = self.pool.begin().await?;
        // Its running jobs go with it (the jobs cascade): their workers
        // hear it at the commit and stop, writing nothing. A job claimed
        // after this read is told by its next heartbeat, which finds the
        // lease gone.
        let running = sqlx::query_scalar!(
            "SELECT id FROM jobs WHERE tenant = $1 AND dataset_id = $2 AND status = 'running'",
            tenant,
            id
        )
        .fetch_all(&mut *tx)
        .await?;
        let done = sqlx::query!(
            "DELETE FROM datasets WHERE tenant = $1 AND id = $2",
            tenant,
            id
        )
        .execute(&mut *tx)
        .await?;
        for job in running {
            notify(&mut *tx, GONE_CHANNEL, job).await?;
        }
        tx.commit().await?;
        Ok(done.rows_affected() == 1)
    }

    /// The population table a dataset names (`population.dataset_id`),
    /// with its files, for a job or validation that needs it; `None` when
    /// the dataset names none (or, in a race with its deletion, it is gone).
    pub async fn population_of(
        &self,
        dataset: &DatasetRow,
    ) -> Result<Option<(DatasetRow, DatasetFiles)>> {
        let Some(id) = dataset.population.and_then(PopulationDto::dataset_id) else {
            return Ok(None);
        };
        let Some(row) = self.get_dataset(&dataset.tenant, id).await? else {
            return Ok(None);
        };
        let files = self.dataset_files(&dataset.tenant, id).await?;
        Ok(Some((row, files)))
    }

    /// A dataset's hierarchy parts only (`(column, file bytes)`): what a
    /// sample's upload compares with its population table's, without
    /// reading the population's rows.
    pub async fn dataset_hierarchies(
        &self,
        tenant: &str,
        id: Uuid,
    ) -> Result<Vec<(String, Vec<u8>)>> {
        let rows = sqlx::query_as!(
            Chunk,
            "SELECT part, bytes FROM dataset_chunks
             WHERE tenant = $1 AND dataset_id = $2 AND starts_with(part, $3)
             ORDER BY part, seq",
            tenant,
            id,
            HIERARCHY_PREFIX,
        )
        .fetch_all(&self.pool)
        .await?;
        let parts = chunks_by_part(rows)?;
        parts
            .into_iter()
            .map(|(part, chunks)| {
                let column = part[HIERARCHY_PREFIX.len()..].to_string();
                Ok((column, blob::decompress_chunks(&chunks)?))
            })
            .collect()
    }

    /// Reads a dataset's files (the worker's input): the stored table (as
    /// stored: its frames are decompressed as they are decoded) and the
    /// hierarchies when the upload stored a table (the CSV is then not read
    /// at all), the decompressed CSV otherwise (datasets uploaded before
    /// tables were stored).
    pub async fn dataset_files(&self, tenant: &str, id: Uuid) -> Result<DatasetFiles> {
        let rows = sqlx::query_as!(
            Chunk,
            "SELECT part, bytes FROM dataset_chunks c
             WHERE tenant = $1 AND dataset_id = $2
               AND (part <> $3 OR NOT EXISTS (
                       SELECT 1 FROM dataset_chunks t
                       WHERE t.dataset_id = c.dataset_id AND t.part = $4))
             ORDER BY part, seq",
            tenant,
            id,
            DATA_PART,
            TABLE_PART,
        )
        .fetch_all(&self.pool)
        .await?;
        let parts = chunks_by_part(rows)?;
        let mut files = DatasetFiles::default();
        for (part, chunks) in parts {
            if part == TABLE_PART {
                // Decompressed frame by frame where it is decoded, off the
                // async threads (`app::tables::load_stored`).
                files.table = Some(chunks.concat());
                continue;
            }
            let data = blob::decompress_chunks(&chunks)?;
            if part == DATA_PART {
                files.data = data;
            } else if let Some(column) = part.strip_prefix(HIERARCHY_PREFIX) {
                files.hierarchies.push((column.to_string(), data));
            }
        }
        Ok(files)
    }
}

/// Trims a `limit + 1` fetch to `limit` and returns the cursor of the last
/// kept item when there was more.
pub(crate) fn page_cursor<T>(
    items: &mut Vec<T>,
    limit: i64,
    key: impl Fn(&T) -> Cursor,
) -> Option<Cursor> {
    if items.len() as i64 > limit {
        items.truncate(limit as usize);
        items.last().map(key)
    } else {
        None
    }
}

/// One row of `dataset_chunks`: a chunk of a part.
struct Chunk {
    part: String,
    bytes: Vec<u8>,
}

/// Chunks ordered by part then sequence, gathered into each part's chunks
/// in order.
fn chunks_by_part(rows: Vec<Chunk>) -> Result<Vec<(String, Vec<Vec<u8>>)>> {
    let mut parts: Vec<(String, Vec<Vec<u8>>)> = Vec::new();
    for Chunk { part, bytes } in rows {
        match parts.last_mut() {
            Some((p, chunks)) if *p == part => chunks.push(bytes),
            _ => parts.push((part, vec![bytes])),
        }
    }
    Ok(parts)
}
