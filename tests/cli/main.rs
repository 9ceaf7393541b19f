//! Integration tests of the `proxima` binary's offline commands.

mod algorithms;
mod e2e;
mod errors;
mod release;
mod support;
