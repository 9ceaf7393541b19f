//! Blocks back into one [`Table`]: what `load_table` does with the block
//! loader's output (one block, moved, not copied), and what the tests use to
//! check that any cut of the file gives the same table.

use std::sync::Arc;

use crate::error::{CoreError, CoreResult};
use crate::hierarchy::Hierarchy;
use crate::ingest::block::{Block, BlockColumn, BlockValues, ColumnKind, Loaded};
use crate::schema::{Role, Schema};
use crate::table::{QiColumn, QiValues, SaColumn, SaValues, Table, TextColumn};

/// Appends blocks column by column, then builds the table.
pub struct Assembler {
    schema: Arc<Schema>,
    columns: Vec<BlockColumn>,
    source_lines: Vec<u32>,
    /// The blocks carry the QIs' text ([`BlockLimits::qi_text`](super::BlockLimits::qi_text)).
    qi_text: bool,
}

/// `into` extended by `more`; `more` itself when `into` is empty (the one
/// block of `load_table` costs no copy).
fn append<T>(into: &mut Vec<T>, mut more: Vec<T>) {
    if into.is_empty() {
        std::mem::swap(into, &mut more);
    } else {
        into.append(&mut more);
    }
}

fn append_values(into: &mut BlockValues, more: BlockValues) -> CoreResult<()> {
    match (into, more) {
        (_, BlockValues::None) => {}
        (into @ BlockValues::None, more) => *into = more,
        (BlockValues::Numeric(a), BlockValues::Numeric(b)) => append(a, b),
        (BlockValues::Date(a), BlockValues::Date(b)) => append(a, b),
        (BlockValues::Codes(a), BlockValues::Codes(b)) => append(a, b),
        _ => return Err(CoreError::internal("a block's column changed its kind")),
    }
    Ok(())
}

/// One column of consecutive blocks as one (see [`Assembler::push_many`]).
fn concat_column(parts: Vec<BlockColumn>) -> CoreResult<BlockColumn> {
    fn concat<T: Copy>(parts: Vec<Vec<T>>) -> Vec<T> {
        let mut whole = Vec::with_capacity(parts.iter().map(Vec::len).sum());
        for part in parts {
            whole.extend_from_slice(&part);
        }
        whole
    }
    let mut values = Vec::with_capacity(parts.len());
    let mut texts = Vec::with_capacity(parts.len());
    for part in parts {
        values.push(part.values);
        if let Some(t) = part.text {
            texts.push(t);
        }
    }
    let values = match values.first() {
        None | Some(BlockValues::None) => BlockValues::None,
        Some(BlockValues::Numeric(_)) => {
            BlockValues::Numeric(concat(kind_parts(values, |v| match v {
                BlockValues::Numeric(v) => Some(v),
                _ => None,
            })?))
        }
        Some(BlockValues::Date(_)) => BlockValues::Date(concat(kind_parts(values, |v| match v {
            BlockValues::Date(v) => Some(v),
            _ => None,
        })?)),
        Some(BlockValues::Codes(_)) => {
            BlockValues::Codes(concat(kind_parts(values, |v| match v {
                BlockValues::Codes(v) => Some(v),
                _ => None,
            })?))
        }
    };
    let text = if texts.is_empty() {
        None
    } else {
        Some(TextColumn::concat(texts)?)
    };
    Ok(BlockColumn { values, text })
}

/// Every block's values of one kind, or an error if a block's column
/// changed its kind.
fn kind_parts<T>(
    values: Vec<BlockValues>,
    of_kind: impl Fn(BlockValues) -> Option<Vec<T>>,
) -> CoreResult<Vec<Vec<T>>> {
    values
        .into_iter()
        .map(|v| of_kind(v).ok_or_else(|| CoreError::internal("a block's column changed its kind")))
        .collect()
}

impl Assembler {
    pub fn new(schema: Arc<Schema>) -> Assembler {
        let columns = vec![BlockColumn::default(); schema.columns().len()];
        Assembler {
            schema,
            columns,
            source_lines: Vec::new(),
            qi_text: true,
        }
    }

    /// For blocks loaded with `qi_text` as given: without it, the table
    /// is built without the QIs' text.
    pub fn with_qi_text(mut self, qi_text: bool) -> Assembler {
        self.qi_text = qi_text;
        self
    }

    pub fn push(&mut self, block: Block) -> CoreResult<()> {
        let Block {
            columns,
            source_lines,
            ..
        } = block;
        if columns.len() != self.columns.len() {
            return Err(CoreError::internal("a block has another schema's columns"));
        }
        for (into, more) in self.columns.iter_mut().zip(columns) {
            append_values(&mut into.values, more.values)?;
            match (&mut into.text, more.text) {
                (_, None) => {}
                (t @ None, Some(more)) => *t = Some(more),
                (Some(t), Some(more)) => t.append(more)?,
            }
        }
        append(&mut self.source_lines, source_lines);
        Ok(())
    }

    /// Pushes many blocks at once: the blocks' part of each column is put
    /// together in one allocation, the columns on the current pool's
    /// threads, each block's column freed once copied, then appended to
    /// the columns so far. Appending block by block grows every column
    /// many more times; for a table read in a few dozen pieces that
    /// copying was a sixth of the load. The result is that of pushing the
    /// blocks in order.
    pub fn push_many(&mut self, blocks: Vec<Block>) -> CoreResult<()> {
        use rayon::prelude::*;
        let width = self.columns.len();
        let rows: usize = blocks.iter().map(Block::rows).sum();
        let mut parts: Vec<Vec<BlockColumn>> = (0..width)
            .map(|_| Vec::with_capacity(blocks.len()))
            .collect();
        let mut source_lines = Vec::with_capacity(rows);
        for block in blocks {
            if block.columns.len() != width {
                return Err(CoreError::internal("a block has another schema's columns"));
            }
            for (into, column) in parts.iter_mut().zip(block.columns) {
                into.push(column);
            }
            source_lines.extend_from_slice(&block.source_lines);
        }
        let joined: Vec<CoreResult<BlockColumn>> =
            parts.into_par_iter().map(concat_column).collect();
        for (into, more) in self.columns.iter_mut().zip(joined) {
            let more = more?;
            append_values(&mut into.values, more.values)?;
            match (&mut into.text, more.text) {
                (_, None) => {}
                (t @ None, Some(more)) => *t = Some(more),
                (Some(t), Some(more)) => t.append(more)?,
            }
        }
        append(&mut self.source_lines, source_lines);
        Ok(())
    }

    /// The table of every block pushed, with the end-of-file facts.
    pub fn finish(self, loaded: Loaded) -> CoreResult<Table> {
        let Assembler {
            schema,
            columns,
            source_lines,
            qi_text,
        } = self;
        if loaded.rows != source_lines.len() {
            return Err(CoreError::internal("the blocks do not add up to the table"));
        }
        let mut qis = Vec::new();
        let mut sensitive = Vec::new();
        let mut text = Vec::with_capacity(columns.len());
        for (i, column) in columns.into_iter().enumerate() {
            let spec = &schema.columns()[i];
            let published = schema.is_published(i);
            let dropped = !qi_text && spec.role == Role::QuasiIdentifier;
            text.push(match column.text {
                Some(t) => Some(t),
                None if published && !dropped => Some(TextColumn::new()),
                None => None,
            });
            let flat = loaded.flat_leaves.get(i).and_then(Option::as_ref);
            let kind = ColumnKind::of(&schema, i);
            let has_hierarchy = matches!(kind, ColumnKind::Leaves(_));
            let Some(values) = typed(kind, column.values, flat)? else {
                continue;
            };
            match spec.role {
                Role::QuasiIdentifier => qis.push(QiColumn {
                    name: spec.name.clone(),
                    schema_index: i,
                    values,
                }),
                Role::Sensitive => sensitive.push(SaColumn {
                    name: spec.name.clone(),
                    schema_index: i,
                    values: into_sa(values, has_hierarchy, &spec.name)?,
                }),
                Role::Identifier | Role::Insensitive => {}
            }
        }
        Table::build(
            schema,
            qis,
            sensitive,
            text,
            source_lines,
            loaded.suppressed,
            !qi_text,
        )
    }
}

/// A column's values as the QI form (`None`: nothing typed is kept).
pub(crate) fn typed(
    kind: ColumnKind,
    values: BlockValues,
    flat: Option<&Vec<String>>,
) -> CoreResult<Option<QiValues>> {
    let codes = |v: BlockValues| match v {
        BlockValues::Codes(c) => Ok(c),
        BlockValues::None => Ok(Vec::new()),
        _ => Err(CoreError::internal("a categorical column holds no codes")),
    };
    Ok(Some(match kind {
        ColumnKind::Untyped => return Ok(None),
        ColumnKind::Numeric => QiValues::Numeric(match values {
            BlockValues::Numeric(v) => v,
            BlockValues::None => Vec::new(),
            _ => return Err(CoreError::internal("a numeric column holds no numbers")),
        }),
        ColumnKind::Date => QiValues::Date(match values {
            BlockValues::Date(v) => v,
            BlockValues::None => Vec::new(),
            _ => return Err(CoreError::internal("a date column holds no dates")),
        }),
        ColumnKind::Leaves(hierarchy) => QiValues::Categorical {
            codes: codes(values)?,
            hierarchy,
        },
        ColumnKind::Flat => QiValues::Categorical {
            codes: codes(values)?,
            hierarchy: Arc::new(Hierarchy::flat(flat.map_or(&[][..], Vec::as_slice))),
        },
    }))
}

/// The SA form of typed values (`has_hierarchy`: the schema gave the
/// hierarchy, it was not synthesized); dates cannot occur (Schema::new rejects
/// dated sensitive columns), so they are an internal error.
fn into_sa(values: QiValues, has_hierarchy: bool, name: &str) -> CoreResult<SaValues> {
    Ok(match values {
        QiValues::Numeric(v) => SaValues::Numeric(v),
        QiValues::Categorical { codes, hierarchy } => SaValues::Categorical {
            codes,
            hierarchy,
            has_hierarchy,
        },
        QiValues::Date(_) => {
            return Err(CoreError::internal(format!(
                "sensitive column '{name}' is a date"
            )))
        }
    })
}
