//! Streaming writers for a release's cells: CSV (RFC 4180, with the
//! formula-injection guard of docs/design.md §5) and JSON
//! (`{"columns": [...], "rows": [[...], ...]}`). Both write row by row to
//! any `Write`, so the CLI and the HTTP download share them and memory stays
//! flat in the number of rows.

pub mod csv;
pub mod json;

pub use self::csv::CsvRowWriter;
pub use self::json::JsonRowWriter;

/// The release formats (docs/api.md §Results).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Csv,
    Json,
}

/// One writer for either format.
pub enum RowWriter<W: std::io::Write> {
    Csv(CsvRowWriter<W>),
    Json(JsonRowWriter<W>),
}

impl<W: std::io::Write> RowWriter<W> {
    /// Starts the output with the header (CSV) or the column list (JSON).
    pub fn new(format: Format, out: W, columns: &[&str]) -> std::io::Result<Self> {
        Ok(match format {
            Format::Csv => {
                let mut w = CsvRowWriter::new(out);
                w.write_row(columns)?;
                RowWriter::Csv(w)
            }
            Format::Json => RowWriter::Json(JsonRowWriter::new(out, columns)?),
        })
    }

    pub fn write_row(&mut self, cells: &[&str]) -> std::io::Result<()> {
        match self {
            RowWriter::Csv(w) => w.write_row(cells),
            RowWriter::Json(w) => w.write_row(cells),
        }
    }

    /// Closes the document (JSON) and returns the underlying writer.
    pub fn finish(self) -> std::io::Result<W> {
        match self {
            RowWriter::Csv(w) => w.finish(),
            RowWriter::Json(w) => w.finish(),
        }
    }
}

/// Writes a whole release (header, then every published row in release
/// order) and returns the writer. `GET …/result` streams through this, and
/// the release report hashes its CSV through it, so the report's SHA-256 is
/// the hash of the very bytes a download serves.
pub fn write_release<W: std::io::Write>(
    format: Format,
    out: W,
    table: &proxima_core::Table,
    release: &proxima_core::generalize::Release,
    row_id: bool,
) -> std::io::Result<W> {
    let header = proxima_core::generalize::release_header(table, row_id);
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    let mut rows = RowWriter::new(format, out, &header)?;
    proxima_core::generalize::for_each_release_row(table, release, row_id, |cells| {
        rows.write_row(cells)
    })?;
    rows.finish()
}
