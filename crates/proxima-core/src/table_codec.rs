//! The stored form of a loaded table: its columns as they are in memory,
//! written once at upload, block by block as the CSV is validated, so that
//! every later job, audit and download decodes them instead of parsing the
//! CSV again — and so that the upload never holds the whole table.
//!
//! Why this encoding: the table is already columnar and typed (f64, leaf
//! codes, days, one text buffer per column with end offsets), so the stored
//! form is those arrays one after another. Decoding is a bounds-checked
//! copy — no number or date parsing, no hierarchy lookups, no UTF-8
//! decoding cell by cell — and the service compresses each frame with a
//! fast codec. Integers are LEB128 varints (zigzag when signed): cell
//! lengths, leaf codes, days, source-line steps and numeric columns whose
//! values are all integers take one to three bytes instead of four or
//! eight, which halves what a job reads from the database; and the text of
//! a numeric column whose cells are integers written canonically (`39`,
//! `-7`) is not stored at all but written back from the values, which
//! takes sal_synthetic's stored form from 12.8 MB to a third of that. Nothing is
//! trusted: every length, code and offset is checked against the schema,
//! the footer and the buffer, so corrupt bytes are an error, never a panic
//! or a table that disagrees with its schema.
//!
//! Why blocks and a footer (version 2): the upload writes each block of
//! [`load_blocks`](crate::ingest::load_blocks) as soon as it is parsed, so
//! what only the end of the file knows — the row counts and the leaves of
//! the flat hierarchies synthesized for categorical columns the schema
//! gives none — goes last, in the footer, as in columnar file formats
//! written as a stream. Codes of flat columns are dictionary codes by first
//! appearance, so they mean the same in every block. The footer also
//! carries each text column's total length, so the decoder allocates every
//! column once, at its final size. Version 1 (one frame, whole table) is
//! not read any more: the service stores version 2 under another part name
//! and reads a dataset without one from its CSV.
//!
//! What is not stored: the schema (the caller rebuilds it from the stored
//! schema document and hierarchy files and passes it in).
//!
//! Frames: `block* footer`, each a byte string the caller keeps apart
//! (the service compresses each one and prefixes its length). Layout
//! (fixed-width integers little-endian; `v` a varint, `z` a zigzag varint):
//! ```text
//! footer: "PXTB" version:u32 columns:u32
//!         per schema column: kind:u8 text:u8 [text_bytes:u64 when text = 1]
//!         rows:u64 suppressed:u64 blocks:u32
//!         per flat column, in schema order: count:u32, per leaf len:u32 bytes
//! block:  rows:v
//!         per schema column: [values] [text: rows × v cell lengths, the bytes]
//!         source lines: rows × v (the step from the previous row's line,
//!         across blocks; the first from 0)
//! ```
//! Kinds: 0 untyped (text only, or nothing for identifiers), 1 numeric
//! (values: `0` then rows × f64, or `1` then rows × z when every value of
//! the block is an integer, or `2` then rows × z when moreover every cell
//! is its value's canonical decimal — `-` for negatives, no leading zeros
//! — and the text is then not stored but written back), 2 date (rows × z), 3 categorical with the
//! schema's hierarchy (rows × v leaf codes), 4 categorical with a flat
//! hierarchy (rows × v dictionary codes).

use std::sync::Arc;

use crate::error::{CoreError, CoreResult};
use crate::hierarchy::Hierarchy;
use crate::ingest::{Block, BlockValues, ColumnKind, Loaded};
use crate::schema::{Role, Schema};
use crate::table::{QiColumn, QiValues, SaColumn, SaValues, Table, TextColumn};

const MAGIC: &[u8; 4] = b"PXTB";
const VERSION: u32 = 2;

const UNTYPED: u8 = 0;
const NUMERIC: u8 = 1;
const DATE: u8 = 2;
const SCHEMA_LEAVES: u8 = 3;
const FLAT_LEAVES: u8 = 4;

/// A numeric block column's values as f64 or as integers; or as integers
/// whose cells are their canonical decimal text, which is then not stored
/// (see `table_codec_decimal.rs`).
const AS_F64: u8 = 0;
const AS_INTEGERS: u8 = 1;
const AS_INTEGERS_TEXT: u8 = 2;

/// The longest decimal an i64 takes, so derived text is at most this many
/// bytes per stored value byte.
const MAX_DECIMAL: usize = 20;

/// The largest magnitude stored as an integer: every integer up to it is an
/// exact f64, so the round trip is exact.
const MAX_INTEGRAL: f64 = (1u64 << 53) as f64;

fn kind_code(kind: &ColumnKind) -> u8 {
    match kind {
        ColumnKind::Untyped => UNTYPED,
        ColumnKind::Numeric => NUMERIC,
        ColumnKind::Date => DATE,
        ColumnKind::Leaves(_) => SCHEMA_LEAVES,
        ColumnKind::Flat => FLAT_LEAVES,
    }
}

/// Writes the stored form of a table frame by frame, as its blocks come.
pub struct Encoder {
    kinds: Vec<u8>,
    published: Vec<bool>,
    text_bytes: Vec<u64>,
    rows: u64,
    blocks: u32,
    last_line: u32,
}

impl Encoder {
    pub fn new(schema: &Schema) -> Encoder {
        let n = schema.columns().len();
        Encoder {
            kinds: (0..n)
                .map(|i| kind_code(&ColumnKind::of(schema, i)))
                .collect(),
            published: (0..n).map(|i| schema.is_published(i)).collect(),
            text_bytes: vec![0; n],
            rows: 0,
            blocks: 0,
            last_line: 0,
        }
    }

    /// Appends the frame of `block` (a block of the schema given to `new`)
    /// to `out`.
    pub fn block(&mut self, block: &Block, out: &mut Vec<u8>) -> CoreResult<()> {
        let rows = block.rows();
        if block.columns.len() != self.kinds.len() {
            return Err(CoreError::internal("a block has another schema's columns"));
        }
        put_varint(out, rows as u64);
        for (i, column) in block.columns.iter().enumerate() {
            let mut derived = false;
            match (self.kinds[i], &column.values) {
                (UNTYPED, BlockValues::None) => {}
                (NUMERIC, BlockValues::Numeric(v)) if v.len() == rows => {
                    derived = put_numeric(out, v, column.text.as_ref())
                }
                (DATE, BlockValues::Date(v)) if v.len() == rows => {
                    v.iter().for_each(|&d| put_zigzag(out, i64::from(d)))
                }
                (SCHEMA_LEAVES | FLAT_LEAVES, BlockValues::Codes(c)) if c.len() == rows => {
                    c.iter().for_each(|&c| put_varint(out, u64::from(c)))
                }
                _ => {
                    return Err(CoreError::internal(
                        "a block column does not match its kind",
                    ))
                }
            }
            match (self.published[i], &column.text) {
                (false, None) => {}
                (true, Some(t)) if t.len() == rows && derived => {
                    self.text_bytes[i] += t.parts().0.len() as u64;
                }
                (true, Some(t)) if t.len() == rows => {
                    let (buf, ends) = t.parts();
                    let mut prev = 0;
                    for &e in ends {
                        put_varint(out, u64::from(e - prev));
                        prev = e;
                    }
                    out.extend_from_slice(buf.as_bytes());
                    self.text_bytes[i] += buf.len() as u64;
                }
                _ => {
                    return Err(CoreError::internal(
                        "a block's text does not match the schema",
                    ))
                }
            }
        }
        for &line in &block.source_lines {
            put_varint(out, u64::from(line.wrapping_sub(self.last_line)));
            self.last_line = line;
        }
        self.rows += rows as u64;
        self.blocks += 1;
        Ok(())
    }

    /// Appends the footer frame, once every block is written.
    pub fn footer(self, loaded: &Loaded, out: &mut Vec<u8>) -> CoreResult<()> {
        if loaded.rows as u64 != self.rows || loaded.flat_leaves.len() != self.kinds.len() {
            return Err(CoreError::internal("the footer does not match the blocks"));
        }
        out.extend_from_slice(MAGIC);
        put_u32(out, VERSION);
        put_u32(out, self.kinds.len() as u32);
        for i in 0..self.kinds.len() {
            out.push(self.kinds[i]);
            out.push(u8::from(self.published[i]));
            if self.published[i] {
                put_u64(out, self.text_bytes[i]);
            }
        }
        put_u64(out, self.rows);
        put_u64(out, loaded.suppressed as u64);
        put_u32(out, self.blocks);
        for (i, &kind) in self.kinds.iter().enumerate() {
            match (kind, &loaded.flat_leaves[i]) {
                (FLAT_LEAVES, Some(leaves)) => {
                    put_u32(out, leaves.len() as u32);
                    for l in leaves {
                        put_u32(out, l.len() as u32);
                        out.extend_from_slice(l.as_bytes());
                    }
                }
                (FLAT_LEAVES, None) | (_, Some(_)) => {
                    return Err(CoreError::internal("flat leaves do not match the kinds"))
                }
                _ => {}
            }
        }
        Ok(())
    }
}

/// A numeric column: as integers when every value is one (exactly), as
/// f64 otherwise. True when the column's `text` is every value's canonical
/// decimal, so it need not be stored.
fn put_numeric(out: &mut Vec<u8>, v: &[f64], text: Option<&TextColumn>) -> bool {
    let integral = v.iter().all(|&x| {
        x.fract() == 0.0 && x.abs() <= MAX_INTEGRAL && !(x == 0.0 && x.is_sign_negative())
    });
    if integral {
        let mut digits = [0u8; MAX_DECIMAL];
        let derived = text.is_some_and(|t| {
            v.iter()
                .enumerate()
                .all(|(row, &x)| decimal::format(x as i64, &mut digits) == t.get(row).as_bytes())
        });
        out.push(if derived {
            AS_INTEGERS_TEXT
        } else {
            AS_INTEGERS
        });
        v.iter().for_each(|&x| put_zigzag(out, x as i64));
        derived
    } else {
        out.push(AS_F64);
        v.iter()
            .for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
        false
    }
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn put_zigzag(out: &mut Vec<u8>, v: i64) {
    put_varint(out, ((v << 1) ^ (v >> 63)) as u64);
}

fn put_u32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put_u64(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// Rebuilds a table from its block frames and footer (all in memory).
pub fn decode<'a>(
    schema: Arc<Schema>,
    blocks: impl IntoIterator<Item = &'a [u8]> + Clone,
    footer: &[u8],
) -> CoreResult<Table> {
    let total = blocks.clone().into_iter().map(<[u8]>::len).sum();
    let mut decoder = Decoder::new(schema, footer, total)?;
    for b in blocks {
        decoder.block(b)?;
    }
    decoder.finish()
}

/// One column being decoded.
struct Column {
    kind: u8,
    values: Values,
    /// Text buffer and end offsets, at their final capacity.
    text: Option<(String, Vec<u32>)>,
    /// The text length the footer announces.
    text_bytes: usize,
    /// The number of leaves a code must stay under (categorical).
    leaves: u32,
    hierarchy: Option<Arc<Hierarchy>>,
}

enum Values {
    None,
    Numeric(Vec<f64>),
    Date(Vec<i32>),
    Codes(Vec<u32>),
}

/// Rebuilds a table block by block: [`Decoder::new`] with the footer
/// (read first: it sizes every column), [`Decoder::block`] for each block
/// in order, then [`Decoder::finish`]. The caller need not hold more than
/// one decompressed block at a time.
pub struct Decoder {
    schema: Arc<Schema>,
    columns: Vec<Column>,
    source_lines: Vec<u32>,
    rows: usize,
    suppressed: usize,
    blocks: u32,
    blocks_seen: u32,
    /// The announced total length of the block frames, and what came.
    block_bytes: usize,
    block_bytes_seen: usize,
    last_line: u32,
}

impl Decoder {
    /// Reads the footer. `block_bytes` is the total length of the block
    /// frames to come: it bounds what the footer may announce (every row
    /// costs at least a byte), so a corrupt footer cannot make the decoder
    /// allocate more than the stored form could fill.
    pub fn new(schema: Arc<Schema>, footer: &[u8], block_bytes: usize) -> CoreResult<Decoder> {
        let mut r = Reader::new(footer);
        if r.take(4)? != MAGIC {
            return Err(corrupt("not a stored table"));
        }
        let version = r.u32()?;
        if version != VERSION {
            return Err(corrupt(&format!("version {version}, expected {VERSION}")));
        }
        let n = schema.columns().len();
        if r.u32()? as usize != n {
            return Err(corrupt("stored for another schema"));
        }
        let mut announced = Vec::with_capacity(n);
        for i in 0..n {
            let kind = r.u8()?;
            let expected = ColumnKind::of(&schema, i);
            if kind != kind_code(&expected) {
                return Err(corrupt("column kind does not match the schema"));
            }
            let text = match r.u8()? {
                0 => None,
                // Derived text can be longer than the stored bytes.
                1 => Some(r.length(block_bytes.saturating_mul(MAX_DECIMAL))?),
                _ => return Err(corrupt("text marker")),
            };
            if text.is_some() != schema.is_published(i) {
                return Err(corrupt("text does not match the schema"));
            }
            announced.push((expected, text));
        }
        let rows = r.length(block_bytes)?;
        let suppressed = usize::try_from(r.u64()?).map_err(|_| corrupt("suppressed count"))?;
        let blocks = r.u32()?;
        let mut columns = Vec::with_capacity(n);
        for (kind, text) in announced {
            let hierarchy = match &kind {
                ColumnKind::Leaves(h) => Some(h.clone()),
                ColumnKind::Flat => Some(Arc::new(r.flat_hierarchy(footer.len())?)),
                _ => None,
            };
            let values = match kind {
                ColumnKind::Untyped => Values::None,
                ColumnKind::Numeric => Values::Numeric(Vec::with_capacity(rows)),
                ColumnKind::Date => Values::Date(Vec::with_capacity(rows)),
                ColumnKind::Leaves(_) | ColumnKind::Flat => Values::Codes(Vec::with_capacity(rows)),
            };
            columns.push(Column {
                kind: kind_code(&kind),
                values,
                text: text.map(|bytes| (String::with_capacity(bytes), Vec::with_capacity(rows))),
                text_bytes: text.unwrap_or(0),
                leaves: hierarchy.as_ref().map_or(0, |h| h.leaf_count() as u32),
                hierarchy,
            });
        }
        r.end()?;
        Ok(Decoder {
            schema,
            columns,
            source_lines: Vec::with_capacity(rows),
            rows,
            suppressed,
            blocks,
            blocks_seen: 0,
            block_bytes,
            block_bytes_seen: 0,
            last_line: 0,
        })
    }

    /// Decodes the next block frame.
    pub fn block(&mut self, bytes: &[u8]) -> CoreResult<()> {
        self.block_bytes_seen = self.block_bytes_seen.saturating_add(bytes.len());
        self.blocks_seen += 1;
        if self.blocks_seen > self.blocks || self.block_bytes_seen > self.block_bytes {
            return Err(corrupt("more blocks than the footer announces"));
        }
        let mut r = Reader::new(bytes);
        let rows = r.varint()?;
        if rows > (self.rows - self.source_lines.len()) as u64 {
            return Err(corrupt("more rows than the footer announces"));
        }
        let rows = rows as usize;
        for c in &mut self.columns {
            let mut derived = false;
            match &mut c.values {
                Values::None => {}
                Values::Numeric(v) => match r.u8()? {
                    AS_F64 => r.f64s(rows, v)?,
                    AS_INTEGERS => r.integers(rows, v)?,
                    AS_INTEGERS_TEXT => {
                        let (buf, ends) = c.text.as_mut().ok_or_else(|| corrupt("no text"))?;
                        r.integers_with_text(rows, v, buf, ends, c.text_bytes)?;
                        derived = true;
                    }
                    _ => return Err(corrupt("numeric encoding")),
                },
                Values::Date(v) => r.dates(rows, v)?,
                Values::Codes(v) => r.codes(rows, c.leaves, v)?,
            }
            if let (Some((buf, ends)), false) = (&mut c.text, derived) {
                r.text(rows, buf, ends, c.text_bytes)?;
            }
        }
        self.last_line = r.source_lines(rows, self.last_line, &mut self.source_lines)?;
        r.end()
    }

    /// The table, once every block is decoded.
    pub fn finish(self) -> CoreResult<Table> {
        if self.blocks_seen != self.blocks
            || self.source_lines.len() != self.rows
            || self.block_bytes_seen != self.block_bytes
        {
            return Err(corrupt("fewer blocks than the footer announces"));
        }
        let mut qis = Vec::new();
        let mut sensitive = Vec::new();
        let mut text = Vec::with_capacity(self.columns.len());
        for (i, c) in self.columns.into_iter().enumerate() {
            text.push(match c.text {
                None => None,
                Some((buf, ends)) if buf.len() == c.text_bytes => {
                    Some(TextColumn::from_checked_parts(buf, ends))
                }
                Some(_) => return Err(corrupt("text length")),
            });
            let spec = &self.schema.columns()[i];
            let values = match (c.values, c.hierarchy) {
                (Values::None, _) => continue,
                (Values::Numeric(v), _) => QiValues::Numeric(v),
                (Values::Date(v), _) => QiValues::Date(v),
                (Values::Codes(codes), Some(hierarchy)) => {
                    QiValues::Categorical { codes, hierarchy }
                }
                (Values::Codes(_), None) => return Err(corrupt("codes without a hierarchy")),
            };
            match (spec.role, values) {
                (Role::QuasiIdentifier, values) => qis.push(QiColumn {
                    name: spec.name.clone(),
                    schema_index: i,
                    values,
                }),
                (Role::Sensitive, QiValues::Numeric(v)) => sensitive.push(SaColumn {
                    name: spec.name.clone(),
                    schema_index: i,
                    values: SaValues::Numeric(v),
                }),
                (Role::Sensitive, QiValues::Categorical { codes, hierarchy }) => {
                    sensitive.push(SaColumn {
                        name: spec.name.clone(),
                        schema_index: i,
                        values: SaValues::Categorical {
                            codes,
                            hierarchy,
                            has_hierarchy: c.kind == SCHEMA_LEAVES,
                        },
                    })
                }
                _ => return Err(corrupt("a column's values do not fit its role")),
            }
        }
        Table::new(
            self.schema,
            qis,
            sensitive,
            text,
            self.source_lines,
            self.suppressed,
        )
    }
}

fn corrupt(what: &str) -> CoreError {
    CoreError::internal(format!("the stored table is corrupt: {what}"))
}

/// A bounds-checked cursor over one frame.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes, at: 0 }
    }

    fn end(&self) -> CoreResult<()> {
        if self.at == self.bytes.len() {
            Ok(())
        } else {
            Err(corrupt("trailing bytes"))
        }
    }

    fn take(&mut self, n: usize) -> CoreResult<&'a [u8]> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or_else(|| corrupt("truncated"))?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn u8(&mut self) -> CoreResult<u8> {
        Ok(self.take(1)?[0])
    }

    fn u32(&mut self) -> CoreResult<u32> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }

    fn u64(&mut self) -> CoreResult<u64> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().expect("8 bytes"),
        ))
    }

    /// A count or length that the stored blocks must be able to hold.
    fn length(&mut self, bound: usize) -> CoreResult<usize> {
        usize::try_from(self.u64()?)
            .ok()
            .filter(|&n| n <= bound)
            .ok_or_else(|| corrupt("a count larger than the stored blocks"))
    }

    /// Inline while ten bytes (the longest varint) remain, so one length
    /// check serves every byte of the value; the buffer's end apart.
    #[inline(always)]
    fn varint(&mut self) -> CoreResult<u64> {
        if let Some(rest) = self.bytes.get(self.at..self.at + 10) {
            let mut v = 0u64;
            for (i, &b) in rest.iter().enumerate() {
                v |= u64::from(b & 0x7f) << (7 * i);
                if b < 0x80 {
                    self.at += i + 1;
                    return Ok(v);
                }
            }
            return Err(corrupt("varint"));
        }
        self.varint_long()
    }

    #[inline(never)]
    fn varint_long(&mut self) -> CoreResult<u64> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.u8()?;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(corrupt("varint"))
    }

    #[inline(always)]
    fn zigzag(&mut self) -> CoreResult<i64> {
        let v = self.varint()?;
        Ok((v >> 1) as i64 ^ -((v & 1) as i64))
    }

    #[inline(always)]
    fn u32_varint(&mut self) -> CoreResult<u32> {
        u32::try_from(self.varint()?).map_err(|_| corrupt("value over 32 bits"))
    }

    fn f64s(&mut self, n: usize, out: &mut Vec<f64>) -> CoreResult<()> {
        let len = n.checked_mul(8).ok_or_else(|| corrupt("length"))?;
        for c in self.take(len)?.chunks_exact(8) {
            let x = f64::from_le_bytes(c.try_into().expect("8 bytes"));
            if !x.is_finite() {
                return Err(corrupt("a number that is not finite"));
            }
            out.push(x);
        }
        Ok(())
    }

    fn integers(&mut self, n: usize, out: &mut Vec<f64>) -> CoreResult<()> {
        for _ in 0..n {
            out.push(self.zigzag()? as f64);
        }
        Ok(())
    }

    /// Integers whose cells are their decimal text: the values, and the
    /// text written back (the column may not grow past `limit` bytes). The
    /// block's digits are gathered first and appended at once: one UTF-8
    /// check and one copy per block, not per cell.
    fn integers_with_text(
        &mut self,
        n: usize,
        out: &mut Vec<f64>,
        buf: &mut String,
        ends: &mut Vec<u32>,
        limit: usize,
    ) -> CoreResult<()> {
        let mut digits = [0u8; MAX_DECIMAL];
        let base = buf.len();
        let mut text = Vec::with_capacity(n * 4);
        for _ in 0..n {
            let x = self.zigzag()?;
            out.push(x as f64);
            text.extend_from_slice(decimal::format(x, &mut digits));
            ends.push(
                u32::try_from(base + text.len())
                    .ok()
                    .filter(|&e| e as usize <= limit)
                    .ok_or_else(|| corrupt("text longer than the footer announces"))?,
            );
        }
        buf.push_str(std::str::from_utf8(&text).map_err(|_| corrupt("decimal"))?);
        Ok(())
    }

    fn dates(&mut self, n: usize, out: &mut Vec<i32>) -> CoreResult<()> {
        for _ in 0..n {
            out.push(i32::try_from(self.zigzag()?).map_err(|_| corrupt("date"))?);
        }
        Ok(())
    }

    /// Codes, each under `leaves`.
    fn codes(&mut self, n: usize, leaves: u32, out: &mut Vec<u32>) -> CoreResult<()> {
        for _ in 0..n {
            let c = self.u32_varint()?;
            if c >= leaves {
                return Err(corrupt("leaf code"));
            }
            out.push(c);
        }
        Ok(())
    }

    /// A block's cells of one text column appended to `buf`/`ends`; the
    /// column may not grow past `limit` bytes (the footer's total). Each
    /// cell must end on a character boundary of UTF-8 text.
    fn text(
        &mut self,
        n: usize,
        buf: &mut String,
        ends: &mut Vec<u32>,
        limit: usize,
    ) -> CoreResult<()> {
        let base = buf.len();
        let first = ends.len();
        let mut end = base;
        for _ in 0..n {
            end = end
                .checked_add(self.varint()? as usize)
                .filter(|&e| e <= limit)
                .ok_or_else(|| corrupt("text longer than the footer announces"))?;
            // `limit` came through `length`, so every end fits a u32 when
            // the buffer could be allocated at all; checked anyway.
            ends.push(u32::try_from(end).map_err(|_| corrupt("text offsets"))?);
        }
        let bytes = self.take(end - base)?;
        let text = std::str::from_utf8(bytes).map_err(|_| corrupt("text is not UTF-8"))?;
        if !ends[first..]
            .iter()
            .all(|&e| text.is_char_boundary(e as usize - base))
        {
            return Err(corrupt("text offsets"));
        }
        buf.push_str(text);
        Ok(())
    }

    /// Steps → source lines appended to `out`; the last line.
    fn source_lines(&mut self, n: usize, mut line: u32, out: &mut Vec<u32>) -> CoreResult<u32> {
        for _ in 0..n {
            line = line.wrapping_add(self.u32_varint()?);
            out.push(line);
        }
        Ok(line)
    }

    /// A flat hierarchy's leaves (at most as many as the footer has bytes).
    fn flat_hierarchy(&mut self, bound: usize) -> CoreResult<Hierarchy> {
        let count = self.u32()? as usize;
        if count > bound {
            return Err(corrupt("leaf count"));
        }
        let mut leaves = Vec::with_capacity(count);
        for _ in 0..count {
            let len = self.u32()? as usize;
            let leaf =
                std::str::from_utf8(self.take(len)?).map_err(|_| corrupt("leaf is not UTF-8"))?;
            leaves.push(leaf);
        }
        let h = Hierarchy::flat(&leaves);
        if h.leaf_count() != leaves.len().max(1) {
            return Err(corrupt("repeated flat leaves"));
        }
        Ok(h)
    }
}

#[path = "table_codec_decimal.rs"]
mod decimal;

#[cfg(test)]
#[path = "table_codec_tests.rs"]
mod tests;
