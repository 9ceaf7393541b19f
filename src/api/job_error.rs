//! `Job.error` (docs/api.md §Jobs): why a job failed or was cancelled, as
//! the worker, the queue and the time limit store it in `jobs.error` and
//! the API shows it. One type, so that the shape — and the wording of the
//! errors whose cause is never shown — is written once.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What a job shows for an internal failure (a panic, a core bug, a lost
/// worker on its last attempt): the cause is logged, never stored, since
/// it may name internals or quote a cell.
pub const INTERNAL_JOB_MESSAGE: &str = "the job failed with an internal error";

/// Why a job failed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[schema(as = JobError)]
pub struct JobErrorBody {
    pub code: String,
    pub message: String,
    /// Structured facts about the failure, or null.
    #[schema(schema_with = super::doc_schemas::job_error_details)]
    pub details: Value,
}

impl JobErrorBody {
    pub fn new(code: impl Into<String>, message: impl Into<String>, details: Value) -> Self {
        JobErrorBody {
            code: code.into(),
            message: message.into(),
            details,
        }
    }

    /// An internal failure with `message` (no details; see
    /// [`INTERNAL_JOB_MESSAGE`] for the usual wording).
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new("internal", message, Value::Null)
    }

    pub fn cancelled() -> Self {
        Self::new("cancelled", "the job was cancelled", Value::Null)
    }

    /// The stored and served JSON.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).expect("strings and a JSON value always serialize")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_shape_is_code_message_details() {
        assert_eq!(
            JobErrorBody::internal(INTERNAL_JOB_MESSAGE).to_value(),
            json!({"code": "internal", "message": INTERNAL_JOB_MESSAGE, "details": null})
        );
        let e = JobErrorBody::new("job_timeout", "too long", json!({"limit_secs": 1.5}));
        assert_eq!(
            serde_json::from_value::<JobErrorBody>(e.to_value()).unwrap(),
            e
        );
    }
}
