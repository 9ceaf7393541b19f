//! Jobs as resources: creation (with idempotency keys), reads, lists and
//! cancellation. The queue mechanics (claim, lease, completion) are in
//! `queue.rs`.

use anyhow::Result;
use chrono::{DateTime, Utc};
use sqlx::postgres::PgRow;
use sqlx::types::Json;
use sqlx::{FromRow, Row};
use uuid::Uuid;

use crate::spec::job_error::JobErrorBody;
use crate::spec::{AlgorithmDto, JobParams, JobSummaryDto, MetricDto, ModelDto, XColorOptionsDto};

use super::datasets::page_cursor;
use super::{Cursor, Page, Store, JOBS_CHANNEL};
use crate::spec::JobStatus;

/// A job as stored (what `GET /v1/jobs/{id}` shows, plus bookkeeping):
/// one field per column of `jobs`, decoded into the API's types (the JSON
/// columns hold what those types serialize to).
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct JobRow {
    pub id: Uuid,
    pub tenant: String,
    pub dataset_id: Uuid,
    #[sqlx(json)]
    pub model: ModelDto,
    #[sqlx(try_from = "String")]
    pub algorithm: AlgorithmDto,
    #[sqlx(json(nullable))]
    pub sensitive_metric: Option<MetricDto>,
    #[sqlx(json(nullable))]
    pub xcolor: Option<XColorOptionsDto>,
    /// The share of rows the job may suppress (0 ≤ x < 1).
    pub suppression_limit: f64,
    #[sqlx(try_from = "String")]
    pub status: JobStatus,
    pub progress: f64,
    pub attempts: i32,
    pub max_attempts: i32,
    pub cancel_requested: bool,
    #[sqlx(json(nullable))]
    pub error: Option<JobErrorBody>,
    #[sqlx(json(nullable))]
    pub summary: Option<JobSummaryDto>,
    pub created_at: DateTime<Utc>,
    pub started_at: Option<DateTime<Utc>>,
    pub finished_at: Option<DateTime<Utc>>,
    /// The sweep this job is a point of, and the point's index.
    pub sweep_id: Option<Uuid>,
    pub sweep_point: Option<i32>,
    /// The API key that queued it (null for jobs queued before keys were
    /// recorded): four eyes compares an approval's key with it.
    pub submitted_by_key: Option<Uuid>,
}

pub(crate) fn job_from_row(row: &PgRow) -> Result<JobRow> {
    Ok(JobRow::from_row(row)?)
}

/// The parameters a stored job runs with (what its request asked for,
/// resolved when it was queued), read back into the type they were stored
/// from. A row this version cannot read (one an older version wrote) is
/// [`UnreadableJob`], the service's failure, never the request's: its
/// pointers are long gone.
impl TryFrom<&JobRow> for JobParams {
    type Error = UnreadableJob;

    fn try_from(row: &JobRow) -> std::result::Result<JobParams, UnreadableJob> {
        let suppression_limit =
            proxima_core::params::SuppressionLimit::new(row.suppression_limit, "").map_err(
                |e| UnreadableJob {
                    id: row.id,
                    reason: format!("suppression_limit: {}", e.message),
                },
            )?;
        Ok(JobParams {
            model: row.model.clone(),
            algorithm: row.algorithm,
            sensitive_metric: row.sensitive_metric.clone(),
            xcolor: row.xcolor,
            suppression_limit,
        })
    }
}

/// A stored job whose parameters do not read back (see
/// `TryFrom<&JobRow> for JobParams`).
#[derive(Debug, Clone, PartialEq)]
pub struct UnreadableJob {
    pub id: Uuid,
    /// Which stored value, and why (no cell values: parameters only).
    pub reason: String,
}

impl std::fmt::Display for UnreadableJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the stored parameters of job {} do not read back: {}",
            self.id, self.reason
        )
    }
}

impl std::error::Error for UnreadableJob {}

/// The parameter columns of `jobs` ($4 to $8 of the inserts), in the form
/// [`JobRow`] decodes.
pub(crate) struct ParamColumns<'a> {
    pub model: Json<&'a ModelDto>,
    pub algorithm: &'static str,
    pub sensitive_metric: Option<Json<&'a MetricDto>>,
    pub xcolor: Option<Json<&'a XColorOptionsDto>>,
    pub suppression_limit: f64,
}

impl<'a> ParamColumns<'a> {
    pub fn of(p: &'a JobParams) -> Self {
        ParamColumns {
            model: Json(&p.model),
            algorithm: p.algorithm.as_str(),
            sensitive_metric: p.sensitive_metric.as_ref().map(Json),
            xcolor: p.xcolor.as_ref().map(Json),
            suppression_limit: p.suppression_limit.get(),
        }
    }
}

/// A job to create.
#[derive(Debug, Clone)]
pub struct NewJob {
    pub tenant: String,
    pub dataset_id: Uuid,
    pub params: JobParams,
    pub max_attempts: i32,
    /// `(key, hash of the request body)` when the client sent `Idempotency-Key`.
    pub idempotency: Option<(String, String)>,
    /// The tenant's quota of queued and running jobs, enforced in the
    /// insert's transaction (`None`: no quota).
    pub max_active: Option<usize>,
    /// The API key that queues it (four eyes compares an approval's key
    /// with it); None for jobs made outside a request.
    pub submitted_by: Option<Uuid>,
}

/// What `create_job` did.
#[derive(Debug, Clone, PartialEq)]
pub enum Created {
    /// A new job, queued.
    New(JobRow),
    /// The same key with the same body: the original job.
    Replayed(JobRow),
    /// The same key with a different body.
    Conflict,
    /// The tenant already has `max_active` jobs queued or running.
    OverQuota,
}

/// What `cancel_job` did.
#[derive(Debug, Clone, PartialEq)]
pub enum Cancelled {
    /// The job was cancelled (queued) or asked to stop (running).
    Done(JobRow),
    /// The job had already finished.
    Finished(JobRow),
    NotFound,
}

/// Filters of `GET /v1/jobs`.
#[derive(Debug, Clone, Default)]
pub struct JobFilter {
    pub status: Option<String>,
    pub dataset_id: Option<Uuid>,
}

impl Store {
    /// Queues a job and wakes the workers (`NOTIFY` at commit). With an
    /// idempotency key, a replay returns the original job. With a quota,
    /// the count and the insert are one transaction under the tenant's
    /// quota lock (`store::fairness`), so concurrent creations cannot pass
    /// it; a replay is answered before the quota is looked at.
    pub async fn create_job(&self, new: &NewJob) -> Result<Created> {
        let mut tx = self.pool.begin().await?;
        let (key, hash) = match &new.idempotency {
            Some((k, h)) => (Some(k.as_str()), Some(h.as_str())),
            None => (None, None),
        };
        if let Some(max_active) = new.max_active {
            super::fairness::lock_tenant_quota(&mut tx, &new.tenant).await?;
            let replay = match key {
                None => false,
                Some(_) => self
                    .idempotent_in(&mut tx, &new.tenant, key)
                    .await?
                    .is_some(),
            };
            if !replay && !super::fairness::has_room(&mut tx, &new.tenant, 1, max_active).await? {
                return Ok(Created::OverQuota);
            }
        }
        let p = ParamColumns::of(&new.params);
        let inserted = sqlx::query(
            "INSERT INTO jobs (id, tenant, dataset_id, model, algorithm, sensitive_metric, xcolor,
                               suppression_limit, status, max_attempts, idempotency_key, request_hash,
                               submitted_by_key)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'queued', $9, $10, $11, $12)
             ON CONFLICT (tenant, idempotency_key) WHERE idempotency_key IS NOT NULL
             DO NOTHING
             RETURNING *",
        )
        .bind(Uuid::new_v4())
        .bind(&new.tenant)
        .bind(new.dataset_id)
        .bind(p.model)
        .bind(p.algorithm)
        .bind(p.sensitive_metric)
        .bind(p.xcolor)
        .bind(p.suppression_limit)
        .bind(new.max_attempts)
        .bind(key)
        .bind(hash)
        .bind(new.submitted_by)
        .fetch_optional(&mut *tx)
        .await?;
        if let Some(row) = inserted {
            let job = job_from_row(&row)?;
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(JOBS_CHANNEL)
                .bind(job.id.to_string())
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            return Ok(Created::New(job));
        }
        // The key exists: the original job decides replay vs conflict.
        let row = sqlx::query("SELECT * FROM jobs WHERE tenant = $1 AND idempotency_key = $2")
            .bind(&new.tenant)
            .bind(key)
            .fetch_one(&mut *tx)
            .await?;
        let stored_hash: Option<String> = row.try_get("request_hash")?;
        tx.commit().await?;
        if stored_hash.as_deref() == hash {
            Ok(Created::Replayed(job_from_row(&row)?))
        } else {
            Ok(Created::Conflict)
        }
    }

    /// Whether a job of `tenant` has this idempotency key, inside `tx`.
    async fn idempotent_in(
        &self,
        tx: &mut sqlx::PgConnection,
        tenant: &str,
        key: Option<&str>,
    ) -> Result<Option<Uuid>> {
        Ok(
            sqlx::query_scalar("SELECT id FROM jobs WHERE tenant = $1 AND idempotency_key = $2")
                .bind(tenant)
                .bind(key)
                .fetch_optional(tx)
                .await?,
        )
    }

    /// The job created earlier with this idempotency key, and the hash of
    /// its request body.
    pub async fn find_idempotent(
        &self,
        tenant: &str,
        key: &str,
    ) -> Result<Option<(JobRow, String)>> {
        let row = sqlx::query("SELECT * FROM jobs WHERE tenant = $1 AND idempotency_key = $2")
            .bind(tenant)
            .bind(key)
            .fetch_optional(&self.pool)
            .await?;
        match row {
            None => Ok(None),
            Some(row) => {
                let hash: Option<String> = row.try_get("request_hash")?;
                Ok(Some((job_from_row(&row)?, hash.unwrap_or_default())))
            }
        }
    }

    /// Job counts by status over all tenants (the `/metrics` gauges): one
    /// aggregate query.
    pub async fn job_counts(&self) -> Result<std::collections::BTreeMap<String, i64>> {
        let rows: Vec<(String, i64)> =
            sqlx::query_as("SELECT status, count(*)::bigint FROM jobs GROUP BY status")
                .fetch_all(&self.pool)
                .await?;
        Ok(rows.into_iter().collect())
    }

    pub async fn get_job(&self, tenant: &str, id: Uuid) -> Result<Option<JobRow>> {
        let row = sqlx::query("SELECT * FROM jobs WHERE tenant = $1 AND id = $2")
            .bind(tenant)
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(job_from_row).transpose()
    }

    /// Newest first, filtered; `limit` items after `cursor`.
    pub async fn list_jobs(
        &self,
        tenant: &str,
        filter: &JobFilter,
        limit: i64,
        cursor: Option<Cursor>,
    ) -> Result<Page<JobRow>> {
        let rows = sqlx::query(
            "SELECT * FROM jobs
             WHERE tenant = $1
               AND ($2::text IS NULL OR status = $2)
               AND ($3::uuid IS NULL OR dataset_id = $3)
               AND ($4::timestamptz IS NULL OR (created_at, id) < ($4, $5))
             ORDER BY created_at DESC, id DESC
             LIMIT $6",
        )
        .bind(tenant)
        .bind(&filter.status)
        .bind(filter.dataset_id)
        .bind(cursor.map(|c| c.created_at))
        .bind(cursor.map(|c| c.id))
        .bind(limit + 1)
        .fetch_all(&self.pool)
        .await?;
        let mut items = rows.iter().map(job_from_row).collect::<Result<Vec<_>>>()?;
        let next_cursor = page_cursor(&mut items, limit, |j| Cursor {
            created_at: j.created_at,
            id: j.id,
        });
        Ok(Page { items, next_cursor })
    }

    /// Queued → cancelled at once; running → `cancel_requested` (the worker
    /// stops at its next checkpoint); finished → `Finished`.
    pub async fn cancel_job(&self, tenant: &str, id: Uuid) -> Result<Cancelled> {
        // In SET, `status` is the row's old value, so each CASE sees the
        // state the job was in.
        let row = sqlx::query(
            "UPDATE jobs SET
                 status = CASE WHEN status = 'queued' THEN 'cancelled' ELSE status END,
                 cancel_requested = true,
                 finished_at = CASE WHEN status = 'queued' THEN now() ELSE finished_at END,
                 updated_at = now()
             WHERE tenant = $1 AND id = $2 AND status IN ('queued', 'running')
             RETURNING *",
        )
        .bind(tenant)
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        if let Some(row) = row {
            return Ok(Cancelled::Done(job_from_row(&row)?));
        }
        Ok(match self.get_job(tenant, id).await? {
            Some(job) => Cancelled::Finished(job),
            None => Cancelled::NotFound,
        })
    }
}
