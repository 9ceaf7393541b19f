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

    /// A writer of the same format for a stretch of rows rendered apart
    /// (no header; `first`: the stretch opens the release's rows), whose
    /// bytes [`RowWriter::append`] adds after the rows written so far.
    pub fn fragment(format: Format, first: bool) -> RowWriter<Vec<u8>> {
        match format {
            Format::Csv => RowWriter::Csv(CsvRowWriter::new(Vec::new())),
            Format::Json => RowWriter::Json(JsonRowWriter::continuing(Vec::new(), first)),
        }
    }

    /// The underlying writer, the document left open.
    pub fn into_inner(self) -> W {
        match self {
            RowWriter::Csv(w) => w.into_inner(),
            RowWriter::Json(w) => w.into_inner(),
        }
    }

    /// Writes the bytes of a [`RowWriter::fragment`] (rows already framed).
    pub fn append(&mut self, fragment: &[u8]) -> std::io::Result<()> {
        match self {
            RowWriter::Csv(w) => w.append(fragment),
            RowWriter::Json(w) => w.append(fragment),
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

/// Rows per stretch of the release rendered on one thread.
const STRETCH_ROWS: usize = 16 * 1024;

/// Writes a whole release (header, then every published row in release
/// order) and returns the writer. `GET …/result` streams through this, and
/// the release report hashes its CSV through it, so the report's SHA-256 is
/// the hash of the very bytes a download serves.
///
/// Rendering is most of the cost of writing a release (the rows are read
/// in group order, scattered over the table). Stretches of about
/// [`STRETCH_ROWS`] rows are rendered into buffers on the threads of the
/// current pool (`proxima_core::parallel`), a few per thread at a time, and
/// written in release order: the bytes are those of a one-thread render,
/// and memory stays bounded by two batches of those buffers, not the
/// release. The next batch renders while this thread writes the last one
/// out (the writes are system calls, or a download's channel): with one
/// batch at a time the pool's other threads idled through every write.
pub fn write_release<W: std::io::Write>(
    format: Format,
    out: W,
    table: &proxima_core::Table,
    release: &proxima_core::generalize::Release,
    row_id: bool,
) -> std::io::Result<W> {
    write_release_in(format, out, table, release, row_id, STRETCH_ROWS)
}

/// [`write_release`] in stretches of about `stretch_rows` rows (the tests
/// take small ones, so that a small table spans many batches).
fn write_release_in<W: std::io::Write>(
    format: Format,
    out: W,
    table: &proxima_core::Table,
    release: &proxima_core::generalize::Release,
    row_id: bool,
    stretch_rows: usize,
) -> std::io::Result<W> {
    use proxima_core::generalize::{for_each_release_row_in, release_chunks, release_row_text};
    use rayon::prelude::*;
    let header = proxima_core::generalize::release_header(table, row_id);
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    let mut rows = RowWriter::new(format, out, &header)?;
    let stretches = release_chunks(release, stretch_rows);
    // The text cells laid out row by row first (one pass in upload order):
    // rendering then reads about one cache line per row, not two per cell.
    let row_text = release_row_text(table);
    let render = |b: usize, stretches: &[std::ops::Range<usize>]| -> Rendered {
        stretches
            .par_iter()
            .enumerate()
            .map(|(i, groups)| {
                let mut w = RowWriter::<Vec<u8>>::fragment(format, b == 0 && i == 0);
                for_each_release_row_in(
                    table,
                    release,
                    row_id,
                    groups.clone(),
                    row_text.as_ref(),
                    |cells| w.write_row(cells),
                )?;
                Ok(w.into_inner())
            })
            .collect()
    };
    let batch = 2 * rayon::current_num_threads().max(1);
    let mut ready: Option<Rendered> = None;
    for (b, stretches) in stretches.chunks(batch).enumerate() {
        let mut next: Option<Rendered> = None;
        let mut written = Ok(());
        // The scope's body runs on this thread (the writer need not be
        // Send); the render is a job any thread of the pool takes up, this
        // one too once its writes are done.
        rayon::in_place_scope(|s| {
            s.spawn(|_| next = Some(render(b, stretches)));
            if let Some(done) = ready.take() {
                written = append_all(&mut rows, done);
            }
        });
        written?;
        ready = next;
    }
    if let Some(done) = ready {
        append_all(&mut rows, done)?;
    }
    rows.finish()
}

/// A batch of stretches rendered, in release order.
type Rendered = Vec<std::io::Result<Vec<u8>>>;

/// Writes a rendered batch in order; the first stretch that failed to
/// render stops it with its error.
fn append_all<W: std::io::Write>(rows: &mut RowWriter<W>, done: Rendered) -> std::io::Result<()> {
    for bytes in done {
        rows.append(&bytes?)?;
    }
    Ok(())
}

#[cfg(test)]
mod pipelined_tests;
#[cfg(test)]
mod tests_jobs;
#[cfg(test)]
mod without_qi_text_tests;
