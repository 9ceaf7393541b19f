//! Running the binary and reading its problem output.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

pub struct Run {
    pub code: i32,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

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
    let Output {
        status,
        stdout,
        stderr,
    } = Command::new(env!("CARGO_BIN_EXE_proxima"))
        .args(args)
        .output()
        .expect("the proxima binary runs");
    Run {
        code: status.code().expect("exited normally"),
        stdout,
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
    }
}

/// Asserts exit code 2 and a problem with `code`; returns the problem.
pub fn expect_problem(run: &Run, code: &str) -> Value {
    assert_eq!(run.code, 2, "exit code; stderr: {}", run.stderr);
    let p = run.stderr_json();
    assert_eq!(p["code"], code, "problem: {p}");
    assert!(p["detail"].as_str().is_some_and(|d| !d.is_empty()), "{p}");
    p
}

/// A scratch directory with files written into it.
pub struct Scratch {
    dir: tempfile::TempDir,
}

impl Scratch {
    pub fn new() -> Self {
        Scratch {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    pub fn file(&self, name: &str, content: &str) -> String {
        let p = self.dir.path().join(name);
        std::fs::write(&p, content).unwrap();
        p.to_str().unwrap().to_string()
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }
}

#[path = "../common/shared.rs"]
mod shared;
pub use shared::shared_dir;
