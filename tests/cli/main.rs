//! Integration tests of the `proxima` binary's offline commands.

mod algorithms;
mod bench;
mod e2e;
mod errors;
mod output;
mod release;
mod support;
