//! Proxima: the HTTP anonymization service and its offline CLI. The
//! algorithms live in `proxima-core`; this crate holds the boundary types
//! (`spec`), the release writers (`render`), the offline commands
//! (`offline`), the command line (`cli`), and the service: `config`,
//! `server`, `http`, `store`, `worker`, `pg_embedded`, `telemetry`.

pub mod cli;
pub mod config;
#[doc(hidden)]
pub mod fuzzing;
pub mod http;
pub mod loadtest;
pub mod offline;
pub mod pg_embedded;
pub mod render;
pub mod sample;
pub mod server;
pub mod spec;
pub mod store;
pub mod telemetry;
pub mod worker;

#[cfg(test)]
mod test_support;
