//! The stored form of a loaded table: its columns as they are in memory,
//! written once at upload so that every later job, audit and download
//! decodes them instead of parsing the CSV again.
//!
//! Why this encoding: the table is already columnar and typed (f64, leaf
//! codes, days, one text buffer per column with end offsets), so the stored
//! form is those arrays one after another. Decoding is a bounds-checked
//! copy — no number or date parsing, no hierarchy lookups, no UTF-8
//! decoding cell by cell — and the service compresses the bytes with a fast
//! codec. Integers are LEB128 varints (zigzag when signed): cell lengths,
//! leaf codes, days, source-line steps and numeric columns whose values are
//! all integers take one to three bytes instead of four or eight, which
//! halves what a job reads from the database. Nothing is trusted: every length, code and offset is checked
//! against the schema and the buffer, so corrupt bytes are an error, never a
//! panic or a table that disagrees with its schema.
//!
//! What is not stored: the schema (the caller rebuilds it from the stored
//! schema document and hierarchy files and passes it in), except the flat
//! hierarchies the loader synthesizes from the data for categorical columns
//! the schema gives none; their leaves are stored in code order.
//!
//! Layout (fixed-width integers little-endian; `v` a varint, `z` a zigzag
//! varint):
//! ```text
//! "PXTB" version:u32 rows:u64 suppressed:u64 columns:u32
//! qis:u32,  per QI:  schema_index:u32 kind:u8 [values] [flat leaves]
//! sas:u32,  per SA:  schema_index:u32 kind:u8 [values] [flat leaves]
//! per schema column: present:u8 [cell lengths: rows × v, text: len:u64 bytes]
//! source lines: rows × v (the step from the previous line)
//! ```
//! with kind 0 numeric (rows × f64), 4 integral numeric (rows × z), 1 date
//! (rows × z), 2 categorical with the schema's hierarchy (rows × v codes),
//! 3 categorical with a flat hierarchy (rows × v codes, then count:u32 and
//! per leaf len:u32 bytes).

use std::sync::Arc;

use crate::error::{CoreError, CoreResult};
use crate::hierarchy::Hierarchy;
use crate::schema::{Role, Schema};
use crate::table::{QiColumn, QiValues, SaColumn, SaValues, Table, TextColumn};

const MAGIC: &[u8; 4] = b"PXTB";
const VERSION: u32 = 1;

const NUMERIC: u8 = 0;
const DATE: u8 = 1;
const SCHEMA_LEAVES: u8 = 2;
const FLAT_LEAVES: u8 = 3;
const INTEGRAL: u8 = 4;

/// The largest magnitude stored as an integer: every integer up to it is an
/// exact f64, so the round trip is exact.
const MAX_INTEGRAL: f64 = (1u64 << 53) as f64;

/// Appends the stored form of `table` to `out`.
pub fn encode(table: &Table, out: &mut Vec<u8>) {
    let schema = table.schema();
    out.extend_from_slice(MAGIC);
    put_u32(out, VERSION);
    put_u64(out, table.rows() as u64);
    put_u64(out, table.suppressed_rows() as u64);
    put_u32(out, schema.columns().len() as u32);
    put_u32(out, table.qis().len() as u32);
    for c in table.qis() {
        put_u32(out, c.schema_index as u32);
        match &c.values {
            QiValues::Numeric(v) => put_numeric(out, v),
            QiValues::Date(v) => {
                out.push(DATE);
                v.iter().for_each(|&x| put_zigzag(out, x as i64));
            }
            QiValues::Categorical { codes, hierarchy } => {
                put_codes(out, codes, hierarchy, from_schema(schema, c.schema_index));
            }
        }
    }
    put_u32(out, table.sensitive().len() as u32);
    for c in table.sensitive() {
        put_u32(out, c.schema_index as u32);
        match &c.values {
            SaValues::Numeric(v) => put_numeric(out, v),
            SaValues::Categorical {
                codes,
                hierarchy,
                has_hierarchy,
            } => put_codes(out, codes, hierarchy, *has_hierarchy),
        }
    }
    for i in 0..schema.columns().len() {
        match table.text_column(i) {
            None => out.push(0),
            Some(t) => {
                out.push(1);
                let (buf, ends) = t.parts();
                let mut prev = 0;
                for &e in ends {
                    put_varint(out, (e - prev) as u64);
                    prev = e;
                }
                put_u64(out, buf.len() as u64);
                out.extend_from_slice(buf.as_bytes());
            }
        }
    }
    let mut prev = 0;
    for &l in table.source_lines() {
        put_varint(out, l.wrapping_sub(prev) as u64);
        prev = l;
    }
}

/// A numeric column: as integers when every value is one (exactly), as
/// f64 otherwise.
fn put_numeric(out: &mut Vec<u8>, v: &[f64]) {
    let integral = v.iter().all(|&x| {
        x.fract() == 0.0 && x.abs() <= MAX_INTEGRAL && !(x == 0.0 && x.is_sign_negative())
    });
    if integral {
        out.push(INTEGRAL);
        v.iter().for_each(|&x| put_zigzag(out, x as i64));
    } else {
        out.push(NUMERIC);
        v.iter()
            .for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
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

/// Whether a categorical column's hierarchy is the schema's (as opposed to
/// a flat one synthesized from the data).
fn from_schema(schema: &Schema, index: usize) -> bool {
    schema.columns()[index].hierarchy.is_some()
}

fn put_codes(out: &mut Vec<u8>, codes: &[u32], hierarchy: &Hierarchy, schema_given: bool) {
    out.push(if schema_given {
        SCHEMA_LEAVES
    } else {
        FLAT_LEAVES
    });
    codes.iter().for_each(|&c| put_varint(out, c as u64));
    if !schema_given {
        let leaves = hierarchy.leaf_labels();
        put_u32(out, leaves.len() as u32);
        for l in leaves {
            put_u32(out, l.len() as u32);
            out.extend_from_slice(l.as_bytes());
        }
    }
}

fn put_u32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put_u64(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// Rebuilds a table from [`encode`]'s bytes and the schema it was loaded
/// with. Any inconsistency is an internal error (the bytes are ours).
pub fn decode(schema: Arc<Schema>, bytes: &[u8]) -> CoreResult<Table> {
    let mut r = Reader { bytes, at: 0 };
    if r.take(4)? != MAGIC {
        return Err(corrupt("not a stored table"));
    }
    let version = r.u32()?;
    if version != VERSION {
        return Err(corrupt(&format!("version {version}, expected {VERSION}")));
    }
    let rows = usize::try_from(r.u64()?).map_err(|_| corrupt("row count"))?;
    let suppressed = usize::try_from(r.u64()?).map_err(|_| corrupt("suppressed count"))?;
    if r.u32()? as usize != schema.columns().len() {
        return Err(corrupt("stored for another schema"));
    }
    // Every row costs at least a byte (its source-line step): a row count
    // the buffer cannot hold is refused before anything is allocated for it.
    if rows > bytes.len() {
        return Err(corrupt("row count"));
    }

    let n_qis = r.u32()? as usize;
    let mut qis = Vec::with_capacity(n_qis.min(schema.columns().len()));
    for _ in 0..n_qis {
        let index = r.column_index(&schema, Role::QuasiIdentifier)?;
        let values = match r.u8()? {
            NUMERIC => QiValues::Numeric(r.f64s(rows)?),
            INTEGRAL => QiValues::Numeric(r.integral(rows)?),
            DATE => QiValues::Date(r.dates(rows)?),
            kind @ (SCHEMA_LEAVES | FLAT_LEAVES) => {
                let (codes, hierarchy) = r.categorical(kind, rows, &schema, index)?;
                QiValues::Categorical { codes, hierarchy }
            }
            _ => return Err(corrupt("column kind")),
        };
        qis.push(QiColumn {
            name: schema.columns()[index].name.clone(),
            schema_index: index,
            values,
        });
    }

    let n_sa = r.u32()? as usize;
    let mut sensitive = Vec::with_capacity(n_sa.min(schema.columns().len()));
    for _ in 0..n_sa {
        let index = r.column_index(&schema, Role::Sensitive)?;
        let values = match r.u8()? {
            NUMERIC => SaValues::Numeric(r.f64s(rows)?),
            INTEGRAL => SaValues::Numeric(r.integral(rows)?),
            kind @ (SCHEMA_LEAVES | FLAT_LEAVES) => {
                let (codes, hierarchy) = r.categorical(kind, rows, &schema, index)?;
                SaValues::Categorical {
                    codes,
                    hierarchy,
                    has_hierarchy: kind == SCHEMA_LEAVES,
                }
            }
            _ => return Err(corrupt("column kind")),
        };
        sensitive.push(SaColumn {
            name: schema.columns()[index].name.clone(),
            schema_index: index,
            values,
        });
    }

    let mut text = Vec::with_capacity(schema.columns().len());
    for _ in 0..schema.columns().len() {
        text.push(match r.u8()? {
            0 => None,
            1 => {
                let ends = r.ends(rows)?;
                let len = usize::try_from(r.u64()?).map_err(|_| corrupt("text length"))?;
                let buf = std::str::from_utf8(r.take(len)?)
                    .map_err(|_| corrupt("text is not UTF-8"))?
                    .to_string();
                Some(TextColumn::from_parts(buf, ends).map_err(|_| corrupt("text offsets"))?)
            }
            _ => return Err(corrupt("text marker")),
        });
    }
    let source_lines = r.source_lines(rows)?;
    if r.at != bytes.len() {
        return Err(corrupt("trailing bytes"));
    }
    Table::new(schema, qis, sensitive, text, source_lines, suppressed)
}

fn corrupt(what: &str) -> CoreError {
    CoreError::internal(format!("the stored table is corrupt: {what}"))
}

/// A bounds-checked cursor over the stored bytes.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
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

    /// `n` fixed-width values decoded by `f` from `W`-byte chunks.
    fn array<T, const W: usize>(&mut self, n: usize, f: fn([u8; W]) -> T) -> CoreResult<Vec<T>> {
        let len = n.checked_mul(W).ok_or_else(|| corrupt("length"))?;
        Ok(self
            .take(len)?
            .chunks_exact(W)
            .map(|c| f(c.try_into().expect("W bytes")))
            .collect())
    }

    fn f64s(&mut self, n: usize) -> CoreResult<Vec<f64>> {
        self.array(n, f64::from_le_bytes)
    }

    fn varint(&mut self) -> CoreResult<u64> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.u8()?;
            v |= ((b & 0x7f) as u64) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(corrupt("varint"))
    }

    fn zigzag(&mut self) -> CoreResult<i64> {
        let v = self.varint()?;
        Ok((v >> 1) as i64 ^ -((v & 1) as i64))
    }

    fn u32_varint(&mut self) -> CoreResult<u32> {
        u32::try_from(self.varint()?).map_err(|_| corrupt("value over 32 bits"))
    }

    fn integral(&mut self, n: usize) -> CoreResult<Vec<f64>> {
        (0..n).map(|_| Ok(self.zigzag()? as f64)).collect()
    }

    fn dates(&mut self, n: usize) -> CoreResult<Vec<i32>> {
        (0..n)
            .map(|_| i32::try_from(self.zigzag()?).map_err(|_| corrupt("date")))
            .collect()
    }

    fn codes(&mut self, n: usize) -> CoreResult<Vec<u32>> {
        (0..n).map(|_| self.u32_varint()).collect()
    }

    /// Cell lengths → end offsets (checked against the text later).
    fn ends(&mut self, n: usize) -> CoreResult<Vec<u32>> {
        let mut end = 0u32;
        (0..n)
            .map(|_| {
                end = end
                    .checked_add(self.u32_varint()?)
                    .ok_or_else(|| corrupt("text offsets"))?;
                Ok(end)
            })
            .collect()
    }

    /// Steps → source lines.
    fn source_lines(&mut self, n: usize) -> CoreResult<Vec<u32>> {
        let mut line = 0u32;
        (0..n)
            .map(|_| {
                line = line.wrapping_add(self.u32_varint()?);
                Ok(line)
            })
            .collect()
    }

    /// A column index that names a schema column of `role`.
    fn column_index(&mut self, schema: &Schema, role: Role) -> CoreResult<usize> {
        let index = self.u32()? as usize;
        match schema.columns().get(index) {
            Some(c) if c.role == role => Ok(index),
            _ => Err(corrupt("column index")),
        }
    }

    /// Leaf codes and their hierarchy: the schema's, or the stored flat
    /// leaves; every code must name a leaf.
    fn categorical(
        &mut self,
        kind: u8,
        rows: usize,
        schema: &Schema,
        index: usize,
    ) -> CoreResult<(Vec<u32>, Arc<Hierarchy>)> {
        let codes = self.codes(rows)?;
        let hierarchy = match (kind, &schema.columns()[index].hierarchy) {
            (SCHEMA_LEAVES, Some(h)) => h.clone(),
            (FLAT_LEAVES, None) => {
                let count = self.u32()? as usize;
                let mut leaves = Vec::with_capacity(count.min(rows.max(1)));
                for _ in 0..count {
                    let len = self.u32()? as usize;
                    let leaf = std::str::from_utf8(self.take(len)?)
                        .map_err(|_| corrupt("leaf is not UTF-8"))?;
                    leaves.push(leaf.to_string());
                }
                let h = Hierarchy::flat(&leaves);
                if h.leaf_count() != leaves.len().max(1) {
                    return Err(corrupt("repeated flat leaves"));
                }
                Arc::new(h)
            }
            _ => return Err(corrupt("hierarchy kind does not match the schema")),
        };
        let leaves = hierarchy.leaf_count() as u32;
        if codes.iter().any(|&c| c >= leaves) {
            return Err(corrupt("leaf code"));
        }
        Ok((codes, hierarchy))
    }
}

#[cfg(test)]
#[path = "table_codec_tests.rs"]
mod tests;
