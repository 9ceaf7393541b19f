//! The queue's SQL (docs/design.md §5): claim with `FOR UPDATE SKIP LOCKED` and a
//! lease, heartbeats that extend the lease, and completions that only the
//! current lease holder can make.

use crate::api::job_error::JobErrorBody;
use crate::api::JobStatus;
use std::time::Duration;

use anyhow::Result;
use serde_json::Value;
use uuid::Uuid;

use super::jobs::{job_query, JobRow};
use super::results::NewResult;
use super::{notify, Store, JOBS_CHANNEL};

/// The claim, in the order of `store::fairness`: the chosen job gets the
/// lease (`owner`, `lease_secs`) and its attempt counted.
/// `max_running_per_tenant` is the per-tenant running cap (None: none),
/// `recent` the tenants this worker served, least recent first. Jobs
/// running under an expired lease do not count as running (they are
/// claimable themselves).
async fn fair_claim(
    pool: &sqlx::PgPool,
    owner: &str,
    lease_secs: f64,
    max_running_per_tenant: Option<i64>,
    recent: &[String],
) -> Result<Option<JobRow>> {
    Ok(job_query!(
        "UPDATE jobs SET
             status = 'running',
             lease_owner = $1,
             lease_expires_at = now() + make_interval(secs => $2),
             heartbeat_at = now(),
             attempts = attempts + 1,
             started_at = COALESCE(started_at, now()),
             updated_at = now()
         WHERE id = (
             SELECT j.id FROM jobs j
             LEFT JOIN (
                 SELECT tenant, count(*) AS n FROM jobs
                 WHERE status = 'running' AND lease_expires_at >= now()
                 GROUP BY tenant
             ) busy ON busy.tenant = j.tenant
             WHERE ((j.status = 'queued' AND j.run_after <= now())
                 OR (j.status = 'running' AND j.lease_expires_at < now()))
               AND ($3::bigint IS NULL OR COALESCE(busy.n, 0) < $3::bigint)
             ORDER BY COALESCE(busy.n, 0),
                      array_position($4::text[], j.tenant) NULLS FIRST,
                      j.run_after, j.created_at
             LIMIT 1
             FOR UPDATE OF j SKIP LOCKED)
         RETURNING",
        "",
        owner,
        lease_secs,
        max_running_per_tenant,
        recent,
    )
    .fetch_optional(pool)
    .await?)
}

/// What the heartbeat learned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Beat {
    /// Still ours; `cancel` is true when the user asked to cancel.
    Held { cancel: bool },
    /// The lease is no longer ours (expired and claimed, or handed back).
    Lost,
}

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

impl Store {
    /// Claims the next runnable job for `owner`: a queued job whose
    /// `run_after` has come, or a running job whose lease expired. Sets the
    /// lease, increments `attempts`, commits. `None` when nothing is runnable.
    pub async fn claim_job(&self, owner: &str, lease: Duration) -> Result<Option<JobRow>> {
        self.claim_job_fairly(owner, lease, None, &[]).await
    }

    /// [`Store::claim_job`] in the fair order of `store::fairness`, with an
    /// optional cap on the jobs one tenant runs at once; `recent` lists the
    /// tenants this worker served, least recent first.
    pub async fn claim_job_fairly(
        &self,
        owner: &str,
        lease: Duration,
        max_running_per_tenant: Option<usize>,
        recent: &[String],
    ) -> Result<Option<JobRow>> {
        // Jobs whose lease expired on their last attempt, or whose user asked
        // to cancel, are settled instead of being run again.
        sqlx::query!(
            "UPDATE jobs SET
                 status = CASE WHEN cancel_requested THEN 'cancelled' ELSE 'failed' END,
                 error = CASE WHEN cancel_requested THEN error ELSE $1 END,
                 lease_owner = NULL, lease_expires_at = NULL,
                 finished_at = now(), updated_at = now()
             WHERE status = 'running' AND lease_expires_at < now()
               AND (attempts >= max_attempts OR cancel_requested)",
            JobErrorBody::internal("the job's worker stopped responding on its last attempt")
                .to_value(),
        )
        .execute(&self.pool)
        .await?;
        fair_claim(
            &self.pool,
            owner,
            secs(lease),
            max_running_per_tenant.map(|n| n as i64),
            recent,
        )
        .await
    }

    /// Extends the lease and records progress; tells whether the user asked
    /// to cancel, or that the lease is lost.
    pub async fn heartbeat(
        &self,
        id: Uuid,
        owner: &str,
        lease: Duration,
        progress: f64,
    ) -> Result<Beat> {
        let cancel = sqlx::query_scalar!(
            "UPDATE jobs SET
                 lease_expires_at = now() + make_interval(secs => $3),
                 heartbeat_at = now(),
                 progress = GREATEST(progress, $4),
                 updated_at = now()
             WHERE id = $1 AND lease_owner = $2 AND status = 'running'
             RETURNING cancel_requested",
            id,
            owner,
            secs(lease),
            progress.clamp(0.0, 1.0),
        )
        .fetch_optional(&self.pool)
        .await?;
        Ok(match cancel {
            Some(cancel) => Beat::Held { cancel },
            None => Beat::Lost,
        })
    }

    /// Stores the result and marks the job succeeded, in one transaction,
    /// only if `owner` still holds the lease. False (nothing stored) otherwise.
    pub async fn complete_job(
        &self,
        id: Uuid,
        owner: &str,
        summary: &crate::api::JobSummaryDto,
        result: &NewResult,
    ) -> Result<bool> {
        let mut tx = self.pool.begin().await?;
        let tenant = sqlx::query_scalar!(
            "UPDATE jobs SET status = 'succeeded', progress = 1, summary = $3, error = NULL,
                 lease_owner = NULL, lease_expires_at = NULL,
                 finished_at = now(), updated_at = now()
             WHERE id = $1 AND lease_owner = $2 AND status = 'running'
             RETURNING tenant",
            id,
            owner,
            sqlx::types::Json(summary) as _,
        )
        .fetch_optional(&mut *tx)
        .await?;
        let Some(tenant) = tenant else {
            return Ok(false);
        };
        self.insert_result(&mut tx, id, &tenant, result).await?;
        crate::fault::before_result_commit().await;
        tx.commit().await?;
        Ok(true)
    }

    /// Ends the job as `failed` (with `error`) or `cancelled`, if `owner`
    /// still holds the lease.
    pub async fn finish_job(
        &self,
        id: Uuid,
        owner: &str,
        status: JobStatus,
        error: Option<&Value>,
    ) -> Result<bool> {
        let done = sqlx::query!(
            "UPDATE jobs SET status = $3, error = $4,
                 lease_owner = NULL, lease_expires_at = NULL,
                 finished_at = now(), updated_at = now()
             WHERE id = $1 AND lease_owner = $2 AND status = 'running'",
            id,
            owner,
            status.as_str(),
            error,
        )
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// A retryable failure: back to `queued` after `delay`, keeping the error
    /// for the record; `failed` instead once `max_attempts` is reached.
    /// Returns the status set, or `None` when the lease was not ours.
    pub async fn retry_job(
        &self,
        id: Uuid,
        owner: &str,
        error: &Value,
        delay: Duration,
    ) -> Result<Option<String>> {
        let status = sqlx::query_scalar!(
            "UPDATE jobs SET
                 status = CASE WHEN attempts >= max_attempts THEN 'failed' ELSE 'queued' END,
                 finished_at = CASE WHEN attempts >= max_attempts THEN now() ELSE NULL END,
                 run_after = now() + make_interval(secs => $4),
                 error = $3,
                 lease_owner = NULL, lease_expires_at = NULL, updated_at = now()
             WHERE id = $1 AND lease_owner = $2 AND status = 'running'
             RETURNING status",
            id,
            owner,
            error,
            secs(delay),
        )
        .fetch_optional(&self.pool)
        .await?;
        Ok(status)
    }

    /// Graceful shutdown: gives a running job back to the queue without
    /// counting the interrupted attempt, and wakes another worker.
    pub async fn hand_back_job(&self, id: Uuid, owner: &str) -> Result<bool> {
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query!(
            "UPDATE jobs SET status = 'queued', attempts = GREATEST(attempts - 1, 0),
                 run_after = now(), lease_owner = NULL, lease_expires_at = NULL,
                 updated_at = now()
             WHERE id = $1 AND lease_owner = $2 AND status = 'running'",
            id,
            owner,
        )
        .execute(&mut *tx)
        .await?;
        notify(&mut *tx, JOBS_CHANNEL, id).await?;
        tx.commit().await?;
        Ok(done.rows_affected() == 1)
    }

    /// Jobs waiting to run (queue depth), for metrics and tests.
    pub async fn queued_jobs(&self) -> Result<i64> {
        // count(*) is never NULL.
        Ok(
            sqlx::query_scalar!(r#"SELECT count(*) AS "n!" FROM jobs WHERE status = 'queued'"#)
                .fetch_one(&self.pool)
                .await?,
        )
    }
}
