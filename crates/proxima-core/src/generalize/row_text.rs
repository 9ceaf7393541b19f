//! The published text of every row laid out row after row, for rendering a
//! release.
//!
//! Why: a release lists its rows group by group, so consecutive rows sit
//! anywhere in the table. Read from the table's column buffers, each text
//! cell of a row is two cache misses (its end offset and its first byte) in
//! a different buffer; a row of adult's seven published text columns is
//! fourteen. Copied once in upload order — a sequential pass that the
//! hardware prefetches, on every thread at once — a row's cells lie
//! together: its end offsets share a cache line and its bytes one or two.
//! Rendering then pays about one miss per row instead of one per cell.
//!
//! The copy costs the published text once more (plus four bytes per cell),
//! alive while the release is rendered, so it is made only where it pays:
//! with at least two text columns (one column gains nothing from being laid
//! out by rows).

use rayon::prelude::*;

use crate::table::TextColumn;

/// Rows per part: each part is built on one thread and holds its own
/// 32-bit offsets.
const PART_ROWS: usize = 16 * 1024;

/// The cells of `columns` (in that order) of every row, row after row.
#[derive(Debug)]
pub struct RowText {
    columns: usize,
    parts: Vec<Part>,
}

#[derive(Debug)]
struct Part {
    /// The part's cells, row after row.
    text: String,
    /// Each cell's end in `text`, `columns` per row.
    ends: Vec<u32>,
}

impl RowText {
    /// Whether laying out these columns by rows pays (see the module doc).
    pub fn pays_for(columns: usize) -> bool {
        columns >= 2
    }

    /// Copies the cells of `columns` (of equal length), on the current pool;
    /// `None` when a part's text would not fit its 32-bit offsets (cells
    /// of megabytes: the release is then rendered from the columns).
    pub fn build(columns: &[&TextColumn]) -> Option<RowText> {
        let rows = columns.first().map_or(0, |c| c.len());
        debug_assert!(columns.iter().all(|c| c.len() == rows));
        let parts = (0..rows.div_ceil(PART_ROWS))
            .into_par_iter()
            .map(|p| {
                let range = p * PART_ROWS..((p + 1) * PART_ROWS).min(rows);
                Part::build(columns, range)
            })
            .collect::<Option<Vec<Part>>>()?;
        Some(RowText {
            columns: columns.len(),
            parts,
        })
    }

    /// Asks the CPU to start fetching row `row`'s end offsets (a hint; no
    /// effect on results).
    #[inline]
    pub fn prefetch_ends(&self, row: usize) {
        let (part, first) = self.locate(row);
        crate::prefetch::line(part.ends[first..].as_ptr().cast());
    }

    /// Asks the CPU to start fetching row `row`'s text (reads its offsets:
    /// best after [`prefetch_ends`](Self::prefetch_ends) of the same row).
    #[inline]
    pub fn prefetch_text(&self, row: usize) {
        let (part, first) = self.locate(row);
        crate::prefetch::line(part.text.as_bytes()[part.start(first)..].as_ptr());
    }

    /// Row `row`'s cells, in the order of the columns given to `build`,
    /// appended to `out`.
    #[inline]
    pub fn row_into<'s>(&'s self, row: usize, out: &mut [Vec<&'s str>]) {
        let (part, first) = self.locate(row);
        let mut start = part.start(first);
        let ends = &part.ends[first..first + self.columns];
        for (&end, cells) in ends.iter().zip(out) {
            let end = end as usize;
            cells.push(&part.text[start..end]);
            start = end;
        }
    }

    /// Row `row`'s part and the index of its first end offset there (no
    /// load of the offsets: [`prefetch_ends`](Self::prefetch_ends) must
    /// not wait for them).
    #[inline]
    fn locate(&self, row: usize) -> (&Part, usize) {
        (
            &self.parts[row / PART_ROWS],
            (row % PART_ROWS) * self.columns,
        )
    }
}

impl Part {
    /// Where the cell whose end offset is at `at` starts in `text`.
    #[inline]
    fn start(&self, at: usize) -> usize {
        match at {
            0 => 0,
            _ => self.ends[at - 1] as usize,
        }
    }

    fn build(columns: &[&TextColumn], rows: std::ops::Range<usize>) -> Option<Part> {
        let bytes: usize = columns
            .iter()
            .map(|c| c.bytes_of(rows.clone()))
            .sum::<usize>();
        u32::try_from(bytes).ok()?;
        let mut text = String::with_capacity(bytes);
        let mut ends = Vec::with_capacity(rows.len() * columns.len());
        for r in rows {
            for c in columns {
                text.push_str(c.get(r));
                // Under `bytes`, checked above.
                ends.push(text.len() as u32);
            }
        }
        Some(Part { text, ends })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn column(cells: &[&str]) -> TextColumn {
        let mut c = TextColumn::new();
        for cell in cells {
            c.push(cell).unwrap();
        }
        c
    }

    #[test]
    fn every_row_reads_back_its_cells_across_parts() {
        let rows = 2 * PART_ROWS + 7;
        let cells_a: Vec<String> = (0..rows).map(|r| format!("a{r}")).collect();
        let cells_b: Vec<String> = (0..rows)
            .map(|r| {
                if r % 3 == 0 {
                    String::new()
                } else {
                    "é".repeat(r % 5)
                }
            })
            .collect();
        let a = column(&cells_a.iter().map(String::as_str).collect::<Vec<_>>());
        let b = column(&cells_b.iter().map(String::as_str).collect::<Vec<_>>());
        let text = RowText::build(&[&b, &a]).unwrap();
        let mut out = vec![Vec::new(), Vec::new()];
        for r in 0..rows {
            text.row_into(r, &mut out);
        }
        assert_eq!(out[0], cells_b);
        assert_eq!(out[1], cells_a);
    }

    #[test]
    fn only_two_columns_or_more_are_laid_out_by_rows() {
        assert!(!RowText::pays_for(0));
        assert!(!RowText::pays_for(1));
        assert!(RowText::pays_for(2));
    }
}
