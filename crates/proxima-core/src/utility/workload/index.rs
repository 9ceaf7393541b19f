//! The table and its release indexed for fast count queries.
//!
//! Per query the groups are scanned, not the rows. Inside a group the rows
//! are kept sorted by the first SA column, so a predicate on it is two
//! binary searches; the actual count needs the rows only for groups whose
//! box straddles a QI predicate, and then only the rows inside that SA
//! range. The rows the release left out sit after the last group, sorted
//! the same way, with no box: they count in the actual answer only.

use std::borrow::Cow;
use std::ops::Range;

use super::domain::Domain;
use super::Published;
use crate::error::{CoreError, CoreResult, Field};
use crate::generalize::GeneralizedQi;
use crate::table::{QiValues, SaValues};

/// A predicate: (column, closed interval in key space).
pub(super) type Pred = (usize, (f64, f64));

/// Groups per block of [`Index::block_boxes`].
const BLOCK_GROUPS: usize = 64;

/// Groups per chunk of [`Index::answer_all`]: whole blocks, few enough
/// that a chunk's share of the index stays in a core's cache while every
/// query reads it (about 7,000 rows of sal: 250 KB).
const CHUNK_GROUPS: usize = 8 * BLOCK_GROUPS;

/// Rows a query reads in one pass over a chunk's groups, or over the
/// rows left out: with their SA values and QI keys (8 bytes each) about
/// half of a core's second-level cache on sal.
pub(super) const PASS_ROWS: usize = 16 * 1024;

/// Chunks answered side by side before their partial sums are added: a
/// fixed number, so the sums are the same on any number of threads, and
/// the partial sums held at once stay small.
const WAVE_CHUNKS: usize = 64;

/// Groups of at most this many rows find a predicate's ends on their
/// sorted SA values by counting, not by binary search: a dozen values
/// counted without branches beat two searches whose every step waits on
/// the one before (they were two fifths of the answers' time).
const COUNTED_ROWS: usize = 32;

/// In SA-sorted `sa`: how many values are below `a`, and how many at most
/// `b` (the positions where the closed interval [a, b] begins and ends).
fn sa_bounds(sa: &[f64], a: f64, b: f64) -> (usize, usize) {
    if sa.len() <= COUNTED_ROWS {
        sa.iter().fold((0, 0), |(below, upto), &x| {
            (below + usize::from(x < a), upto + usize::from(x <= b))
        })
    } else {
        (
            sa.partition_point(|&x| x < a),
            sa.partition_point(|&x| x <= b),
        )
    }
}

/// A query's predicates as the scan reads them: the first SA column's
/// interval (which narrows each group's sorted rows, [`sa_bounds`]) apart
/// from the other SA columns' (which filter them).
struct Prepared<'q> {
    preds: &'q [Pred],
    first: Option<(f64, f64)>,
    others: Vec<Pred>,
}

impl<'q> Prepared<'q> {
    fn new(preds: &'q [Pred], sa_preds: &[Pred]) -> Prepared<'q> {
        Prepared {
            preds,
            first: sa_preds.iter().find(|p| p.0 == 0).map(|p| p.1),
            others: sa_preds.iter().copied().filter(|p| p.0 != 0).collect(),
        }
    }
}

pub(super) struct Index {
    /// Per QI: the domain.
    pub qi_domains: Vec<Domain>,
    /// Per SA column: the domain.
    pub sa_domains: Vec<Domain>,
    /// `[group * dims + d]` = the group's box on QI d, in key space.
    boxes: Vec<(f64, f64)>,
    /// `[block * dims + d]` = the union of the boxes of groups
    /// `block * BLOCK_GROUPS ..` on QI d: a query skips a block its union
    /// misses. Partitioners emit groups in tree order, so consecutive
    /// groups lie close together and most blocks a query misses are
    /// skipped whole; the groups a query reads, and the order it sums
    /// them in, are unchanged.
    block_boxes: Vec<(f64, f64)>,
    /// The release's groups; the block after them (`offsets[groups]..`)
    /// holds the rows it left out.
    groups: usize,
    /// Group g's rows, sorted by the first SA column's key, sit at
    /// positions `offsets[g]..offsets[g+1]`: their SA keys in
    /// `sa[column][pos]`, their QI keys in `qi[pos * dims + d]`. Stored in
    /// this order, not by row, so the scan of a group reads memory
    /// sequentially (random access into per-column vectors made the
    /// workload 10× slower on 500k rows).
    offsets: Vec<usize>,
    sa: Vec<Vec<f64>>,
    qi: Vec<f64>,
}

/// A column's keys (numbers, days, or leaf ranks) and its domain. Numbers
/// are their own keys and are borrowed: the index gathers them into its
/// own order anyway, and a copy of every column here was half of the
/// index's peak (32 bytes per row for sal).
fn sa_keys(values: &SaValues) -> (Cow<'_, [f64]>, Domain) {
    match values {
        SaValues::Numeric(v) => (Cow::Borrowed(v), Domain::of(v)),
        SaValues::Categorical {
            codes, hierarchy, ..
        } => (
            codes
                .iter()
                .map(|&c| hierarchy.leaf_rank(c) as f64)
                .collect(),
            Domain::ranks(hierarchy.leaf_count()),
        ),
    }
}

fn qi_keys(values: &QiValues) -> (Cow<'_, [f64]>, Domain) {
    match values {
        QiValues::Numeric(v) => (Cow::Borrowed(v), Domain::of(v)),
        // Days are integers, so the domain is discrete.
        QiValues::Date(v) => {
            let keys: Vec<f64> = v.iter().map(|&d| d as f64).collect();
            let domain = Domain::of(&keys);
            (Cow::Owned(keys), domain)
        }
        QiValues::Categorical { codes, hierarchy } => (
            codes
                .iter()
                .map(|&c| hierarchy.leaf_rank(c) as f64)
                .collect(),
            Domain::ranks(hierarchy.leaf_count()),
        ),
    }
}

/// A group's box on one QI in key space: a categorical node is the run of
/// leaf ranks under it (contiguous in depth-first order).
fn box_of(g: &GeneralizedQi, values: &QiValues) -> CoreResult<(f64, f64)> {
    Ok(match (g, values) {
        (GeneralizedQi::Numeric { lo, hi }, _) => (*lo, *hi),
        (GeneralizedQi::Date { lo, hi }, _) => (*lo as f64, *hi as f64),
        (GeneralizedQi::Categorical { level, node }, QiValues::Categorical { hierarchy, .. }) => {
            let (first, last) = hierarchy.rank_range(*level, *node);
            (first as f64, last as f64)
        }
        (GeneralizedQi::Categorical { .. }, _) => {
            return Err(CoreError::internal(
                "a categorical generalization of a non-categorical column",
            ))
        }
    })
}

impl Index {
    pub fn new(published: &Published) -> CoreResult<Index> {
        let (table, release) = (published.original, published.release);
        if table.sensitive().is_empty() {
            return Err(CoreError::invalid_parameters(
                Field::Workload,
                "the count-query workload needs a sensitive attribute; the table has none",
            ));
        }
        let (sa_cols, sa_domains): (Vec<_>, Vec<_>) =
            table.sensitive().iter().map(|c| sa_keys(&c.values)).unzip();
        let (qi_cols, qi_domains): (Vec<_>, Vec<_>) =
            table.qis().iter().map(|c| qi_keys(&c.values)).unzip();
        let dims = qi_domains.len();
        let groups = release.partition().groups.len();
        let mut boxes = Vec::with_capacity(groups * dims);
        for gen in release.generalized() {
            for (g, column) in gen.iter().zip(table.qis()) {
                boxes.push(box_of(g, &column.values)?);
            }
        }
        let block_boxes = boxes
            .chunks(BLOCK_GROUPS * dims.max(1))
            .flat_map(|block| {
                (0..dims).map(move |d| {
                    block
                        .iter()
                        .skip(d)
                        .step_by(dims)
                        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), b| {
                            (lo.min(b.0), hi.max(b.1))
                        })
                })
            })
            .collect();
        let first = &sa_cols[0];
        let original_row = |r: u32| -> CoreResult<u32> {
            let o = published
                .original_rows
                .map_or(Some(r), |map| map.get(r as usize).copied());
            o.filter(|&o| (o as usize) < table.rows()).ok_or_else(|| {
                CoreError::internal("a released row is not a row of the original table")
            })
        };
        // Each group's rows, mapped to the original table and sorted, fill
        // their own slice: the groups run on the job's pool, and every
        // position is written by one group, so the order is the same on
        // any number of threads.
        use rayon::prelude::*;
        let partition = &release.partition().groups;
        let mut offsets = Vec::with_capacity(groups + 2);
        offsets.push(0);
        for group in partition {
            offsets.push(offsets[offsets.len() - 1] + group.len());
        }
        let mut rows = vec![0u32; offsets[groups]];
        let mut slices = Vec::with_capacity(groups);
        let mut rest = rows.as_mut_slice();
        for group in partition {
            let (slice, tail) = std::mem::take(&mut rest).split_at_mut(group.len());
            slices.push(slice);
            rest = tail;
        }
        let by_first = |a: &u32, b: &u32| first[*a as usize].total_cmp(&first[*b as usize]);
        slices
            .into_par_iter()
            .zip(partition.par_iter())
            .try_for_each(|(slice, group)| -> CoreResult<()> {
                for (to, &r) in slice.iter_mut().zip(group) {
                    *to = original_row(r)?;
                }
                slice.sort_by(by_first);
                Ok(())
            })?;
        // The rows left out, in one block after the groups. A release
        // publishes each row once, so when it publishes as many rows as the
        // table has, none is left out.
        if rows.len() < table.rows() {
            let mut published_row = vec![false; table.rows()];
            for &o in &rows {
                published_row[o as usize] = true;
            }
            let start = rows.len();
            rows.extend((0..table.rows() as u32).filter(|&r| !published_row[r as usize]));
            rows[start..].sort_by(by_first);
        }
        offsets.push(rows.len());
        // The gathers read the table in group order, a cache miss per cell
        // on a large table: they run on the job's pool (crate::parallel),
        // each position written once, so the index is the same on any
        // number of threads.
        let sa = sa_cols
            .iter()
            .map(|keys| rows.par_iter().map(|&r| keys[r as usize]).collect())
            .collect();
        let mut qi = vec![0.0; rows.len() * dims];
        if dims > 0 {
            qi.par_chunks_mut(dims)
                .zip(rows.par_iter())
                .for_each(|(cells, &r)| {
                    for (cell, k) in cells.iter_mut().zip(&qi_cols) {
                        *cell = k[r as usize];
                    }
                });
        }
        Ok(Index {
            qi_domains,
            sa_domains,
            boxes,
            block_boxes,
            groups,
            offsets,
            sa,
            qi,
        })
    }

    /// (actual, estimated) counts of one query: `preds` are QI predicates,
    /// `sa_preds` SA-column predicates. The estimate sums, per group, its
    /// rows matching every SA predicate (the SA is published exactly) times
    /// the fraction of its box each QI predicate covers; the actual count
    /// is over every original row, the ones left out included. (One query
    /// at a time is for the tests; the workload answers them together.)
    #[cfg(test)]
    pub fn answer(&self, preds: &[Pred], sa_preds: &[Pred]) -> (u64, f64) {
        self.answer_all(&[(preds.to_vec(), sa_preds.to_vec())])[0]
    }

    /// [`Index::answer`] of every query, in order.
    ///
    /// The groups are the outer loop: a chunk of [`CHUNK_GROUPS`] groups
    /// (their boxes, SA values and QI keys, a few hundred kilobytes) is
    /// read by every query while it sits in the core's cache, instead of
    /// every query sweeping the whole index from memory (on 5M rows the
    /// index is about 160 MB and a query reads about a third of it; the
    /// loads of each group's SA values were most of the answer's time).
    /// Chunks run on the job's pool in waves of [`WAVE_CHUNKS`]; a query's
    /// estimate adds its chunks' partial sums in chunk order, and each
    /// partial sum adds its groups in order, so the answers are the same
    /// on any number of threads.
    pub fn answer_all(&self, queries: &[(Vec<Pred>, Vec<Pred>)]) -> Vec<(u64, f64)> {
        use rayon::prelude::*;
        let prepared: Vec<Prepared<'_>> = queries
            .iter()
            .map(|(preds, sa_preds)| Prepared::new(preds, sa_preds))
            .collect();
        // The rows left out (a fifth of a suppressed release) are counted
        // by pieces of rows, every query reading a piece while it is in
        // the core's cache; integer counts, so the order does not matter.
        let (first_out, end) = (self.offsets[self.groups], self.offsets[self.groups + 1]);
        let pieces: Vec<Range<usize>> = (first_out..end)
            .step_by(PASS_ROWS)
            .map(|p| p..(p + PASS_ROWS).min(end))
            .collect();
        let mut totals: Vec<(u64, f64)> = pieces
            .par_iter()
            .map(|rows| {
                let count = |q: &Prepared<'_>| self.left_out_matching(q, rows.clone());
                prepared.iter().map(count).collect::<Vec<u64>>()
            })
            .reduce(
                || vec![0; prepared.len()],
                |a, b| a.iter().zip(&b).map(|(x, y)| x + y).collect(),
            )
            .into_iter()
            .map(|actual| (actual, 0.0))
            .collect();
        let chunks = self.groups.div_ceil(CHUNK_GROUPS);
        for wave in (0..chunks).step_by(WAVE_CHUNKS) {
            let partials: Vec<Vec<(u64, f64)>> = (wave..(wave + WAVE_CHUNKS).min(chunks))
                .into_par_iter()
                .map(|c| {
                    let groups = c * CHUNK_GROUPS..((c + 1) * CHUNK_GROUPS).min(self.groups);
                    // A chunk of large groups (5M rows in 4,348 groups: 11 MB)
                    // outgrows the core's cache: it is read in passes of whole
                    // groups of about PASS_ROWS rows, each query continuing
                    // its running sums — the same additions in the same
                    // order as one pass over the chunk.
                    let mut sums = vec![(0u64, 0.0f64); prepared.len()];
                    for pass in self.passes(groups) {
                        for (q, sum) in prepared.iter().zip(sums.iter_mut()) {
                            *sum = self.answer_groups(q, pass.clone(), *sum);
                        }
                    }
                    sums
                })
                .collect();
            for chunk in partials {
                for (total, (actual, estimate)) in totals.iter_mut().zip(chunk) {
                    total.0 += actual;
                    total.1 += estimate;
                }
            }
        }
        totals
    }

    /// `groups` cut into runs of whole groups of about [`PASS_ROWS`] rows
    /// (a group larger than that is a run of its own).
    fn passes(&self, groups: Range<usize>) -> Vec<Range<usize>> {
        let mut out = Vec::new();
        let mut start = groups.start;
        for g in groups.clone() {
            if g > start && self.offsets[g + 1] - self.offsets[start] > PASS_ROWS {
                out.push(start..g);
                start = g;
            }
        }
        if start < groups.end {
            out.push(start..groups.end);
        }
        out
    }

    /// (actual, estimated) counts of one query over the groups `groups`,
    /// the rows left out not included, added group by group to the running
    /// sums passed in (so that passes over a chunk add as one pass does).
    fn answer_groups(
        &self,
        q: &Prepared<'_>,
        groups: Range<usize>,
        (mut actual, mut estimate): (u64, f64),
    ) -> (u64, f64) {
        let dims = self.qi_domains.len();
        let (preds, first, others) = (q.preds, q.first, &q.others);
        let misses = |bx: &[(f64, f64)]| {
            preds
                .iter()
                .any(|&(d, (pa, pb))| bx[d].1 < pa || bx[d].0 > pb)
        };
        let blocks = groups.start / BLOCK_GROUPS..groups.end.div_ceil(BLOCK_GROUPS);
        let in_reach = blocks
            .filter(|&b| dims == 0 || !misses(&self.block_boxes[b * dims..(b + 1) * dims]))
            .flat_map(|b| {
                (b * BLOCK_GROUPS).max(groups.start)..((b + 1) * BLOCK_GROUPS).min(groups.end)
            });
        for g in in_reach {
            let gbox = &self.boxes[g * dims..(g + 1) * dims];
            // Comparisons first: most groups miss some predicate entirely,
            // and then no row of theirs can match.
            if misses(gbox) {
                continue;
            }
            let (mut i0, mut i1) = (self.offsets[g], self.offsets[g + 1]);
            if let Some((a, b)) = first {
                let (below, upto) = sa_bounds(&self.sa[0][i0..i1], a, b);
                (i0, i1) = (i0 + below, i0 + upto);
            }
            if i1 <= i0 {
                continue;
            }
            let sa_ok = |pos: usize| self.other_sa_match(others, pos);
            let matching = if others.is_empty() {
                i1 - i0
            } else {
                (i0..i1).filter(|&pos| sa_ok(pos)).count()
            };
            if matching == 0 {
                continue;
            }
            // The fraction may be 0 for a continuous box that only touches
            // a predicate's end: no estimate, but its rows still count.
            let mut fraction = 1.0;
            let mut inside = true;
            for &(d, p) in preds {
                let bx = gbox[d];
                fraction *= self.qi_domains[d].overlap(bx, p);
                inside &= p.0 <= bx.0 && bx.1 <= p.1;
            }
            estimate += fraction * matching as f64;
            if inside {
                actual += matching as u64;
                continue;
            }
            let rows = self.qi[i0 * dims..i1 * dims].chunks_exact(dims);
            // The single-column SA (the common case) needs no SA filter.
            // Counted without branches: whether a row of a straddled group
            // matches is a coin toss for the branch predictor.
            actual += if others.is_empty() {
                rows.map(|keys| usize::from(matches_all(preds, keys))).sum()
            } else {
                rows.zip(i0..i1)
                    .filter(|&(keys, pos)| sa_ok(pos) && matches_all(preds, keys))
                    .count()
            } as u64;
        }
        (actual, estimate)
    }

    /// The rows the release left out, of those at positions `rows`, that
    /// match the query: they count in the actual answer and add nothing to
    /// the estimate.
    fn left_out_matching(&self, q: &Prepared<'_>, rows: Range<usize>) -> u64 {
        let (preds, first, others) = (q.preds, q.first, &q.others);
        let dims = self.qi_domains.len();
        let (mut i0, mut i1) = (rows.start, rows.end);
        if let Some((a, b)) = first {
            let sa = &self.sa[0][i0..i1];
            (i0, i1) = (
                i0 + sa.partition_point(|&x| x < a),
                i0 + sa.partition_point(|&x| x <= b),
            );
        }
        if others.is_empty() {
            // As a straddled group's rows: counted without branches.
            let rows = self.qi[i0 * dims..i1.max(i0) * dims].chunks_exact(dims);
            return rows.map(|keys| u64::from(matches_all(preds, keys))).sum();
        }
        (i0..i1.max(i0))
            .filter(|&pos| {
                self.other_sa_match(others, pos)
                    && matches_all(preds, &self.qi[pos * dims..(pos + 1) * dims])
            })
            .count() as u64
    }

    /// Whether the row at `pos` meets the SA predicates `others` (every
    /// SA column's but the first, which narrows the rows before).
    fn other_sa_match(&self, others: &[Pred], pos: usize) -> bool {
        others.iter().all(|&(j, (a, b))| {
            let x = self.sa[j][pos];
            a <= x && x <= b
        })
    }
}

/// Whether a row's QI `keys` lie inside every predicate, every comparison
/// made (no early exit), so that a count over rows has no branch to miss.
#[inline]
fn matches_all(preds: &[Pred], keys: &[f64]) -> bool {
    preds.iter().fold(true, |ok, &(d, (pa, pb))| {
        ok & (pa <= keys[d]) & (keys[d] <= pb)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Counting and searching find the same ends, on groups short enough
    /// to be counted and longer ones, with ties and ends on the values.
    #[test]
    fn counted_and_searched_bounds_agree() {
        let mut rng = StdRng::seed_from_u64(5);
        for len in [0, 1, 2, 7, COUNTED_ROWS, COUNTED_ROWS + 1, 100] {
            for _ in 0..50 {
                let mut sa: Vec<f64> = (0..len).map(|_| rng.gen_range(0..20) as f64).collect();
                sa.sort_by(f64::total_cmp);
                let a = rng.gen_range(-1..21) as f64;
                let b = a + rng.gen_range(0..8) as f64;
                let searched = (
                    sa.partition_point(|&x| x < a),
                    sa.partition_point(|&x| x <= b),
                );
                assert_eq!(sa_bounds(&sa, a, b), searched, "{sa:?} [{a}, {b}]");
            }
        }
    }
}
