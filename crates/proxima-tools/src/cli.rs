//! The `proxima-tools` command line: one subcommand per tool.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(
    name = "proxima-tools",
    version,
    about = "Proxima's benchmark suite and load generator (development tools)"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the benchmark suite (docs/benchmarks.md) and print its table.
    Bench(crate::bench::BenchArgs),
    /// Load-test a running server: concurrent uploads, jobs and status
    /// polls; prints latency percentiles; exit 1 on any 5xx or lost job.
    Loadtest(crate::loadtest::LoadtestArgs),
}

/// Parses the process arguments and runs the tool.
pub fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Bench(args) => crate::bench::main(args),
        Command::Loadtest(args) => crate::loadtest::main(
            &args,
            tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()
                .expect("building the tokio runtime"),
        ),
    }
}
