//! The offline commands of docs/api.md §Command line: the same core as the
//! service, on local files, with no database.
//!
//! `--schema`, `--model`, `--metric` and `--checks` take inline JSON (a
//! value starting with `{` or `[`), `@path`, or a plain path to a JSON
//! file. `--data` may be gzip-compressed (detected by its magic bytes).
//! Errors print one JSON problem object on stderr — the code and detail the
//! API would give — and exit with 2 (bad input, infeasible parameters) or
//! 1 (internal error).

mod anonymize;
mod audit;
mod error;
mod input;
mod load;
mod output;

use std::path::PathBuf;

use clap::{Args, ValueEnum};

pub use anonymize::anonymize;
pub use audit::audit;
pub use error::{report, OfflineError};
pub use input::{json_arg, open_data, parse_hierarchy_arg, HierarchyArg};
pub use load::{load_schema, load_table};
pub use output::write_output;

use crate::api::{AlgorithmDto, InitialColoringDto};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    Csv,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AlgorithmArg {
    #[value(name = "epsilon_m")]
    EpsilonM,
    Xcolor,
    Mondrian,
}

impl From<AlgorithmArg> for AlgorithmDto {
    fn from(a: AlgorithmArg) -> Self {
        match a {
            AlgorithmArg::EpsilonM => AlgorithmDto::EpsilonM,
            AlgorithmArg::Xcolor => AlgorithmDto::Xcolor,
            AlgorithmArg::Mondrian => AlgorithmDto::Mondrian,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum InitialArg {
    #[value(name = "qi_aware")]
    QiAware,
    #[value(name = "degree_balanced")]
    DegreeBalanced,
}

impl From<InitialArg> for InitialColoringDto {
    fn from(a: InitialArg) -> Self {
        match a {
            InitialArg::QiAware => InitialColoringDto::QiAware,
            InitialArg::DegreeBalanced => InitialColoringDto::DegreeBalanced,
        }
    }
}

/// What both commands read: the data, its schema and hierarchy files.
#[derive(Debug, Clone, Args)]
pub struct InputArgs {
    /// The data CSV (with a header row); may be gzip-compressed.
    #[arg(long, value_name = "FILE")]
    pub data: PathBuf,
    /// The schema (docs/api.md §Datasets): inline JSON, @FILE or a path.
    #[arg(long, value_name = "JSON")]
    pub schema: String,
    /// An ARX hierarchy file for a categorical column (repeatable).
    #[arg(long = "hierarchy", value_name = "COLUMN=FILE", value_parser = parse_hierarchy_arg)]
    pub hierarchies: Vec<HierarchyArg>,
    /// The largest cell of the data, in bytes (`record_too_large` beyond);
    /// the same default as `proxima serve`'s uploads.
    #[arg(long, value_name = "BYTES", default_value_t = proxima_core::ingest::MAX_CELL_BYTES)]
    pub max_cell_bytes: usize,
    /// The largest record (one line of the data, or several when quoted
    /// fields hold line breaks), in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = proxima_core::ingest::MAX_RECORD_BYTES)]
    pub max_record_bytes: usize,
}

#[derive(Debug, Clone, Args)]
pub struct AnonymizeArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// The privacy model (docs/api.md §Jobs `model`): inline JSON, @FILE or a path.
    #[arg(long, value_name = "JSON")]
    pub model: String,
    /// The partitioner; default per model.
    #[arg(long, value_enum)]
    pub algorithm: Option<AlgorithmArg>,
    /// The sensitive metric (docs/api.md `sensitive_metric`): inline JSON, @FILE or a path.
    #[arg(long, value_name = "JSON")]
    pub metric: Option<String>,
    /// XColor's initial colouring (API extension `xcolor.initial`).
    #[arg(long, value_enum)]
    pub xcolor_initial: Option<InitialArg>,
    /// The share of rows the job may leave out to satisfy the model in the
    /// attacker's view, in [0, 1) (default 0).
    #[arg(long, value_name = "FRACTION")]
    pub suppression_limit: Option<f64>,
    /// Add `row_id` (the 1-based data line of the input) to the release:
    /// for the data owner's reconciliation only, never for publication.
    #[arg(long)]
    pub row_id: bool,
    /// The release format (docs/api.md §Results).
    #[arg(long, value_enum, default_value = "csv")]
    pub format: FormatArg,
    /// Where to write the release (default: stdout).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Threads the work may use (default: every core). The release is the
    /// same whatever the number (docs/performance.md).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// Also print, on stderr after the summary, one JSON line with the
    /// wall-clock milliseconds of each stage (read, partition, generalize,
    /// guard, write): the profile of docs/performance.md.
    #[arg(long)]
    pub timings: bool,
}

#[derive(Debug, Clone, Args)]
pub struct AuditArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// The checks (docs/api.md §Audits `checks`): a JSON array, inline, @FILE or a path.
    #[arg(long, value_name = "JSON")]
    pub checks: String,
    /// Group rows by this column's value (e.g. a release's `group_id`)
    /// instead of by identical quasi-identifier values.
    #[arg(long, value_name = "COLUMN")]
    pub groups_by: Option<String>,
    /// How the checks are judged: `groups` (each group alone, the default
    /// for an uploaded table as in the API) or `attacker` (over every set of
    /// groups whose labels can cover one QI point; docs/attackers-view.md).
    #[arg(long, value_enum, default_value = "groups")]
    pub view: ViewArg,
    /// Threads the work may use (default: every core). The release is the
    /// same whatever the number (docs/performance.md).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
}

/// `--view` of `proxima audit`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ViewArg {
    Groups,
    Attacker,
}
