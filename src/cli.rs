//! The `proxima` command line: one subcommand per entry point, one
//! dispatch function.

use proxima_core::parallel::with_threads;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::config::{DbArgs, MigrateArgs, ServeArgs};
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
    /// Run the HTTP service and its job workers (boxed: its many limit
    /// flags make it far larger than the other commands).
    Serve(Box<ServeArgs>),
    /// Apply the database migrations and exit.
    Migrate(MigrateArgs),
    /// Manage API keys.
    #[command(subcommand)]
    Keys(KeysCommand),
    /// Anonymize a CSV file offline (no database) and write the release.
    Anonymize(offline::AnonymizeArgs),
    /// Audit a CSV file offline against privacy checks; prints an AuditReport
    /// (exit 0 even when a check fails: the report's `passed` says so).
    Audit(offline::AuditArgs),
    /// Print the HTTP API's OpenAPI document (regenerates openapi/openapi.json).
    Openapi,
}

#[derive(Debug, Subcommand)]
pub enum KeysCommand {
    /// Create a key for a tenant; the key is printed on the last line.
    Create {
        #[arg(long)]
        tenant: String,
        /// `submitter` (datasets, jobs, audits, sweeps), `reviewer` (reads
        /// reports, approves or rejects) or `admin` (everything, and the
        /// tenant's settings).
        #[arg(long, default_value = "submitter", value_parser = parse_role)]
        role: crate::api::access::KeyRole,
        #[command(flatten)]
        db: DbArgs,
    },
    /// Revoke a key (given in full or by its printed prefix).
    Revoke {
        key: String,
        #[command(flatten)]
        db: DbArgs,
    },
}

fn parse_role(s: &str) -> Result<crate::api::access::KeyRole, String> {
    s.parse()
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("building the tokio runtime")
}

/// Service commands: 0 done, 1 on any error (printed with its causes).
fn service(result: anyhow::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("proxima: {e:#}");
            ExitCode::from(1)
        }
    }
}

/// Runs one command; the offline commands' exit codes follow docs/api.md
/// §Command line (0 done, 2 bad input or infeasible parameters, 1 internal
/// error).
pub fn dispatch(command: Command) -> ExitCode {
    match command {
        Command::Serve(args) => {
            let rt = runtime();
            let result = rt.block_on(crate::server::serve(
                *args,
                std::sync::Arc::new(crate::worker::core_runner::CoreRunner),
            ));
            // A job body handed back at the end of the grace period stops at
            // its next checkpoint; do not let one that is slow to get there
            // hold the process (dropping the runtime would wait for it).
            rt.shutdown_timeout(std::time::Duration::from_secs(5));
            service(result)
        }
        Command::Migrate(args) => service(runtime().block_on(crate::server::migrate(args))),
        Command::Keys(KeysCommand::Create { tenant, role, db }) => {
            service(runtime().block_on(crate::server::keys_create(&db, &tenant, role)))
        }
        Command::Keys(KeysCommand::Revoke { key, db }) => {
            service(runtime().block_on(crate::server::keys_revoke(&db, &key)))
        }
        // The core's forks run on a pool of `--threads` threads.
        Command::Anonymize(args) => offline::report(with_threads(
            crate::threads_or_all_cores(args.threads),
            || offline::anonymize(&args),
        )),
        Command::Audit(args) => offline::report(with_threads(
            crate::threads_or_all_cores(args.threads),
            || offline::audit(&args),
        )),
        Command::Openapi => {
            print!("{}", crate::http::openapi::pretty_json());
            ExitCode::SUCCESS
        }
    }
}

/// Parses the process arguments and dispatches.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Command::Serve(args) = &cli.command {
        if let Err(message) = args.validate() {
            use clap::CommandFactory;
            Cli::command()
                .error(clap::error::ErrorKind::ArgumentConflict, message)
                .exit();
        }
    }
    dispatch(cli.command)
}
