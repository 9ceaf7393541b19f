//! Integration tests of the `proxima` binary's offline commands.

mod e2e;
mod errors;
mod support;
