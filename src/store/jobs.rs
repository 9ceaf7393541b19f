//! Jobs as resources: creation (with idempotency keys), reads, lists and
//! cancellation. The queue mechanics (claim, lease, completion) are in
//! `queue.rs`.

use anyhow::Result;
use chrono::{DateTime, Utc};
use sqlx::types::Json;
use uuid::Uuid;

use crate::api::job_error::JobErrorBody;
use crate::api::{AlgorithmDto, JobParams, JobSummaryDto, MetricDto, ModelDto, XColorOptionsDto};

use super::datasets::page_cursor;
use super::{notify, Cursor, Page, Store, CANCELS_CHANNEL, JOBS_CHANNEL};
use crate::api::JobStatus;

/// A job as stored (what `GET /v1/jobs/{id}` shows, plus bookkeeping):
/// one field per column of `jobs`, decoded into the API's types (the JSON
/// columns hold what those types serialize to; `super::columns`). Read
/// with [`job_query!`].
#[derive(Debug, Clone, PartialEq)]
pub struct JobRow {
    pub id: Uuid,
    pub tenant: String,
    pub dataset_id: Uuid,
    pub model: ModelDto,
    pub algorithm: AlgorithmDto,
    pub sensitive_metric: Option<MetricDto>,
    pub xcolor: Option<XColorOptionsDto>,
    /// The share of rows the job may suppress (0 ≤ x < 1).
    pub suppression_limit: f64,
    pub status: JobStatus,
    pub progress: f64,
    pub attempts: i32,
    pub max_attempts: i32,
    pub cancel_requested: bool,
    pub error: Option<JobErrorBody>,
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

/// A checked query (`query_as!`) into [`JobRow`]: `$head` (`SELECT`, or
/// an `UPDATE`/`INSERT` up to `RETURNING`), the columns of [`JobRow`] with
/// their types, then `$tail` (`FROM jobs …`, or nothing), then the
/// arguments. One column list for every query that reads jobs.
macro_rules! job_query {
    ($head:literal, $tail:literal $(, $arg:expr)* $(,)?) => {
        sqlx::query_as!(
            $crate::store::jobs::JobRow,
            $head
                + r#" id, tenant, dataset_id,
                    model AS "model: crate::api::ModelDto",
                    algorithm AS "algorithm: crate::api::AlgorithmDto",
                    sensitive_metric AS "sensitive_metric: crate::api::MetricDto",
                    xcolor AS "xcolor: crate::api::XColorOptionsDto",
                    suppression_limit,
                    status AS "status: crate::api::JobStatus",
                    progress, attempts, max_attempts, cancel_requested,
                    error AS "error: crate::api::job_error::JobErrorBody",
                    summary AS "summary: crate::api::JobSummaryDto",
                    created_at, started_at, finished_at, sweep_id, sweep_point,
                    submitted_by_key "#
                + $tail
            $(, $arg)*
        )
    };
}
pub(crate) use job_query;

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

/// The parameter columns of `jobs` ($4 to $8 of [`insert_jobs`]), in the
/// form [`JobRow`] decodes.
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

/// A row of [`insert_jobs`]: a job queued on its own (`POST /v1/jobs`) or
/// as a sweep's point.
pub(crate) struct JobInsert<'a> {
    pub tenant: &'a str,
    pub dataset_id: Uuid,
    pub params: &'a JobParams,
    pub max_attempts: i32,
    /// `(key, hash of the request body)` of a job created with an
    /// `Idempotency-Key`.
    pub idempotency: Option<(&'a str, &'a str)>,
    /// The sweep and the point's index, for a sweep's job.
    pub sweep_point: Option<(Uuid, i32)>,
    pub submitted_by: Option<Uuid>,
}

/// Inserts queued jobs in `tx`, in order, and wakes the workers for each
/// (`NOTIFY` at commit). `None` for a job whose idempotency key the tenant
/// has already used (nothing inserted). A sweep's job is created at the
/// time of its insert, so the points' jobs are claimed in point order; a
/// job on its own at its transaction's start, as `now()`.
pub(crate) async fn insert_jobs(
    tx: &mut sqlx::PgConnection,
    jobs: &[JobInsert<'_>],
) -> Result<Vec<Option<JobRow>>> {
    let mut rows = Vec::with_capacity(jobs.len());
    for j in jobs {
        let p = ParamColumns::of(j.params);
        let (key, hash) = j.idempotency.unzip();
        let (sweep_id, sweep_point) = j.sweep_point.unzip();
        let job = job_query!(
            "INSERT INTO jobs (id, tenant, dataset_id, model, algorithm, sensitive_metric, xcolor,
                               suppression_limit, status, max_attempts, idempotency_key,
                               request_hash, sweep_id, sweep_point, created_at, submitted_by_key)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'queued', $9, $10, $11, $12, $13,
                     CASE WHEN $12::uuid IS NULL THEN now() ELSE clock_timestamp() END, $14)
             ON CONFLICT (tenant, idempotency_key) WHERE idempotency_key IS NOT NULL
             DO NOTHING
             RETURNING",
            "",
            Uuid::new_v4(),
            j.tenant,
            j.dataset_id,
            p.model as _,
            p.algorithm,
            p.sensitive_metric as _,
            p.xcolor as _,
            p.suppression_limit,
            j.max_attempts,
            key,
            hash,
            sweep_id,
            sweep_point,
            j.submitted_by,
        )
        .fetch_optional(&mut *tx)
        .await?;
        if let Some(job) = &job {
            notify(&mut *tx, JOBS_CHANNEL, job.id).await?;
        }
        rows.push(job);
    }
    Ok(rows)
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
        let inserted = insert_jobs(
            &mut tx,
            &[JobInsert {
                tenant: &new.tenant,
                dataset_id: new.dataset_id,
                params: &new.params,
                max_attempts: new.max_attempts,
                idempotency: key.zip(hash),
                sweep_point: None,
                submitted_by: new.submitted_by,
            }],
        )
        .await?
        .pop()
        .flatten();
        if let Some(job) = inserted {
            tx.commit().await?;
            return Ok(Created::New(job));
        }
        // The key exists: the original job decides replay vs conflict.
        let stored = idempotent_job(&mut tx, &new.tenant, key.unwrap_or_default()).await?;
        tx.commit().await?;
        match stored {
            Some((job, stored_hash)) if stored_hash.as_deref() == hash => {
                Ok(Created::Replayed(job))
            }
            _ => Ok(Created::Conflict),
        }
    }

    /// Whether a job of `tenant` has this idempotency key, inside `tx`.
    async fn idempotent_in(
        &self,
        tx: &mut sqlx::PgConnection,
        tenant: &str,
        key: Option<&str>,
    ) -> Result<Option<Uuid>> {
        Ok(sqlx::query_scalar!(
            "SELECT id FROM jobs WHERE tenant = $1 AND idempotency_key = $2",
            tenant,
            key
        )
        .fetch_optional(tx)
        .await?)
    }

    /// The job created earlier with this idempotency key, and the hash of
    /// its request body.
    pub async fn find_idempotent(
        &self,
        tenant: &str,
        key: &str,
    ) -> Result<Option<(JobRow, String)>> {
        let mut conn = self.pool.acquire().await?;
        Ok(idempotent_job(&mut conn, tenant, key)
            .await?
            .map(|(job, hash)| (job, hash.unwrap_or_default())))
    }

    /// Job counts by status over all tenants (the `/metrics` gauges): one
    /// aggregate query.
    pub async fn job_counts(&self) -> Result<std::collections::BTreeMap<String, i64>> {
        // count(*) is never NULL.
        let rows = sqlx::query!(r#"SELECT status, count(*) AS "n!" FROM jobs GROUP BY status"#)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.into_iter().map(|r| (r.status, r.n)).collect())
    }

    pub async fn get_job(&self, tenant: &str, id: Uuid) -> Result<Option<JobRow>> {
        Ok(job_query!(
            "SELECT",
            "FROM jobs WHERE tenant = $1 AND id = $2",
            tenant,
            id
        )
        .fetch_optional(&self.pool)
        .await?)
    }

    /// Newest first, filtered; `limit` items after `cursor`.
    pub async fn list_jobs(
        &self,
        tenant: &str,
        filter: &JobFilter,
        limit: i64,
        cursor: Option<Cursor>,
    ) -> Result<Page<JobRow>> {
        let mut items = job_query!(
            "SELECT",
            "FROM jobs
             WHERE tenant = $1
               AND ($2::text IS NULL OR status = $2)
               AND ($3::uuid IS NULL OR dataset_id = $3)
               AND ($4::timestamptz IS NULL OR (created_at, id) < ($4, $5::uuid))
             ORDER BY created_at DESC, id DESC
             LIMIT $6",
            tenant,
            filter.status.as_deref(),
            filter.dataset_id,
            cursor.map(|c| c.created_at),
            cursor.map(|c| c.id),
            limit + 1,
        )
        .fetch_all(&self.pool)
        .await?;
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
        let row = job_query!(
            "UPDATE jobs SET
                 status = CASE WHEN status = 'queued' THEN 'cancelled' ELSE status END,
                 cancel_requested = true,
                 finished_at = CASE WHEN status = 'queued' THEN now() ELSE finished_at END,
                 updated_at = now()
             WHERE tenant = $1 AND id = $2 AND status IN ('queued', 'running')
             RETURNING",
            "",
            tenant,
            id,
        )
        .fetch_optional(&self.pool)
        .await?;
        if let Some(job) = row {
            if job.status == JobStatus::Running {
                // After the commit above, so the worker that hears it finds
                // the request stored. Best effort: the heartbeat carries
                // the cancel anyway.
                if let Err(e) = notify(&self.pool, CANCELS_CHANNEL, id).await {
                    tracing::warn!(job_id = %id, error = %e,
                        "notifying the cancel failed; the next heartbeat carries it");
                }
            }
            return Ok(Cancelled::Done(job));
        }
        Ok(match self.get_job(tenant, id).await? {
            Some(job) => Cancelled::Finished(job),
            None => Cancelled::NotFound,
        })
    }
}

/// The tenant's job with this idempotency key, and the hash of the request
/// body that created it.
async fn idempotent_job(
    conn: &mut sqlx::PgConnection,
    tenant: &str,
    key: &str,
) -> Result<Option<(JobRow, Option<String>)>> {
    let Some(job) = job_query!(
        "SELECT",
        "FROM jobs WHERE tenant = $1 AND idempotency_key = $2",
        tenant,
        key,
    )
    .fetch_optional(&mut *conn)
    .await?
    else {
        return Ok(None);
    };
    let hash = sqlx::query_scalar!("SELECT request_hash FROM jobs WHERE id = $1", job.id)
        .fetch_one(&mut *conn)
        .await?;
    Ok(Some((job, hash)))
}
