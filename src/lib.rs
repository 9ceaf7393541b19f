//! Proxima: the HTTP anonymization service and its command line.

pub mod cli;
pub mod config;
pub mod http;
pub mod pg_embedded;
pub mod server;
pub mod store;
pub mod telemetry;
pub mod worker;
