//! Checks of one record as read, before its cells are parsed: its size
//! (the record limit itself is enforced while the bytes stream in, by
//! [`super::lines::LineCounting`]; here only the error is built), its
//! cells' sizes, and line breaks in any of its cells.

use crate::error::{CoreError, CoreResult, ErrorKind, Field};
use crate::ingest::lines::At;
use crate::ingest::{echoed, quote_value};

/// The record read as data line `next` (0: the header), starting on file
/// line `file_line`, runs past `max` bytes.
pub(super) fn record_too_large(next: u64, file_line: u64, max: usize) -> CoreError {
    let (pointer, what) = if next == 0 {
        (Field::DataHeader, "the header".to_string())
    } else {
        (Field::DataLine(next), format!("data line {next}"))
    };
    let message = format!(
        "{what} (file line {file_line}) is longer than {max} bytes, the limit on one record \
         (max_record_bytes); the rest of the data was not read"
    );
    let err = CoreError::new(ErrorKind::RecordTooLarge, message.clone())
        .with_error(pointer, message)
        .with_detail("file_line", file_line as i64)
        .with_detail("max_record_bytes", max);
    if next == 0 {
        err
    } else {
        err.with_detail("line", next as i64)
    }
}

/// Refuses a cell over `max` bytes (a record shorter than that cannot
/// hold one: the common case costs one comparison).
pub(super) fn check_cell_sizes(
    record: &csv::ByteRecord,
    names: &[&str],
    max: usize,
    data_line: u64,
    at: impl Fn() -> At,
) -> CoreResult<()> {
    if record.as_slice().len() <= max {
        return Ok(());
    }
    // Fields past the header's are the width check's to report.
    let width = names.len();
    let Some((p, cell)) = record
        .iter()
        .take(width)
        .enumerate()
        .find(|(_, c)| c.len() > max)
    else {
        return Ok(());
    };
    let here = at();
    let column = names[p];
    let message = format!(
        "column '{column}', {}: the cell has {} bytes, over {max} bytes, the limit on one \
         cell (max_cell_bytes)",
        here.describe(),
        cell.len()
    );
    Err(CoreError::new(ErrorKind::RecordTooLarge, message.clone())
        .with_error(Field::DataCell(data_line, column.to_string()), message)
        .with_detail("column", column)
        .with_detail("line", data_line as i64)
        .with_detail("file_line", here.file_line as i64)
        .with_detail("cell_bytes", cell.len())
        .with_detail("max_cell_bytes", max))
}

/// Refuses a record with a line break in any cell (the schema does not
/// accept them). One scan of the record's bytes; only a record with a
/// break is looked at field by field.
pub(super) fn check_line_breaks(
    record: &csv::ByteRecord,
    names: &[&str],
    published: impl Fn(usize) -> bool,
    data_line: u64,
    at: impl Fn() -> At,
) -> CoreResult<()> {
    if memchr::memchr2(b'\n', b'\r', record.as_slice()).is_none() {
        return Ok(());
    }
    let Some((p, cell)) = record
        .iter()
        .take(names.len())
        .enumerate()
        .find(|(_, c)| memchr::memchr2(b'\n', b'\r', c).is_some())
    else {
        return Ok(());
    };
    let here = at();
    // The file line where the cell ends: the record's line plus the
    // `\n` bytes in the fields up to and including this one.
    let before: usize = record
        .iter()
        .take(p + 1)
        .map(|c| memchr::memchr_iter(b'\n', c).count())
        .sum();
    let last_line = here.file_line + before as u64;
    let column = names[p];
    let published = published(p);
    // Only the cell's own first line is echoed: what follows the break
    // is, with a stray quote, other rows (identifiers included).
    let first = memchr::memchr2(b'\n', b'\r', cell).unwrap_or(cell.len());
    let shown = String::from_utf8_lossy(&cell[..first]);
    let what = if published {
        format!("{} contains", quote_value(&shown))
    } else {
        "the identifier cell contains".to_string()
    };
    let message = format!(
        "column '{column}', {}: {what} a line break and runs on to file line {last_line}; a \
         quote opened in this cell and closed on a later line merges the rows in between \
         into this one cell, {}; close the quote, or set csv.allow_line_breaks in the schema \
         if the line breaks are meant",
        here.describe(),
        if published {
            "which a release would publish — other rows' identifiers included"
        } else {
            "which would silently drop them"
        }
    );
    let err = CoreError::new(ErrorKind::MalformedCsv, message.clone())
        .with_error(Field::DataCell(data_line, column.to_string()), message)
        .with_detail("column", column)
        .with_detail("line", data_line as i64)
        .with_detail("file_line", here.file_line as i64)
        .with_detail("last_file_line", last_line as i64);
    if !published {
        return Err(err);
    }
    let (shown, _) = echoed(&shown);
    Err(err
        .with_detail("value", shown)
        .with_detail("value_truncated", true))
}
