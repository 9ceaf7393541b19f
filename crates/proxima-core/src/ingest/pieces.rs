//! Loading a CSV on every thread of the pool, speculatively.
//!
//! A CSV cannot be cut at any line break: a quoted field may hold one. But
//! the loader refuses line breaks inside cells unless `allow_line_breaks`
//! is set, and a piece parsed as if it began a record proves itself: if
//! every piece before it parsed cleanly and ended outside quotes, it did
//! begin a record (the first piece starts the file; a clean end is where
//! the one-thread parse would be too, at the same byte, in the same
//! state). So the input is read in batches, each batch is cut at line
//! breaks into pieces, and the pieces are parsed at once by the ordinary
//! loader ([`load_blocks`], with the header put before each; a piece
//! without quotes by the line-by-line reader of `plain.rs`, which gives
//! the same blocks or declines), then put together in order:
//!
//! * data lines are the piece's own plus the lines of the pieces before;
//! * codes of categorical columns without a hierarchy (numbered by first
//!   appearance) are renumbered through one dictionary filled piece by
//!   piece, in file order, so they are the codes one pass would give.
//!
//! Anything a piece cannot vouch for — an error of any kind (a bad cell, a
//! quote left open at the piece's end, a missing value under `reject`, a
//! piece of blank lines), a header that holds a quote — makes
//! [`try_load_pieces`] answer `None`, and the caller reads the input again
//! with the one-thread loader, which gives the file's own error with its
//! own line numbers. The table of a success is the one `load_table` builds
//! (property-tested below against it, on every cut of random files).

use std::io::Read;
use std::ops::Range;
use std::sync::Arc;

use rayon::prelude::*;

use crate::error::CoreResult;
use crate::hierarchy::LabelMap;
use crate::ingest::assemble::Assembler;
use crate::ingest::block::{Block, BlockLimits, BlockValues, ColumnKind, Loaded};
use crate::ingest::load::load_blocks;
use crate::ingest::plain::load_plain;
use crate::progress::Progress;
use crate::schema::Schema;
use crate::table::Table;

/// Bytes per piece: large enough that a piece's set-up (the header parsed
/// again, the buffers) is noise, small enough that a 600k-row file makes
/// a few dozen pieces to share out.
pub const PIECE_BYTES: usize = 2 << 20;

/// The table of `reader` loaded on the current pool's threads, or `None`
/// when a piece could not vouch for itself (see the module doc): read the
/// input again with [`crate::ingest::load_table_with_limits`]. Only
/// `limits.max_cell`, `limits.max_record` and `limits.qi_text` apply. `progress` is asked
/// between batches; a cancel is the only error returned.
pub fn try_load_pieces<R: Read + Send>(
    schema: Arc<Schema>,
    reader: R,
    limits: &BlockLimits,
    piece_bytes: usize,
    progress: Progress,
) -> CoreResult<Option<Table>> {
    let limits = BlockLimits {
        max_cell: limits.max_cell,
        max_record: limits.max_record,
        qi_text: limits.qi_text,
        ..BlockLimits::whole()
    };
    let mut input = Batches::new(reader, piece_bytes.max(1));
    let Some(header) = input.header() else {
        return Ok(None);
    };
    let batch_pieces = 2 * rayon::current_num_threads().max(1);
    let mut joined = Joined::new(&schema, limits.qi_text);
    let mut next = input.next_batch(batch_pieces);
    // Each batch's pieces are parsed on the pool while the batch before is
    // joined to the columns and the batch after is read: those two are one
    // thread's work, and done between the parses they left the other
    // threads idle (a fifth of the stage on two threads).
    let mut parsed: Vec<Option<Piece>> = Vec::new();
    while let Some((batch, pieces)) = next {
        progress.report(0.0)?;
        let before = std::mem::take(&mut parsed);
        let (now, (following, joined_ok)) = rayon::join(
            || {
                pieces
                    .par_iter()
                    .map(|piece| parse_piece(&schema, &header, &batch[piece.clone()], &limits))
                    .collect::<Vec<_>>()
            },
            || {
                let ok = joined.join(before);
                (input.next_batch(batch_pieces), ok)
            },
        );
        if !joined_ok {
            return Ok(None);
        }
        parsed = now;
        next = following;
    }
    if !joined.join(parsed) || input.failed {
        return Ok(None);
    }
    Ok(joined.finish())
}

/// The parsed pieces put together in file order: their blocks joined to
/// the columns, their lines offset by the lines before, their flat codes
/// renumbered.
struct Joined {
    dictionaries: Dictionaries,
    assembler: Assembler,
    kept: usize,
    suppressed: usize,
    lines_before: u64,
}

impl Joined {
    fn new(schema: &Arc<Schema>, qi_text: bool) -> Joined {
        Joined {
            dictionaries: Dictionaries::new(schema),
            assembler: Assembler::new(schema.clone()).with_qi_text(qi_text),
            kept: 0,
            suppressed: 0,
            lines_before: 0,
        }
    }

    /// Joins a batch's pieces, in order; false when one could not vouch
    /// for itself or the columns could not take them.
    fn join(&mut self, parsed: Vec<Option<Piece>>) -> bool {
        let mut blocks = Vec::new();
        for piece in parsed {
            let Some(mut piece) = piece else {
                return false;
            };
            self.dictionaries.renumber(&mut piece);
            for mut block in piece.blocks {
                for line in &mut block.source_lines {
                    let Ok(global) = u32::try_from(self.lines_before + u64::from(*line)) else {
                        return false;
                    };
                    *line = global;
                }
                blocks.push(block);
            }
            self.kept += piece.loaded.rows;
            self.suppressed += piece.loaded.suppressed;
            self.lines_before += (piece.loaded.rows + piece.loaded.suppressed) as u64;
        }
        // Each batch joins the columns as soon as it is parsed, so its
        // blocks are freed (and their memory reused by the next batch)
        // instead of all of them being held until the end beside the
        // whole table. The columns then grow by doubling, which for
        // mapped memory moves pages rather than copying them.
        blocks.is_empty() || self.assembler.push_many(blocks).is_ok()
    }

    fn finish(self) -> Option<Table> {
        if self.kept == 0 {
            return None;
        }
        let loaded = Loaded {
            rows: self.kept,
            suppressed: self.suppressed,
            flat_leaves: self.dictionaries.into_leaves(),
        };
        self.assembler.finish(loaded).ok()
    }
}

/// One piece's blocks and end-of-piece facts, as the one-thread loader
/// gave them for the piece alone.
struct Piece {
    blocks: Vec<Block>,
    loaded: Loaded,
}

fn parse_piece(
    schema: &Schema,
    header: &[u8],
    piece: &[u8],
    limits: &BlockLimits,
) -> Option<Piece> {
    if let Some((block, loaded)) = load_plain(schema, header, piece, limits) {
        return Some(Piece {
            blocks: vec![block],
            loaded,
        });
    }
    let mut blocks = Vec::new();
    let loaded = load_blocks(
        schema,
        header.chain(piece),
        limits,
        Progress::none(),
        |block| {
            blocks.push(block);
            Ok(())
        },
    )
    .ok()?;
    Some(Piece { blocks, loaded })
}

/// The input in batches of pieces, each piece ending at a line break (the
/// last piece of the input may end without one).
struct Batches<R> {
    reader: R,
    piece_bytes: usize,
    /// Bytes read but not yet handed out (the start of the next piece).
    pending: Vec<u8>,
    eof: bool,
    /// A read failed: the one-thread loader will report it.
    failed: bool,
}

impl<R: Read> Batches<R> {
    fn new(reader: R, piece_bytes: usize) -> Batches<R> {
        Batches {
            reader,
            piece_bytes,
            pending: Vec::new(),
            eof: false,
            failed: false,
        }
    }

    /// Reads until `pending` holds `want` bytes or the input ends.
    fn fill(&mut self, want: usize) {
        if self.eof || self.pending.len() >= want {
            return;
        }
        let missing = (want - self.pending.len()) as u64;
        self.pending.reserve(missing as usize);
        match (&mut self.reader)
            .take(missing)
            .read_to_end(&mut self.pending)
        {
            Ok(n) if (n as u64) < missing => self.eof = true,
            Ok(_) => {}
            Err(_) => {
                self.eof = true;
                self.failed = true;
            }
        }
    }

    /// The header line with its line break, taken off the input; `None`
    /// when the first line holds a quote (a quoted header may span lines:
    /// the one-thread loader handles it) or the input has no line break.
    fn header(&mut self) -> Option<Vec<u8>> {
        let mut searched = 0;
        loop {
            if let Some(i) = memchr::memchr(b'\n', &self.pending[searched..]) {
                let end = searched + i + 1;
                let header: Vec<u8> = self.pending.drain(..end).collect();
                return (!header.contains(&b'"')).then_some(header);
            }
            if self.eof {
                return None;
            }
            searched = self.pending.len();
            let want = self.pending.len() + self.piece_bytes;
            self.fill(want);
        }
    }

    /// A batch of up to `count` pieces of about `piece_bytes` each, each
    /// cut after a line break (a piece holds at least one whole line; the
    /// input's last piece may end without one): the batch's bytes and the
    /// pieces' ranges in them. `None` once the input is consumed. Only the
    /// unfinished line after the last piece is copied, into the next batch.
    fn next_batch(&mut self, count: usize) -> Option<(Vec<u8>, Vec<Range<usize>>)> {
        self.fill(count * self.piece_bytes);
        if self.pending.is_empty() {
            return None;
        }
        let mut ranges = Vec::with_capacity(count);
        let mut start = 0;
        while ranges.len() < count && start < self.pending.len() {
            let left = self.pending.len() - start;
            if self.eof && left <= self.piece_bytes {
                ranges.push(start..self.pending.len());
                start = self.pending.len();
                break;
            }
            let probe = start + self.piece_bytes.min(left);
            // After the last line break before `probe`, or the first one
            // past it (a line longer than a piece).
            let end = match memchr::memrchr(b'\n', &self.pending[start..probe]) {
                Some(i) => start + i + 1,
                None => match memchr::memchr(b'\n', &self.pending[probe..]) {
                    Some(i) => probe + i + 1,
                    None if self.eof => self.pending.len(),
                    None if ranges.is_empty() => {
                        let want = self.pending.len() + self.piece_bytes;
                        self.fill(want);
                        continue;
                    }
                    None => break,
                },
            };
            ranges.push(start..end);
            start = end;
        }
        let tail = self.pending[start..].to_vec();
        let mut batch = std::mem::replace(&mut self.pending, tail);
        batch.truncate(start);
        Some((batch, ranges))
    }
}

/// One dictionary per categorical column without a hierarchy, filled in
/// file order, so that every code is the one a single pass would give.
struct Dictionaries {
    /// Per schema column: `Some` for a flat (dictionary-coded) column.
    columns: Vec<Option<(LabelMap, Vec<String>)>>,
}

impl Dictionaries {
    fn new(schema: &Schema) -> Dictionaries {
        let columns = (0..schema.columns().len())
            .map(|i| matches!(ColumnKind::of(schema, i), ColumnKind::Flat).then(Default::default))
            .collect();
        Dictionaries { columns }
    }

    /// Rewrites the piece's own codes of every flat column as this
    /// dictionary's, adding the piece's new labels in their order.
    fn renumber(&mut self, piece: &mut Piece) {
        for (i, column) in self.columns.iter_mut().enumerate() {
            let Some((index, labels)) = column else {
                continue;
            };
            let Some(Some(local)) = piece.loaded.flat_leaves.get(i) else {
                continue;
            };
            let global: Vec<u32> = local
                .iter()
                .map(|label| {
                    *index.entry(label.clone()).or_insert_with(|| {
                        labels.push(label.clone());
                        (labels.len() - 1) as u32
                    })
                })
                .collect();
            for block in &mut piece.blocks {
                if let BlockValues::Codes(codes) = &mut block.columns[i].values {
                    codes.iter_mut().for_each(|c| *c = global[*c as usize]);
                }
            }
        }
    }

    fn into_leaves(self) -> Vec<Option<Vec<String>>> {
        self.columns
            .into_iter()
            .map(|c| c.map(|(_, labels)| labels))
            .collect()
    }
}

#[cfg(test)]
#[path = "pieces_tests.rs"]
mod tests;
