//! The job worker (docs/design.md §5): claims jobs from the Postgres queue, runs the
//! pluggable [`JobRunner`] on a blocking pool, heartbeats, honours
//! cancellation, and settles the job (succeeded / failed / cancelled /
//! retried) only while it still holds the lease.

mod config;
pub mod core_runner;
mod pool;
mod run;
mod running;
mod time_limit;

pub use config::WorkerConfig;
pub use pool::{start, WorkerHandle};

use proxima_core::{CoreError, ErrorKind};
use serde_json::{json, Value};
use uuid::Uuid;

use crate::api::job_error::{JobErrorBody, INTERNAL_JOB_MESSAGE};
use crate::api::FieldPointer;
use crate::store::datasets::{DatasetFiles, DatasetRow};
use crate::store::results::NewResult;

/// Everything a job body needs, loaded before the blocking work starts so
/// the body itself does no I/O.
#[derive(Debug, Clone)]
pub struct JobInput {
    pub job_id: Uuid,
    pub tenant: String,
    /// What the job runs with, as stored at creation.
    pub params: crate::api::JobParams,
    /// Set for a point of a sweep: the runner then also stores the facts
    /// of the point's verdict (`NewResult::verdict_facts`).
    pub sweep_id: Option<Uuid>,
    /// 1 on the first run, 2 on the first retry, …
    pub attempt: i32,
    pub dataset: DatasetRow,
    pub files: DatasetFiles,
    /// The job as claimed: a sweep point's runner builds its release
    /// report's facts from it (`report::build` reads the job).
    pub job: crate::store::jobs::JobRow,
    /// The dataset's population table with its files, read only for a
    /// model judged against it (k-map, δ-presence).
    pub population: Option<(DatasetRow, DatasetFiles)>,
}

/// A finished job's release and report.
#[derive(Debug, Clone, PartialEq)]
pub struct JobOutput {
    /// `Job.summary` (rows, groups, information loss, …).
    pub summary: crate::api::JobSummaryDto,
    pub result: NewResult,
}

/// How a job body failed.
#[derive(Debug, Clone, PartialEq)]
pub enum JobError {
    /// The request cannot succeed (bad model, infeasible, model not
    /// satisfied…): the job fails with this code and no retry.
    Fatal {
        code: String,
        message: String,
        details: Value,
    },
    /// A transient problem (database, I/O): retried with backoff until
    /// `max_attempts`.
    Retryable(String),
    /// The progress callback asked to stop.
    Cancelled,
}

impl JobError {
    /// The `Job.error` object.
    pub fn to_json(&self) -> Value {
        match self {
            JobError::Fatal {
                code,
                message,
                details,
            } => JobErrorBody::new(code.as_str(), message.as_str(), details.clone()).to_value(),
            JobError::Retryable(message) => JobErrorBody::internal(message.as_str()).to_value(),
            JobError::Cancelled => JobErrorBody::cancelled().to_value(),
        }
    }
}

impl From<CoreError> for JobError {
    fn from(e: CoreError) -> Self {
        match e.kind {
            ErrorKind::Cancelled => JobError::Cancelled,
            // An internal error's message may name internals: it is logged
            // by the worker, not shown.
            ErrorKind::Internal => JobError::Fatal {
                code: "internal".into(),
                message: INTERNAL_JOB_MESSAGE.into(),
                details: Value::Null,
            },
            kind => JobError::Fatal {
                code: kind.code().into(),
                message: e.message.clone(),
                details: details_json(&e),
            },
        }
    }
}

fn details_json(e: &CoreError) -> Value {
    fn conv(d: &proxima_core::Detail) -> Value {
        use proxima_core::Detail;
        match d {
            Detail::Int(i) => json!(i),
            Detail::Num(x) => json!(x),
            Detail::Str(s) => json!(s),
            Detail::Bool(b) => json!(b),
            Detail::List(l) => Value::Array(l.iter().map(conv).collect()),
            Detail::Map(m) => Value::Object(m.iter().map(|(k, v)| (k.clone(), conv(v))).collect()),
        }
    }
    let mut map = serde_json::Map::new();
    for (k, v) in &e.details {
        map.insert(k.clone(), conv(v));
    }
    if !e.errors.is_empty() {
        map.insert(
            "errors".into(),
            Value::Array(
                e.errors
                    .iter()
                    .map(|f| json!({"pointer": f.pointer(), "message": f.message}))
                    .collect(),
            ),
        );
    }
    if map.is_empty() {
        Value::Null
    } else {
        Value::Object(map)
    }
}

/// A job body. `progress(f)` reports the fraction done and returns `false`
/// when the job must stop (user cancel, lost lease, shutdown): the body then
/// returns `JobError::Cancelled` at its next checkpoint.
pub trait JobRunner: Send + Sync + 'static {
    fn run(
        &self,
        input: JobInput,
        progress: &(dyn Fn(f64) -> bool + Sync),
    ) -> Result<JobOutput, JobError>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn core_errors_map_to_fatal_cancelled_or_internal() {
        let e = CoreError::new(ErrorKind::ModelNotSatisfied, "3 groups violate")
            .with_detail("violating_groups", 3usize);
        match JobError::from(e) {
            JobError::Fatal { code, details, .. } => {
                assert_eq!(code, "model_not_satisfied");
                assert_eq!(details["violating_groups"], 3);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(JobError::from(CoreError::cancelled()), JobError::Cancelled);
        let internal = JobError::from(CoreError::internal("index 7 out of range in foo.rs"));
        let shown = internal.to_json().to_string();
        assert!(!shown.contains("foo.rs"), "{shown}");
        assert!(shown.contains("\"internal\""), "{shown}");
    }
}
