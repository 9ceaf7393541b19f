//! Approvals: inserted, listed, never updated or deleted (a trigger of
//! migration 0006 refuses both), and kept after their job is gone, beside
//! `deleted_releases`, the record that the release existed and when it
//! was deleted.

use anyhow::Result;
use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::datasets::page_cursor;
use super::{Cursor, Page, Store};
use crate::spec::approval::{ApprovalDecision, ApprovalDto};

/// An approval to record.
#[derive(Debug, Clone)]
pub struct NewApproval<'a> {
    pub tenant: &'a str,
    pub job_id: Uuid,
    pub dataset_id: Uuid,
    pub decision: ApprovalDecision,
    pub name: &'a str,
    pub role: &'a str,
    pub comment: Option<&'a str>,
    pub verdict: &'a str,
    pub verdict_detail: serde_json::Value,
    pub release_sha256: &'a str,
    pub key_id: Uuid,
}

/// The columns of [`ApprovalDto`] (a literal: queries are static strings).
macro_rules! columns {
    () => {
        "id, job_id, dataset_id, decision, name, role, comment, verdict, release_sha256, key_id, \
         tenant, created_at"
    };
}

impl Store {
    pub async fn insert_approval(&self, a: &NewApproval<'_>) -> Result<ApprovalDto> {
        let row = sqlx::query_as::<_, ApprovalDto>(concat!(
            "INSERT INTO approvals (id, tenant, job_id, dataset_id, decision, name, role, comment,
                                    verdict, verdict_detail, release_sha256, key_id)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
             RETURNING ",
            columns!(),
            ""
        ))
        .bind(Uuid::new_v4())
        .bind(a.tenant)
        .bind(a.job_id)
        .bind(a.dataset_id)
        .bind(a.decision.as_str())
        .bind(a.name)
        .bind(a.role)
        .bind(a.comment)
        .bind(a.verdict)
        .bind(&a.verdict_detail)
        .bind(a.release_sha256)
        .bind(a.key_id)
        .fetch_one(&self.pool)
        .await?;
        Ok(row)
    }

    /// A job's approvals, newest first, `limit` after `cursor`.
    pub async fn list_approvals(
        &self,
        tenant: &str,
        job_id: Uuid,
        limit: i64,
        cursor: Option<Cursor>,
    ) -> Result<Page<ApprovalDto>> {
        let mut items = sqlx::query_as::<_, ApprovalDto>(concat!(
            "SELECT ",
            columns!(),
            " FROM approvals
             WHERE tenant = $1 AND job_id = $2
               AND ($3::timestamptz IS NULL OR (created_at, id) < ($3, $4))
             ORDER BY created_at DESC, id DESC
             LIMIT $5"
        ))
        .bind(tenant)
        .bind(job_id)
        .bind(cursor.map(|c| c.created_at))
        .bind(cursor.map(|c| c.id))
        .bind(limit + 1)
        .fetch_all(&self.pool)
        .await?;
        let next_cursor = page_cursor(&mut items, limit, |a| Cursor {
            created_at: a.created_at,
            id: a.id,
        });
        Ok(Page { items, next_cursor })
    }

    /// Every approval of a job, oldest first (the report lists them all).
    pub async fn all_approvals(&self, tenant: &str, job_id: Uuid) -> Result<Vec<ApprovalDto>> {
        Ok(sqlx::query_as::<_, ApprovalDto>(concat!(
            "SELECT ",
            columns!(),
            " FROM approvals WHERE tenant = $1 AND job_id = $2
             ORDER BY created_at, id"
        ))
        .bind(tenant)
        .bind(job_id)
        .fetch_all(&self.pool)
        .await?)
    }

    /// The job's latest decision (what `?purpose=publication` goes by).
    pub async fn latest_approval(&self, tenant: &str, job_id: Uuid) -> Result<Option<ApprovalDto>> {
        Ok(sqlx::query_as::<_, ApprovalDto>(concat!(
            "SELECT ",
            columns!(),
            " FROM approvals WHERE tenant = $1 AND job_id = $2
             ORDER BY created_at DESC, id DESC LIMIT 1"
        ))
        .bind(tenant)
        .bind(job_id)
        .fetch_optional(&self.pool)
        .await?)
    }

    /// When the tenant's succeeded job was deleted, if it was.
    pub async fn release_deleted_at(
        &self,
        tenant: &str,
        job_id: Uuid,
    ) -> Result<Option<DateTime<Utc>>> {
        Ok(sqlx::query_scalar(
            "SELECT deleted_at FROM deleted_releases WHERE tenant = $1 AND job_id = $2",
        )
        .bind(tenant)
        .bind(job_id)
        .fetch_optional(&self.pool)
        .await?)
    }
}
