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
use super::Release;
use crate::schema::Role;
use crate::table::Table;

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

/// Calls `f` once per published row, in release order, with the row's
/// cells in [`release_header`]'s order. Stops at the first error of `f` and
/// returns it (e.g. the client went away).
pub fn for_each_release_row<E, F>(
    table: &Table,
    release: &Release,
    row_id: bool,
    mut f: F,
) -> Result<(), E>
where
    F: FnMut(&[&str]) -> Result<(), E>,
{
    let layout = layout(table, row_id);
    let qis = table.qis();
    let lines = table.source_lines();
    let mut labels: Vec<String> = vec![String::new(); qis.len()];
    let mut group_buf = String::new();
    let mut row_buf = String::new();
    let mut spare: Vec<&'static str> = Vec::with_capacity(layout.len());
    for (g, rows) in release.partition().groups.iter().enumerate() {
        let generalized = &release.generalized()[g];
        for (d, label) in labels.iter_mut().enumerate() {
            label.clear();
            write_label(label, &qis[d].values, &generalized[d]);
        }
        group_buf.clear();
        let _ = write!(group_buf, "{}", g + 1);
        for &r in rows {
            row_buf.clear();
            if row_id {
                let _ = write!(row_buf, "{}", lines[r as usize]);
            }
            let mut cells = recycle(spare);
            for c in &layout {
                cells.push(match *c {
                    Cell::GroupId => group_buf.as_str(),
                    Cell::RowId => row_buf.as_str(),
                    Cell::Qi(d) => labels[d].as_str(),
                    Cell::Text(i) => table
                        .text(i, r as usize)
                        .expect("published columns keep their text"),
                });
            }
            let result = f(&cells);
            spare = recycle(cells);
            result?;
        }
    }
    Ok(())
}
