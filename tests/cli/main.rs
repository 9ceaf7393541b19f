//! Integration tests of the `proxima` binary: the offline commands, and the
//! load test of a spawned `proxima serve`.

mod algorithms;
mod bench;
#[path = "../common/db.rs"]
mod db;
mod e2e;
mod errors;
mod load;
mod output;
mod release;
mod support;
