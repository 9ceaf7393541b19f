//! A tenant's release policy: one row per tenant that set one, the
//! defaults otherwise.

use anyhow::Result;
use sqlx::types::Json;
use uuid::Uuid;

use super::Store;
use crate::api::policy::{PolicySource, ReleasePolicy, ReleasePolicyResource};

impl Store {
    /// The tenant's policy, or the defaults.
    pub async fn release_policy(&self, tenant: &str) -> Result<ReleasePolicyResource> {
        let row = sqlx::query!(
            r#"SELECT policy AS "policy: Json<ReleasePolicy>", updated_at
               FROM release_policies WHERE tenant = $1"#,
            tenant
        )
        .fetch_optional(&self.pool)
        .await?;
        Ok(match row {
            Some(row) => ReleasePolicyResource {
                policy: row.policy.0,
                source: PolicySource::Tenant,
                updated_at: Some(row.updated_at),
            },
            None => ReleasePolicyResource {
                policy: ReleasePolicy::default(),
                source: PolicySource::Default,
                updated_at: None,
            },
        })
    }

    /// Replaces the tenant's policy (every field resolved).
    pub async fn put_release_policy(
        &self,
        tenant: &str,
        policy: &ReleasePolicy,
        key_id: Uuid,
    ) -> Result<ReleasePolicyResource> {
        let updated_at = sqlx::query_scalar!(
            "INSERT INTO release_policies (tenant, policy, updated_by_key) VALUES ($1, $2, $3)
             ON CONFLICT (tenant) DO UPDATE
                 SET policy = EXCLUDED.policy, updated_by_key = EXCLUDED.updated_by_key,
                     updated_at = now()
             RETURNING updated_at",
            tenant,
            Json(policy) as _,
            key_id,
        )
        .fetch_one(&self.pool)
        .await?;
        Ok(ReleasePolicyResource {
            policy: *policy,
            source: PolicySource::Tenant,
            updated_at: Some(updated_at),
        })
    }
}
