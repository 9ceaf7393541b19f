//! The best (ε,m) release any cut tree can give on a table with a small QI
//! grid: an exact dynamic programme over every box of the grid, measured
//! like the engine's releases (GCP, count-query error, the attacker's view).
//!
//! ```text
//! cargo run --release -p proxima-core --example guillotine_optimum -- [EPSILON M]
//! ```
//!
//! (creditcard, absolute neighbourhoods; ε = 1000, m = 4 by default: em-credit.)
//!
//! **Why it bounds the engine.** When groups publish pairwise disjoint boxes
//! and no row is left out, the group whose published box is B holds every
//! row whose QI point lies in B (a row of another group would put a point
//! of B in that group's box too). So such a release is a partition of the
//! grid's occupied points into disjoint boxes, each holding rows that
//! satisfy the model, and a release built by cuts (the safe engine's trees,
//! Mondrian's) is a *guillotine* one: the box is cut in two along one
//! dimension, and each side again, down to the groups. For every box B of
//! the grid (per dimension an interval of its distinct values), the
//! programme computes the least `Σ |G| · mean normalized width` over
//! guillotine partitions of B — B itself when its rows satisfy the model,
//! else the best of its cuts — from the smaller boxes up; a box is
//! measured by the hull of the points it holds, which is what it publishes.
//! The optimum for the whole grid is the least GCP any cut tree reaches;
//! the partition that reaches it is released and judged as a job's would be.
//!
//! Numeric and date QIs only, and grids of at most [`MAX_BOXES`] boxes:
//! the programme tests every box (creditcard: 1.34 million, minutes).

use std::collections::BTreeSet;
use std::time::Instant;

use proxima_core::attacker::{evaluate, GroupBoxes, Victims};
use proxima_core::generalize::generalize;
use proxima_core::ingest::shared::SharedTable;
use proxima_core::params::{
    Algorithm, Epsilon, EpsilonM, Neighborhood, PrivacyModel, SuppressionLimit, M,
};
use proxima_core::run::{job_audit_checks, JobSpec};
use proxima_core::table::QiValues;
use proxima_core::utility::{gcp, query_error, Published, WorkloadSpec};
use proxima_core::xcolor::XColorOptions;
use proxima_core::{epsilon_m, Partition, Progress};

/// Grids with more boxes than this are refused.
const MAX_BOXES: usize = 20_000_000;

/// A box: per dimension an inclusive interval of value indices.
type GridBox = Vec<(usize, usize)>;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let e: f64 = args.first().map_or(1000.0, |a| a.parse().expect("ε"));
    let m: u64 = args.get(1).map_or(4, |a| a.parse().expect("m"));
    let Some(loaded) = proxima_test_support::shared::load_shared(SharedTable::CreditCard) else {
        return;
    };
    let table = loaded.expect("the shared table loads");
    let params = EpsilonM::new(
        Epsilon::new(e, "/e").unwrap(),
        M::new(m, "/m").unwrap(),
        Neighborhood::Absolute,
        "/e",
    )
    .unwrap();
    let sa = table.single_numeric_sa().expect("one numeric SA");
    let columns: Vec<Vec<f64>> = table
        .qis()
        .iter()
        .map(|qi| match &qi.values {
            QiValues::Numeric(v) => v.clone(),
            QiValues::Date(v) => v.iter().map(|&x| x as f64).collect(),
            QiValues::Categorical { .. } => panic!("numeric and date QIs only"),
        })
        .collect();
    let start = Instant::now();
    let grid = Grid::new(&columns);
    let boxes: usize = grid.intervals.iter().map(Vec::len).product();
    assert!(boxes <= MAX_BOXES, "{boxes} boxes: too many");
    let dp = grid.solve(|rows: &[u32]| {
        let values: Vec<f64> = rows.iter().map(|&r| sa[r as usize]).collect();
        epsilon_m::group_satisfies(&values, &params)
    });
    let groups = dp.groups(&grid);
    let seconds = start.elapsed().as_secs_f64();

    let spec = JobSpec {
        model: PrivacyModel::EpsilonM(params),
        algorithm: Algorithm::EpsilonM,
        metric: None,
        xcolor: XColorOptions::default(),
        suppression_limit: SuppressionLimit::new(0.0, "/s").unwrap(),
    };
    let partition = Partition::new(groups);
    let release = generalize(&table, partition).expect("a partition of every row");
    let checks = job_audit_checks(&table, &spec).expect("the job's checks");
    let view = evaluate(
        &table,
        release.partition(),
        &GroupBoxes::from_release(&table, &release),
        Victims::OriginalPoints,
        &checks,
        None,
        Progress::none(),
    )
    .expect("disjoint boxes are judged");
    let qe = query_error(
        &Published::whole(&table, &release),
        &WorkloadSpec::standard(2),
    )
    .ok();
    println!(
        "creditcard (ε = {e}, m = {m}), optimal cut tree: {boxes} boxes in {seconds:.1} s, \
         {} groups, GCP {:.4}, QE q=2 median/mean {}, view over bound {} of {} ({}, passed {})",
        release.groups(),
        gcp(&table, &release),
        qe.map_or("-".into(), |w| format!(
            "{:.1} % / {:.1} %",
            100.0 * w.median_relative_error.unwrap_or(f64::NAN),
            100.0 * w.mean_relative_error.unwrap_or(f64::NAN)
        )),
        view[0].over_bound,
        view[0].victims,
        view[0].kind,
        view[0].passed,
    );
}

/// The table's QI grid: per dimension its distinct values, every interval
/// of them, and the rows at each grid point.
struct Grid {
    values: Vec<Vec<f64>>,
    intervals: Vec<Vec<(usize, usize)>>,
    /// Rows per grid point (row-major over the dimensions).
    points: Vec<Vec<u32>>,
}

/// The programme's answer per box (indexed by [`Grid::box_id`]).
struct Solved {
    /// What the box does: `Own` (its rows are one group), a cut, or
    /// nothing (no rows).
    choice: Vec<Choice>,
}

#[derive(Clone, Copy)]
enum Choice {
    Empty,
    Own,
    /// Same points as its hull, a smaller box.
    Hull,
    /// Left side up to `at` on `dim`.
    Cut {
        dim: u8,
        at: u16,
    },
}

impl Grid {
    fn new(columns: &[Vec<f64>]) -> Self {
        let values: Vec<Vec<f64>> = columns
            .iter()
            .map(|c| {
                let set: BTreeSet<u64> = c.iter().map(|v| v.to_bits()).collect();
                let mut v: Vec<f64> = set.into_iter().map(f64::from_bits).collect();
                v.sort_by(f64::total_cmp);
                v
            })
            .collect();
        // Intervals by length, then start: every box's cut sides come first.
        let intervals = values
            .iter()
            .map(|v| {
                let k = v.len();
                (0..k)
                    .flat_map(|len| (0..k - len).map(move |lo| (lo, lo + len)))
                    .collect()
            })
            .collect();
        let mut grid = Grid {
            values,
            intervals,
            points: Vec::new(),
        };
        let size: usize = grid.values.iter().map(Vec::len).product();
        grid.points = vec![Vec::new(); size];
        let rows = columns.first().map_or(0, Vec::len);
        for r in 0..rows {
            let at: Vec<usize> = (0..columns.len())
                .map(|d| {
                    grid.values[d]
                        .binary_search_by(|v| v.total_cmp(&columns[d][r]))
                        .unwrap()
                })
                .collect();
            let p = grid.point_id(&at);
            grid.points[p].push(r as u32);
        }
        grid
    }

    fn point_id(&self, at: &[usize]) -> usize {
        at.iter()
            .zip(&self.values)
            .fold(0, |id, (&i, v)| id * v.len() + i)
    }

    /// The index of interval `(lo, hi)` of a dimension with `k` values in
    /// its `intervals` list (by length, then start).
    fn interval_id(k: usize, (lo, hi): (usize, usize)) -> usize {
        let len = hi - lo;
        len * k - len * len.saturating_sub(1) / 2 + lo
    }

    fn box_id(&self, b: &[(usize, usize)]) -> usize {
        b.iter().enumerate().fold(0, |id, (d, &iv)| {
            id * self.intervals[d].len() + Self::interval_id(self.values[d].len(), iv)
        })
    }

    /// The rows at the points of `b` (into `rows`) and the hull of those points.
    fn rows_and_hull(&self, b: &[(usize, usize)], rows: &mut Vec<u32>) -> GridBox {
        rows.clear();
        let mut hull = vec![(usize::MAX, 0); b.len()];
        let mut at: Vec<usize> = b.iter().map(|iv| iv.0).collect();
        loop {
            let here = &self.points[self.point_id(&at)];
            if !here.is_empty() {
                rows.extend_from_slice(here);
                for (h, &i) in hull.iter_mut().zip(&at) {
                    *h = (h.0.min(i), h.1.max(i));
                }
            }
            // The next point of the box, last dimension fastest.
            let mut d = b.len();
            loop {
                if d == 0 {
                    return hull;
                }
                d -= 1;
                if at[d] < b[d].1 {
                    at[d] += 1;
                    break;
                }
                at[d] = b[d].0;
            }
        }
    }

    /// `|rows| · mean normalized width` of box `b`.
    fn cost(&self, b: &[(usize, usize)], rows: usize) -> f64 {
        let width: f64 = b
            .iter()
            .zip(&self.values)
            .map(|(&(lo, hi), v)| {
                let range = v[v.len() - 1] - v[0];
                if range > 0.0 {
                    (v[hi] - v[lo]) / range
                } else {
                    0.0
                }
            })
            .sum();
        rows as f64 * width / b.len() as f64
    }

    /// The programme over every box, smaller boxes first.
    fn solve(&self, satisfies: impl Fn(&[u32]) -> bool) -> Solved {
        let mut order: Vec<GridBox> = vec![Vec::new()];
        for ivs in &self.intervals {
            order = order
                .into_iter()
                .flat_map(|b| {
                    ivs.iter().map(move |&iv| {
                        let mut b = b.clone();
                        b.push(iv);
                        b
                    })
                })
                .collect();
        }
        order.sort_by_key(|b| b.iter().map(|iv| iv.1 - iv.0).sum::<usize>());
        let total = order.len();
        let mut best = vec![f64::INFINITY; total];
        let mut choice = vec![Choice::Empty; total];
        let mut rows = Vec::new();
        // Per box, the hull of its occupied points (`EMPTY` when none):
        // a box's is the union of the hulls of its two sides of any cut,
        // both smaller, so it comes from the boxes already done.
        const EMPTY: (u16, u16) = (u16::MAX, 0);
        let dims = self.values.len();
        let mut hulls = vec![EMPTY; total * dims];
        for b in &order {
            let id = self.box_id(b);
            let hull: Option<GridBox> = match b.iter().position(|iv| iv.0 < iv.1) {
                None => {
                    let at: Vec<usize> = b.iter().map(|iv| iv.0).collect();
                    (!self.points[self.point_id(&at)].is_empty()).then(|| b.clone())
                }
                Some(d) => {
                    let (mut l, mut r) = (b.clone(), b.clone());
                    l[d].1 = l[d].0;
                    r[d].0 += 1;
                    let (l, r) = (self.box_id(&l) * dims, self.box_id(&r) * dims);
                    // EMPTY is the union's identity (min with MAX, max with 0).
                    (hulls[l] != EMPTY || hulls[r] != EMPTY).then(|| {
                        (0..dims)
                            .map(|k| {
                                let (a, c) = (hulls[l + k], hulls[r + k]);
                                (usize::from(a.0.min(c.0)), usize::from(a.1.max(c.1)))
                            })
                            .collect()
                    })
                }
            };
            let Some(hull) = hull else {
                best[id] = 0.0;
                continue;
            };
            for (k, &(lo, hi)) in hull.iter().enumerate() {
                hulls[id * dims + k] = (lo as u16, hi as u16);
            }
            if hull != *b {
                let h = self.box_id(&hull);
                best[id] = best[h];
                choice[id] = Choice::Hull;
                continue;
            }
            self.rows_and_hull(b, &mut rows);
            let (mut v, mut c) = (f64::INFINITY, Choice::Empty);
            if satisfies(&rows) {
                (v, c) = (self.cost(b, rows.len()), Choice::Own);
            }
            for d in 0..b.len() {
                for at in b[d].0..b[d].1 {
                    let (mut l, mut r) = (b.clone(), b.clone());
                    l[d].1 = at;
                    r[d].0 = at + 1;
                    let s = best[self.box_id(&l)] + best[self.box_id(&r)];
                    if s < v {
                        v = s;
                        c = Choice::Cut {
                            dim: d as u8,
                            at: at as u16,
                        };
                    }
                }
            }
            best[id] = v;
            choice[id] = c;
        }
        Solved { choice }
    }
}

impl Solved {
    /// The groups (row ids) of the whole grid's best partition.
    fn groups(&self, grid: &Grid) -> Vec<Vec<u32>> {
        let whole: GridBox = grid.values.iter().map(|v| (0, v.len() - 1)).collect();
        let mut stack = vec![whole];
        let mut groups = Vec::new();
        let mut rows = Vec::new();
        while let Some(b) = stack.pop() {
            match self.choice[grid.box_id(&b)] {
                Choice::Empty => {}
                Choice::Hull => {
                    let hull = grid.rows_and_hull(&b, &mut rows);
                    stack.push(hull);
                }
                Choice::Own => {
                    grid.rows_and_hull(&b, &mut rows);
                    groups.push(rows.clone());
                }
                Choice::Cut { dim, at } => {
                    let (mut l, mut r) = (b.clone(), b);
                    l[dim as usize].1 = at as usize;
                    r[dim as usize].0 = at as usize + 1;
                    stack.push(r);
                    stack.push(l);
                }
            }
        }
        assert!(
            groups.iter().map(Vec::len).sum::<usize>()
                == grid.points.iter().map(Vec::len).sum::<usize>(),
            "the whole table satisfies the model, so every row has a group"
        );
        groups
    }
}
