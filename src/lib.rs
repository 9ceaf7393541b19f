//! Proxima: the HTTP anonymization service and its offline CLI. The
//! algorithms live in `proxima-core`; this crate holds the boundary types
//! (`spec`), the release writers (`render`), the offline commands
//! (`offline`), the command line (`cli`), and the service: `config`,
//! `fault` (test-only fault injection), `server`, `http`, `store`, `worker`,
//! `pg_embedded`, `telemetry`, `retention`; the release report (`report`); the benchmark harness (`bench`), the load
//! generator (`loadtest`) and the fuzz entry points (`fuzzing`).

pub mod bench;
pub mod cli;
pub mod config;
pub mod fault;
#[doc(hidden)]
pub mod fuzzing;
pub mod html;
pub mod http;
pub mod loadtest;
pub mod metrics;
pub mod offline;
pub mod pg_embedded;
pub mod render;
pub mod report;
pub mod retention;
pub mod sample;
pub mod server;
pub mod spec;
pub mod store;
pub mod sweep;
pub mod telemetry;
pub mod worker;

#[cfg(test)]
mod test_support;
