//! Degrees in the graph Ψ^ε (rows are vertices, an edge joins two rows whose
//! SA distance is ≤ ε), computed from an index rather than an O(n²) scan.
//!
//! * `Scalar`: sort + two pointers. Along a sorted order the predicate
//!   `within(scalar_distance(x, y, divisor), ε)` is monotone (IEEE
//!   subtraction and division are monotone), so each row's neighbours form
//!   a contiguous window; membership is decided with the very same
//!   arithmetic as [`SensitiveSpace::distance`].
//! * `Categorical`: the neighbour relation is an equivalence. `equal`:
//!   same code (everything when 1 ≤ ε). `hierarchical`: d = L/h with L the
//!   LCA level; the admissible levels are a prefix 0..=L* (L/h grows with
//!   L), and lca_level ≤ L* ⇔ the two leaves share their ancestor at level
//!   L*. L* is found by testing `within(L as f64 / h as f64, ε)` for every L,
//!   i.e. on the metric's own arithmetic, never by a rearranged ⌊ε·h⌋.
//! * Everything else (`Lp`, `Variational`): rows are deduplicated on their
//!   exact SA value (identical values are at identical distances from all
//!   others), then candidate pairs of distinct values come from a hash grid
//!   over up to three numeric components of an `Lp` space, or from the
//!   blocked all-pairs scan (the generic fallback); every candidate is
//!   verified with [`SensitiveSpace::distance`].
//! * `Relative` (asymmetric): out-degrees |I(v)| − 1 by binary search. XColor
//!   rejects it; this only serves `feasibility`.

use std::collections::HashMap;

use crate::error::CoreResult;
use crate::metric::{scalar_distance, Component, LpNorm, SensitiveSpace, SpaceKind};
use crate::neighborhood::{in_closed_interval, relative_interval, within};
use crate::progress::Progress;

/// Adjacency lists between distinct values are kept only up to this many
/// entries (64 MiB of u32, twice that while building); beyond it subset
/// degrees use pairwise scans inside the subset.
const MAX_ADJACENCY: usize = 16_000_000;

/// Rows per progress checkpoint in the quadratic scans.
const BLOCK: usize = 256;

/// Answers degree queries on any subset of rows (the QI-aware split needs
/// the degrees of each part's own subgraph).
pub(crate) struct DegreeIndex<'a> {
    space: &'a SensitiveSpace,
    epsilon: f64,
    kind: IndexKind,
}

enum IndexKind {
    /// Sorted sweep over the scalar values (see the module doc).
    Scalar,
    /// Neighbours are exactly the rows with the same key.
    Keyed(Vec<u32>),
    /// Rows deduplicated into distinct values; `adj` (CSR, self included)
    /// when it fits in [`MAX_ADJACENCY`].
    Distinct {
        id_of: Vec<u32>,
        /// Global multiplicity of each distinct value.
        mult: Vec<u32>,
        adj: Option<Adjacency>,
    },
    /// Asymmetric relative neighbourhoods: out-degrees by binary search.
    Relative,
}

/// Adjacency lists between distinct values (CSR: each value's list is
/// `list[start[id]..start[id + 1]]`, itself included).
type Adjacency = (Vec<usize>, Vec<u32>);

/// Per-thread working memory of [`DegreeIndex::degrees_in`] over distinct
/// values: a subset's count per value id, its degree per value id, and the
/// ids it touched. Kept between calls (the split asks for the degrees of
/// node after node), zero again after each, and freed with the thread (a
/// job's pool threads end with the job).
#[derive(Default)]
struct DistinctScratch {
    counts: Vec<u32>,
    per_id: Vec<u32>,
    touched: Vec<u32>,
}

thread_local! {
    static DISTINCT_SCRATCH: std::cell::RefCell<DistinctScratch> =
        std::cell::RefCell::new(DistinctScratch::default());
}

impl<'a> DegreeIndex<'a> {
    /// Builds the index; only the distinct-value graph costs more than
    /// O(n log n), and it reports progress (and honours cancellation).
    pub(crate) fn new(
        space: &'a SensitiveSpace,
        epsilon: f64,
        progress: Progress<'_>,
    ) -> CoreResult<DegreeIndex<'a>> {
        let kind = match space.kind() {
            SpaceKind::Scalar { .. } => IndexKind::Scalar,
            SpaceKind::Relative { .. } => IndexKind::Relative,
            SpaceKind::Categorical {
                codes,
                hierarchy,
                hierarchical,
            } => {
                let level = if *hierarchical {
                    let h = hierarchy.height();
                    // Largest admissible LCA level (0 always is: d = 0).
                    (0..=h)
                        .filter(|&l| within(l as f64 / h as f64, epsilon))
                        .max()
                        .unwrap_or(0)
                } else if within(1.0, epsilon) {
                    hierarchy.height()
                } else {
                    0
                };
                // At the root level every leaf has the same ancestor.
                IndexKind::Keyed(
                    codes
                        .iter()
                        .map(|&c| hierarchy.ancestor(c, level))
                        .collect(),
                )
            }
            SpaceKind::Lp { .. } | SpaceKind::Variational { .. } => {
                distinct_graph(space, epsilon, progress)?
            }
        };
        Ok(DegreeIndex {
            space,
            epsilon,
            kind,
        })
    }

    /// Degrees of every row of the table, in row order.
    pub(crate) fn global(&self, progress: Progress<'_>) -> CoreResult<Vec<u32>> {
        let n = self.space.rows();
        // The distinct graph was built over the whole table; its global
        // degrees need no per-subset counting.
        if let IndexKind::Distinct {
            id_of,
            mult,
            adj: Some((start, list)),
        } = &self.kind
        {
            let per_id: Vec<u32> = (0..mult.len())
                .map(|id| {
                    list[start[id]..start[id + 1]]
                        .iter()
                        .map(|&j| mult[j as usize])
                        .sum()
                })
                .collect();
            return Ok(id_of.iter().map(|&id| per_id[id as usize] - 1).collect());
        }
        let rows: Vec<u32> = (0..n as u32).collect();
        self.degrees_in(&rows, progress)
    }

    /// Degrees of `rows`' members in the subgraph induced by `rows`
    /// (`out[i]` belongs to `rows[i]`).
    pub(crate) fn degrees_in(&self, rows: &[u32], progress: Progress<'_>) -> CoreResult<Vec<u32>> {
        match &self.kind {
            IndexKind::Scalar => self.scalar_degrees(rows, progress),
            IndexKind::Relative => Ok(self.relative_degrees(rows)),
            IndexKind::Keyed(keys) => {
                let mut counts: HashMap<u32, u32> = HashMap::with_capacity(rows.len().min(1 << 16));
                for &r in rows {
                    *counts.entry(keys[r as usize]).or_insert(0) += 1;
                }
                Ok(rows
                    .iter()
                    .map(|&r| counts[&keys[r as usize]] - 1)
                    .collect())
            }
            IndexKind::Distinct { id_of, mult, adj } => DISTINCT_SCRATCH.with(|scratch| {
                let mut scratch = scratch.borrow_mut();
                let DistinctScratch {
                    counts,
                    per_id,
                    touched,
                } = &mut *scratch;
                // Dense by the value's id, sized once per thread to the
                // table's distinct values; only the ids this subset touches
                // are written, and only they are zeroed again below.
                if counts.len() < mult.len() {
                    counts.resize(mult.len(), 0);
                    per_id.resize(mult.len(), 0);
                }
                touched.clear();
                for &r in rows {
                    let id = id_of[r as usize];
                    let c = &mut counts[id as usize];
                    if *c == 0 {
                        touched.push(id);
                    }
                    *c += 1;
                }
                let result =
                    self.distinct_degrees(rows, (id_of, adj), (counts, per_id, touched), progress);
                for &id in touched.iter() {
                    counts[id as usize] = 0;
                }
                result
            }),
        }
    }

    /// [`Self::degrees_in`] over distinct values, from the subset's count
    /// per value id (`counts`, dense; the ids it holds in `touched`, in
    /// order of first appearance): through the adjacency lists when their
    /// total length over the subset's values is at most the pairs of them,
    /// else pairwise over the subset's values.
    fn distinct_degrees(
        &self,
        rows: &[u32],
        (id_of, adj): (&[u32], &Option<Adjacency>),
        (counts, per_id, touched): (&[u32], &mut [u32], &[u32]),
        progress: Progress<'_>,
    ) -> CoreResult<Vec<u32>> {
        let graph_cost: usize = match adj {
            Some((start, _)) => touched
                .iter()
                .map(|&id| start[id as usize + 1] - start[id as usize])
                .sum(),
            None => usize::MAX,
        };
        let distinct = touched.len();
        if let (Some((start, list)), true) = (adj, graph_cost <= distinct.saturating_mul(distinct))
        {
            for &id in touched {
                per_id[id as usize] = list[start[id as usize]..start[id as usize + 1]]
                    .iter()
                    .map(|&j| counts[j as usize])
                    .sum();
            }
            return Ok(rows
                .iter()
                .map(|&r| per_id[id_of[r as usize] as usize] - 1)
                .collect());
        }
        // Pairwise over the subset's distinct values: a representative row,
        // its count, and its degree so far, per value.
        let mut reps: Vec<(u32, u32, u32)> = Vec::with_capacity(distinct);
        let mut seen: HashMap<u32, usize> = HashMap::with_capacity(distinct);
        for &r in rows {
            let id = id_of[r as usize];
            if let std::collections::hash_map::Entry::Vacant(e) = seen.entry(id) {
                e.insert(reps.len());
                reps.push((r, counts[id as usize], 0));
            }
        }
        for a in 0..reps.len() {
            if a % BLOCK == 0 {
                progress.report(a as f64 / reps.len() as f64)?;
            }
            reps[a].2 += reps[a].1;
            for b in a + 1..reps.len() {
                if within(self.space.distance(reps[a].0, reps[b].0), self.epsilon) {
                    reps[a].2 += reps[b].1;
                    reps[b].2 += reps[a].1;
                }
            }
        }
        Ok(rows
            .iter()
            .map(|&r| reps[seen[&id_of[r as usize]]].2 - 1)
            .collect())
    }

    fn scalar_degrees(&self, rows: &[u32], progress: Progress<'_>) -> CoreResult<Vec<u32>> {
        let SpaceKind::Scalar { values, divisor } = self.space.kind() else {
            unreachable!("scalar index on a scalar space")
        };
        // One gather into a contiguous buffer: the sweep then touches the
        // rows' values sequentially (row ids are scattered, and gathering
        // on every pointer move costs a cache miss each).
        let mut xs: Vec<f64> = rows.iter().map(|&r| values[r as usize]).collect();
        let mut out = vec![0u32; rows.len()];
        // Parts of a scalar table are kept SA-sorted by the caller (cuts are
        // stable); sort only when they are not.
        if xs.windows(2).all(|w| w[0] <= w[1]) {
            sweep(&xs, *divisor, self.epsilon, |p, d| out[p] = d);
        } else {
            // Linear and stable: the order a stable comparison sort gives.
            // The sort's checkpoints report this phase's start.
            let order = crate::columnar::radix_order_checked(&xs, progress.sub(0.0, 0.0))?;
            let sorted: Vec<f64> = order.iter().map(|&i| xs[i as usize]).collect();
            xs = sorted;
            sweep(&xs, *divisor, self.epsilon, |p, d| {
                out[order[p] as usize] = d
            });
        }
        Ok(out)
    }

    fn relative_degrees(&self, rows: &[u32]) -> Vec<u32> {
        let SpaceKind::Relative { values } = self.space.kind() else {
            unreachable!("relative index on a relative space")
        };
        let mut sorted: Vec<f64> = rows.iter().map(|&r| values[r as usize]).collect();
        sorted.sort_by(f64::total_cmp);
        rows.iter()
            .map(|&r| {
                let (lo, hi) = relative_interval(values[r as usize], self.epsilon);
                let first = sorted.partition_point(|&y| y < lo);
                let count = sorted[first..]
                    .iter()
                    .take_while(|&&y| in_closed_interval(y, lo, hi))
                    .count();
                count.saturating_sub(1) as u32
            })
            .collect()
    }
}

/// The two-pointer sweep over sorted scalar values: calls `emit(p, degree)`
/// for every position. Membership is `within(scalar_distance(..))`, the
/// metric's own arithmetic, monotone along the sorted order.
fn sweep(xs: &[f64], divisor: f64, epsilon: f64, mut emit: impl FnMut(usize, u32)) {
    let (mut lo, mut hi) = (0usize, 0usize);
    for p in 0..xs.len() {
        while !within(scalar_distance(xs[p], xs[lo], divisor), epsilon) {
            lo += 1;
        }
        hi = hi.max(p);
        while hi + 1 < xs.len() && within(scalar_distance(xs[hi + 1], xs[p], divisor), epsilon) {
            hi += 1;
        }
        emit(p, (hi - lo) as u32);
    }
}

/// Rows grouped by exact SA value, and (within budget) the adjacency lists
/// between distinct values.
fn distinct_graph(
    space: &SensitiveSpace,
    epsilon: f64,
    progress: Progress<'_>,
) -> CoreResult<IndexKind> {
    let n = space.rows();
    let key = |r: usize| -> Vec<u64> {
        match space.kind() {
            SpaceKind::Lp { components, .. } => components
                .iter()
                .map(|c| match c {
                    Component::Numeric { values, .. } => values[r].to_bits(),
                    Component::Categorical { codes, .. } => codes[r] as u64,
                })
                .collect(),
            SpaceKind::Variational { dims, probs } => probs[r * dims..(r + 1) * dims]
                .iter()
                .map(|p| p.to_bits())
                .collect(),
            _ => unreachable!("distinct graph only for lp and variational spaces"),
        }
    };
    let mut ids: HashMap<Vec<u64>, u32> = HashMap::new();
    let mut id_of = Vec::with_capacity(n);
    let mut reps: Vec<u32> = Vec::new();
    let mut mult: Vec<u32> = Vec::new();
    for r in 0..n {
        let next = reps.len() as u32;
        let id = *ids.entry(key(r)).or_insert(next);
        if id == next {
            reps.push(r as u32);
            mult.push(0);
        }
        mult[id as usize] += 1;
        id_of.push(id);
    }
    drop(ids);
    let u = reps.len();
    // Candidate pairs (a < b) of distinct values, verified by distance.
    let mut pairs: Vec<Vec<u32>> = vec![Vec::new(); u];
    let mut entries = u;
    let mut overflow = false;
    let mut add = |a: usize, b: usize, pairs: &mut Vec<Vec<u32>>| {
        if within(space.distance(reps[a], reps[b]), epsilon) {
            entries += 2;
            if entries > MAX_ADJACENCY {
                overflow = true;
            } else {
                pairs[a].push(b as u32);
                pairs[b].push(a as u32);
            }
        }
    };
    match grid_dims(space, epsilon) {
        Some(dims) => {
            let coord = |id: usize| -> Vec<i64> {
                dims.iter()
                    .map(|&(c, cell, lo, range)| {
                        let SpaceKind::Lp { components, .. } = space.kind() else {
                            unreachable!()
                        };
                        let Component::Numeric { values, .. } = &components[c] else {
                            unreachable!()
                        };
                        (((values[reps[id] as usize] - lo) / range) / cell).floor() as i64
                    })
                    .collect()
            };
            let mut cells: HashMap<Vec<i64>, Vec<u32>> = HashMap::new();
            let coords: Vec<Vec<i64>> = (0..u).map(coord).collect();
            for (id, c) in coords.iter().enumerate() {
                cells.entry(c.clone()).or_default().push(id as u32);
            }
            let g = dims.len();
            let offsets: Vec<Vec<i64>> = (0..3usize.pow(g as u32))
                .map(|mut o| {
                    (0..g)
                        .map(|_| {
                            let d = (o % 3) as i64 - 1;
                            o /= 3;
                            d
                        })
                        .collect()
                })
                .collect();
            for (a, coord) in coords.iter().enumerate() {
                if a % BLOCK == 0 {
                    progress.report(a as f64 / u as f64)?;
                }
                for off in &offsets {
                    let cell: Vec<i64> = coord.iter().zip(off).map(|(x, d)| x + d).collect();
                    if let Some(members) = cells.get(&cell) {
                        for &b in members {
                            if (b as usize) > a {
                                add(a, b as usize, &mut pairs);
                            }
                        }
                    }
                }
            }
        }
        None => {
            for a in 0..u {
                if a % BLOCK == 0 {
                    progress.report(a as f64 / u as f64)?;
                }
                for b in a + 1..u {
                    add(a, b, &mut pairs);
                }
            }
        }
    }
    let adj = if overflow {
        // Degrees must still be exact: recount without storing lists.
        None
    } else {
        let mut start = Vec::with_capacity(u + 1);
        let mut list = Vec::with_capacity(entries);
        start.push(0);
        for (a, p) in pairs.iter_mut().enumerate() {
            list.push(a as u32);
            list.append(p);
            start.push(list.len());
        }
        Some((start, list))
    };
    Ok(IndexKind::Distinct { id_of, mult, adj })
}

/// Grid dimensions for an `Lp` space: `(component, cell, min, range)` for
/// up to three numeric components whose distance bound r (a pair within ε
/// has dᵢ ≤ r on that component) is below 1, smallest r first. The cell is
/// r with a relative margin, so float rounding cannot push a true neighbour
/// two cells away.
fn grid_dims(space: &SensitiveSpace, epsilon: f64) -> Option<Vec<(usize, f64, f64, f64)>> {
    let SpaceKind::Lp {
        p,
        components,
        weights,
    } = space.kind()
    else {
        return None;
    };
    let mut dims: Vec<(usize, f64, f64, f64)> = components
        .iter()
        .zip(weights)
        .enumerate()
        .filter_map(|(c, (comp, &w))| {
            let Component::Numeric { values, range } = comp else {
                return None;
            };
            if w <= 0.0 || *range <= 0.0 {
                return None;
            }
            let r = match p {
                LpNorm::L1 => epsilon / w,
                LpNorm::L2 => epsilon / w.sqrt(),
                LpNorm::LInf => epsilon,
            };
            let cell = r * (1.0 + 1e-9) + 1e-12;
            if cell >= 1.0 {
                return None;
            }
            let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
            Some((c, cell, lo, *range))
        })
        .collect();
    if dims.is_empty() {
        return None;
    }
    dims.sort_by(|a, b| a.1.total_cmp(&b.1));
    dims.truncate(3);
    Some(dims)
}

/// Neighbours of row `v` among `class` (v itself excluded), by definition.
#[inline]
pub(crate) fn local_degree(space: &SensitiveSpace, epsilon: f64, v: u32, class: &[u32]) -> u32 {
    class
        .iter()
        .filter(|&&u| u != v && within(space.distance(v, u), epsilon))
        .count() as u32
}

/// True when rows `a` and `b` are ε-neighbours (the graph's edge test).
#[inline]
pub(crate) fn adjacent(space: &SensitiveSpace, epsilon: f64, a: u32, b: u32) -> bool {
    within(space.distance(a, b), epsilon)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hierarchy::Hierarchy;
    use crate::metric::MetricSpec;
    use crate::table::{QiValues, SaValues, Table};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    use std::sync::Arc;

    fn table(sa: Vec<(String, SaValues)>, n: usize) -> Table {
        Table::from_columns(vec![("q".into(), QiValues::Numeric(vec![0.0; n]))], sa)
    }

    fn brute_in(space: &SensitiveSpace, rows: &[u32], eps: f64) -> Vec<u32> {
        rows.iter()
            .map(|&v| {
                rows.iter()
                    .filter(|&&u| u != v && space.distance(v, u) <= eps)
                    .count() as u32
            })
            .collect()
    }

    #[test]
    fn scalar_boundary_uses_the_metric_arithmetic() {
        // Range 22: 15/22 ≤ ε = 15/22 holds, while the rearranged
        // 15 ≤ ε·22 = 14.999999999999998 would drop the pair.
        let t = table(
            vec![("s".into(), SaValues::Numeric(vec![0.0, 15.0, 22.0]))],
            3,
        );
        let lp = MetricSpec::Lp {
            p: LpNorm::L1,
            weights: vec![],
        };
        let s = SensitiveSpace::new(&t, &lp).unwrap();
        let eps = 15.0 / 22.0;
        assert!(15.0 > eps * 22.0);
        let index = DegreeIndex::new(&s, eps, Progress::none()).unwrap();
        assert_eq!(index.global(Progress::none()).unwrap(), vec![1, 2, 1]);
        // Unsorted subsets are sorted internally.
        assert_eq!(
            index.degrees_in(&[2, 0, 1], Progress::none()).unwrap(),
            vec![1, 1, 2]
        );
    }

    #[test]
    fn relative_out_degrees_follow_is_neighbor() {
        // I(1000) = [900, 1100] at ε = 0.1 holds 900 and 1100 (closed);
        // I(900) = [810, 990] holds neither 1000 nor 1100: asymmetric.
        let values = vec![1000.0, 900.0, 1100.0, 1210.0, 1000.0];
        let t = table(vec![("s".into(), SaValues::Numeric(values))], 5);
        let s = SensitiveSpace::new(&t, &MetricSpec::Relative).unwrap();
        let index = DegreeIndex::new(&s, 0.1, Progress::none()).unwrap();
        let brute: Vec<u32> = (0..5u32)
            .map(|v| {
                (0..5u32)
                    .filter(|&u| u != v && s.is_neighbor(v, u, 0.1))
                    .count() as u32
            })
            .collect();
        assert_eq!(index.global(Progress::none()).unwrap(), brute);
        assert_eq!(brute, vec![3, 0, 3, 1, 3]);
    }

    #[test]
    fn hierarchical_levels_at_their_exact_boundaries() {
        // Height 3: d ∈ {0, 1/3, 2/3, 1}.
        let paths: Vec<Vec<String>> = [
            ["a", "A", "I", "*"],
            ["b", "A", "I", "*"],
            ["c", "B", "I", "*"],
            ["d", "C", "J", "*"],
        ]
        .iter()
        .map(|p| p.iter().map(|s| s.to_string()).collect())
        .collect();
        let h = Arc::new(Hierarchy::from_paths(&paths).unwrap());
        let codes: Vec<u32> = ["a", "a", "b", "c", "d"]
            .iter()
            .map(|l| h.leaf_code(l).unwrap())
            .collect();
        let t = table(
            vec![(
                "s".into(),
                SaValues::Categorical {
                    codes,
                    hierarchy: h,
                    has_hierarchy: true,
                },
            )],
            5,
        );
        let s = SensitiveSpace::new(&t, &MetricSpec::Hierarchical).unwrap();
        let cases = [
            (0.0, vec![1, 1, 0, 0, 0]),
            (1.0 / 3.0 - 1e-12, vec![1, 1, 0, 0, 0]),
            (1.0 / 3.0, vec![2, 2, 2, 0, 0]),
            (2.0 / 3.0 - 1e-12, vec![2, 2, 2, 0, 0]),
            (2.0 / 3.0, vec![3, 3, 3, 3, 0]),
            (1.0, vec![4, 4, 4, 4, 4]),
        ];
        for (eps, expected) in cases {
            let all: Vec<u32> = (0..5).collect();
            assert_eq!(brute_in(&s, &all, eps), expected, "brute, ε = {eps}");
            let index = DegreeIndex::new(&s, eps, Progress::none()).unwrap();
            assert_eq!(
                index.global(Progress::none()).unwrap(),
                expected,
                "index, ε = {eps}"
            );
        }
    }

    #[test]
    fn subset_degrees_match_brute_force_for_every_index() {
        let mut rng = StdRng::seed_from_u64(7);
        for case in 0..60 {
            let n = rng.gen_range(5..120);
            let mut num =
                |hi: i32| SaValues::Numeric((0..n).map(|_| rng.gen_range(0..hi) as f64).collect());
            let (sa, spec) = match case % 4 {
                0 => (vec![("s".into(), num(40))], MetricSpec::Absolute),
                1 => (
                    vec![("a".into(), num(10)), ("b".into(), num(6))],
                    MetricSpec::Lp {
                        p: LpNorm::L2,
                        weights: vec![],
                    },
                ),
                2 => (
                    vec![
                        ("a".into(), num(10)),
                        ("b".into(), num(6)),
                        ("c".into(), num(3)),
                    ],
                    MetricSpec::Lp {
                        p: LpNorm::L1,
                        weights: vec![],
                    },
                ),
                _ => {
                    let h = Arc::new(Hierarchy::flat(["x", "y", "z", "w"]));
                    let codes = (0..n).map(|_| rng.gen_range(0..4)).collect();
                    (
                        vec![(
                            "s".into(),
                            SaValues::Categorical {
                                codes,
                                hierarchy: h,
                                has_hierarchy: false,
                            },
                        )],
                        MetricSpec::Equal,
                    )
                }
            };
            let t = table(sa, n);
            let s = SensitiveSpace::new(&t, &spec).unwrap();
            let eps = s.distance(rng.gen_range(0..n as u32), rng.gen_range(0..n as u32));
            let index = DegreeIndex::new(&s, eps, Progress::none()).unwrap();
            let subset: Vec<u32> = (0..n as u32).filter(|_| rng.gen_bool(0.6)).collect();
            assert_eq!(
                index.degrees_in(&subset, Progress::none()).unwrap(),
                brute_in(&s, &subset, eps),
                "case {case}, ε = {eps}"
            );
        }
    }
}
