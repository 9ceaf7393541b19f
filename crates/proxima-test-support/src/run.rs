//! Running a binary and a scratch directory, for the test binaries that
//! drive an executable (`tests/cli`, `crates/proxima-tools/tests/tools`).

use std::path::PathBuf;
use std::process::{Command, Output};

/// A finished run of a binary.
pub struct Run {
    pub code: i32,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

/// Runs `program` with `args` to completion.
pub fn run(program: &str, args: &[&str]) -> Run {
    let Output {
        status,
        stdout,
        stderr,
    } = Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{program} runs: {e}"));
    Run {
        code: status.code().expect("exited normally"),
        stdout,
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
    }
}

impl Run {
    /// The JSON object printed on stderr (a problem or a job summary): the
    /// last non-empty line.
    pub fn stderr_json(&self) -> serde_json::Value {
        let line = self
            .stderr
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or_else(|| panic!("nothing on stderr (exit {})", self.code));
        serde_json::from_str(line).unwrap_or_else(|e| panic!("stderr is not JSON ({e}): {line}"))
    }
}

/// A scratch directory with files written into it.
pub struct Scratch {
    dir: tempfile::TempDir,
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch::new()
    }
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
