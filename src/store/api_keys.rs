//! API keys: random tokens stored as SHA-256 hashes, each bound to a tenant.

use anyhow::Result;
use rand::RngCore;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use super::Store;
use crate::api::access::KeyRole;

/// An active key as the request that presented it sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyIdentity {
    pub id: Uuid,
    pub tenant: String,
    pub role: KeyRole,
}

/// Keys look like `pxk_<64 hex chars>` (256 random bits).
pub const KEY_PREFIX: &str = "pxk_";

pub fn generate_key() -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    format!("{KEY_PREFIX}{}", hex::encode(bytes))
}

pub fn hash_key(key: &str) -> Vec<u8> {
    Sha256::digest(key.as_bytes()).to_vec()
}

/// What identifies a key when shown: `pxk_` and 8 characters, but never
/// more than half of the key (a short bootstrap key must not be stored in
/// clear through its prefix).
pub(crate) fn display_prefix(key: &str) -> String {
    let n = key.chars().count();
    key.chars()
        .take((KEY_PREFIX.len() + 8).min(n / 2))
        .collect()
}

impl Store {
    /// The tenant of an active key, if any.
    pub async fn tenant_for_key(&self, key: &str) -> Result<Option<String>> {
        let tenant = sqlx::query_scalar!(
            "SELECT tenant FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL",
            hash_key(key)
        )
        .fetch_optional(&self.pool)
        .await?;
        Ok(tenant)
    }

    /// The id, tenant and role of an active key, if any.
    pub async fn key_identity(&self, key: &str) -> Result<Option<KeyIdentity>> {
        Ok(sqlx::query_as!(
            KeyIdentity,
            r#"SELECT id, tenant, role AS "role: KeyRole" FROM api_keys
               WHERE key_hash = $1 AND revoked_at IS NULL"#,
            hash_key(key)
        )
        .fetch_optional(&self.pool)
        .await?)
    }

    /// Stores `key` for `tenant` as an admin key; a key that already
    /// exists is left as is (bootstrap keys are ensured on every start).
    pub async fn ensure_key(&self, tenant: &str, key: &str) -> Result<()> {
        self.ensure_key_with_role(tenant, key, KeyRole::Admin).await
    }

    /// Stores `key` for `tenant` with `role`; a key that already exists is
    /// left as is.
    pub async fn ensure_key_with_role(&self, tenant: &str, key: &str, role: KeyRole) -> Result<()> {
        sqlx::query!(
            "INSERT INTO api_keys (id, tenant, key_hash, prefix, role) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (key_hash) DO NOTHING",
            Uuid::new_v4(),
            tenant,
            hash_key(key),
            display_prefix(key),
            role.as_str(),
        )
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Creates a new random admin key for `tenant` and returns it (shown
    /// once).
    pub async fn create_key(&self, tenant: &str) -> Result<String> {
        self.create_key_with_role(tenant, KeyRole::Admin).await
    }

    /// Creates a new random key for `tenant` with `role` and returns it.
    pub async fn create_key_with_role(&self, tenant: &str, role: KeyRole) -> Result<String> {
        let key = generate_key();
        self.ensure_key_with_role(tenant, &key, role).await?;
        Ok(key)
    }

    /// Creates a key for tenant `default` only when no key exists at all;
    /// returns it then. Serialized by an advisory lock so two replicas
    /// starting together create one key, not two.
    pub async fn create_first_key(&self) -> Result<Option<String>> {
        let mut tx = self.pool.begin().await?;
        sqlx::query!("SELECT pg_advisory_xact_lock(7061726)")
            .execute(&mut *tx)
            .await?;
        // EXISTS is never NULL.
        let any = sqlx::query_scalar!(r#"SELECT EXISTS (SELECT 1 FROM api_keys) AS "any!""#)
            .fetch_one(&mut *tx)
            .await?;
        if any {
            return Ok(None);
        }
        let key = generate_key();
        sqlx::query!(
            "INSERT INTO api_keys (id, tenant, key_hash, prefix, role)
             VALUES ($1, $2, $3, $4, 'admin')",
            Uuid::new_v4(),
            "default",
            hash_key(&key),
            display_prefix(&key),
        )
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Some(key))
    }

    /// Revokes a key given in full or by its displayed prefix; returns how
    /// many keys were revoked.
    pub async fn revoke_key(&self, key_or_prefix: &str) -> Result<u64> {
        let done = sqlx::query!(
            "UPDATE api_keys SET revoked_at = now()
             WHERE revoked_at IS NULL AND (key_hash = $1 OR prefix = $2)",
            hash_key(key_or_prefix),
            key_or_prefix,
        )
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected())
    }

    /// Number of active keys (start-up decides whether to print one).
    pub async fn count_keys(&self) -> Result<i64> {
        // count(*) is never NULL.
        Ok(
            sqlx::query_scalar!(
                r#"SELECT count(*) AS "n!" FROM api_keys WHERE revoked_at IS NULL"#
            )
            .fetch_one(&self.pool)
            .await?,
        )
    }
}
