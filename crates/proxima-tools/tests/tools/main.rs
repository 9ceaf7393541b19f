//! Integration tests of the `proxima-tools` binary: `bench` on its mini
//! case, and the load test of a spawned `proxima serve` driven by
//! `loadtest`.
//!
//! The server is the `proxima` binary next to `proxima-tools` in the target
//! directory (what the tool itself spawns by default): `cargo test
//! --workspace` builds it with the other test targets; after `cargo test -p
//! proxima-tools` alone, run `cargo build -p proxima` first.

mod bench;
mod layers;
mod load;
mod support;
