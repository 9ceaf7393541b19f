//! Retention: a time-to-live for tenant data, enforced by the service
//! (`--retention-secs`). Finished jobs (and with them their results) older
//! than the TTL are deleted; so are datasets older than it (their chunks,
//! jobs and results go by cascade), except while a job of theirs is queued
//! or running — they go on the next pass after it settles — and except a
//! population table while a sample names it. A sweep's jobs
//! go with their sweep (older than the TTL and none of its points queued
//! or running), never one by one, so a sweep never shows a point whose job
//! is gone.

use std::time::Duration;

use anyhow::Result;

use super::Store;

/// What one pass deleted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Purged {
    pub jobs: u64,
    pub datasets: u64,
}

impl Store {
    /// Deletes what is older than `ttl` (one pass).
    pub async fn purge_expired(&self, ttl: Duration) -> Result<Purged> {
        let secs = ttl.as_secs_f64();
        // count(*) is never NULL.
        let sweep_jobs = sqlx::query_scalar!(
            r#"WITH gone AS (
                 DELETE FROM sweeps s
                 WHERE s.created_at < now() - make_interval(secs => $1)
                   AND NOT EXISTS (SELECT 1 FROM jobs j
                                   WHERE j.sweep_id = s.id AND j.status IN ('queued', 'running'))
                 RETURNING id)
             SELECT count(*) AS "n!" FROM jobs WHERE sweep_id IN (SELECT id FROM gone)"#,
            secs,
        )
        .fetch_one(&self.pool)
        .await? as u64;
        let jobs = sqlx::query!(
            "DELETE FROM jobs
             WHERE status IN ('succeeded', 'failed', 'cancelled') AND sweep_id IS NULL
               AND finished_at < now() - make_interval(secs => $1)",
            secs,
        )
        .execute(&self.pool)
        .await?
        .rows_affected()
            + sweep_jobs;
        let datasets = sqlx::query!(
            "DELETE FROM datasets d
             WHERE d.created_at < now() - make_interval(secs => $1)
               AND NOT EXISTS (SELECT 1 FROM jobs j
                               WHERE j.dataset_id = d.id AND j.status IN ('queued', 'running'))
               -- A population table stays while a sample names it (it goes
               -- on a later pass, after its samples).
               AND NOT EXISTS (SELECT 1 FROM datasets s WHERE s.population_dataset_id = d.id)",
            secs,
        )
        .execute(&self.pool)
        .await?
        .rows_affected();
        Ok(Purged { jobs, datasets })
    }
}
