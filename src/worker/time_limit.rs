//! The maximum run time of a job (`--max-job-secs`): past it the body is
//! told to stop at its next checkpoint, like a cancel, and the job fails
//! with `job_timeout` (not retried: it would take as long again). Without
//! a limit two heavy jobs could hold every worker for as long as they like.

use crate::api::job_error::JobErrorBody;
use std::time::Duration;

use serde_json::{json, Value};
use tokio::task::JoinHandle;

/// Starts the clock of one run: `expired` runs once the limit has passed
/// (the run tells its body to stop). Abort the handle when the run ends.
pub(crate) fn watch(
    limit: Option<Duration>,
    expired: impl FnOnce() + Send + 'static,
) -> JoinHandle<()> {
    tokio::spawn(async move {
        let Some(limit) = limit else {
            return;
        };
        tokio::time::sleep(limit).await;
        expired();
    })
}

/// The job's error once it passed `limit`.
pub(crate) fn error(limit: Option<Duration>) -> Value {
    let secs = limit.map_or(0.0, |l| l.as_secs_f64());
    JobErrorBody::new(
        "job_timeout",
        format!("the job ran longer than the maximum run time of {secs} s and was stopped"),
        json!({"limit_secs": secs}),
    )
    .to_value()
}
