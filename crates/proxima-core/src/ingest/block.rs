//! A block of loaded rows: what [`load_blocks`](super::load_blocks) hands
//! its sink every [`BlockLimits::rows`] rows, so a caller that stores or
//! summarises the table (an upload) never holds more than one block of it.
//!
//! A block is in schema order, like a [`Table`](crate::table::Table), but
//! holds raw values: categorical columns without a schema hierarchy carry
//! codes into a dictionary the loader keeps for the whole file (codes by
//! first appearance, so a code means the same value in every block); the
//! labels behind them are known only at the end, in [`Loaded`].

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use crate::hierarchy::Hierarchy;
use crate::schema::{Role, Schema, ValueType};
use crate::table::TextColumn;

/// How a schema column's values are held, once loaded (text aside).
#[derive(Debug, Clone, PartialEq)]
pub enum ColumnKind {
    /// Identifiers and insensitive columns: only text (if published).
    Untyped,
    Numeric,
    /// Days since 1970-01-01.
    Date,
    /// Leaf codes of the schema's hierarchy.
    Leaves(Arc<Hierarchy>),
    /// Codes by first appearance under a flat hierarchy synthesized from
    /// the data (a categorical column the schema gives no hierarchy).
    Flat,
}

impl ColumnKind {
    /// The kind of schema column `index`: QI and SA columns are typed,
    /// the others are text only.
    pub fn of(schema: &Schema, index: usize) -> ColumnKind {
        let spec = &schema.columns()[index];
        if !matches!(spec.role, Role::QuasiIdentifier | Role::Sensitive) {
            return ColumnKind::Untyped;
        }
        match (spec.value_type, &spec.hierarchy) {
            (None, _) => ColumnKind::Untyped,
            (Some(ValueType::Numeric), _) => ColumnKind::Numeric,
            (Some(ValueType::Date), _) => ColumnKind::Date,
            (Some(ValueType::Categorical), Some(h)) => ColumnKind::Leaves(h.clone()),
            (Some(ValueType::Categorical), None) => ColumnKind::Flat,
        }
    }
}

/// One column's values in a block (the variant follows its [`ColumnKind`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub enum BlockValues {
    #[default]
    None,
    Numeric(Vec<f64>),
    Date(Vec<i32>),
    /// Leaf codes (schema hierarchy) or dictionary codes (flat).
    Codes(Vec<u32>),
}

/// One schema column of a block.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BlockColumn {
    pub values: BlockValues,
    /// The cells as uploaded (`None` for identifiers, which are not kept).
    pub text: Option<TextColumn>,
}

/// Consecutive kept rows of a table, every schema column in schema order.
#[derive(Debug)]
pub struct Block {
    pub columns: Vec<BlockColumn>,
    /// Each row's data line (see [`crate::ingest`]'s line numbering).
    pub source_lines: Vec<u32>,
    /// Counts this block while it lives, when the load was given a tally.
    _held: Option<Held>,
}

impl Block {
    pub(crate) fn new(
        columns: Vec<BlockColumn>,
        source_lines: Vec<u32>,
        tally: Option<&BlockTally>,
    ) -> Block {
        Block {
            columns,
            source_lines,
            _held: tally.map(BlockTally::hold),
        }
    }

    pub fn rows(&self) -> usize {
        self.source_lines.len()
    }
}

/// What only the end of the file tells: counts, and the leaves of the flat
/// hierarchies (every dictionary's labels in code order).
#[derive(Debug, Clone, PartialEq)]
pub struct Loaded {
    /// Rows kept (in the blocks).
    pub rows: usize,
    /// Rows left out for a missing value (`on_missing: suppress`).
    pub suppressed: usize,
    /// Per schema column: the labels of a [`ColumnKind::Flat`] column, in
    /// code order; `None` for every other column.
    pub flat_leaves: Vec<Option<Vec<String>>>,
}

/// Where the loader cuts blocks: after `rows` kept rows, or sooner once
/// the block's records reach `bytes` (so wide rows do not make a block
/// grow past what a narrow table's would); and the largest cell and record
/// it reads (`record_too_large` beyond), checked as the bytes stream in so
/// that one huge cell cannot make the reader hold it whole.
#[derive(Debug, Clone)]
pub struct BlockLimits {
    pub rows: usize,
    pub bytes: usize,
    /// Counts the blocks alive at once (tests; see [`BlockTally`]).
    pub tally: Option<BlockTally>,
    /// The largest cell, in bytes as it is read (quotes removed).
    pub max_cell: usize,
    /// The largest record (one data row, or the header), in bytes of the
    /// file without its line end.
    pub max_record: usize,
    /// Whether the QIs' cells are kept as text. A caller that only
    /// partitions, judges and writes a release never reads them (the
    /// release prints the QIs' labels): without them the table is the one
    /// [`Table::without_qi_text`](crate::table::Table::without_qi_text)
    /// gives, and the load copies a third less text. The cells are checked
    /// the same either way.
    pub qi_text: bool,
}

/// 1 MiB: far above any value a QI, sensitive or notes column holds, far
/// below what would strain the server.
pub const MAX_CELL_BYTES: usize = 1 << 20;

/// 4 MiB: a row of a 2,048-column table at 2 KiB a cell.
pub const MAX_RECORD_BYTES: usize = 4 << 20;

/// 64k rows: a few MiB for typical tables, and few enough blocks that the
/// per-block overhead (a frame header, a compression call) is noise.
pub const BLOCK_ROWS: usize = 1 << 16;

/// 8 MiB of CSV records per block at most.
pub const BLOCK_BYTES: usize = 8 << 20;

impl Default for BlockLimits {
    fn default() -> Self {
        BlockLimits {
            rows: BLOCK_ROWS,
            bytes: BLOCK_BYTES,
            tally: None,
            max_cell: MAX_CELL_BYTES,
            max_record: MAX_RECORD_BYTES,
            qi_text: true,
        }
    }
}

impl BlockLimits {
    /// No cut: the whole table is one block (what `load_table` wants),
    /// with the default cell and record limits.
    pub fn whole() -> BlockLimits {
        BlockLimits {
            rows: usize::MAX,
            bytes: usize::MAX,
            ..BlockLimits::default()
        }
    }
}

/// Counts blocks alive at once: every block made under it holds a mark
/// until it is dropped. How a test proves that a caller of the block
/// loader keeps one block at a time, without timing anything.
#[derive(Debug, Clone, Default)]
pub struct BlockTally(Arc<TallyCounts>);

#[derive(Debug, Default)]
struct TallyCounts {
    live: AtomicUsize,
    peak: AtomicUsize,
    made: AtomicUsize,
}

impl BlockTally {
    pub fn new() -> BlockTally {
        BlockTally::default()
    }

    fn hold(&self) -> Held {
        let c = &self.0;
        let live = c.live.fetch_add(1, Ordering::SeqCst) + 1;
        c.peak.fetch_max(live, Ordering::SeqCst);
        c.made.fetch_add(1, Ordering::SeqCst);
        Held(self.0.clone())
    }

    /// Blocks made so far.
    pub fn made(&self) -> usize {
        self.0.made.load(Ordering::SeqCst)
    }

    /// The most blocks that were alive at once.
    pub fn peak(&self) -> usize {
        self.0.peak.load(Ordering::SeqCst)
    }

    /// Blocks alive now.
    pub fn live(&self) -> usize {
        self.0.live.load(Ordering::SeqCst)
    }
}

/// A block's mark in its tally.
#[derive(Debug)]
struct Held(Arc<TallyCounts>);

impl Drop for Held {
    fn drop(&mut self) {
        self.0.live.fetch_sub(1, Ordering::SeqCst);
    }
}
