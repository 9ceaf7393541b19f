//! Running the binary and reading its problem output.

use serde_json::Value;

#[path = "../common/run.rs"]
mod run;
pub use run::{Run, Scratch};

impl Run {
    /// The JSON object printed on stderr (a problem or a job summary): the
    /// last non-empty line.
    pub fn stderr_json(&self) -> Value {
        let line = self
            .stderr
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or_else(|| panic!("nothing on stderr (exit {})", self.code));
        serde_json::from_str(line).unwrap_or_else(|e| panic!("stderr is not JSON ({e}): {line}"))
    }
}

pub fn proxima(args: &[&str]) -> Run {
    run::run(env!("CARGO_BIN_EXE_proxima"), args)
}

/// Asserts exit code 2 and a problem with `code`; returns the problem.
pub fn expect_problem(run: &Run, code: &str) -> Value {
    assert_eq!(run.code, 2, "exit code; stderr: {}", run.stderr);
    let p = run.stderr_json();
    assert_eq!(p["code"], code, "problem: {p}");
    assert!(p["detail"].as_str().is_some_and(|d| !d.is_empty()), "{p}");
    p
}

pub use proxima_testdata::shared_dir;
