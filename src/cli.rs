//! The `proxima` command line: one subcommand per entry point, one
//! dispatch function.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::offline;

#[derive(Debug, Parser)]
#[command(
    name = "proxima",
    version,
    about = "Anonymize microdata without proximity breaches"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Anonymize a CSV file offline (no database) and write the release.
    Anonymize(offline::AnonymizeArgs),
    /// Audit a CSV file offline against privacy checks; prints an AuditReport
    /// (exit 0 even when a check fails: the report's `passed` says so).
    Audit(offline::AuditArgs),
}

/// Runs one command; the exit code follows API.md §Command line (0 done,
/// 2 bad input or infeasible parameters, 1 internal error).
pub fn dispatch(command: Command) -> ExitCode {
    match command {
        Command::Anonymize(args) => offline::report(offline::anonymize(&args)),
        Command::Audit(args) => offline::report(offline::audit(&args)),
    }
}

/// Parses the process arguments and dispatches.
pub fn main() -> ExitCode {
    dispatch(Cli::parse().command)
}
