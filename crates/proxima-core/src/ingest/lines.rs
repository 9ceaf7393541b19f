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
//!
//! The same pass follows the quoting of the bytes (as the csv reader does:
//! a `"` opens a quoted field only at the start of a field, `""` inside it
//! is a quote, anything else after the closing quote joins the field) so
//! that a quoted field the file never closes can be told apart from a long
//! one: the csv reader silently ends such a field, and the record, at the
//! end of the input, which turns the rest of the file — identifiers and
//! all — into one published cell.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::io::{self, Read};

/// A reader that records the offsets of `\n` bytes until they are queried.
/// Memory is bounded by the CSV reader's read-ahead, not by the file size.
pub(crate) struct LineCounting<R> {
    inner: R,
    offset: u64,
    quotes: Quotes,
    /// Offsets of `\n` bytes not yet passed by a query (increasing).
    pending: RefCell<VecDeque<u64>>,
    /// Number of `\n` bytes before the last queried offset.
    passed: Cell<u64>,
    /// The size bound on one record (see [`Self::with_max_record`]).
    records: RecordSize,
}

/// Follows where the current record started, to refuse one longer than
/// `max` bytes while its bytes stream in (before the csv reader has
/// gathered it into memory).
struct RecordSize {
    max: u64,
    /// Offset of the current record's first byte.
    start: u64,
    /// The file line on which the current record starts.
    line: u64,
    /// A record ran past `max`: the file line where it starts. Reads end
    /// with an error from then on.
    over: Option<u64>,
}

impl RecordSize {
    /// A record terminator (a line break outside quotes) at `offset`:
    /// `false` when the record it ends is over the limit. `newlines` is
    /// the count of `\n` bytes up to and including this one.
    fn ended(&mut self, offset: u64, newlines: u64) -> bool {
        if offset - self.start > self.max {
            return false;
        }
        self.start = offset + 1;
        self.line = newlines + 1;
        true
    }

    /// Whether the record still open at `end` (exclusive) is within the
    /// limit.
    fn fits(&self, end: u64) -> bool {
        end - self.start <= self.max
    }
}

impl<R> LineCounting<R> {
    /// `delimiter` is the csv reader's (quoting depends on where fields
    /// start).
    pub(crate) fn new(inner: R, delimiter: u8) -> Self {
        LineCounting {
            inner,
            offset: 0,
            quotes: Quotes::new(delimiter),
            pending: RefCell::new(VecDeque::new()),
            passed: Cell::new(0),
            records: RecordSize {
                max: u64::MAX,
                start: 0,
                line: 1,
                over: None,
            },
        }
    }

    /// Refuses a record (line breaks inside quoted fields included, its
    /// terminator not) longer than `max` bytes: once one is, the read that
    /// would hand out its byte past `max` stops before that byte and the
    /// next read fails, so the csv reader never holds more than `max`
    /// bytes of one record, and the records before it are read as usual.
    pub(crate) fn with_max_record(mut self, max: u64) -> Self {
        self.records.max = max;
        self
    }

    /// The file line of a record refused by [`Self::with_max_record`].
    pub(crate) fn oversized_record(&self) -> Option<u64> {
        self.records.over
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

    /// When the whole input has been read and it ends inside a quoted
    /// field: the 1-based file line on which that field's quote opened.
    pub(crate) fn unclosed_quote(&self) -> Option<u64> {
        (self.quotes.eof && self.quotes.state == QuoteState::Quoted)
            .then_some(self.quotes.open_line)
    }
}

/// Where the scan is with respect to quoting (csv-core's rules with the
/// default `"` quote, doubled quotes and no escape or comment character).
#[derive(Clone, Copy, PartialEq, Eq)]
enum QuoteState {
    /// At the start of a field: a `"` opens a quoted field.
    FieldStart,
    /// Inside an unquoted field (or after a quoted one closed): a `"` is
    /// an ordinary byte.
    Unquoted,
    /// Inside a quoted field.
    Quoted,
    /// Just after a `"` inside a quoted field: a second `"` is a literal
    /// quote, anything else closed the field.
    QuoteInQuoted,
}

struct Quotes {
    delimiter: u8,
    state: QuoteState,
    /// `\n` bytes seen so far.
    newlines: u64,
    /// File line of the quote that opened the current quoted field.
    open_line: u64,
    /// The inner reader reported the end of its input.
    eof: bool,
}

impl Quotes {
    fn new(delimiter: u8) -> Self {
        Quotes {
            delimiter,
            state: QuoteState::FieldStart,
            newlines: 0,
            open_line: 0,
            eof: false,
        }
    }

    fn feed(&mut self, b: u8) {
        use QuoteState::*;
        let delimiter = self.delimiter;
        self.state = match (self.state, b) {
            (Quoted, b'"') => QuoteInQuoted,
            (Quoted, _) => Quoted,
            (QuoteInQuoted, b'"') => Quoted,
            (FieldStart, b'"') => {
                self.open_line = self.newlines + 1;
                Quoted
            }
            (_, b'\n' | b'\r') => FieldStart,
            (_, d) if d == delimiter => FieldStart,
            (FieldStart | Unquoted | QuoteInQuoted, _) => Unquoted,
        };
        if b == b'\n' {
            self.newlines += 1;
        }
    }
}

impl<R: Read> Read for LineCounting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some(line) = self.records.over {
            return Err(io::Error::other(format!(
                "the record starting on file line {line} is longer than {} bytes",
                self.records.max
            )));
        }
        let n = self.inner.read(buf)?;
        if n == 0 && !buf.is_empty() {
            self.quotes.eof = true;
        }
        let pending = self.pending.get_mut();
        // csv-core drops a byte-order mark at the very start of the input.
        let skip = if self.offset == 0 && buf[..n].starts_with(b"\xEF\xBB\xBF") {
            3
        } else {
            0
        };
        let bytes = &buf[skip..n];
        let start = self.offset + skip as u64;
        let records = &mut self.records;
        let outside = matches!(
            self.quotes.state,
            QuoteState::FieldStart | QuoteState::Unquoted
        );
        // Where a record ran past the limit: the bytes from there on are
        // not handed out.
        let mut over = None;
        if outside && memchr::memchr(b'"', bytes).is_none() {
            // The common case, a stretch without quotes outside a quoted
            // field: only the line breaks matter (each ends a record),
            // found by a vectorized scan, and the state after it is that of
            // its last byte.
            for i in memchr::memchr2_iter(b'\n', b'\r', bytes) {
                if bytes[i] == b'\n' {
                    pending.push_back(start + i as u64);
                    self.quotes.newlines += 1;
                }
                if !records.ended(start + i as u64, self.quotes.newlines) {
                    over = Some(i);
                    break;
                }
            }
            if let Some(&last) = bytes.last() {
                self.quotes.state =
                    if last == b'\n' || last == b'\r' || last == self.quotes.delimiter {
                        QuoteState::FieldStart
                    } else {
                        QuoteState::Unquoted
                    };
            }
        } else {
            for (i, &b) in bytes.iter().enumerate() {
                if b == b'\n' {
                    pending.push_back(start + i as u64);
                }
                self.quotes.feed(b);
                if (b == b'\n' || b == b'\r')
                    && self.quotes.state == QuoteState::FieldStart
                    && !records.ended(start + i as u64, self.quotes.newlines)
                {
                    over = Some(i);
                    break;
                }
            }
        }
        if over.is_some() || !records.fits(start + bytes.len() as u64) {
            // Hand out the record's bytes up to the limit only: the csv
            // reader finishes the records before it, and the next read
            // fails inside this one.
            records.over = Some(records.line);
            let keep = records
                .start
                .saturating_add(records.max)
                .saturating_sub(start);
            let handed = skip + (keep as usize).min(bytes.len());
            self.offset += handed as u64;
            if handed == 0 {
                // Nothing of this read is within the limit (and 0 would
                // read as the end of the input).
                return self.read(buf);
            }
            return Ok(handed);
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

/// Where a data record is: its data line (1-based, header excluded) and the
/// line of the file where it starts.
#[derive(Clone, Copy)]
pub(crate) struct At {
    pub(crate) data_line: u64,
    pub(crate) file_line: u64,
}

impl At {
    pub(crate) fn describe(self) -> String {
        format!(
            "data line {} (file line {})",
            self.data_line, self.file_line
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &str, capacity: usize) -> Vec<(String, u64)> {
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .buffer_capacity(capacity)
            .from_reader(LineCounting::new(input.as_bytes(), b','));
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

    /// Reads `input` whole through the csv reader and answers where an
    /// unclosed quote opened.
    fn unclosed(input: &str, capacity: usize) -> Option<u64> {
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .buffer_capacity(capacity)
            .from_reader(LineCounting::new(input.as_bytes(), b','));
        let mut record = csv::ByteRecord::new();
        while reader.read_byte_record(&mut record).unwrap() {}
        reader.get_ref().unclosed_quote()
    }

    #[test]
    fn unclosed_quotes_are_found_and_closed_ones_are_not() {
        let cases: [(&str, Option<u64>); 9] = [
            ("a,b\n1,\"x\"\n", None),
            ("a,b\n1,\"x\ny\"\n", None),
            ("a,b\n1,\"say \"\"hi\"\"\"\n", None),
            // A quote inside an unquoted field is an ordinary byte.
            ("a,b\n1,5'10\"\n2,x\n", None),
            // Bytes after a closing quote join the field.
            ("a,b\n1,\"x\"y\n", None),
            ("a,b\n1,2\nBob,\"cancer\nCarol,hiv\nDave,flu\n", Some(3)),
            ("a,b\r\n1,2\r\n\r\n3,\"x\r\n", Some(4)),
            ("\"a,b\n1,2\n", Some(1)),
            // `""` then more text: the field is still open.
            ("a,b\n1,\"x\"\"\n2,3\n", Some(2)),
        ];
        for (input, want) in cases {
            assert_eq!(unclosed(input, 3), want, "{input:?}");
            assert_eq!(unclosed(input, 1 << 16), want, "{input:?}");
        }
    }

    /// Reads `input` through a record limit of `max` in reads of `chunk`
    /// bytes: every byte handed out, and the refused record's line.
    fn limited(input: &[u8], max: u64, chunk: usize) -> (Vec<u8>, Option<u64>) {
        let mut counting = LineCounting::new(input, b',').with_max_record(max);
        let mut buf = vec![0u8; chunk];
        let mut out = Vec::new();
        loop {
            match counting.read(&mut buf) {
                Ok(0) => return (out, None),
                Ok(n) => out.extend_from_slice(&buf[..n]),
                Err(_) => return (out, counting.oversized_record()),
            }
        }
    }

    proptest::proptest! {
        /// The record limit gives one verdict however the input is cut into
        /// reads: the same bytes handed out before the refusal, the same
        /// line; and no record handed out is longer than the limit.
        #[test]
        fn the_record_limit_does_not_depend_on_the_reads(
            input in "[a,\"\n\r]{0,80}",
            max in 0u64..12,
            chunk in 1usize..9,
        ) {
            let bytes = input.as_bytes();
            let whole = limited(bytes, max, 1 << 16);
            proptest::prop_assert_eq!(&limited(bytes, max, chunk), &whole);
            // Byte by byte through the state machine: the longest record
            // (line breaks outside quotes end one) among the bytes handed
            // out.
            let mut q = Quotes::new(b',');
            let (mut len, mut longest) = (0u64, 0u64);
            for &b in &whole.0 {
                q.feed(b);
                if (b == b'\n' || b == b'\r') && q.state == QuoteState::FieldStart {
                    len = 0;
                } else {
                    len += 1;
                    longest = longest.max(len);
                }
            }
            proptest::prop_assert!(longest <= max, "{longest} > {max}");
            if whole.1.is_none() {
                proptest::prop_assert_eq!(whole.0.as_slice(), bytes);
            }
        }

        /// Reading in chunks (with the quote-free shortcut) ends in the
        /// state, newline count, quote line and newline offsets of feeding
        /// every byte through the state machine.
        #[test]
        fn the_quote_free_shortcut_keeps_the_byte_by_byte_state(
            input in "[a,\"\n\r]{0,80}",
            chunk in 1usize..9,
        ) {
            let bytes = input.as_bytes();
            let mut reference = Quotes::new(b',');
            let mut offsets = Vec::new();
            for (i, &b) in bytes.iter().enumerate() {
                if b == b'\n' {
                    offsets.push(i as u64);
                }
                reference.feed(b);
            }
            let mut counting = LineCounting::new(bytes, b',');
            let mut buf = vec![0u8; chunk];
            while counting.read(&mut buf).unwrap() > 0 {}
            let q = &counting.quotes;
            proptest::prop_assert!(q.state == reference.state);
            proptest::prop_assert_eq!(q.newlines, reference.newlines);
            proptest::prop_assert_eq!(q.open_line, reference.open_line);
            let pending: Vec<u64> = counting.pending.borrow().iter().copied().collect();
            proptest::prop_assert_eq!(pending, offsets);
        }
    }
}
