//! Proxima's development tools, kept out of the production binary and
//! library: the benchmark suite and the load generator, with the HTTP
//! client (`reqwest`) they need.
//!
//! One binary, `proxima-tools`, with a subcommand each (`bench`,
//! `loadtest`), rather than two binaries: the bench already re-runs its own
//! executable for each case (`proxima-tools bench --child`), the two share
//! the command-line conventions and the build, and one more binary to link
//! would cost every test build time for nothing.
//!
//! * [`bench`]: the benchmark suite (docs/benchmarks.md). Its HTTP cases
//!   spawn the `proxima` server binary: `--server-binary PATH`, by default
//!   the `proxima` next to this executable (the same target directory:
//!   `cargo build --release -p proxima -p proxima-tools` builds both).
//! * [`loadtest`]: concurrent uploads, jobs and status polls against a
//!   running server.
//!
//! `cargo build --release -p proxima -p proxima-tools`, then
//! `target/release/proxima-tools bench --list`.

pub mod bench;
pub mod cli;
pub mod loadtest;
