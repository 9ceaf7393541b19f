//! Approvals: inserted, listed, never updated or deleted (a trigger of
//! migration 0006 refuses both), and kept after their job is gone, beside
//! `deleted_releases`, the record that the release existed and when it
//! was deleted.

use anyhow::Result;
use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::datasets::page_cursor;
use super::{Cursor, Page, Store};
use crate::api::approval::{ApprovalDecision, ApprovalDto};

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

/// A checked query into [`ApprovalDto`]: `$head`, its columns, `$tail`,
/// then the arguments (as `job_query!` is for jobs).
macro_rules! approval_query {
    ($head:literal, $tail:literal $(, $arg:expr)* $(,)?) => {
        sqlx::query_as!(
            ApprovalDto,
            $head
                + r#" id, job_id, dataset_id, decision AS "decision: ApprovalDecision", name, role,
                    comment, verdict, release_sha256, key_id, tenant, created_at "#
                + $tail
            $(, $arg)*
        )
    };
}

impl Store {
    pub async fn insert_approval(&self, a: &NewApproval<'_>) -> Result<ApprovalDto> {
        let row = approval_query!(
            "INSERT INTO approvals (id, tenant, job_id, dataset_id, decision, name, role, comment,
                                    verdict, verdict_detail, release_sha256, key_id)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
             RETURNING",
            "",
            Uuid::new_v4(),
            a.tenant,
            a.job_id,
            a.dataset_id,
            a.decision.as_str(),
            a.name,
            a.role,
            a.comment,
            a.verdict,
            a.verdict_detail,
            a.release_sha256,
            a.key_id,
        )
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
        let mut items = approval_query!(
            "SELECT",
            "FROM approvals
             WHERE tenant = $1 AND job_id = $2
               AND ($3::timestamptz IS NULL OR (created_at, id) < ($3, $4::uuid))
             ORDER BY created_at DESC, id DESC
             LIMIT $5",
            tenant,
            job_id,
            cursor.map(|c| c.created_at),
            cursor.map(|c| c.id),
            limit + 1,
        )
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
        Ok(approval_query!(
            "SELECT",
            "FROM approvals WHERE tenant = $1 AND job_id = $2
             ORDER BY created_at, id",
            tenant,
            job_id,
        )
        .fetch_all(&self.pool)
        .await?)
    }

    /// The job's latest decision (what `?purpose=publication` goes by).
    pub async fn latest_approval(&self, tenant: &str, job_id: Uuid) -> Result<Option<ApprovalDto>> {
        Ok(approval_query!(
            "SELECT",
            "FROM approvals WHERE tenant = $1 AND job_id = $2
             ORDER BY created_at DESC, id DESC LIMIT 1",
            tenant,
            job_id,
        )
        .fetch_optional(&self.pool)
        .await?)
    }

    /// When the tenant's succeeded job was deleted, if it was.
    pub async fn release_deleted_at(
        &self,
        tenant: &str,
        job_id: Uuid,
    ) -> Result<Option<DateTime<Utc>>> {
        Ok(sqlx::query_scalar!(
            "SELECT deleted_at FROM deleted_releases WHERE tenant = $1 AND job_id = $2",
            tenant,
            job_id,
        )
        .fetch_optional(&self.pool)
        .await?)
    }
}
