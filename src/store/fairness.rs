//! Fairness between tenants on the shared queue.
//!
//! * **Claim order**: a free worker takes the runnable job of the tenant
//!   with the fewest jobs running now; among those, the tenant this worker
//!   served least recently (round robin, [`RecentTenants`]); then by
//!   `run_after`, `created_at`. So a tenant with one small job is served as
//!   soon as a worker frees up instead of after another tenant's whole
//!   backlog. Optionally no tenant
//!   runs more than `max_running_per_tenant` jobs at once (across all
//!   replicas), which keeps workers free for the others even while one
//!   tenant's jobs are long. The claim keeps `FOR UPDATE SKIP LOCKED` and
//!   the lease of docs/design.md §5; two workers claiming at the same instant may
//!   both count a tenant before the other's claim (the order is fair, the
//!   cap may be passed by one).
//! * **Quota**: a tenant has at most `max_active` jobs queued or running;
//!   job creation beyond it is refused (429 `too_many_jobs`). The count
//!   and the insert happen in one transaction holding the tenant's
//!   advisory lock ([`lock_tenant_quota`]), so concurrent creations (over
//!   any number of replicas) are serialized per tenant and cannot all see
//!   room for one more.

use std::collections::VecDeque;

use anyhow::Result;

use super::jobs::{job_query, JobRow};
use super::Store;

/// How many tenants a worker remembers for its round robin.
const REMEMBERED: usize = 256;

/// The tenants a worker has claimed jobs for, least recent first.
#[derive(Debug, Default)]
pub struct RecentTenants(VecDeque<String>);

impl RecentTenants {
    /// Records a claim for `tenant` (it becomes the most recent).
    pub fn served(&mut self, tenant: &str) {
        self.0.retain(|t| t != tenant);
        self.0.push_back(tenant.to_string());
        while self.0.len() > REMEMBERED {
            self.0.pop_front();
        }
    }

    /// Least recent first, as the claim's `$4`.
    pub fn order(&self) -> Vec<String> {
        self.0.iter().cloned().collect()
    }
}

/// The claim: the chosen job gets the lease (`owner`, `lease_secs`) and
/// its attempt counted. `max_running_per_tenant` is the per-tenant running
/// cap (None: none), `recent` the tenants this worker served, least recent
/// first. Jobs running under an expired lease do not count as running (they
/// are claimable themselves).
pub(crate) async fn fair_claim(
    conn: &mut sqlx::PgConnection,
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
    .fetch_optional(conn)
    .await?)
}

/// Takes `tenant`'s job-quota lock for the rest of the transaction: job
/// and sweep creations of one tenant count and insert one at a time, other
/// tenants' go on in parallel (a hash of the tenant names the lock; a
/// collision only serializes two tenants' creations).
pub(crate) async fn lock_tenant_quota(tx: &mut sqlx::PgConnection, tenant: &str) -> Result<()> {
    sqlx::query!(
        "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))",
        format!("proxima.active_jobs:{tenant}")
    )
    .execute(tx)
    .await?;
    Ok(())
}

/// Whether `tenant` has room for `n` more queued jobs under `max_active`,
/// counted inside the transaction that holds [`lock_tenant_quota`].
pub(crate) async fn has_room(
    tx: &mut sqlx::PgConnection,
    tenant: &str,
    n: usize,
    max_active: usize,
) -> Result<bool> {
    let active = active_jobs_in(tx, tenant).await?;
    Ok(active.saturating_add(n as i64) <= max_active as i64)
}

impl Store {
    /// Jobs of `tenant` that are queued or running.
    pub async fn active_jobs(&self, tenant: &str) -> Result<i64> {
        let mut conn = self.pool.acquire().await?;
        active_jobs_in(&mut conn, tenant).await
    }
}

/// Jobs of `tenant` that are queued or running, on `conn`.
async fn active_jobs_in(conn: &mut sqlx::PgConnection, tenant: &str) -> Result<i64> {
    // count(*) is never NULL.
    Ok(sqlx::query_scalar!(
        r#"SELECT count(*) AS "n!" FROM jobs
           WHERE tenant = $1 AND status IN ('queued', 'running')"#,
        tenant
    )
    .fetch_one(conn)
    .await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recent_tenants_rotate() {
        let mut r = RecentTenants::default();
        r.served("a");
        r.served("b");
        r.served("a");
        assert_eq!(r.order(), ["b", "a"]);
        for i in 0..300 {
            r.served(&format!("t{i}"));
        }
        assert_eq!(r.order().len(), REMEMBERED);
        assert_eq!(r.order().last().unwrap(), "t299");
    }
}
