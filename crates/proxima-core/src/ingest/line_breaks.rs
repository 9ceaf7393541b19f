//! Line breaks in a table loaded before they were refused in every column.
//!
//! The loader refuses a cell with a line break in any column unless the
//! schema sets `csv.allow_line_breaks` (see [`super::load`]). A table stored
//! by an earlier version was checked in its quasi-identifier and sensitive
//! columns only, so an insensitive cell may hold rows a stray quote merged
//! into it — identifiers included. [`check_line_breaks`] finds such a cell
//! in a table before anything is computed or published from it.

use crate::error::{CoreError, CoreResult, ErrorKind, Field};
use crate::ingest::echoed;
use crate::table::Table;

/// Refuses a table with a line break in a published cell when its schema
/// does not accept them (`malformed_csv`, naming the column and the data
/// line). One vectorized scan of each published column's text.
pub fn check_line_breaks(table: &Table) -> CoreResult<()> {
    let schema = table.schema();
    if schema.csv().allow_line_breaks {
        return Ok(());
    }
    for (index, spec) in schema.columns().iter().enumerate() {
        let Some(text) = table.text_column(index) else {
            continue;
        };
        let (buf, ends) = text.parts();
        let Some(at) = memchr::memchr2(b'\n', b'\r', buf.as_bytes()) else {
            continue;
        };
        let row = ends.partition_point(|&e| (e as usize) <= at);
        let line = table.source_lines().get(row).copied().unwrap_or(0);
        let cell = text.get(row);
        let first = cell.find(['\n', '\r']).unwrap_or(cell.len());
        let (shown, _) = echoed(&cell[..first]);
        let column = &spec.name;
        let message = format!(
            "column '{column}', data line {line}: '{shown}' contains a line break; this dataset \
             was stored before line breaks were refused in every column, and a stray quote may \
             have merged other rows (identifiers included) into this cell; upload it again \
             (with csv.allow_line_breaks set if the line breaks are meant)"
        );
        return Err(CoreError::new(ErrorKind::MalformedCsv, message.clone())
            .with_error(Field::DataCell(line.into(), column.to_string()), message)
            .with_detail("column", column.as_str())
            .with_detail("line", line as i64)
            .with_detail("value", shown)
            .with_detail("value_truncated", true));
    }
    Ok(())
}
