//! The candidate sets of a victim who may sit anywhere in its group's box:
//! the distinct sets of groups covering one point of the box, i.e. the
//! cells of the arrangement of the boxes that meet it.
//!
//! Exact enumeration by refinement, one QI at a time. On QI d the boxes
//! still in play cut g's interval at their endpoints into elementary
//! pieces — every endpoint as a point, and the open stretch between two
//! consecutive endpoints (on integer keys, days and leaf ranks, only when
//! an integer lies strictly inside). Every point of a piece is covered by
//! the same boxes on d, so the boxes covering a piece carry on to QI d+1.
//! Equal sets reached twice at the same QI are refined once, which keeps
//! the identical boxes of one split leaf at one cell.

use std::collections::HashSet;

use super::boxes::GroupBoxes;
use super::budget::{set_bytes, Budget};
use crate::error::CoreResult;
use crate::ticker::Ticker;

/// The distinct sets of groups covering some point of box(g), each sorted
/// and holding g; `others` are the groups (≠ g) whose boxes meet box(g).
/// Sets come sorted (deterministic order). Every set kept while
/// enumerating is charged to `budget` before it is stored; the bytes
/// charged come back with the sets, for the caller to release once it is
/// done with them.
pub(crate) fn cell_sets(
    boxes: &GroupBoxes,
    g: u32,
    others: &[u32],
    ticker: &mut Ticker,
    budget: &mut Budget,
) -> CoreResult<(Vec<Vec<u32>>, usize)> {
    let dims = boxes.dimensions();
    let own = boxes.of(g as usize);
    let mut start: Vec<u32> = others.to_vec();
    start.push(g);
    start.sort_unstable();
    start.dedup();
    let mut seen: HashSet<(usize, Vec<u32>)> = HashSet::new();
    let mut out: HashSet<Vec<u32>> = HashSet::new();
    // Bytes charged so far; given back on an error (the caller never sees
    // the sets).
    let mut charged = 0usize;
    let mut stack = vec![(0usize, start)];
    let mut ends: Vec<f64> = Vec::new();
    while let Some((d, set)) = stack.pop() {
        if d == dims {
            out.insert(set);
            continue;
        }
        ticker.tick(set.len() * 4)?;
        let [glo, ghi] = own[d];
        let discrete = boxes.dims[d].discrete;
        ends.clear();
        for &h in &set {
            let [lo, hi] = boxes.of(h as usize)[d];
            for e in [lo, hi] {
                if glo <= e && e <= ghi {
                    ends.push(e);
                }
            }
        }
        ends.sort_unstable_by(f64::total_cmp);
        ends.dedup();
        // A new set is held twice (in `seen`, and on the stack or in the
        // output).
        let mut add = |members: Vec<u32>| -> CoreResult<()> {
            let key = (d + 1, members);
            if !seen.contains(&key) {
                let bytes = 2 * set_bytes(key.1.len());
                if let Err(e) = budget.charge(bytes) {
                    budget.release(charged);
                    return Err(e);
                }
                charged += bytes;
                seen.insert(key.clone());
                stack.push(key);
            }
            Ok(())
        };
        for (i, &e) in ends.iter().enumerate() {
            let at: Vec<u32> = set
                .iter()
                .copied()
                .filter(|&h| {
                    let [lo, hi] = boxes.of(h as usize)[d];
                    lo <= e && e <= hi
                })
                .collect();
            add(at)?;
            if let Some(&next) = ends.get(i + 1) {
                if discrete && next - e <= 1.0 {
                    continue;
                }
                // The open stretch (e, next): no endpoint inside, so a box
                // covers it iff it covers both ends.
                let between: Vec<u32> = set
                    .iter()
                    .copied()
                    .filter(|&h| {
                        let [lo, hi] = boxes.of(h as usize)[d];
                        lo <= e && next <= hi
                    })
                    .collect();
                add(between)?;
            }
            ticker.tick(set.len())?;
        }
    }
    let mut sets: Vec<Vec<u32>> = out.into_iter().collect();
    sets.sort_unstable();
    Ok((sets, charged))
}
