//! Proxima: the HTTP anonymization service and its offline CLI. The
//! algorithms live in `proxima-core`; this crate holds the boundary types
//! (`spec`), the use cases every adapter calls (`app`: ingest a dataset,
//! prepare jobs, load a stored table), the release writers (`render`), the offline commands
//! (`offline`), how freed memory goes back to the system (`allocator`), the command line (`cli`), and the service: `config`,
//! `fault` (test-only fault injection), `server`, `http`, `store`, `worker`,
//! `pg_embedded`, `telemetry`, `retention`; the release report (`report`).
//! The development tools live in their own crates, outside the product:
//! the benchmark suite and load generator in `crates/proxima-tools`, the
//! fuzzing entry points in `crates/proxima-fuzzing`, the test data in
//! `crates/proxima-testdata`.

pub mod allocator;
pub mod api;
pub mod app;
pub mod cli;
pub mod config;
pub mod fault;
pub mod html;
pub mod http;
pub mod metrics;
pub mod offline;
pub mod pg_embedded;
pub mod release_report;
pub mod render;
pub mod retention;
pub mod server;
pub mod store;
pub mod sweep;
pub mod telemetry;
pub mod worker;

/// Every core of this machine (at least one): the default of `proxima
/// anonymize --threads` and `proxima serve --job-threads`.
pub fn all_cores() -> proxima_core::parallel::Threads {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    proxima_core::parallel::Threads::new(cores, "cores")
        .unwrap_or(proxima_core::parallel::Threads::ONE)
}

/// A `--threads` / `--job-threads` flag (clap keeps it in 1..=1024), or
/// every core when it is not given.
pub fn threads_or_all_cores(flag: Option<u32>) -> proxima_core::parallel::Threads {
    flag.and_then(|n| proxima_core::parallel::Threads::new(n as usize, "--threads").ok())
        .unwrap_or_else(all_cores)
}
