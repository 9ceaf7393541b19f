//! Sweeps (docs/api.md §Sweeps): the sweep row and its points' jobs, created in
//! one transaction; reads join a sweep with its jobs; cancel reaches every
//! queued and running job of the sweep.

use anyhow::Result;
use chrono::{DateTime, Utc};
use serde_json::Value;
use uuid::Uuid;

use super::datasets::page_cursor;
use super::jobs::{insert_jobs, job_query, JobInsert, JobRow};
use super::{notify, Cursor, Page, Store, CANCELS_CHANNEL};

/// A sweep as stored. Read with [`sweep_query!`].
#[derive(Debug, Clone, PartialEq)]
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

/// A checked query into [`SweepRow`], as `job_query!` is for jobs.
macro_rules! sweep_query {
    ($head:literal, $tail:literal $(, $arg:expr)* $(,)?) => {
        sqlx::query_as!(
            SweepRow,
            $head + " id, tenant, dataset_id, request, points, cancel_requested, created_at "
                + $tail
            $(, $arg)*
        )
    };
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
    pub params: crate::api::JobParams,
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
                    sqlx::query_scalar!(
                        "SELECT id FROM sweeps WHERE tenant = $1 AND idempotency_key = $2",
                        new.tenant,
                        key
                    )
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
        let inserted = sweep_query!(
            "INSERT INTO sweeps (id, tenant, dataset_id, request, points, idempotency_key,
                                 request_hash)
             VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (tenant, idempotency_key) WHERE idempotency_key IS NOT NULL
             DO NOTHING
             RETURNING",
            "",
            Uuid::new_v4(),
            new.tenant,
            new.dataset_id,
            new.request,
            new.points,
            key,
            hash,
        )
        .fetch_optional(&mut *tx)
        .await?;
        let Some(sweep) = inserted else {
            // The key exists: the original sweep decides replay vs conflict.
            let stored = idempotent_sweep(&mut tx, &new.tenant, key.unwrap_or_default()).await?;
            tx.commit().await?;
            let Some((sweep, stored_hash)) = stored else {
                return Ok(SweepCreated::Conflict);
            };
            if stored_hash.as_deref() != hash {
                return Ok(SweepCreated::Conflict);
            }
            let jobs = self.sweep_jobs(&sweep.tenant, &[sweep.id]).await?;
            return Ok(SweepCreated::Replayed(StoredSweep { sweep, jobs }));
        };
        let rows: Vec<JobInsert> = new
            .jobs
            .iter()
            .map(|j| JobInsert {
                tenant: &new.tenant,
                dataset_id: new.dataset_id,
                params: &j.params,
                max_attempts: new.max_attempts,
                idempotency: None,
                sweep_point: Some((sweep.id, j.point)),
                submitted_by: new.submitted_by,
            })
            .collect();
        // Without an idempotency key no insert is skipped.
        let jobs = insert_jobs(&mut tx, &rows)
            .await?
            .into_iter()
            .flatten()
            .collect();
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
        let mut conn = self.pool.acquire().await?;
        let Some((sweep, hash)) = idempotent_sweep(&mut conn, tenant, key).await? else {
            return Ok(None);
        };
        drop(conn);
        let jobs = self.sweep_jobs(tenant, &[sweep.id]).await?;
        Ok(Some((
            StoredSweep { sweep, jobs },
            hash.unwrap_or_default(),
        )))
    }

    /// The jobs of these sweeps, by sweep and point.
    async fn sweep_jobs(&self, tenant: &str, sweeps: &[Uuid]) -> Result<Vec<JobRow>> {
        Ok(job_query!(
            "SELECT",
            "FROM jobs WHERE tenant = $1 AND sweep_id = ANY($2)
             ORDER BY sweep_id, sweep_point",
            tenant,
            sweeps,
        )
        .fetch_all(&self.pool)
        .await?)
    }

    pub async fn get_sweep(&self, tenant: &str, id: Uuid) -> Result<Option<StoredSweep>> {
        let sweep = sweep_query!(
            "SELECT",
            "FROM sweeps WHERE tenant = $1 AND id = $2",
            tenant,
            id
        )
        .fetch_optional(&self.pool)
        .await?;
        let Some(sweep) = sweep else {
            return Ok(None);
        };
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
        let mut sweeps = sweep_query!(
            "SELECT",
            "FROM sweeps
             WHERE tenant = $1
               AND ($2::uuid IS NULL OR dataset_id = $2)
               AND ($3::timestamptz IS NULL OR (created_at, id) < ($3, $4::uuid))
             ORDER BY created_at DESC, id DESC
             LIMIT $5",
            tenant,
            dataset_id,
            cursor.map(|c| c.created_at),
            cursor.map(|c| c.id),
            limit + 1,
        )
        .fetch_all(&self.pool)
        .await?;
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
        let exists = sqlx::query_scalar!(
            "SELECT id FROM sweeps WHERE tenant = $1 AND id = $2 FOR UPDATE",
            tenant,
            id
        )
        .fetch_optional(&mut *tx)
        .await?;
        if exists.is_none() {
            return Ok(SweepCancelled::NotFound);
        }
        // RETURNING reads the new status: a job still `running` was asked
        // to stop, and its worker hears it at the commit.
        let touched = sqlx::query!(
            "UPDATE jobs SET
                 status = CASE WHEN status = 'queued' THEN 'cancelled' ELSE status END,
                 cancel_requested = true,
                 finished_at = CASE WHEN status = 'queued' THEN now() ELSE finished_at END,
                 updated_at = now()
             WHERE tenant = $1 AND sweep_id = $2 AND status IN ('queued', 'running')
             RETURNING id, status = 'running' AS \"running!\"",
            tenant,
            id
        )
        .fetch_all(&mut *tx)
        .await?;
        for job in touched.iter().filter(|job| job.running) {
            notify(&mut *tx, CANCELS_CHANNEL, job.id).await?;
        }
        let touched = touched.len();
        if touched > 0 {
            sqlx::query!(
                "UPDATE sweeps SET cancel_requested = true WHERE id = $1",
                id
            )
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

/// The tenant's sweep with this idempotency key, and the hash of the
/// request body that created it.
async fn idempotent_sweep(
    conn: &mut sqlx::PgConnection,
    tenant: &str,
    key: &str,
) -> Result<Option<(SweepRow, Option<String>)>> {
    let Some(sweep) = sweep_query!(
        "SELECT",
        "FROM sweeps WHERE tenant = $1 AND idempotency_key = $2",
        tenant,
        key,
    )
    .fetch_optional(&mut *conn)
    .await?
    else {
        return Ok(None);
    };
    let hash = sqlx::query_scalar!("SELECT request_hash FROM sweeps WHERE id = $1", sweep.id)
        .fetch_one(&mut *conn)
        .await?;
    Ok(Some((sweep, hash)))
}
