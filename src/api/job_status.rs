//! A job's status: one type for the store, the worker, the API and its
//! schema. The database keeps it as text under a CHECK constraint
//! (migrations/0001_init.sql) with the same five names; SQL that moves a
//! job between states names them in its own text.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum JobStatus {
    Queued,
    Running,
    Succeeded,
    Failed,
    Cancelled,
}

impl JobStatus {
    /// Every status, in the order of a job's life.
    pub const ALL: [JobStatus; 5] = [
        JobStatus::Queued,
        JobStatus::Running,
        JobStatus::Succeeded,
        JobStatus::Failed,
        JobStatus::Cancelled,
    ];

    /// The name stored and shown.
    pub fn as_str(self) -> &'static str {
        match self {
            JobStatus::Queued => "queued",
            JobStatus::Running => "running",
            JobStatus::Succeeded => "succeeded",
            JobStatus::Failed => "failed",
            JobStatus::Cancelled => "cancelled",
        }
    }

    /// Succeeded, failed or cancelled: the job will not run again.
    pub fn is_finished(self) -> bool {
        matches!(
            self,
            JobStatus::Succeeded | JobStatus::Failed | JobStatus::Cancelled
        )
    }
}

impl fmt::Display for JobStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for JobStatus {
    type Err = String;

    fn from_str(s: &str) -> Result<JobStatus, String> {
        JobStatus::ALL
            .into_iter()
            .find(|st| st.as_str() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = JobStatus::ALL.iter().map(|st| st.as_str()).collect();
                format!("status must be one of {}, got {s:?}", names.join(", "))
            })
    }
}

/// A `jobs.status` text that names no status (the CHECK constraint keeps
/// it from happening; reading it is an error, not a guess).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownStatus(pub String);

impl fmt::Display for UnknownStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UnknownStatus {}

/// How the store reads the column (`#[sqlx(try_from = "String")]`).
impl TryFrom<String> for JobStatus {
    type Error = UnknownStatus;

    fn try_from(s: String) -> Result<JobStatus, UnknownStatus> {
        s.parse().map_err(UnknownStatus)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_through_text_and_json() {
        for st in JobStatus::ALL {
            assert_eq!(st.as_str().parse::<JobStatus>(), Ok(st));
            assert_eq!(serde_json::to_value(st).unwrap(), st.as_str());
        }
        assert!("done"
            .parse::<JobStatus>()
            .unwrap_err()
            .contains("queued, running"));
    }

    #[test]
    fn the_database_check_names_the_same_statuses() {
        let migration = include_str!("../../migrations/0001_init.sql");
        let names: Vec<String> = JobStatus::ALL
            .iter()
            .map(|st| format!("'{}'", st.as_str()))
            .collect();
        assert!(
            migration.contains(&format!("CHECK (status IN ({}))", names.join(", "))),
            "migrations/0001_init.sql's CHECK lists other statuses than JobStatus"
        );
    }
}
