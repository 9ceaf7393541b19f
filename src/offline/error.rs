//! The offline commands' failures and how they are reported: one JSON
//! problem object on stderr (the same `code` and `detail` the API would
//! give) and exit code 2 for the user's errors, 1 for internal ones.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use proxima_core::CoreError;
use serde_json::{json, Value};

use crate::api::ProblemDto;

#[derive(Debug)]
pub enum OfflineError {
    /// Bad input or parameters, or a failed run, as the core reports it.
    Core(CoreError),
    /// An input file could not be read (no API equivalent: the CLI's own
    /// problem code `unreadable_input`).
    Unreadable { path: PathBuf, message: String },
    /// The output could not be written.
    Output { message: String },
}

impl From<CoreError> for OfflineError {
    fn from(e: CoreError) -> Self {
        OfflineError::Core(e)
    }
}

impl OfflineError {
    pub fn unreadable(path: &Path, e: impl std::fmt::Display) -> Self {
        OfflineError::Unreadable {
            path: path.to_path_buf(),
            message: format!("cannot read {}: {e}", path.display()),
        }
    }

    /// 2 for the user's errors: bad input, infeasible parameters, and
    /// `model_not_satisfied` (the partitioner found no release meeting the
    /// parameters: the remedy is other parameters, as for infeasible ones).
    /// 1 for internal errors and output failures.
    pub fn exit_code(&self) -> u8 {
        match self {
            OfflineError::Core(e) if e.kind.is_user_error() => 2,
            // Cancelled (no CLI path cancels) and internal.
            OfflineError::Core(_) => 1,
            OfflineError::Unreadable { .. } => 2,
            OfflineError::Output { .. } => 1,
        }
    }

    /// The cause of an internal error (the problem object says only that
    /// one happened).
    pub fn internal_cause(&self) -> Option<&str> {
        match self {
            OfflineError::Core(e) if e.kind == proxima_core::ErrorKind::Internal => {
                Some(&e.message)
            }
            _ => None,
        }
    }

    /// The problem object printed on stderr.
    pub fn problem(&self) -> Value {
        match self {
            OfflineError::Core(e) => serde_json::to_value(ProblemDto::from_core(e))
                .unwrap_or_else(|_| json!({"code": e.kind.code()})),
            OfflineError::Unreadable { path, message } => json!({
                "type": "/problems/unreadable_input",
                "title": "Unreadable input",
                "status": 400,
                "detail": message,
                "code": "unreadable_input",
                "details": {"path": path.display().to_string()},
            }),
            OfflineError::Output { message } => json!({
                "type": "/problems/output_failed",
                "title": "Output failed",
                "status": 500,
                "detail": message,
                "code": "output_failed",
            }),
        }
    }
}

/// Prints the outcome and returns the process exit code.
pub fn report(result: Result<(), OfflineError>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let mut err = std::io::stderr().lock();
            // Nothing more can be done when stderr itself fails.
            let _ = writeln!(err, "{}", e.problem());
            // The problem object keeps an internal error's cause out, as
            // the API does; here the one reading stderr runs the command,
            // so the cause is theirs to see and to report.
            if let Some(cause) = e.internal_cause() {
                let _ = writeln!(err, "proxima: internal error: {cause}");
            }
            ExitCode::from(e.exit_code())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proxima_core::ErrorKind;

    #[test]
    fn exit_codes_by_kind() {
        let user = OfflineError::Core(CoreError::invalid_parameters("/model/m", "m"));
        assert_eq!(user.exit_code(), 2);
        assert_eq!(user.problem()["code"], "invalid_parameters");
        assert_eq!(user.problem()["errors"][0]["pointer"], "/model/m");
        let infeasible = OfflineError::Core(CoreError::new(ErrorKind::InfeasibleParameters, "x"));
        assert_eq!(infeasible.exit_code(), 2);
        let unsatisfied = OfflineError::Core(CoreError::new(ErrorKind::ModelNotSatisfied, "x"));
        assert_eq!(unsatisfied.exit_code(), 2);
        assert_eq!(OfflineError::Core(CoreError::cancelled()).exit_code(), 1);
        let internal = OfflineError::Core(CoreError::internal("bug"));
        assert_eq!(internal.exit_code(), 1);
        assert_eq!(internal.problem()["code"], "internal");
        assert_eq!(internal.internal_cause(), Some("bug"));
        assert_eq!(user.internal_cause(), None);
        let missing = OfflineError::unreadable(Path::new("/nope.csv"), "No such file");
        assert_eq!(missing.exit_code(), 2);
        assert_eq!(missing.problem()["code"], "unreadable_input");
        assert_eq!(missing.problem()["details"]["path"], "/nope.csv");
        assert_eq!(
            OfflineError::Output {
                message: "disk full".into()
            }
            .exit_code(),
            1
        );
    }
}
