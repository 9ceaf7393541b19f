//! Proxima: the HTTP anonymization service and its offline CLI. The
//! algorithms live in `proxima-core`; this crate holds the boundary types
//! (`spec`), the release writers (`render`), the offline commands
//! (`offline`), the command line (`cli`), and the service: `config`,
//! `fault` (test-only fault injection), `server`, `http`, `store`, `worker`,
//! `pg_embedded`, `telemetry`; and the benchmark harness (`bench`).

pub mod bench;
pub mod cli;
pub mod config;
pub mod fault;
pub mod http;
pub mod offline;
pub mod pg_embedded;
pub mod render;
pub mod server;
pub mod spec;
pub mod store;
pub mod telemetry;
pub mod worker;

#[cfg(test)]
mod test_support;
