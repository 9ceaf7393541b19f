//! Fairness between tenants on the shared queue.
//!
//! * **Claim order** (the claim's SQL is in `store::queue`): a free worker
//!   takes the runnable job of the tenant with the fewest jobs running now; among those, the tenant this worker
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
