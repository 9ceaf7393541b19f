//! Process-level fault tests: the real `proxima` binary
//! (`CARGO_BIN_EXE_proxima`) against a real PostgreSQL, killed with
//! SIGKILL, stopped with SIGTERM, run as two replicas, cut off from its
//! database, sent half an upload, told to cancel, made to panic.
//!
//! The injected faults (`PROXIMA_FAULT_INJECT`, see `src/fault.rs`) exist
//! only in builds with the `fault-injection` feature, which `cargo test`
//! turns on (debug or release); without it the tests that need them say so
//! and skip.
//!
//! The tests run one at a time (`support::serial`). `PROXIMA_FAULT_CYCLES`
//! sets how many kill -9 cycles the crash test runs (default 12, at least 4).

mod support;

mod cancel;
mod compute;
mod connections;
mod db_restart;
mod delete_running;
mod flags;
mod kill;
mod panic;
mod pressure;
mod replicas;
mod shutdown;
mod slow_bodies;
mod sweeps;
mod tenants;
mod upload;
