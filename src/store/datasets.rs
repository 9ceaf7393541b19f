//! Datasets: metadata rows plus their files stored compressed in chunks.

use anyhow::Result;
use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::postgres::PgRow;
use sqlx::{Postgres, Row, Transaction};
use uuid::Uuid;

use super::{blob, Cursor, Page, Store};

/// The part name of the uploaded CSV in `dataset_chunks`.
pub const DATA_PART: &str = "data";

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
    pub columns: Value,
    pub created_at: DateTime<Utc>,
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
    pub columns: Value,
}

/// A dataset's files, decompressed: the CSV and `hierarchy:<column>` parts.
#[derive(Debug, Clone, Default)]
pub struct DatasetFiles {
    pub data: Vec<u8>,
    /// `(column, file bytes)` for every hierarchy part.
    pub hierarchies: Vec<(String, Vec<u8>)>,
}

fn from_row(row: &PgRow) -> Result<DatasetRow> {
    Ok(DatasetRow {
        id: row.try_get("id")?,
        tenant: row.try_get("tenant")?,
        name: row.try_get("name")?,
        schema: row.try_get("schema")?,
        rows: row.try_get("rows")?,
        suppressed_rows: row.try_get("suppressed_rows")?,
        size_bytes: row.try_get("size_bytes")?,
        sha256: row.try_get("sha256")?,
        columns: row.try_get("columns")?,
        created_at: row.try_get("created_at")?,
    })
}

/// An upload being stored: the metadata row and its chunks go in one
/// transaction, so a failed upload stores nothing.
pub struct DatasetTx {
    tx: Transaction<'static, Postgres>,
    id: Uuid,
    tenant: String,
}

impl DatasetTx {
    pub async fn add_chunk(&mut self, part: &str, seq: i32, bytes: &[u8]) -> Result<()> {
        sqlx::query(
            "INSERT INTO dataset_chunks (dataset_id, tenant, part, seq, bytes)
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(self.id)
        .bind(&self.tenant)
        .bind(part)
        .bind(seq)
        .bind(bytes)
        .execute(&mut *self.tx)
        .await?;
        Ok(())
    }

    /// Compresses `data` and stores it as `part` in chunks.
    pub async fn add_file(&mut self, part: &str, data: &[u8]) -> Result<()> {
        let mut w = blob::ChunkWriter::new(blob::CHUNK_BYTES);
        w.write(data)?;
        for (seq, chunk) in w.finish()?.into_iter().enumerate() {
            self.add_chunk(part, seq as i32, &chunk).await?;
        }
        Ok(())
    }

    pub async fn commit(self) -> Result<DatasetRow> {
        let mut tx = self.tx;
        let row = sqlx::query(
            "SELECT id, tenant, name, schema, rows, suppressed_rows, size_bytes, sha256, columns,
                    created_at FROM datasets WHERE id = $1",
        )
        .bind(self.id)
        .fetch_one(&mut *tx)
        .await?;
        let row = from_row(&row)?;
        tx.commit().await?;
        Ok(row)
    }
}

impl Store {
    /// Starts storing a dataset: inserts its metadata row in a transaction
    /// the caller fills with chunks and commits (or drops to roll back).
    pub async fn begin_dataset(&self, new: &NewDataset) -> Result<DatasetTx> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO datasets (id, tenant, name, schema, rows, suppressed_rows, size_bytes,
                                   sha256, columns)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(new.id)
        .bind(&new.tenant)
        .bind(&new.name)
        .bind(&new.schema)
        .bind(new.rows)
        .bind(new.suppressed_rows)
        .bind(new.size_bytes)
        .bind(&new.sha256)
        .bind(&new.columns)
        .execute(&mut *tx)
        .await?;
        Ok(DatasetTx {
            tx,
            id: new.id,
            tenant: new.tenant.clone(),
        })
    }

    pub async fn get_dataset(&self, tenant: &str, id: Uuid) -> Result<Option<DatasetRow>> {
        let row = sqlx::query(
            "SELECT id, tenant, name, schema, rows, suppressed_rows, size_bytes, sha256, columns,
                    created_at FROM datasets WHERE tenant = $1 AND id = $2",
        )
        .bind(tenant)
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(from_row).transpose()
    }

    /// Newest first; `limit` items after `cursor`.
    pub async fn list_datasets(
        &self,
        tenant: &str,
        limit: i64,
        cursor: Option<Cursor>,
    ) -> Result<Page<DatasetRow>> {
        let rows = sqlx::query(
            "SELECT id, tenant, name, schema, rows, suppressed_rows, size_bytes, sha256, columns,
                    created_at FROM datasets
             WHERE tenant = $1
               AND ($2::timestamptz IS NULL OR (created_at, id) < ($2, $3))
             ORDER BY created_at DESC, id DESC
             LIMIT $4",
        )
        .bind(tenant)
        .bind(cursor.map(|c| c.created_at))
        .bind(cursor.map(|c| c.id))
        .bind(limit + 1)
        .fetch_all(&self.pool)
        .await?;
        let mut items = rows.iter().map(from_row).collect::<Result<Vec<_>>>()?;
        let next_cursor = page_cursor(&mut items, limit, |d| Cursor {
            created_at: d.created_at,
            id: d.id,
        });
        Ok(Page { items, next_cursor })
    }

    /// Deletes a dataset with its chunks, jobs and results (ON DELETE
    /// CASCADE). False when the tenant has no such dataset.
    pub async fn delete_dataset(&self, tenant: &str, id: Uuid) -> Result<bool> {
        let done = sqlx::query("DELETE FROM datasets WHERE tenant = $1 AND id = $2")
            .bind(tenant)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Reads and decompresses a dataset's files (the worker's input).
    pub async fn dataset_files(&self, tenant: &str, id: Uuid) -> Result<DatasetFiles> {
        let rows = sqlx::query(
            "SELECT part, bytes FROM dataset_chunks
             WHERE tenant = $1 AND dataset_id = $2 ORDER BY part, seq",
        )
        .bind(tenant)
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        let mut parts: Vec<(String, Vec<Vec<u8>>)> = Vec::new();
        for row in rows {
            let part: String = row.try_get("part")?;
            let bytes: Vec<u8> = row.try_get("bytes")?;
            match parts.last_mut() {
                Some((p, chunks)) if *p == part => chunks.push(bytes),
                _ => parts.push((part, vec![bytes])),
            }
        }
        let mut files = DatasetFiles::default();
        for (part, chunks) in parts {
            let data = blob::decompress_chunks(&chunks)?;
            if part == DATA_PART {
                files.data = data;
            } else if let Some(column) = part.strip_prefix("hierarchy:") {
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
