//! What the workspace's test binaries and examples share, as a dev-only
//! crate instead of files included with `#[path]`:
//!
//! * [`db`] (feature `db`): a fresh PostgreSQL database per test, for
//!   `tests/api`, `tests/faults` and `proxima-tools`' tests.
//! * [`run`] (feature `run`): running a binary and a scratch directory, for
//!   `tests/cli` and `proxima-tools`' tests.
//! * [`shared`], [`checks`], [`qe_cases`] (feature `core`): the shared
//!   benchmark tables as core tables, every audit check kind, and the
//!   workload reference cases, for the core's integration tests and
//!   examples.
//!
//! Never a dependency of the product: the core's unit tests do not use it
//! either (they take `proxima-testdata`, which depends on no crate of ours).

#[cfg(feature = "core")]
pub mod checks;
#[cfg(feature = "db")]
pub mod db;
#[cfg(feature = "core")]
pub mod qe_cases;
#[cfg(feature = "run")]
pub mod run;
#[cfg(feature = "core")]
pub mod shared;
