//! Jobs as resources: creation (with idempotency keys), reads, lists and
//! cancellation. The queue mechanics (claim, lease, completion) are in
//! `queue.rs`.

use anyhow::Result;
use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::postgres::PgRow;
use sqlx::Row;
use uuid::Uuid;

use super::datasets::page_cursor;
use super::{Cursor, Page, Store, JOBS_CHANNEL};

/// A job as stored (what `GET /v1/jobs/{id}` shows, plus bookkeeping).
#[derive(Debug, Clone, PartialEq)]
pub struct JobRow {
    pub id: Uuid,
    pub tenant: String,
    pub dataset_id: Uuid,
    pub model: Value,
    pub algorithm: String,
    pub sensitive_metric: Option<Value>,
    pub xcolor: Option<Value>,
    /// The share of rows the job may suppress (0 ≤ x < 1).
    pub suppression_limit: f64,
    pub status: String,
    pub progress: f64,
    pub attempts: i32,
    pub max_attempts: i32,
    pub cancel_requested: bool,
    pub error: Option<Value>,
    pub summary: Option<Value>,
    pub created_at: DateTime<Utc>,
    pub started_at: Option<DateTime<Utc>>,
    pub finished_at: Option<DateTime<Utc>>,
}

pub(crate) fn job_from_row(row: &PgRow) -> Result<JobRow> {
    Ok(JobRow {
        id: row.try_get("id")?,
        tenant: row.try_get("tenant")?,
        dataset_id: row.try_get("dataset_id")?,
        model: row.try_get("model")?,
        algorithm: row.try_get("algorithm")?,
        sensitive_metric: row.try_get("sensitive_metric")?,
        xcolor: row.try_get("xcolor")?,
        suppression_limit: row.try_get("suppression_limit")?,
        status: row.try_get("status")?,
        progress: row.try_get("progress")?,
        attempts: row.try_get("attempts")?,
        max_attempts: row.try_get("max_attempts")?,
        cancel_requested: row.try_get("cancel_requested")?,
        error: row.try_get("error")?,
        summary: row.try_get("summary")?,
        created_at: row.try_get("created_at")?,
        started_at: row.try_get("started_at")?,
        finished_at: row.try_get("finished_at")?,
    })
}

/// A job to create.
#[derive(Debug, Clone)]
pub struct NewJob {
    pub tenant: String,
    pub dataset_id: Uuid,
    pub model: Value,
    pub algorithm: String,
    pub sensitive_metric: Option<Value>,
    pub xcolor: Option<Value>,
    pub suppression_limit: f64,
    pub max_attempts: i32,
    /// `(key, hash of the request body)` when the client sent `Idempotency-Key`.
    pub idempotency: Option<(String, String)>,
}

/// What `create_job` did.
#[derive(Debug, Clone, PartialEq)]
pub enum Created {
    /// A new job, queued.
    New(JobRow),
    /// The same key with the same body: the original job.
    Replayed(JobRow),
    /// The same key with a different body.
    Conflict,
}

/// What `cancel_job` did.
#[derive(Debug, Clone, PartialEq)]
pub enum Cancelled {
    /// The job was cancelled (queued) or asked to stop (running).
    Done(JobRow),
    /// The job had already finished.
    Finished(JobRow),
    NotFound,
}

/// Filters of `GET /v1/jobs`.
#[derive(Debug, Clone, Default)]
pub struct JobFilter {
    pub status: Option<String>,
    pub dataset_id: Option<Uuid>,
}

impl Store {
    /// Queues a job and wakes the workers (`NOTIFY` at commit). With an
    /// idempotency key, a replay returns the original job.
    pub async fn create_job(&self, new: &NewJob) -> Result<Created> {
        let mut tx = self.pool.begin().await?;
        let (key, hash) = match &new.idempotency {
            Some((k, h)) => (Some(k.as_str()), Some(h.as_str())),
            None => (None, None),
        };
        let inserted = sqlx::query(
            "INSERT INTO jobs (id, tenant, dataset_id, model, algorithm, sensitive_metric, xcolor,
                               suppression_limit, status, max_attempts, idempotency_key, request_hash)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'queued', $9, $10, $11)
             ON CONFLICT (tenant, idempotency_key) WHERE idempotency_key IS NOT NULL
             DO NOTHING
             RETURNING *",
        )
        .bind(Uuid::new_v4())
        .bind(&new.tenant)
        .bind(new.dataset_id)
        .bind(&new.model)
        .bind(&new.algorithm)
        .bind(&new.sensitive_metric)
        .bind(&new.xcolor)
        .bind(new.suppression_limit)
        .bind(new.max_attempts)
        .bind(key)
        .bind(hash)
        .fetch_optional(&mut *tx)
        .await?;
        if let Some(row) = inserted {
            let job = job_from_row(&row)?;
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(JOBS_CHANNEL)
                .bind(job.id.to_string())
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            return Ok(Created::New(job));
        }
        // The key exists: the original job decides replay vs conflict.
        let row = sqlx::query("SELECT * FROM jobs WHERE tenant = $1 AND idempotency_key = $2")
            .bind(&new.tenant)
            .bind(key)
            .fetch_one(&mut *tx)
            .await?;
        let stored_hash: Option<String> = row.try_get("request_hash")?;
        tx.commit().await?;
        if stored_hash.as_deref() == hash {
            Ok(Created::Replayed(job_from_row(&row)?))
        } else {
            Ok(Created::Conflict)
        }
    }

    /// The job created earlier with this idempotency key, and the hash of
    /// its request body.
    pub async fn find_idempotent(
        &self,
        tenant: &str,
        key: &str,
    ) -> Result<Option<(JobRow, String)>> {
        let row = sqlx::query("SELECT * FROM jobs WHERE tenant = $1 AND idempotency_key = $2")
            .bind(tenant)
            .bind(key)
            .fetch_optional(&self.pool)
            .await?;
        match row {
            None => Ok(None),
            Some(row) => {
                let hash: Option<String> = row.try_get("request_hash")?;
                Ok(Some((job_from_row(&row)?, hash.unwrap_or_default())))
            }
        }
    }

    pub async fn get_job(&self, tenant: &str, id: Uuid) -> Result<Option<JobRow>> {
        let row = sqlx::query("SELECT * FROM jobs WHERE tenant = $1 AND id = $2")
            .bind(tenant)
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(job_from_row).transpose()
    }

    /// Newest first, filtered; `limit` items after `cursor`.
    pub async fn list_jobs(
        &self,
        tenant: &str,
        filter: &JobFilter,
        limit: i64,
        cursor: Option<Cursor>,
    ) -> Result<Page<JobRow>> {
        let rows = sqlx::query(
            "SELECT * FROM jobs
             WHERE tenant = $1
               AND ($2::text IS NULL OR status = $2)
               AND ($3::uuid IS NULL OR dataset_id = $3)
               AND ($4::timestamptz IS NULL OR (created_at, id) < ($4, $5))
             ORDER BY created_at DESC, id DESC
             LIMIT $6",
        )
        .bind(tenant)
        .bind(&filter.status)
        .bind(filter.dataset_id)
        .bind(cursor.map(|c| c.created_at))
        .bind(cursor.map(|c| c.id))
        .bind(limit + 1)
        .fetch_all(&self.pool)
        .await?;
        let mut items = rows.iter().map(job_from_row).collect::<Result<Vec<_>>>()?;
        let next_cursor = page_cursor(&mut items, limit, |j| Cursor {
            created_at: j.created_at,
            id: j.id,
        });
        Ok(Page { items, next_cursor })
    }

    /// Queued → cancelled at once; running → `cancel_requested` (the worker
    /// stops at its next checkpoint); finished → `Finished`.
    pub async fn cancel_job(&self, tenant: &str, id: Uuid) -> Result<Cancelled> {
        // In SET, `status` is the row's old value, so each CASE sees the
        // state the job was in.
        let row = sqlx::query(
            "UPDATE jobs SET
                 status = CASE WHEN status = 'queued' THEN 'cancelled' ELSE status END,
                 cancel_requested = true,
                 finished_at = CASE WHEN status = 'queued' THEN now() ELSE finished_at END,
                 updated_at = now()
             WHERE tenant = $1 AND id = $2 AND status IN ('queued', 'running')
             RETURNING *",
        )
        .bind(tenant)
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        if let Some(row) = row {
            return Ok(Cancelled::Done(job_from_row(&row)?));
        }
        Ok(match self.get_job(tenant, id).await? {
            Some(job) => Cancelled::Finished(job),
            None => Cancelled::NotFound,
        })
    }
}
