//! Integration tests of the `proxima` binary: the offline commands. (The
//! bench and the load test of a spawned `proxima serve` are in
//! crates/proxima-tools.)

mod algorithms;
mod e2e;
mod errors;
mod hostile_input;
mod output;
mod release;
mod support;
