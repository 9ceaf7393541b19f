//! The definition, enumerated: every column subset of every record, kept
//! when no other record shares its values there and every subset one
//! smaller is shared. Shares no code with the search; exponential in the
//! columns and quadratic in the rows, for small tables only.

use super::MISSING;

/// Every MSU (row, ascending columns) of the column-major `codes` with at
/// most `max` columns, sorted.
// Rows and columns are indexes into every column here, not one sequence.
#[allow(clippy::needless_range_loop)]
pub(super) fn msus(codes: &[Vec<u32>], max: usize) -> Vec<(u32, Vec<u16>)> {
    let cols = codes.len();
    let rows = codes.first().map_or(0, |c| c.len());
    let held_by = |mask: u32, r: usize| -> usize {
        (0..rows)
            .filter(|&o| {
                (0..cols)
                    .filter(|c| mask & (1 << c) != 0)
                    .all(|c| codes[c][o] != MISSING && codes[c][o] == codes[c][r])
            })
            .count()
    };
    let mut out = Vec::new();
    for r in 0..rows {
        for mask in 1u32..(1 << cols) {
            let size = mask.count_ones() as usize;
            if size > max || (0..cols).any(|c| mask & (1 << c) != 0 && codes[c][r] == MISSING) {
                continue;
            }
            let unique = held_by(mask, r) == 1;
            let minimal = size == 1
                || (0..cols)
                    .filter(|c| mask & (1 << c) != 0)
                    .all(|c| held_by(mask & !(1 << c), r) >= 2);
            if unique && minimal {
                let columns = (0..cols as u16).filter(|&c| mask & (1 << c) != 0).collect();
                out.push((r as u32, columns));
            }
        }
    }
    out.sort();
    out
}
