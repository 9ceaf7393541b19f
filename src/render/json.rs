//! `{"columns": [...], "rows": [[...], ...]}` written incrementally.
//! Cells are JSON strings exactly as in the release (no injection guard:
//! JSON is not opened by spreadsheets as formulas).

use std::io::{self, Write};

pub struct JsonRowWriter<W: Write> {
    out: W,
    first_row: bool,
}

impl<W: Write> JsonRowWriter<W> {
    /// Writes the column list and opens the rows array.
    pub fn new(mut out: W, columns: &[&str]) -> io::Result<Self> {
        out.write_all(b"{\"columns\":")?;
        write_strings(&mut out, columns)?;
        out.write_all(b",\"rows\":[")?;
        Ok(JsonRowWriter {
            out,
            first_row: true,
        })
    }

    /// Rows only, inside a document opened elsewhere (`first`: no row
    /// precedes them).
    pub fn continuing(out: W, first_row: bool) -> Self {
        JsonRowWriter { out, first_row }
    }

    /// The underlying writer, the document left open.
    pub fn into_inner(self) -> W {
        self.out
    }

    /// Rows rendered by a [`JsonRowWriter::continuing`] writer.
    pub fn append(&mut self, rows: &[u8]) -> io::Result<()> {
        if !rows.is_empty() {
            self.first_row = false;
        }
        self.out.write_all(rows)
    }

    pub fn write_row(&mut self, cells: &[&str]) -> io::Result<()> {
        if !self.first_row {
            self.out.write_all(b",\n")?;
        } else {
            self.out.write_all(b"\n")?;
        }
        self.first_row = false;
        write_strings(&mut self.out, cells)
    }

    /// Closes the document, flushes and returns the writer.
    pub fn finish(mut self) -> io::Result<W> {
        self.out.write_all(b"]}\n")?;
        self.out.flush()?;
        Ok(self.out)
    }
}

fn write_strings<W: Write>(out: &mut W, cells: &[&str]) -> io::Result<()> {
    out.write_all(b"[")?;
    for (i, c) in cells.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        serde_json::to_writer(&mut *out, c).map_err(io::Error::other)?;
    }
    out.write_all(b"]")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    #[test]
    fn writes_a_valid_document_row_by_row() {
        let mut w = JsonRowWriter::new(Vec::new(), &["group_id", "age"]).unwrap();
        w.write_row(&["1", "[17-24]"]).unwrap();
        w.write_row(&["2", "say \"hi\"\n=A1"]).unwrap();
        let text = String::from_utf8(w.finish().unwrap()).unwrap();
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            v,
            json!({"columns": ["group_id", "age"],
                   "rows": [["1", "[17-24]"], ["2", "say \"hi\"\n=A1"]]})
        );
    }

    #[test]
    fn an_empty_release_is_still_a_document() {
        let w = JsonRowWriter::new(Vec::new(), &["group_id"]).unwrap();
        let v: Value = serde_json::from_slice(&w.finish().unwrap()).unwrap();
        assert_eq!(v, json!({"columns": ["group_id"], "rows": []}));
    }
}
