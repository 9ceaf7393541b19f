//! Integration tests of the `proxima` binary: the offline commands, and the
//! load test of a spawned `proxima serve`.

mod algorithms;
mod e2e;
mod errors;
mod load;
mod output;
#[path = "../common/pg.rs"]
mod pg;
mod release;
mod support;
