//! Job results: the partition (row → group) and the per-group generalized
//! QI labels, compressed, plus the audit report.

use anyhow::{Context, Result};
use serde_json::Value;
use sqlx::{Postgres, Row, Transaction};
use uuid::Uuid;

use super::{blob, Store};

/// A result to store with a job's completion.
#[derive(Debug, Clone, PartialEq)]
pub struct NewResult {
    /// `group_of_rows[row]` = the row's group (0-based, release order).
    pub group_of_rows: Vec<u32>,
    /// One entry per group: the generalized labels of the QIs, in schema order.
    pub generalizations: Vec<Vec<String>>,
    pub audit: Value,
}

/// A stored result, decoded.
#[derive(Debug, Clone, PartialEq)]
pub struct ResultRow {
    pub job_id: Uuid,
    pub group_of_rows: Vec<u32>,
    pub generalizations: Vec<Vec<String>>,
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
        let generalizations = serde_json::to_vec(&result.generalizations)?;
        sqlx::query(
            "INSERT INTO job_results (job_id, tenant, rows, groups, group_of_rows,
                                      generalizations, audit)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(job_id)
        .bind(tenant)
        .bind(result.group_of_rows.len() as i64)
        .bind(result.generalizations.len() as i64)
        .bind(blob::encode_u32s(&result.group_of_rows))
        .bind(blob::compress(&generalizations))
        .bind(&result.audit)
        .execute(&mut **tx)
        .await?;
        Ok(())
    }

    /// The result of one of `tenant`'s jobs, if stored.
    pub async fn get_result(&self, tenant: &str, job_id: Uuid) -> Result<Option<ResultRow>> {
        let row = sqlx::query(
            "SELECT group_of_rows, generalizations, audit FROM job_results
             WHERE tenant = $1 AND job_id = $2",
        )
        .bind(tenant)
        .bind(job_id)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let groups: Vec<u8> = row.try_get("group_of_rows")?;
        let gens: Vec<u8> = row.try_get("generalizations")?;
        Ok(Some(ResultRow {
            job_id,
            group_of_rows: blob::decode_u32s(&groups).context("decoding a stored partition")?,
            generalizations: serde_json::from_slice(&blob::decompress(&gens)?)
                .context("decoding stored generalizations")?,
            audit: row.try_get("audit")?,
        }))
    }

    /// The audit of one of `tenant`'s jobs, without decoding the partition.
    pub async fn get_audit(&self, tenant: &str, job_id: Uuid) -> Result<Option<Value>> {
        Ok(
            sqlx::query_scalar("SELECT audit FROM job_results WHERE tenant = $1 AND job_id = $2")
                .bind(tenant)
                .bind(job_id)
                .fetch_optional(&self.pool)
                .await?,
        )
    }
}
