//! Ingestion: turning uploaded bytes into validated core values.
//!
//! * [`parse_hierarchy_csv`] / [`hierarchy_from_inline`] — ARX hierarchy
//!   files and the JSON-inline form of a hierarchy.
//! * [`load_table`] — the data CSV, checked against a [`Schema`] and stored
//!   columnar in a [`Table`]; [`load_blocks`] — the same load handed out
//!   in [`Block`]s of rows, so an upload validates and stores a table of
//!   any length holding one block at a time ([`Assembler`] puts blocks
//!   back into a table).
//! * [`column_stats`] / [`StatsBuilder`] — the per-column figures of
//!   docs/api.md's `Dataset.columns`, of a table or block by block.
//! * `shared` (the `testing` feature) — the benchmark tables of `shared/data` and their standard
//!   schemas, loaded from files the caller opens (tests, examples and the
//!   bench, through the dev-only `proxima-testdata`).
//!
//! # Line numbering
//!
//! Every error about a data row names its **data line**: data line 1 is the
//! first record after the header, counted in records (blank lines, which
//! the CSV reader skips, are not counted). Errors name the place as a
//! [`Field`](crate::error::Field) such as `DataCell(17, "age")`; messages
//! also give the line of the file where the record starts ("file line 18")
//! because that is what an editor shows.
//! [`Table::source_lines`](crate::table::Table::source_lines) uses the same
//! data-line numbers.
//!
//! # Error fields
//!
//! | field | used for |
//! |---|---|
//! | `Data` | empty file, no data rows |
//! | `DataHeader` | the header could not be read |
//! | `HeaderCell(position)` | duplicate or undescribed header name (0-based) |
//! | `ColumnParam(index, "name")` | a schema column absent from the header |
//! | `DataLine(n)` | wrong field count, unreadable record |
//! | `DataCell(n, column)` | bad cell, value outside the hierarchy, missing value |
//! | `Hierarchy(column)` | a hierarchy that is empty or not a tree |
//! | `HierarchyLine(column, l)` | a bad row of an ARX hierarchy file (file line) |
//! | `HierarchyPath(column, i)` | a bad path of an inline hierarchy (0-based) |
//!
//! Errors about a cell also carry the details `column`, `line`,
//! `file_line` and `value`; hierarchy errors carry `column` and `line` or
//! `path`; `missing_values` carries `rows_with_missing` and `missing` (a
//! list of `{line, file_line, columns}`).
//!
//! [`Schema`]: crate::schema::Schema
//! [`Table`]: crate::table::Table

mod assemble;
mod block;
mod header;
mod hierarchy_csv;
mod line_breaks;
mod lines;
mod load;
mod missing;
mod pieces;
mod plain;
mod record_checks;
#[cfg(any(test, feature = "testing"))]
pub mod shared;
mod stats;

#[cfg(test)]
pub(crate) mod block_tests;
#[cfg(test)]
mod load_tests;
#[cfg(test)]
mod malformed_tests;
#[cfg(test)]
mod shared_tests;
#[cfg(test)]
mod size_tests;

pub use assemble::Assembler;
pub use block::{
    Block, BlockColumn, BlockLimits, BlockTally, BlockValues, ColumnKind, Loaded, BLOCK_BYTES,
    BLOCK_ROWS, MAX_CELL_BYTES, MAX_RECORD_BYTES,
};
pub use hierarchy_csv::{hierarchy_from_inline, parse_hierarchy_csv};
pub use line_breaks::check_line_breaks;
pub use load::{
    load_blocks, load_table, load_table_with_limits, load_table_with_progress, CHECKPOINT_EVERY,
};
pub use pieces::{try_load_pieces, PIECE_BYTES};
pub use stats::{column_stats, ColumnStats, StatsBuilder};

/// At most this many characters of a cell (or name) are echoed in an
/// error: a 10 MB cell must not make a 10 MB error body.
pub(crate) const ECHOED_CHARS: usize = 80;

/// A value as echoed in an error's details: at most [`ECHOED_CHARS`]
/// characters, then `…`; the flag says whether it was shortened.
pub(crate) fn echoed(value: &str) -> (String, bool) {
    match value.char_indices().nth(ECHOED_CHARS) {
        None => (value.to_string(), false),
        Some((cut, _)) => (format!("{}…", &value[..cut]), true),
    }
}

/// Quotes a cell for an error message, shortening very long cells so a
/// message stays readable (the full line number is always given).
pub(crate) fn quote_value(value: &str) -> String {
    format!("'{}'", echoed(value).0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echoed_values_are_bounded() {
        assert_eq!(echoed("abc"), ("abc".to_string(), false));
        let (e, cut) = echoed(&"é".repeat(10_000));
        assert!(cut && e.chars().count() == ECHOED_CHARS + 1 && e.ends_with('…'));
    }

    #[test]
    fn long_values_are_shortened_in_messages() {
        assert_eq!(quote_value("x"), "'x'");
        let long = "y".repeat(200);
        let q = quote_value(&long);
        assert!(q.ends_with("…'") && q.chars().count() == 83, "{q}");
    }
}
