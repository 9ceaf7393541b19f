//! Streaming the release as rows of text (docs/api.md §Results).
//!
//! Columns: `group_id`, then `row_id` when asked (right after `group_id`, so
//! the data owner's reconciliation key sits with the group key and the
//! published columns keep the dataset's layout), then every published column
//! in the dataset's order — identifiers dropped, QIs generalized, sensitive
//! and insensitive cells exactly as uploaded. Rows come grouped by group
//! (`group_id` = 1-based group index), inside a group in
//! [`super::publication_order`] — never in upload order, which could link
//! rows to their exact QI values.
//!
//! Memory stays flat in the number of rows: labels are computed once per
//! group into reused buffers, and every row is lent to the callback as
//! `&[&str]` borrowing those buffers and the table's own text.

use std::fmt::Write;

use super::label::write_label;
use super::row_text::RowText;
use super::Release;
use crate::schema::Role;
use crate::table::{Table, TextColumn};

/// Where a release column's cells come from.
#[derive(Debug, Clone, Copy)]
enum Cell {
    GroupId,
    RowId,
    /// The generalization of QI number `d` (index into `Table::qis()`).
    Qi(usize),
    /// The uploaded text of schema column `i`.
    Text(usize),
}

fn layout(table: &Table, row_id: bool) -> Vec<Cell> {
    let schema = table.schema();
    let mut cells = vec![Cell::GroupId];
    if row_id {
        cells.push(Cell::RowId);
    }
    for (i, spec) in schema.columns().iter().enumerate() {
        match spec.role {
            Role::Identifier => {}
            Role::QuasiIdentifier => {
                let d = table
                    .qis()
                    .iter()
                    .position(|c| c.schema_index == i)
                    .expect("every QI column of the schema is in the table");
                cells.push(Cell::Qi(d));
            }
            Role::Sensitive | Role::Insensitive => cells.push(Cell::Text(i)),
        }
    }
    cells
}

/// The release's column names (see the module doc for the order).
pub fn release_header(table: &Table, row_id: bool) -> Vec<String> {
    let columns = table.schema().columns();
    layout(table, row_id)
        .into_iter()
        .map(|c| match c {
            Cell::GroupId => "group_id".to_string(),
            Cell::RowId => "row_id".to_string(),
            Cell::Qi(d) => table.qis()[d].name.clone(),
            Cell::Text(i) => columns[i].name.clone(),
        })
        .collect()
}

/// Empties a vector of borrowed cells and hands its allocation back with a
/// fresh lifetime, so one buffer serves every row although each row borrows
/// different per-row text. (Collecting a `vec::IntoIter` through `map` into
/// a vector of a same-sized type reuses the allocation; the vector is empty,
/// so the closure never runs.)
fn recycle<'a>(mut cells: Vec<&str>) -> Vec<&'a str> {
    cells.clear();
    cells
        .into_iter()
        .map(|_| -> &'a str { unreachable!("the vector was cleared") })
        .collect()
}

/// Where a row's cell comes from once a chunk's text is gathered.
#[derive(Debug, Clone, Copy)]
enum Source {
    GroupId,
    RowId,
    Qi(usize),
    /// Column `c` of the chunk's gathered text.
    Gathered(usize),
}

/// Rows per chunk whose text cells are gathered column by column. Small
/// enough that the cells the gather touched (a cache line each, for every
/// text column) are still in the core's own cache when the rows are
/// assembled: at 4096 rows they were not, and writing a row stalled on
/// fetching each cell's bytes a second time (perf: 90 % of the writer's
/// samples on the load of a cell's first byte; with 512 rows adult 600k's
/// release rendered ≈ 1.3× faster, BENCHMARKS.md).
const CHUNK_ROWS: usize = 512;

/// How far ahead the row-major gather asks for a row's offsets.
const ROW_AHEAD: usize = 16;

/// Calls `f` once per published row, in release order, with the row's
/// cells in [`release_header`]'s order. Stops at the first error of `f` and
/// returns it (e.g. the client went away).
///
/// Rows come in group order, not upload order, so their text cells are
/// scattered over the table's column buffers: reading a row's cells one by
/// one stalls on a cache miss per cell. Instead the cells of a chunk of
/// about [`CHUNK_ROWS`] rows are gathered one column at a time first — a
/// tight loop of independent loads the CPU overlaps — and the rows are then
/// assembled from those short arrays.
pub fn for_each_release_row<E, F>(
    table: &Table,
    release: &Release,
    row_id: bool,
    f: F,
) -> Result<(), E>
where
    F: FnMut(&[&str]) -> Result<(), E>,
{
    let groups = 0..release.partition().groups.len();
    for_each_release_row_of(table, release, row_id, groups, f)
}

/// The published text columns, in the release's column order.
fn text_columns(table: &Table) -> Vec<&TextColumn> {
    layout(table, false)
        .into_iter()
        .filter_map(|c| match c {
            Cell::Text(i) => Some(
                table
                    .text_column(i)
                    .expect("published columns keep their text"),
            ),
            _ => None,
        })
        .collect()
}

/// The table's published text laid out row by row, for rendering a whole
/// release with [`for_each_release_row_in`]; `None` where that does not
/// pay (fewer than two text columns, see [`RowText`]) or cannot be built.
/// Built on the current pool.
pub fn release_row_text(table: &Table) -> Option<RowText> {
    let columns = text_columns(table);
    if !RowText::pays_for(columns.len()) {
        return None;
    }
    RowText::build(&columns)
}

/// [`for_each_release_row`] for the rows of the groups `range` only (their
/// `group_id`s stay those of the whole release): consecutive ranges render
/// consecutive stretches of the release, so a caller may render them on
/// several threads and write them in order ([`release_chunks`]).
pub fn for_each_release_row_of<E, F>(
    table: &Table,
    release: &Release,
    row_id: bool,
    range: std::ops::Range<usize>,
    f: F,
) -> Result<(), E>
where
    F: FnMut(&[&str]) -> Result<(), E>,
{
    for_each_release_row_in(table, release, row_id, range, None, f)
}

/// [`for_each_release_row_of`] reading the text cells from `row_text`
/// ([`release_row_text`] of the same table) when given: the same rows, the
/// same cells, fewer cache misses.
pub fn for_each_release_row_in<E, F>(
    table: &Table,
    release: &Release,
    row_id: bool,
    range: std::ops::Range<usize>,
    row_text: Option<&RowText>,
    mut f: F,
) -> Result<(), E>
where
    F: FnMut(&[&str]) -> Result<(), E>,
{
    let layout = layout(table, row_id);
    let qis = table.qis();
    let lines = table.source_lines();
    let columns = text_columns(table);
    let mut text = 0..;
    let sources: Vec<Source> = layout
        .iter()
        .map(|c| match *c {
            Cell::GroupId => Source::GroupId,
            Cell::RowId => Source::RowId,
            Cell::Qi(d) => Source::Qi(d),
            Cell::Text(_) => Source::Gathered(text.next().expect("an unbounded range")),
        })
        .collect();
    let mut order: Vec<usize> = Vec::with_capacity(CHUNK_ROWS);
    let mut gathered: Vec<Vec<&str>> = vec![Vec::with_capacity(CHUNK_ROWS); columns.len()];
    let mut labels: Vec<String> = vec![String::new(); qis.len()];
    let mut group_buf = String::new();
    let mut row_buf = String::new();
    let mut spare: Vec<&'static str> = Vec::with_capacity(layout.len());
    let groups = &release.partition().groups;
    for chunk in group_runs(groups, range, CHUNK_ROWS) {
        let (first, end) = (chunk.start, chunk.end);
        gathered.iter_mut().for_each(Vec::clear);
        match row_text {
            Some(text) => {
                order.clear();
                order.extend(groups[first..end].iter().flatten().map(|&r| r as usize));
                // Rows in group order are scattered over the text: their
                // offsets are asked for ROW_AHEAD rows ahead and their
                // bytes half as far, so the loads overlap.
                for (i, &r) in order.iter().enumerate() {
                    if let Some(&ahead) = order.get(i + ROW_AHEAD) {
                        text.prefetch_ends(ahead);
                    }
                    if let Some(&ahead) = order.get(i + ROW_AHEAD / 2) {
                        text.prefetch_text(ahead);
                    }
                    text.row_into(r, &mut gathered);
                }
            }
            None => {
                for (column, cells) in columns.iter().zip(&mut gathered) {
                    for g in &groups[first..end] {
                        cells.extend(g.iter().map(|&r| column.get(r as usize)));
                    }
                }
            }
        }
        let mut k = 0;
        let chunk = groups[first..end]
            .iter()
            .zip(&release.generalized()[first..end]);
        for (g, (members, generalized)) in (first..).zip(chunk) {
            for (d, label) in labels.iter_mut().enumerate() {
                label.clear();
                write_label(label, &qis[d].values, &generalized[d]);
            }
            group_buf.clear();
            let _ = write!(group_buf, "{}", g + 1);
            for &r in members {
                row_buf.clear();
                if row_id {
                    let _ = write!(row_buf, "{}", lines[r as usize]);
                }
                let mut cells = recycle(spare);
                cells.extend(sources.iter().map(|s| match *s {
                    Source::GroupId => group_buf.as_str(),
                    Source::RowId => row_buf.as_str(),
                    Source::Qi(d) => labels[d].as_str(),
                    Source::Gathered(c) => gathered[c][k],
                }));
                k += 1;
                let result = f(&cells);
                spare = recycle(cells);
                result?;
            }
        }
    }
    Ok(())
}

/// The release's groups cut into consecutive ranges of about `rows` rows
/// each (at least one group per range), for [`for_each_release_row_of`].
pub fn release_chunks(release: &Release, rows: usize) -> Vec<std::ops::Range<usize>> {
    let groups = &release.partition().groups;
    group_runs(groups, 0..groups.len(), rows).collect()
}

/// The groups of `range` cut into consecutive runs: each run ends with the
/// group that brings it to `rows` rows or more (the last may hold fewer).
fn group_runs(
    groups: &[Vec<u32>],
    range: std::ops::Range<usize>,
    rows: usize,
) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
    let end = range.end;
    let mut start = range.start;
    std::iter::from_fn(move || {
        if start >= end {
            return None;
        }
        let first = start;
        let mut count = 0;
        while start < end && count < rows {
            count += groups[start].len();
            start += 1;
        }
        Some(first..start)
    })
}

#[cfg(test)]
mod tests {
    use super::group_runs;

    #[test]
    fn group_runs_reach_their_rows_and_cover_the_range_in_order() {
        let groups: Vec<Vec<u32>> = [3, 1, 5, 2, 2].iter().map(|&n| (0..n).collect()).collect();
        let runs: Vec<_> = group_runs(&groups, 0..5, 4).collect();
        assert_eq!(runs, vec![0..2, 2..3, 3..5]);
        let runs: Vec<_> = group_runs(&groups, 1..4, 4).collect();
        assert_eq!(runs, vec![1..3, 3..4]);
        assert_eq!(group_runs(&groups, 2..2, 4).count(), 0);
    }
}
