//! The `proxima` command line.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::config::{DbArgs, MigrateArgs};

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
    /// Apply the database migrations and exit.
    Migrate(MigrateArgs),
    /// Manage API keys.
    #[command(subcommand)]
    Keys(KeysCommand),
}

#[derive(Debug, Subcommand)]
pub enum KeysCommand {
    /// Create a key for a tenant; the key is printed on the last line.
    Create {
        #[arg(long)]
        tenant: String,
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

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("building the tokio runtime")
}

fn report(result: anyhow::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("proxima: {e:#}");
            ExitCode::from(1)
        }
    }
}

pub fn dispatch(command: Command) -> ExitCode {
    match command {
        Command::Migrate(args) => report(runtime().block_on(crate::server::migrate(args))),
        Command::Keys(KeysCommand::Create { tenant, db }) => {
            report(runtime().block_on(crate::server::keys_create(&db, &tenant)))
        }
        Command::Keys(KeysCommand::Revoke { key, db }) => {
            report(runtime().block_on(crate::server::keys_revoke(&db, &key)))
        }
    }
}

pub fn main() -> ExitCode {
    dispatch(Cli::parse().command)
}
