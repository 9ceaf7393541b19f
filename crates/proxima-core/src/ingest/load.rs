//! Loading a data CSV into a columnar [`Table`], validated against its
//! [`Schema`] in one streaming pass — whole ([`load_table`]) or handed out
//! in blocks of rows as it goes ([`load_blocks`]; `load_table` is that with
//! one block), with the same rules, errors and line numbers either way.
//!
//! Rules (each violation is a [`CoreError`] naming the column, the data line
//! and the offending value; see the module docs of [`crate::ingest`] for the
//! line numbering):
//!
//! * The delimiter is the schema's; a header row is required; quoted fields,
//!   CRLF line ends and a UTF-8 byte-order mark are accepted; blank lines
//!   are skipped by the reader (so in a one-column file an empty cell on
//!   its own line cannot be told from a blank line and is skipped too).
//! * Header: every CSV column must be described (`undescribed_column`),
//!   every schema column must be present (`unknown_column`), names must be
//!   unique (`malformed_csv`). The header may list the columns in any order;
//!   the table is in schema order.
//! * Every data row has as many fields as the header (`malformed_csv`), and
//!   a table needs at least one data row.
//! * A QI or SA cell equal to one of `csv.missing` is missing. Under
//!   `reject` the load fails with `missing_values` listing the first 10 such
//!   lines (the rest of the file is still scanned to count them and for
//!   field counts, but its values are no longer parsed); under `suppress`
//!   those rows are left out without further checks and counted in
//!   `suppressed_rows`. Missing tokens in identifier and insensitive
//!   columns are ordinary text. A table left with no rows is a
//!   `missing_values` error.
//! * Numeric QI/SA cells parse as finite `f64` after trimming spaces and
//!   tabs around them (`" 39"` is 39; `NaN`, `inf`, `1,5` are errors). Date
//!   cells are `YYYY-MM-DD`, also trimmed. Categorical cells are compared
//!   exactly as written (no trimming): with a hierarchy every value must be
//!   one of its leaves (`invalid_hierarchy`, at the first line where the
//!   value occurs); without one, values are coded by first appearance under
//!   a flat hierarchy.
//! * A quoted field that is still open at the end of the file is
//!   `malformed_csv` naming the line where its quote opened (the csv reader
//!   would otherwise end it there, merging every later row — identifiers
//!   included — into one published cell).
//! * Published cells must not contain control characters (C0 other than
//!   tab, line feed and carriage return; DEL; C1) (`malformed_csv`): a
//!   release never carries them raw.
//! * No cell — of any column, identifiers included — may contain a line
//!   break unless `csv.allow_line_breaks` is set (`malformed_csv`, naming
//!   the column, the line where the cell starts and the file line where it
//!   ends): a stray quote that the file closes later merges the rows in
//!   between into one cell, which an insensitive column would publish
//!   (identifiers and all) and an identifier column would silently drop.
//! * A cell longer than `limits.max_cell` bytes, or a record longer than
//!   `limits.max_record` bytes, is `record_too_large`, naming the line;
//!   the record limit is enforced as the bytes stream in, so the reader
//!   never holds more of one record than the limit.
//! * Identifier cells are neither parsed nor stored. The text of every
//!   published cell is kept verbatim; cells of published columns must be
//!   UTF-8.

use std::io::Read;
use std::sync::Arc;

use crate::error::{CoreError, CoreResult, ErrorKind, Field};
use crate::hierarchy::Hierarchy;
use crate::ingest::assemble::Assembler;
use crate::ingest::block::{Block, BlockColumn, BlockLimits, BlockTally, BlockValues, Loaded};
use crate::ingest::header::map_header;
use crate::ingest::lines::{record_line, At, LineCounting};
use crate::ingest::missing::MissingReport;
use crate::ingest::record_checks::{check_cell_sizes, check_line_breaks, record_too_large};
use crate::ingest::{echoed, quote_value};
use crate::progress::Progress;
use crate::schema::{MissingPolicy, Role, Schema, ValueType};
use crate::table::{parse_date, Table, TextColumn};

/// At most this many lines are listed in a `missing_values` error.
const MISSING_LINES_LISTED: usize = 10;

/// Records between two drains of the newline offsets kept for file lines.
const LINE_DRAIN_EVERY: u64 = 4096;

/// Data lines between two cancellation checkpoints (a few ms of parsing).
pub const CHECKPOINT_EVERY: u64 = 16_384;

/// The typed values being collected for one column.
enum Values {
    /// Identifier, or insensitive: only text (if any) is kept.
    None,
    Numeric(Vec<f64>),
    Date(Vec<i32>),
    /// Categorical with a hierarchy: codes are leaf codes.
    Leaf {
        codes: Vec<u32>,
        hierarchy: Arc<Hierarchy>,
    },
    /// Categorical without a hierarchy: codes by first appearance.
    Dict {
        codes: Vec<u32>,
        index: crate::hierarchy::LabelMap,
        labels: Vec<String>,
    },
}

/// One CSV column being loaded.
pub(super) struct Builder {
    schema_index: usize,
    role: Role,
    /// Not an identifier: the cells are parsed and checked.
    pub(super) published: bool,
    values: Values,
    /// The cells as uploaded, when kept (see [`BlockLimits::qi_text`]).
    text: Option<TextColumn>,
}

impl Builder {
    fn new(schema: &Schema, schema_index: usize, qi_text: bool) -> Builder {
        let spec = &schema.columns()[schema_index];
        let typed = matches!(spec.role, Role::QuasiIdentifier | Role::Sensitive);
        let values = match (typed, spec.value_type) {
            (false, _) | (true, None) => Values::None,
            (true, Some(ValueType::Numeric)) => Values::Numeric(Vec::new()),
            (true, Some(ValueType::Date)) => Values::Date(Vec::new()),
            (true, Some(ValueType::Categorical)) => match &spec.hierarchy {
                Some(h) => Values::Leaf {
                    codes: Vec::new(),
                    hierarchy: h.clone(),
                },
                None => Values::Dict {
                    codes: Vec::new(),
                    index: Default::default(),
                    labels: Vec::new(),
                },
            },
        };
        let published = schema.is_published(schema_index);
        let kept = published && (qi_text || spec.role != Role::QuasiIdentifier);
        Builder {
            schema_index,
            role: spec.role,
            published,
            values,
            text: kept.then(TextColumn::new),
        }
    }
}

impl Values {
    /// The values collected since the last block; a dictionary stays, so
    /// codes keep their meaning across blocks.
    fn take_block(&mut self) -> BlockValues {
        match self {
            Values::None => BlockValues::None,
            Values::Numeric(v) => BlockValues::Numeric(std::mem::take(v)),
            Values::Date(v) => BlockValues::Date(std::mem::take(v)),
            Values::Leaf { codes, .. } | Values::Dict { codes, .. } => {
                BlockValues::Codes(std::mem::take(codes))
            }
        }
    }

    /// A dictionary's labels in code order (the flat hierarchy's leaves).
    fn into_labels(self) -> Option<Vec<String>> {
        match self {
            Values::Dict { labels, .. } => Some(labels),
            _ => None,
        }
    }
}

fn cell_error(kind: ErrorKind, column: &str, at: At, value: &str, problem: &str) -> CoreError {
    let message = format!(
        "column '{column}', {}: {} {problem}",
        at.describe(),
        quote_value(value)
    );
    let err = CoreError::new(kind, message.clone())
        .with_error(Field::DataCell(at.data_line, column.to_string()), message)
        .with_detail("column", column)
        .with_detail("line", at.data_line as i64)
        .with_detail("file_line", at.file_line as i64);
    let (shown, truncated) = echoed(value);
    let err = err.with_detail("value", shown);
    if truncated {
        err.with_detail("value_truncated", true)
            .with_detail("value_chars", value.chars().count())
    } else {
        err
    }
}

fn malformed(field: Field, message: String) -> CoreError {
    CoreError::new(ErrorKind::MalformedCsv, message.clone()).with_error(field, message)
}

/// The record read as data line `next` (0: the header) ran to the end of
/// the file inside a quoted field opened on file line `opened`.
fn unclosed_quote(next: u64, opened: u64) -> CoreError {
    let (pointer, what) = if next == 0 {
        (Field::DataHeader, "the header".to_string())
    } else {
        (Field::DataLine(next), format!("data line {next}"))
    };
    let err = malformed(
        pointer,
        format!(
            "{what}: the quoted field opened on file line {opened} is never closed, so the \
             rest of the file would be read into that one cell; close the quote (a quote \
             inside a quoted field is written \"\")"
        ),
    )
    .with_detail("file_line", opened as i64);
    if next == 0 {
        err
    } else {
        err.with_detail("line", next as i64)
    }
}

/// The record as text, for a record that is not entirely UTF-8: an error
/// naming the first published cell that is not, else a copy with the
/// (never read) identifier cells blanked. Only such rare records take this
/// slower path.
fn utf8_row(
    record: &csv::ByteRecord,
    builders: &[Builder],
    names: &[&str],
    at: &impl Fn() -> At,
) -> CoreResult<csv::StringRecord> {
    let mut row = csv::StringRecord::with_capacity(record.as_slice().len(), record.len());
    for (p, field) in record.iter().enumerate() {
        if !builders[p].published {
            row.push_field("");
            continue;
        }
        let s = std::str::from_utf8(field).map_err(|_| {
            let lossy = String::from_utf8_lossy(field);
            cell_error(
                ErrorKind::MalformedCsv,
                names[p],
                at(),
                &lossy,
                "is not valid UTF-8",
            )
        })?;
        row.push_field(s);
    }
    Ok(row)
}

fn trim_blanks(s: &str) -> &str {
    s.trim_matches(|c| c == ' ' || c == '\t')
}

/// Parses a numeric cell: a finite f64 once surrounding blanks are trimmed.
pub(crate) fn parse_number(s: &str) -> Option<f64> {
    if let Some(v) = parse_integer(s) {
        return Some(v);
    }
    let v: f64 = trim_blanks(s).parse().ok()?;
    v.is_finite().then_some(v)
}

/// A cell of 1 to 15 decimal digits after an optional sign, read as
/// `f64::from_str` reads it — every such integer is below 2^53, so exactly,
/// and `-0` is negative zero — or `None` for anything else. Most numeric
/// cells are such integers (ages, amounts, codes), and the general float
/// parser costs several times more.
#[inline]
fn parse_integer(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let (negative, digits) = match b.first() {
        Some(b'-') => (true, &b[1..]),
        Some(b'+') => (false, &b[1..]),
        _ => (false, b),
    };
    if digits.is_empty() || digits.len() > 15 {
        return None;
    }
    let mut v = 0u64;
    for &c in digits {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        v = v * 10 + u64::from(d);
    }
    let x = v as f64;
    Some(if negative { -x } else { x })
}

/// Why a published cell cannot be kept, if it holds a control character.
/// One pass over the bytes; only a cell with a suspicious byte is looked
/// at closely. Line breaks were refused with the whole record, unless the
/// schema accepts them.
pub(super) fn control_problem(s: &str) -> Option<&'static str> {
    if !may_hold_control(s.as_bytes()) {
        return None;
    }
    for c in s.chars() {
        match c {
            '\t' | '\n' | '\r' => {}
            c if c.is_control() => return Some("contains a control character"),
            _ => {}
        }
    }
    None
}

/// Whether `bytes` hold a byte that may begin a control character: below
/// 0x20 (tab, CR and LF included), DEL, or 0xC2, the lead byte of the C1
/// controls U+0080–U+009F. No early exit, so the loop is vectorized: a
/// whole line is scanned at once.
pub(super) fn may_hold_control(bytes: &[u8]) -> bool {
    bytes.iter().fold(false, |any, &b| {
        any | (b < 0x20) | (b == 0x7f) | (b == 0xc2)
    })
}

/// Appends one (non-missing) cell to its column.
///
/// `at` locates the record; it is only called to build an error, because
/// finding the file line costs more than parsing a cell.
fn push_cell(b: &mut Builder, name: &str, s: &str, at: &impl Fn() -> At) -> CoreResult<()> {
    if let Some(problem) = control_problem(s) {
        return Err(cell_error(ErrorKind::MalformedCsv, name, at(), s, problem));
    }
    if !push_parsed(b, s) {
        return Err(value_error(b, name, s, at()));
    }
    push_text(b, s)
}

/// Parses a cell known to hold no control character and appends its value
/// (not its text) to the column; `false`, with nothing appended, when the
/// column refuses it ([`value_error`] says why). A flag rather than an
/// error: the plain reader (`plain.rs`) only needs to know, and a returned
/// error, even an `Ok`, is copied out of every call.
#[inline]
pub(super) fn push_parsed(b: &mut Builder, s: &str) -> bool {
    match &mut b.values {
        Values::None => {}
        Values::Numeric(v) => match parse_number(s) {
            Some(x) => v.push(x),
            None => return false,
        },
        Values::Date(v) => match parse_date(trim_blanks(s)) {
            Some(d) => v.push(d),
            None => return false,
        },
        Values::Leaf { codes, hierarchy } => match hierarchy.leaf_code(s) {
            Some(code) => codes.push(code),
            None => return false,
        },
        Values::Dict {
            codes,
            index,
            labels,
        } => {
            let code = match index.get(s) {
                Some(&c) => c,
                None => {
                    let c = labels.len() as u32;
                    index.insert(s.to_string(), c);
                    labels.push(s.to_string());
                    c
                }
            };
            codes.push(code);
        }
    }
    true
}

/// Why [`push_parsed`] refused `s` for column `name`.
fn value_error(b: &Builder, name: &str, s: &str, at: At) -> CoreError {
    let (kind, problem) = match &b.values {
        Values::Date(_) => (
            ErrorKind::MalformedCsv,
            "is not a date in the form YYYY-MM-DD",
        ),
        Values::Leaf { .. } => (
            ErrorKind::InvalidHierarchy,
            "is not a leaf of the column's hierarchy",
        ),
        _ => (ErrorKind::MalformedCsv, "is not a finite number"),
    };
    cell_error(kind, name, at, s, problem)
}

/// The text of a cell whose value [`push_parsed`] took, when the column
/// keeps its text.
#[inline]
pub(super) fn push_text(b: &mut Builder, s: &str) -> CoreResult<()> {
    match &mut b.text {
        Some(t) => t.push(s),
        None => Ok(()),
    }
}

/// Reads a data CSV described by `schema` into a [`Table`].
///
/// See the module documentation for every rule and error. Memory: one
/// reused record buffer; typed values and one text buffer per published
/// column, nothing allocated per cell (categorical labels once per distinct
/// value).
pub fn load_table<R: Read>(schema: Arc<Schema>, reader: R) -> CoreResult<Table> {
    load_table_with_progress(schema, reader, Progress::none())
}

/// [`load_table`] with cancellation: `progress` is asked every
/// [`CHECKPOINT_EVERY`] data lines (at fraction 0: the row count is not
/// known before the end), and the load stops with `ErrorKind::Cancelled`
/// when it says so. A 600k-row file takes seconds to read; without this a
/// cancel would wait for the whole file.
pub fn load_table_with_progress<R: Read>(
    schema: Arc<Schema>,
    reader: R,
    progress: Progress,
) -> CoreResult<Table> {
    load_table_with_limits(schema, reader, &BlockLimits::whole(), progress)
}

/// [`load_table_with_progress`] with other cell and record limits than the
/// defaults (`limits.max_cell`, `limits.max_record`), or without the QIs'
/// text (`limits.qi_text`); its block cuts are ignored: the table is put
/// together whole.
pub fn load_table_with_limits<R: Read>(
    schema: Arc<Schema>,
    reader: R,
    limits: &BlockLimits,
    progress: Progress,
) -> CoreResult<Table> {
    let limits = BlockLimits {
        max_cell: limits.max_cell,
        max_record: limits.max_record,
        qi_text: limits.qi_text,
        ..BlockLimits::whole()
    };
    let mut assembler = Assembler::new(schema.clone()).with_qi_text(limits.qi_text);
    let loaded = load_blocks(&schema, reader, &limits, progress, |block| {
        assembler.push(block)
    })?;
    let table = assembler.finish(loaded)?;
    // The last checkpoint: a cancel that came while the last rows were
    // parsed and the table put together is honoured here, not ignored.
    progress.report(1.0)?;
    Ok(table)
}

/// [`load_table_with_progress`] cut into blocks: every `limits.rows` kept
/// rows (or `limits.bytes` of records) the rows so far go to `sink` as a
/// [`Block`], and the loader keeps nothing of them but the dictionaries of
/// categorical columns without a hierarchy. The same rules, errors and
/// line numbers as [`load_table`]; the end-of-file facts (counts, flat
/// leaves) are returned once the whole file has passed.
///
/// An error can come after some blocks went to the sink (a bad cell on
/// the last line, a missing value under `reject`, a sink error): the
/// caller discards what it made of them.
pub fn load_blocks<R: Read>(
    schema: &Schema,
    reader: R,
    limits: &BlockLimits,
    progress: Progress,
    mut sink: impl FnMut(Block) -> CoreResult<()>,
) -> CoreResult<Loaded> {
    let mut records = Records::new(schema, reader, limits.max_record);
    let mut record = csv::ByteRecord::new();
    if !records.read(&mut record, 0)? {
        return Err(malformed(
            Field::Data,
            "the CSV is empty: a header row and at least one data row are needed".into(),
        ));
    }
    let mut columns = Columns::new(schema, &record, limits.qi_text)?;
    let mut rows = Rows::new(schema.on_missing());
    let mut data_line = 0u64;
    let mut block_bytes = 0usize;
    let tally = limits.tally.as_ref();
    while records.read(&mut record, data_line + 1)? {
        data_line += 1;
        if data_line.is_multiple_of(CHECKPOINT_EVERY) {
            progress.report(0.0)?;
        }
        if data_line.is_multiple_of(LINE_DRAIN_EVERY) {
            // File lines are only computed for errors; locating this record
            // forgets the newline offsets before it, bounding their memory.
            records.at(data_line, &record);
        }
        let at = || records.at(data_line, &record);
        check_cell_sizes(&record, &columns.names, limits.max_cell, data_line, at)?;
        if !schema.csv().allow_line_breaks {
            let published = |p: usize| columns.builders[p].published;
            check_line_breaks(&record, &columns.names, published, data_line, at)?;
        }
        columns.check_width(&record, data_line, at)?;
        if columns.has_missing(&record) {
            let missing = columns.missing_columns(&record);
            rows.missing(records.at(data_line, &record), missing);
            continue;
        }
        if rows.failing() {
            continue; // the load fails anyway; only count the missing rows
        }
        record = columns.push_row(record, &|rec| records.at(data_line, rec))?;
        rows.keep(data_line)?;
        block_bytes += record.as_slice().len();
        if rows.in_block() >= limits.rows || block_bytes >= limits.bytes {
            sink(columns.take_block(rows.take_lines(), tally))?;
            block_bytes = 0;
        }
    }
    let (kept, suppressed, last) = rows.finish(schema, data_line)?;
    if !last.is_empty() {
        sink(columns.take_block(last, tally))?;
    }
    Ok(Loaded {
        rows: kept,
        suppressed,
        flat_leaves: columns.into_flat_leaves(schema),
    })
}

/// The CSV reader with line counting for error positions.
pub(super) struct Records<R: Read> {
    reader: csv::Reader<LineCounting<R>>,
    max_record: usize,
}

impl<R: Read> Records<R> {
    pub(super) fn new(schema: &Schema, reader: R, max_record: usize) -> Records<R> {
        let reader = csv::ReaderBuilder::new()
            .delimiter(schema.csv().delimiter)
            .has_headers(false)
            .flexible(true)
            .buffer_capacity(1 << 16)
            .from_reader(
                LineCounting::new(reader, schema.csv().delimiter)
                    .with_max_record(max_record as u64),
            );
        Records { reader, max_record }
    }

    /// Reads the next record into `rec`; `next` is the data line being read
    /// (0: the header). Read failures (I/O, a broken gzip stream) name only
    /// the data line: the csv crate's own line count is not the file's (see
    /// `lines`). A quote still open at the end is an error here, not a
    /// merged cell.
    pub(super) fn read(&mut self, rec: &mut csv::ByteRecord, next: u64) -> CoreResult<bool> {
        let more = self.reader.read_byte_record(rec).map_err(|e| {
            if let Some(file_line) = self.reader.get_ref().oversized_record() {
                return record_too_large(next, file_line, self.max_record);
            }
            if next == 0 {
                malformed(Field::DataHeader, format!("could not read the header: {e}"))
            } else {
                malformed(
                    Field::DataLine(next),
                    format!("could not read data line {next}: {e}"),
                )
            }
        })?;
        match self.reader.get_ref().unclosed_quote() {
            None => Ok(more),
            Some(opened) => Err(unclosed_quote(next, opened)),
        }
    }

    /// Where the record just read is.
    fn at(&self, data_line: u64, rec: &csv::ByteRecord) -> At {
        At {
            data_line,
            file_line: record_line(&self.reader, rec),
        }
    }
}

/// The columns being built, in CSV order.
pub(super) struct Columns<'s> {
    pub(super) builders: Vec<Builder>,
    pub(super) names: Vec<&'s str>,
    /// CSV position → schema index.
    pub(super) positions: Vec<usize>,
    /// CSV positions whose missing tokens matter (QIs and SA columns).
    pub(super) checked: Vec<usize>,
    missing_tokens: Vec<&'s [u8]>,
    /// The shortest and longest missing tokens' lengths (an empty range
    /// when there are none): a cell of another length is not missing,
    /// which spares comparing most cells with the tokens.
    missing_lengths: std::ops::RangeInclusive<usize>,
}

impl<'s> Columns<'s> {
    pub(super) fn new(
        schema: &'s Schema,
        header: &csv::ByteRecord,
        qi_text: bool,
    ) -> CoreResult<Columns<'s>> {
        let positions = map_header(schema, header)?;
        let builders: Vec<Builder> = positions
            .iter()
            .map(|&i| Builder::new(schema, i, qi_text))
            .collect();
        let names = positions
            .iter()
            .map(|&i| schema.columns()[i].name.as_str())
            .collect();
        let checked = (0..positions.len())
            .filter(|&p| matches!(builders[p].role, Role::QuasiIdentifier | Role::Sensitive))
            .collect();
        let missing_tokens: Vec<&[u8]> =
            schema.csv().missing.iter().map(|m| m.as_bytes()).collect();
        let lengths = missing_tokens.iter().map(|t| t.len());
        let missing_lengths = lengths.clone().min().unwrap_or(1)..=lengths.max().unwrap_or(0);
        Ok(Columns {
            builders,
            names,
            positions,
            checked,
            missing_tokens,
            missing_lengths,
        })
    }

    fn check_width(
        &self,
        record: &csv::ByteRecord,
        data_line: u64,
        at: impl Fn() -> At,
    ) -> CoreResult<()> {
        let width = self.positions.len();
        if record.len() == width {
            return Ok(());
        }
        let here = at();
        Err(malformed(
            Field::DataLine(data_line),
            format!(
                "{} has {} field(s) but the header has {width}",
                here.describe(),
                record.len()
            ),
        )
        .with_detail("line", data_line as i64)
        .with_detail("file_line", here.file_line as i64))
    }

    /// Room for `rows` more rows, with `bytes` of text per kept cell of
    /// each column, so that a reader that knows how many rows come grows
    /// its columns once instead of by doubling (each doubling copies the
    /// column and faults in fresh pages).
    pub(super) fn reserve(&mut self, rows: usize, bytes: usize) {
        for b in &mut self.builders {
            match &mut b.values {
                Values::None => {}
                Values::Numeric(v) => v.reserve(rows),
                Values::Date(v) => v.reserve(rows),
                Values::Leaf { codes, .. } | Values::Dict { codes, .. } => codes.reserve(rows),
            }
            if let Some(t) = &mut b.text {
                t.reserve(rows, bytes);
            }
        }
    }

    pub(super) fn is_missing(&self, field: &[u8]) -> bool {
        self.missing_lengths.contains(&field.len()) && self.missing_tokens.contains(&field)
    }

    /// Most rows have no missing value: a test before collecting columns.
    fn has_missing(&self, record: &csv::ByteRecord) -> bool {
        self.checked.iter().any(|&p| self.is_missing(&record[p]))
    }

    /// The schema indexes of the record's missing QI/SA cells, sorted.
    fn missing_columns(&self, record: &csv::ByteRecord) -> Vec<usize> {
        let mut cols: Vec<usize> = self
            .checked
            .iter()
            .filter(|&&p| self.is_missing(&record[p]))
            .map(|&p| self.positions[p])
            .collect();
        cols.sort_unstable();
        cols
    }

    /// The rows kept since the last block, as a block in schema order.
    pub(super) fn take_block(
        &mut self,
        source_lines: Vec<u32>,
        tally: Option<&BlockTally>,
    ) -> Block {
        let mut by_schema = vec![BlockColumn::default(); self.builders.len()];
        for b in &mut self.builders {
            by_schema[b.schema_index] = BlockColumn {
                values: b.values.take_block(),
                text: b.text.as_mut().map(std::mem::take),
            };
        }
        Block::new(by_schema, source_lines, tally)
    }

    /// Every schema column's flat leaves (see [`Loaded::flat_leaves`]).
    pub(super) fn into_flat_leaves(self, schema: &Schema) -> Vec<Option<Vec<String>>> {
        let mut leaves = vec![None; schema.columns().len()];
        for b in self.builders {
            leaves[b.schema_index] = b.values.into_labels();
        }
        leaves
    }

    /// Parses and keeps one row's cells; hands the record's buffer back for
    /// the next read. One UTF-8 check per record (csv's ASCII fast path)
    /// instead of one per cell.
    fn push_row(
        &mut self,
        record: csv::ByteRecord,
        at_of: &dyn Fn(&csv::ByteRecord) -> At,
    ) -> CoreResult<csv::ByteRecord> {
        let (row, original) = match csv::StringRecord::from_byte_record(record) {
            Ok(row) => (row, None),
            Err(e) => {
                let bytes = e.into_byte_record();
                let row = utf8_row(&bytes, &self.builders, &self.names, &|| at_of(&bytes))?;
                (row, Some(bytes))
            }
        };
        {
            let located = original.as_ref().unwrap_or(row.as_byte_record());
            let at = || at_of(located);
            for (p, cell) in row.iter().enumerate() {
                let b = &mut self.builders[p];
                if b.published {
                    push_cell(b, self.names[p], cell, &at)?;
                }
            }
        }
        Ok(original.unwrap_or_else(|| row.into_byte_record()))
    }
}

/// The rows kept, suppressed or reported missing.
struct Rows {
    policy: MissingPolicy,
    /// The data lines of the rows kept since the last block.
    lines: Vec<u32>,
    kept: usize,
    suppressed: usize,
    missing: Option<MissingReport>,
}

impl Rows {
    fn new(policy: MissingPolicy) -> Rows {
        Rows {
            policy,
            lines: Vec::new(),
            kept: 0,
            suppressed: 0,
            missing: None,
        }
    }

    /// A row with missing QI/SA cells: suppressed, or reported (the first
    /// [`MISSING_LINES_LISTED`] with their columns, the rest counted).
    fn missing(&mut self, at: At, columns: Vec<usize>) {
        match self.policy {
            MissingPolicy::Suppress => self.suppressed += 1,
            MissingPolicy::Reject => {
                let report = self.missing.get_or_insert(MissingReport {
                    listed: Vec::new(),
                    rows: 0,
                });
                report.rows += 1;
                if report.listed.len() < MISSING_LINES_LISTED {
                    report.listed.push((at, columns));
                }
            }
        }
    }

    /// Whether the load already fails for missing values.
    fn failing(&self) -> bool {
        self.missing.is_some()
    }

    fn keep(&mut self, data_line: u64) -> CoreResult<()> {
        let line = u32::try_from(data_line).map_err(|_| {
            malformed(
                Field::DataLine(data_line),
                "the CSV has more than 4,294,967,295 data rows".into(),
            )
        })?;
        self.lines.push(line);
        self.kept += 1;
        Ok(())
    }

    /// Rows kept since the last block.
    fn in_block(&self) -> usize {
        self.lines.len()
    }

    fn take_lines(&mut self) -> Vec<u32> {
        std::mem::take(&mut self.lines)
    }

    /// The kept and suppressed counts and the last block's data lines, or
    /// why the load fails after reading `data_lines` lines.
    fn finish(self, schema: &Schema, data_lines: u64) -> CoreResult<(usize, usize, Vec<u32>)> {
        if let Some(report) = self.missing {
            return Err(report.into_error(schema));
        }
        if data_lines == 0 {
            return Err(malformed(
                Field::Data,
                "the CSV has a header but no data rows; a table needs rows".into(),
            ));
        }
        if self.kept == 0 {
            return Err(CoreError::new(
                ErrorKind::MissingValues,
                format!(
                    "all {} data row(s) have a missing value in a quasi-identifier or \
                     sensitive column; nothing is left after suppression",
                    self.suppressed
                ),
            )
            .with_detail("rows_with_missing", self.suppressed));
        }
        Ok((self.kept, self.suppressed, self.lines))
    }
}
