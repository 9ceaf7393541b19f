//! Locating the shared data folder in unit tests.

use std::path::{Path, PathBuf};

/// The `shared/` folder: `$PROXIMA_SHARED_DATA/..` when set (it names the
/// data folder), else `../shared` beside the repository (CI's layout), else
/// `../../shared` (a worktree under `wt/`). `None` when absent.
pub fn shared_dir() -> Option<PathBuf> {
    if let Some(data) = std::env::var_os("PROXIMA_SHARED_DATA") {
        let data = PathBuf::from(data);
        return data.parent().map(Path::to_path_buf).filter(|p| p.is_dir());
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    ["../shared", "../../shared"]
        .iter()
        .map(|rel| root.join(rel))
        .find(|p| p.join("data").is_dir())
}
