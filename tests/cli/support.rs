//! Running the binary and reading its problem output.

use serde_json::Value;

use proxima_test_support::run;
pub use proxima_test_support::run::{Run, Scratch};

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
