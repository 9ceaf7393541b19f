//! The shared benchmark tables for the core's integration tests and
//! examples: located and opened by the dev-only `proxima-testdata`, parsed
//! by the core's own pure loader.

use proxima_core::error::CoreResult;
use proxima_core::ingest::shared::SharedTable;
use proxima_core::Table;

/// A shared table with its standard schema; `None`, after printing why the
/// caller skips, when the shared data folder is absent.
pub fn load_shared(table: SharedTable) -> Option<CoreResult<Table>> {
    let data = proxima_testdata::SharedData::find_or_skip(table.name())?;
    Some(table.load(|file| data.open(file)))
}
