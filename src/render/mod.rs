//! Streaming writers for a release's cells: CSV (RFC 4180, with the
//! formula-injection guard of DESIGN §5) and JSON
//! (`{"columns": [...], "rows": [[...], ...]}`). Both write row by row to
//! any `Write`, so the CLI and the HTTP download share them and memory stays
//! flat in the number of rows.

pub mod csv;
pub mod json;

pub use self::csv::CsvRowWriter;
pub use self::json::JsonRowWriter;

/// The release formats (API.md §Results).
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
