//! Proxima: the HTTP anonymization service and its offline CLI. The
//! algorithms live in `proxima-core`; this crate holds the boundary types
//! (`spec`), the release writers (`render`), the offline commands
//! (`offline`) and the command line (`cli`).

pub mod cli;
pub mod offline;
pub mod render;
pub mod spec;

#[cfg(test)]
mod test_support;
