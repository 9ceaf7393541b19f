//! The `shared/` folder (examples and data) for the test binaries, included
//! with `#[path]` by `tests/api`, `tests/cli` and `tests/faults`:
//! `$PROXIMA_SHARED_DATA` names its data folder; else `../shared` (CI's
//! layout) or `../../shared` (a worktree). `None`, with a printed reason for
//! the skip, when it is absent.

use std::path::{Path, PathBuf};

pub fn shared_dir() -> Option<PathBuf> {
    let found = if let Some(data) = std::env::var_os("PROXIMA_SHARED_DATA") {
        Path::new(&data).parent().map(Path::to_path_buf)
    } else {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        ["../shared", "../../shared"]
            .iter()
            .map(|rel| root.join(rel))
            .find(|p| p.join("data").is_dir())
    };
    if found.is_none() {
        eprintln!("skipping: the shared data folder is absent");
    }
    found
}
