//! Sweeps (docs/api.md §Sweeps): the sweep row and its points' jobs, created in
//! one transaction; reads join a sweep with its jobs; cancel reaches every
//! queued and running job of the sweep.

use anyhow::Result;
use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::postgres::PgRow;
use sqlx::{FromRow, Row};
use uuid::Uuid;

use super::datasets::page_cursor;
use super::jobs::{job_from_row, JobRow, ParamColumns};
use super::{Cursor, Page, Store, JOBS_CHANNEL};

/// A sweep as stored.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct SweepRow {
    pub id: Uuid,
    pub tenant: String,
    pub dataset_id: Uuid,
    /// The request as sent.
    pub request: Value,
    /// Per point in grid order: `{"params": {...}, "error": {...} | null}`.
    pub points: Value,
    pub cancel_requested: bool,
    pub created_at: DateTime<Utc>,
}

fn sweep_from_row(row: &PgRow) -> Result<SweepRow> {
    Ok(SweepRow::from_row(row)?)
}

/// A sweep with its points' jobs (ordered by point).
#[derive(Debug, Clone, PartialEq)]
pub struct StoredSweep {
    pub sweep: SweepRow,
    pub jobs: Vec<JobRow>,
}

/// The job of a point that runs (validated like any job request).
#[derive(Debug, Clone)]
pub struct PointJob {
    pub point: i32,
    pub params: crate::spec::JobParams,
}

/// A sweep to create.
#[derive(Debug, Clone)]
pub struct NewSweep {
    pub tenant: String,
    pub dataset_id: Uuid,
    pub request: Value,
    pub points: Value,
    pub jobs: Vec<PointJob>,
    pub max_attempts: i32,
    /// `(key, hash of the request body)` when the client sent `Idempotency-Key`.
    pub idempotency: Option<(String, String)>,
    /// The tenant's quota of queued and running jobs, enforced for all the
    /// points' jobs in the insert's transaction (`None`: no quota).
    pub max_active: Option<usize>,
    /// The API key that queues the points' jobs.
    pub submitted_by: Option<Uuid>,
}

/// What `create_sweep` did.
#[derive(Debug, Clone, PartialEq)]
pub enum SweepCreated {
    New(StoredSweep),
    /// The same key with the same body: the original sweep.
    Replayed(StoredSweep),
    /// The same key with a different body.
    Conflict,
    /// The points' jobs would take the tenant over its quota of queued
    /// and running jobs.
    OverQuota,
}

/// What `cancel_sweep` did.
#[derive(Debug, Clone, PartialEq)]
pub enum SweepCancelled {
    /// Its queued jobs were cancelled and its running ones asked to stop.
    Done(StoredSweep),
    /// No job of the sweep was queued or running.
    Finished(StoredSweep),
    NotFound,
}

impl Store {
    /// Creates the sweep and its jobs in one transaction (nothing is
    /// half-written), and wakes the workers at commit. The jobs get
    /// increasing `created_at`, so they are claimed in point order.
    pub async fn create_sweep(&self, new: &NewSweep) -> Result<SweepCreated> {
        let mut tx = self.pool.begin().await?;
        let (key, hash) = match &new.idempotency {
            Some((k, h)) => (Some(k.as_str()), Some(h.as_str())),
            None => (None, None),
        };
        // As for one job (`create_job`): the count and the inserts under the
        // tenant's quota lock, a replay answered before the quota.
        if let Some(max_active) = new.max_active {
            super::fairness::lock_tenant_quota(&mut tx, &new.tenant).await?;
            let replay: Option<Uuid> = match key {
                None => None,
                Some(key) => {
                    sqlx::query_scalar(
                        "SELECT id FROM sweeps WHERE tenant = $1 AND idempotency_key = $2",
                    )
                    .bind(&new.tenant)
                    .bind(key)
                    .fetch_optional(&mut *tx)
                    .await?
                }
            };
            if replay.is_none()
                && !super::fairness::has_room(&mut tx, &new.tenant, new.jobs.len(), max_active)
                    .await?
            {
                return Ok(SweepCreated::OverQuota);
            }
        }
        let inserted = sqlx::query(
            "INSERT INTO sweeps (id, tenant, dataset_id, request, points, idempotency_key,
                                 request_hash)
             VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (tenant, idempotency_key) WHERE idempotency_key IS NOT NULL
             DO NOTHING
             RETURNING *",
        )
        .bind(Uuid::new_v4())
        .bind(&new.tenant)
        .bind(new.dataset_id)
        .bind(&new.request)
        .bind(&new.points)
        .bind(key)
        .bind(hash)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(row) = inserted else {
            // The key exists: the original sweep decides replay vs conflict.
            let row =
                sqlx::query("SELECT * FROM sweeps WHERE tenant = $1 AND idempotency_key = $2")
                    .bind(&new.tenant)
                    .bind(key)
                    .fetch_one(&mut *tx)
                    .await?;
            let stored_hash: Option<String> = row.try_get("request_hash")?;
            tx.commit().await?;
            if stored_hash.as_deref() != hash {
                return Ok(SweepCreated::Conflict);
            }
            let sweep = sweep_from_row(&row)?;
            let jobs = self.sweep_jobs(&sweep.tenant, &[sweep.id]).await?;
            return Ok(SweepCreated::Replayed(StoredSweep { sweep, jobs }));
        };
        let sweep = sweep_from_row(&row)?;
        let mut jobs = Vec::with_capacity(new.jobs.len());
        for j in &new.jobs {
            let p = ParamColumns::of(&j.params);
            let row = sqlx::query(
                "INSERT INTO jobs (id, tenant, dataset_id, model, algorithm, sensitive_metric,
                                   xcolor, suppression_limit, status, max_attempts,
                                   sweep_id, sweep_point, created_at, submitted_by_key)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'queued', $9, $10, $11,
                         clock_timestamp(), $12)
                 RETURNING *",
            )
            .bind(Uuid::new_v4())
            .bind(&new.tenant)
            .bind(new.dataset_id)
            .bind(p.model)
            .bind(p.algorithm)
            .bind(p.sensitive_metric)
            .bind(p.xcolor)
            .bind(p.suppression_limit)
            .bind(new.max_attempts)
            .bind(sweep.id)
            .bind(j.point)
            .bind(new.submitted_by)
            .fetch_one(&mut *tx)
            .await?;
            let job = job_from_row(&row)?;
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(JOBS_CHANNEL)
                .bind(job.id.to_string())
                .execute(&mut *tx)
                .await?;
            jobs.push(job);
        }
        tx.commit().await?;
        Ok(SweepCreated::New(StoredSweep { sweep, jobs }))
    }

    /// The sweep created earlier with this idempotency key, and the hash of
    /// its request body.
    pub async fn find_idempotent_sweep(
        &self,
        tenant: &str,
        key: &str,
    ) -> Result<Option<(StoredSweep, String)>> {
        let row = sqlx::query("SELECT * FROM sweeps WHERE tenant = $1 AND idempotency_key = $2")
            .bind(tenant)
            .bind(key)
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let hash: Option<String> = row.try_get("request_hash")?;
        let sweep = sweep_from_row(&row)?;
        let jobs = self.sweep_jobs(tenant, &[sweep.id]).await?;
        Ok(Some((
            StoredSweep { sweep, jobs },
            hash.unwrap_or_default(),
        )))
    }

    /// The jobs of these sweeps, by sweep and point.
    async fn sweep_jobs(&self, tenant: &str, sweeps: &[Uuid]) -> Result<Vec<JobRow>> {
        let rows = sqlx::query(
            "SELECT * FROM jobs WHERE tenant = $1 AND sweep_id = ANY($2)
             ORDER BY sweep_id, sweep_point",
        )
        .bind(tenant)
        .bind(sweeps)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(job_from_row).collect()
    }

    pub async fn get_sweep(&self, tenant: &str, id: Uuid) -> Result<Option<StoredSweep>> {
        let row = sqlx::query("SELECT * FROM sweeps WHERE tenant = $1 AND id = $2")
            .bind(tenant)
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let sweep = sweep_from_row(&row)?;
        let jobs = self.sweep_jobs(tenant, &[id]).await?;
        Ok(Some(StoredSweep { sweep, jobs }))
    }

    /// Newest first, optionally of one dataset; `limit` items after `cursor`.
    pub async fn list_sweeps(
        &self,
        tenant: &str,
        dataset_id: Option<Uuid>,
        limit: i64,
        cursor: Option<Cursor>,
    ) -> Result<Page<StoredSweep>> {
        let rows = sqlx::query(
            "SELECT * FROM sweeps
             WHERE tenant = $1
               AND ($2::uuid IS NULL OR dataset_id = $2)
               AND ($3::timestamptz IS NULL OR (created_at, id) < ($3, $4))
             ORDER BY created_at DESC, id DESC
             LIMIT $5",
        )
        .bind(tenant)
        .bind(dataset_id)
        .bind(cursor.map(|c| c.created_at))
        .bind(cursor.map(|c| c.id))
        .bind(limit + 1)
        .fetch_all(&self.pool)
        .await?;
        let mut sweeps = rows
            .iter()
            .map(sweep_from_row)
            .collect::<Result<Vec<_>>>()?;
        let next_cursor = page_cursor(&mut sweeps, limit, |s| Cursor {
            created_at: s.created_at,
            id: s.id,
        });
        let ids: Vec<Uuid> = sweeps.iter().map(|s| s.id).collect();
        let mut jobs = self.sweep_jobs(tenant, &ids).await?;
        let items = sweeps
            .into_iter()
            .map(|sweep| {
                let (mine, rest): (Vec<JobRow>, Vec<JobRow>) =
                    jobs.drain(..).partition(|j| j.sweep_id == Some(sweep.id));
                jobs = rest;
                StoredSweep { sweep, jobs: mine }
            })
            .collect();
        Ok(Page { items, next_cursor })
    }

    /// Cancels the sweep's queued jobs at once and asks its running ones to
    /// stop (as `cancel_job` does for one job), in one transaction.
    pub async fn cancel_sweep(&self, tenant: &str, id: Uuid) -> Result<SweepCancelled> {
        let mut tx = self.pool.begin().await?;
        let exists: Option<Uuid> =
            sqlx::query_scalar("SELECT id FROM sweeps WHERE tenant = $1 AND id = $2 FOR UPDATE")
                .bind(tenant)
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?;
        if exists.is_none() {
            return Ok(SweepCancelled::NotFound);
        }
        let touched = sqlx::query(
            "UPDATE jobs SET
                 status = CASE WHEN status = 'queued' THEN 'cancelled' ELSE status END,
                 cancel_requested = true,
                 finished_at = CASE WHEN status = 'queued' THEN now() ELSE finished_at END,
                 updated_at = now()
             WHERE tenant = $1 AND sweep_id = $2 AND status IN ('queued', 'running')",
        )
        .bind(tenant)
        .bind(id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if touched > 0 {
            sqlx::query("UPDATE sweeps SET cancel_requested = true WHERE id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        // Deleted meanwhile (with its dataset): gone, as for any read.
        let Some(stored) = self.get_sweep(tenant, id).await? else {
            return Ok(SweepCancelled::NotFound);
        };
        Ok(if touched > 0 {
            SweepCancelled::Done(stored)
        } else {
            SweepCancelled::Finished(stored)
        })
    }
}
