//! Running the `proxima-tools` binary, and finding the `proxima` server
//! binary beside it.

use std::path::{Path, PathBuf};

use proxima_test_support::run;
pub use proxima_test_support::run::{Run, Scratch};

/// The `proxima-tools` binary under test.
pub fn tools_binary() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_proxima-tools"))
}

/// Runs `proxima-tools` with `args`.
pub fn tools(args: &[&str]) -> Run {
    run::run(env!("CARGO_BIN_EXE_proxima-tools"), args)
}

/// The `proxima` server binary next to `proxima-tools` (cargo builds
/// neither for another package's tests; `cargo test --workspace` builds
/// both into one directory).
pub fn server_binary() -> PathBuf {
    let path = tools_binary().with_file_name("proxima");
    assert!(
        path.is_file(),
        "no proxima server binary at {}: run `cargo build -p proxima` (or `cargo test \
         --workspace`, which builds it) before `cargo test -p proxima-tools`",
        path.display()
    );
    path
}
