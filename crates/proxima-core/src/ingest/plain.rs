//! A piece of CSV without quotes, read line by line.
//!
//! **Why.** Most data files quote nothing. For such text a record is a
//! line and a cell is what lies between two delimiters, so the general
//! reader's work — the csv crate's state machine copying every byte into a
//! record, the line counter following quotes byte by byte, the record's
//! UTF-8 check — is three passes where one split suffices: on adult 600k it
//! was about half of the parse.
//!
//! **When.** Only a piece that cannot mean anything else is read this way:
//! no quote anywhere, no carriage return but before a line feed, an ASCII
//! delimiter, and every record clean — the header's width, UTF-8, cells and
//! records within their limits, no missing value (suppression and its
//! counts stay with the general reader). Blank lines are skipped and not
//! counted, as the csv reader does. Each cell then goes through the
//! general reader's own checks and parsers, so values, codes and text are the
//! ones it keeps. Anything else answers `None` and the caller reads the
//! piece with [`load_blocks`](super::load_blocks), which also names any
//! error with its line: this path never reports one.

use crate::ingest::block::{Block, BlockLimits, Loaded};
use crate::ingest::load::{
    control_problem, may_hold_control, push_parsed, push_text, Columns, Records,
};
use crate::schema::Schema;

/// The piece `body` (whole lines after the header `header`, the last one
/// may lack its line break) as one block, or `None` when it is not plain
/// (module doc). The block, its data lines (1 for the piece's first
/// record) and the end-of-piece facts are those `load_blocks` gives for
/// `header` followed by `body` with `limits`' cell and record limits.
pub(super) fn load_plain(
    schema: &Schema,
    header: &[u8],
    body: &[u8],
    limits: &BlockLimits,
) -> Option<(Block, Loaded)> {
    let delimiter = schema.csv().delimiter;
    if !delimiter.is_ascii() || memchr::memchr(b'"', body).is_some() {
        return None;
    }
    // The header through the general reader: its byte-order mark, its
    // names and their order are read as they always are.
    let mut records = Records::new(schema, header, limits.max_record);
    let mut record = csv::ByteRecord::new();
    if !records.read(&mut record, 0).ok()? {
        return None;
    }
    let mut columns = Columns::new(schema, &record, limits.qi_text).ok()?;
    let width = columns.positions.len();
    // The whole piece is checked as UTF-8 at once (a line that is not is
    // left to the general reader with the rest); its lines are then cut
    // from it at ASCII bytes, which are character boundaries.
    let body_text = std::str::from_utf8(body).ok()?;
    let seps = separators(body, delimiter)?;
    // A row ends at its line's line feed after width − 1 delimiters: the
    // separators tell the rows (blank lines aside); a cell holds on
    // average what the line's bytes share out among the columns.
    let width_or_one = width.max(1);
    columns.reserve(seps.len() / width_or_one + 1, body.len() / width_or_one);
    let mut ends: Vec<usize> = Vec::with_capacity(width + 1);
    // Per kept line its data line: 1 for the piece's first record.
    let mut lines: Vec<u32> = Vec::new();
    let mut start = 0;
    let mut next_sep = seps.iter().map(|&p| p as usize);
    while start < body.len() {
        // The line's cells end at its delimiters and at its end.
        ends.clear();
        let mut end = body.len();
        for p in next_sep.by_ref() {
            if body[p] == b'\n' {
                end = p;
                break;
            }
            ends.push(p - start);
        }
        let start_of_line = start;
        let line = &body[start..end];
        start = end + 1;
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            continue;
        }
        ends.push(line.len());
        if ends.len() != width || line.len() > limits.max_record {
            return None;
        }
        let text = &body_text[start_of_line..start_of_line + line.len()];
        // A line with a control byte (a tab is one) has its cells checked
        // one by one, as the general reader does; a CR is refused here.
        let checked = may_hold_control(line);
        if checked && memchr::memchr(b'\r', line).is_some() {
            return None;
        }
        // Cell c runs from past the delimiter that ends cell c − 1.
        let cell = |c: usize| &text[if c == 0 { 0 } else { ends[c - 1] + 1 }..ends[c]];
        // No cell is longer than its line.
        if line.len() > limits.max_cell && (0..width).any(|c| cell(c).len() > limits.max_cell) {
            return None;
        }
        if columns
            .checked
            .iter()
            .any(|&p| columns.is_missing(cell(p).as_bytes()))
        {
            return None;
        }
        for p in 0..width {
            let b = &mut columns.builders[p];
            if !b.published {
                continue;
            }
            let s = cell(p);
            if (checked && control_problem(s).is_some()) || !push_parsed(b, s) {
                return None;
            }
            push_text(b, s).ok()?;
        }
        lines.push(u32::try_from(lines.len() + 1).ok()?);
    }
    if lines.is_empty() {
        return None;
    }
    let rows = lines.len();
    let block = columns.take_block(lines, limits.tally.as_ref());
    let loaded = Loaded {
        rows,
        suppressed: 0,
        flat_leaves: columns.into_flat_leaves(schema),
    };
    Some((block, loaded))
}

/// Bytes scanned at once for separators.
const LANES: usize = 64;

/// The positions of every delimiter and line feed in `body`, in order;
/// `None` when a position would not fit 32 bits. Each 64 bytes give a mask
/// of their separators ([`separator_mask`]), whose bits are read off:
/// fields are a few bytes long, so a search per field would cost more than
/// the field.
fn separators(body: &[u8], delimiter: u8) -> Option<Vec<u32>> {
    u32::try_from(body.len()).ok()?;
    let mut out = Vec::with_capacity(body.len() / 4);
    let mut chunks = body.chunks_exact(LANES);
    let mut base = 0u32;
    for chunk in &mut chunks {
        let mut mask = separator_mask(chunk, delimiter);
        while mask != 0 {
            out.push(base + mask.trailing_zeros());
            mask &= mask - 1;
        }
        base += LANES as u32;
    }
    for (i, &b) in chunks.remainder().iter().enumerate() {
        if b == delimiter || b == b'\n' {
            out.push(base + i as u32);
        }
    }
    Some(out)
}

/// Bit i set when byte i of the 64-byte `chunk` is the delimiter or a line
/// feed: four 16-byte compares (SSE2, which every x86-64 has).
#[cfg(target_arch = "x86_64")]
#[inline]
fn separator_mask(chunk: &[u8], delimiter: u8) -> u64 {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    };
    let mut mask = 0u64;
    // SAFETY: SSE2 is part of every x86-64 target; each `part` holds 16
    // bytes, which the load reads unaligned.
    unsafe {
        let d = _mm_set1_epi8(delimiter as i8);
        let n = _mm_set1_epi8(b'\n' as i8);
        for (k, part) in chunk.chunks_exact(16).enumerate() {
            let v = _mm_loadu_si128(part.as_ptr().cast::<__m128i>());
            let hits = _mm_or_si128(_mm_cmpeq_epi8(v, d), _mm_cmpeq_epi8(v, n));
            mask |= u64::from(_mm_movemask_epi8(hits) as u16) << (16 * k);
        }
    }
    mask
}

/// Bit i set when byte i of the 64-byte `chunk` is the delimiter or a line
/// feed.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn separator_mask(chunk: &[u8], delimiter: u8) -> u64 {
    chunk.iter().enumerate().fold(0u64, |m, (i, &b)| {
        m | (u64::from((b == delimiter) | (b == b'\n')) << i)
    })
}

#[cfg(test)]
#[path = "plain_tests.rs"]
mod tests;
