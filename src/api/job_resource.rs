//! The `Job` resource (docs/api.md §Jobs): one type that is both what
//! `GET /v1/jobs/{id}` serializes and its OpenAPI schema, built from the
//! stored row by the handlers (`http/jobs.rs`).

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

use super::job_error::JobErrorBody;
use super::{AlgorithmDto, JobSummaryDto, MetricDto, ModelDto, XColorOptionsDto};
use crate::api::JobStatus;

/// The `Job` resource.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[schema(as = Job)]
pub struct JobDto {
    pub id: Uuid,
    pub dataset_id: Uuid,
    pub model: ModelDto,
    /// The algorithm that runs (the model's default when none was named).
    pub algorithm: AlgorithmDto,
    /// The metric in force: the requested one or, for the dissimilarity
    /// model, the SA's default.
    #[schema(required = true)]
    pub sensitive_metric: Option<MetricDto>,
    pub status: JobStatus,
    /// From 0 to 1.
    #[schema(minimum = 0, maximum = 1)]
    pub progress: f64,
    pub attempts: u32,
    pub created_at: DateTime<Utc>,
    #[schema(required = true)]
    pub started_at: Option<DateTime<Utc>>,
    #[schema(required = true)]
    pub finished_at: Option<DateTime<Utc>>,
    /// Set when the job failed, null otherwise.
    #[schema(required = true)]
    pub error: Option<JobErrorBody>,
    /// Set when the job succeeded, null otherwise.
    #[schema(required = true)]
    pub summary: Option<JobSummaryDto>,
    /// The share of rows the job may leave out of the release to satisfy
    /// the model in the attacker's view (the request's; 0 by default).
    #[schema(minimum = 0, exclusive_maximum = 1)]
    pub suppression_limit: f64,
    /// API extension, present only when the request gave it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub xcolor: Option<XColorOptionsDto>,
    /// API extension, present only on a sweep's point: its sweep.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub sweep_id: Option<Uuid>,
    /// API extension, only in the answer to `POST /v1/jobs` (not stored):
    /// what is known before queueing that may make the job fail — e.g. an
    /// m within Theorem 1's bound but above what the service delivers for
    /// sure on this table. Absent when there is nothing to say.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<JobWarningDto>,
}

/// A warning given when a job is accepted.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[schema(as = JobWarning)]
pub struct JobWarningDto {
    /// `beyond_deliverable`: the parameters are within the theorem's
    /// bound (so the job is accepted) but above what the service delivers
    /// for sure; the job may fail with `model_not_satisfied`.
    pub code: String,
    pub message: String,
    pub details: JobWarningDetailsDto,
}

/// The figures behind a `beyond_deliverable` warning.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[schema(as = JobWarningDetails)]
pub struct JobWarningDetailsDto {
    /// The job's m.
    pub m: u64,
    /// The largest m the service delivers for sure on this table without
    /// leaving rows out (the feasibility answer's `deliverable.max_m`).
    pub deliverable_max_m: u64,
    /// The job's suppression limit.
    pub suppression_limit: f64,
}

/// A page of jobs, newest first.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[schema(as = JobList)]
pub struct JobListDto {
    pub items: Vec<JobDto>,
    /// Pass as `?cursor=` for the next page; null on the last page.
    #[schema(required = true)]
    pub next_cursor: Option<String>,
}
