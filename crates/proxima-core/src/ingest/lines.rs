//! File line numbers of CSV records.
//!
//! The csv crate's record positions are not file lines a user can look up:
//! a record's start position includes the blank lines skipped before it,
//! and with CRLF line ends the `\n` of the previous line is consumed with
//! the next record, so every record after the first appears one line early.
//! [`LineCounting`] wraps the byte source, remembers where the `\n` bytes
//! are in the part the CSV reader has buffered but not yet returned, and
//! [`record_line`] derives the line on which a record starts from the
//! reader's byte position after the record.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::io::{self, Read};

/// A reader that records the offsets of `\n` bytes until they are queried.
/// Memory is bounded by the CSV reader's read-ahead, not by the file size.
pub(crate) struct LineCounting<R> {
    inner: R,
    offset: u64,
    /// Offsets of `\n` bytes not yet passed by a query (increasing).
    pending: RefCell<VecDeque<u64>>,
    /// Number of `\n` bytes before the last queried offset.
    passed: Cell<u64>,
}

impl<R> LineCounting<R> {
    pub(crate) fn new(inner: R) -> Self {
        LineCounting {
            inner,
            offset: 0,
            pending: RefCell::new(VecDeque::new()),
            passed: Cell::new(0),
        }
    }

    /// The number of `\n` bytes strictly before `offset`. Queries must come
    /// with non-decreasing offsets.
    fn newlines_before(&self, offset: u64) -> u64 {
        let mut pending = self.pending.borrow_mut();
        let mut passed = self.passed.get();
        while pending.front().is_some_and(|&o| o < offset) {
            pending.pop_front();
            passed += 1;
        }
        self.passed.set(passed);
        passed
    }
}

impl<R: Read> Read for LineCounting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        let pending = self.pending.get_mut();
        for (i, &b) in buf[..n].iter().enumerate() {
            if b == b'\n' {
                pending.push_back(self.offset + i as u64);
            }
        }
        self.offset += n as u64;
        Ok(n)
    }
}

/// The 1-based file line on which `record` (just read by `reader`) starts.
///
/// After a record the reader has consumed its terminator (`\n`, or only the
/// `\r` of a CRLF) or reached the end of the input, so the last consumed
/// byte lies on the record's last line; the record starts as many lines
/// earlier as its (quoted) fields contain `\n` bytes.
pub(crate) fn record_line<R: Read>(
    reader: &csv::Reader<LineCounting<R>>,
    record: &csv::ByteRecord,
) -> u64 {
    let end = reader.position().byte();
    let last_line = 1 + reader.get_ref().newlines_before(end.saturating_sub(1));
    let embedded = record.as_slice().iter().filter(|&&b| b == b'\n').count() as u64;
    last_line.saturating_sub(embedded).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &str, capacity: usize) -> Vec<(String, u64)> {
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .buffer_capacity(capacity)
            .from_reader(LineCounting::new(input.as_bytes()));
        let mut record = csv::ByteRecord::new();
        let mut out = Vec::new();
        while reader.read_byte_record(&mut record).unwrap() {
            let text = String::from_utf8(record.as_slice().to_vec()).unwrap();
            out.push((text, record_line(&reader, &record)));
        }
        out
    }

    fn expect(input: &str, expected: &[(&str, u64)]) {
        let expected: Vec<(String, u64)> =
            expected.iter().map(|(s, l)| (s.to_string(), *l)).collect();
        // A tiny buffer makes the read-ahead cross many chunk boundaries.
        assert_eq!(lines(input, 3), expected, "{input:?}");
        assert_eq!(lines(input, 1 << 16), expected, "{input:?}");
    }

    #[test]
    fn lf_crlf_blank_lines_and_quoted_newlines() {
        let want = [("h", 1), ("a", 2), ("b", 4), ("c\nd", 5), ("e", 7)];
        expect("h\na\n\nb\n\"c\nd\"\ne", &want);
        expect("h\na\n\nb\n\"c\nd\"\ne\n\n", &want);
        let want = [("h", 1), ("a", 2), ("b", 4), ("c\r\nd", 5), ("e", 7)];
        expect("h\r\na\r\n\r\nb\r\n\"c\r\nd\"\r\ne\r\n", &want);
        // csv-core strips a BOM only when it arrives in one read, as it does
        // with the loaders' 64 KiB buffers.
        let bom = lines("\u{feff}x\r\n\r\ny", 1 << 16);
        assert_eq!(bom, [("x".to_string(), 1), ("y".to_string(), 3)]);
    }
}
