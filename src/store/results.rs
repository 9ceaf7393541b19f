//! Job results: the partition (row → group), compressed, plus the audit
//! report. The generalized labels are recomputed from the dataset on
//! download (`Release::from_assignment`), so they are not stored.

use anyhow::{Context, Result};
use serde_json::Value;
use sqlx::{Postgres, Transaction};
use uuid::Uuid;

use super::{blob, Store};

/// A result to store with a job's completion.
#[derive(Debug, Clone, PartialEq)]
pub struct NewResult {
    /// `group_of_rows[row]` = the row's group (0-based, release order).
    pub group_of_rows: Vec<u32>,
    pub audit: Value,
    /// A sweep point's verdict facts (`report::verdict::Facts` as JSON);
    /// None for other jobs.
    pub verdict_facts: Option<Value>,
}

/// A stored result, decoded.
#[derive(Debug, Clone, PartialEq)]
pub struct ResultRow {
    pub job_id: Uuid,
    pub group_of_rows: Vec<u32>,
    pub audit: Value,
}

impl Store {
    pub(crate) async fn insert_result(
        &self,
        tx: &mut Transaction<'static, Postgres>,
        job_id: Uuid,
        tenant: &str,
        result: &NewResult,
    ) -> Result<()> {
        let groups = result
            .group_of_rows
            .iter()
            .map(|&g| g as i64 + 1)
            .max()
            .unwrap_or(0);
        sqlx::query!(
            "INSERT INTO job_results
                 (job_id, tenant, rows, groups, group_of_rows, audit, verdict_facts)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
            job_id,
            tenant,
            result.group_of_rows.len() as i64,
            groups,
            blob::encode_u32s(&result.group_of_rows),
            result.audit,
            result.verdict_facts,
        )
        .execute(&mut **tx)
        .await?;
        Ok(())
    }

    /// The verdict facts stored with `tenant`'s results of `jobs` (sweep
    /// points), by job; jobs without them are left out.
    pub async fn verdict_facts(
        &self,
        tenant: &str,
        jobs: &[Uuid],
    ) -> Result<std::collections::HashMap<Uuid, Value>> {
        // Not null: the WHERE clause leaves the rows without facts out.
        let rows = sqlx::query!(
            r#"SELECT job_id, verdict_facts AS "verdict_facts!" FROM job_results
               WHERE tenant = $1 AND job_id = ANY($2) AND verdict_facts IS NOT NULL"#,
            tenant,
            jobs,
        )
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|r| (r.job_id, r.verdict_facts))
            .collect())
    }

    /// The result of one of `tenant`'s jobs, if stored.
    pub async fn get_result(&self, tenant: &str, job_id: Uuid) -> Result<Option<ResultRow>> {
        let row = sqlx::query!(
            "SELECT group_of_rows, audit FROM job_results
             WHERE tenant = $1 AND job_id = $2",
            tenant,
            job_id,
        )
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        Ok(Some(ResultRow {
            job_id,
            group_of_rows: blob::decode_u32s(&row.group_of_rows)
                .context("decoding a stored partition")?,
            audit: row.audit,
        }))
    }

    /// The audit of one of `tenant`'s jobs, without decoding the partition.
    pub async fn get_audit(&self, tenant: &str, job_id: Uuid) -> Result<Option<Value>> {
        Ok(sqlx::query_scalar!(
            "SELECT audit FROM job_results WHERE tenant = $1 AND job_id = $2",
            tenant,
            job_id,
        )
        .fetch_optional(&self.pool)
        .await?)
    }
}
