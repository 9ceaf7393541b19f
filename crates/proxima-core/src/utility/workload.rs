//! The papers' count-query workload (docs/benchmarks.md §"Query error
//! workload", which quotes the papers line by line).
//!
//! A query is `count(*) where A1 ∈ I1 and … and Aq ∈ Iq and S1 ∈ J1 [and
//! S2 ∈ J2]`: q distinct random QIs and qs sensitive columns.
//! * **q** is the number of QIs per query: XColor's "query dimensionality"
//!   qd (xcolor.txt §VI-B: "q distinct random attributes, comprising qd
//!   QI-attributes and qs SA-attributes (qd + qs = q)") and the (ε,m)
//!   paper's w − 1 (epsilon-m-anonymity.txt §6: "A1, …, Aw−1 are w − 1
//!   arbitrary distinct QI-attributes … but Aw is always Income"). So
//!   q = 2 here is the (ε,m) paper's "3D" workload.
//! * **qs**, the SA predicates: one on a single-column SA (the (ε,m)
//!   paper's Aw = Income); two distinct random columns of a composite SA
//!   ("In our experiments, qs is fixed to 2", XColor's SA having three).
//! * **Interval length**: every predicate covers a fraction
//!   f = s^(1/(q+qs)) of its attribute's domain — the exponent counts every
//!   queried attribute, SA included ((ε,m): "⌊|Ai|·s^(1/w)⌋"; XColor:
//!   "|Ii| = |Ai|·s^(1/q)", q = qd + qs) — so that under independence and
//!   uniformity the expected selectivity is s.
//! * **Domains**: a numeric attribute spans [min, max] of the original
//!   table's rows (the rows a release left out included: the queries are
//!   about the data, not about what was published). When all its values are integers it is discrete, as the (ε,m)
//!   paper's ("the length (in the number of integers) of bi"): |A| =
//!   max − min + 1 integers and a predicate is ⌊|A|·f⌋ ≥ 1 consecutive
//!   integers (the floor may give 0 on a domain of 2 or 3 values; one
//!   value is the least a predicate can hold). Otherwise it is continuous
//!   (XColor's "domain length": |A| = max − min, length |A|·f). Dates are
//!   discrete days. A categorical attribute's domain is its hierarchy's
//!   leaves in depth-first order (every subtree a contiguous run), so a
//!   predicate is ⌊|A|·f⌋ ≥ 1 consecutive leaves; the leaves are what a
//!   published node stands for, whether or not the data holds them all.
//! * **Actual** count: on the **original** table, every row of it — the
//!   rows the release left out (suppressed by the model) included. They
//!   add nothing to the estimate, so a release that drops a quarter of the
//!   rows shows it as lost counts (a release without suppression gives the
//!   same figures as before).
//! * **Estimate** (both papers defer to Mondrian: (ε,m) ref. [25], XColor
//!   ref. [14]): the QIs are published generalized and the SA exactly per
//!   row (Table 1b of the (ε,m) paper), so a group contributes its rows
//!   matching the SA predicates × Π over the queried QIs of the fraction of
//!   the group's box the predicate covers, values assumed uniform inside
//!   the box: over the box's integers on a discrete domain (an integer
//!   attribute's box [1-2] holds two values, so a predicate {1} covers
//!   half of it, and a predicate between two integers none), over its
//!   length on a continuous one, over its leaves on a categorical one.
//! * **Error**: |act − est| / act per query ("the relative error equals
//!   |act − est|/act"); queries whose actual count is 0 have none and are
//!   skipped (`queries_used` says how many counted). The papers report the
//!   average; the median is reported beside it because on small, skewed
//!   domains a few queries on a rare value (act of 1 or 2 against an
//!   estimate spread uniformly over a box) dominate the mean.
//!
//! Deterministic for a seed: queries are drawn from `StdRng` seeded with
//! `spec.seed`, in this order per query: the QIs, their intervals, the SA
//! columns (only when qs is less than the SA's columns), their intervals
//! in column order.

mod domain;
mod index;

use rand::rngs::StdRng;
use rand::seq::index::sample;
use rand::SeedableRng;

use crate::error::{CoreError, CoreResult, Field};
use crate::generalize::Release;
use crate::table::Table;
use index::Index;

/// What the workload measures: a release and the original table it was
/// made from.
#[derive(Debug, Clone, Copy)]
pub struct Published<'a> {
    /// The original table: every row, the ones the release left out
    /// included. The actual counts are taken here.
    pub original: &'a Table,
    pub release: &'a Release,
    /// `original_rows[r]` = the original row of the release's row r, when
    /// the release is over a table of kept rows; `None` when its row
    /// indices are `original`'s. Rows of `original` that no group holds
    /// count as left out.
    pub original_rows: Option<&'a [u32]>,
}

impl<'a> Published<'a> {
    /// A release over `table` itself (every row it groups is published;
    /// rows it does not group count as left out).
    pub fn whole(table: &'a Table, release: &'a Release) -> Published<'a> {
        Published {
            original: table,
            release,
            original_rows: None,
        }
    }
}

/// The workload's parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkloadSpec {
    /// Number of queries drawn (the papers use 1,000).
    pub queries: usize,
    /// QIs per query (XColor's qd, the (ε,m) paper's w − 1),
    /// 1 ≤ q ≤ number of QIs. The SA predicates come on top (see
    /// [`sa_predicates`]).
    pub q: usize,
    /// Expected selectivity s in (0, 1] (the papers' default 0.1).
    pub selectivity: f64,
    pub seed: u64,
}

/// The seed of the standard workload. One seed for every place that shows
/// a query error (the release report, sweep points, the bench, the job
/// summary): the same release then shows the same figure everywhere.
pub const STANDARD_SEED: u64 = 20_080_101;

/// The papers' selectivity s, and their number of queries per workload.
pub const STANDARD_SELECTIVITY: f64 = 0.1;
pub const STANDARD_QUERIES: usize = 1000;

impl WorkloadSpec {
    /// The standard workload with q QIs (plus the SA predicates): 1,000
    /// queries, s = 0.1, [`STANDARD_SEED`]. Every figure a person reads is
    /// this workload's (docs/benchmarks.md §"Query error workload").
    pub fn standard(q: usize) -> WorkloadSpec {
        WorkloadSpec {
            queries: STANDARD_QUERIES,
            q,
            selectivity: STANDARD_SELECTIVITY,
            seed: STANDARD_SEED,
        }
    }
}

impl Default for WorkloadSpec {
    /// [`WorkloadSpec::standard`] with q = 2.
    fn default() -> Self {
        WorkloadSpec::standard(2)
    }
}

/// The workload's outcome. The errors are `None` when no query had a
/// non-zero actual count (an empty table, or a degenerate one).
#[derive(Debug, Clone, PartialEq)]
pub struct WorkloadResult {
    pub mean_relative_error: Option<f64>,
    pub median_relative_error: Option<f64>,
    /// Queries with a non-zero actual count (the others are skipped).
    pub queries_used: usize,
    /// Queries drawn.
    pub queries: usize,
    /// SA predicates per query (qs).
    pub sa_predicates: usize,
}

/// One query and its two answers, for checking the workload against an
/// independent implementation. Intervals are closed and in key space: the
/// value for a numeric column, days since 1970-01-01 for a date, the
/// depth-first leaf rank ([`crate::hierarchy::Hierarchy::leaf_rank`]) for
/// a categorical one.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryAnswer {
    /// (index into `Table::qis()`, interval), in drawing order.
    pub qis: Vec<(usize, (f64, f64))>,
    /// (index into `Table::sensitive()`, interval).
    pub sa: Vec<(usize, (f64, f64))>,
    pub actual: u64,
    pub estimate: f64,
}

/// The SA predicates per query on `table` (qs): 1 on a single-column SA,
/// 2 on a composite one (XColor's qs = 2), 0 without SA.
pub fn sa_predicates(table: &Table) -> usize {
    table.sensitive().len().min(2)
}

/// Runs the workload of `spec` against a release of its original table
/// (see the module doc). Deterministic for a given seed. Errors
/// (`invalid_parameters`) for q outside 1..=QIs, no queries, s outside
/// (0, 1], or a table without SA.
pub fn query_error(published: &Published, spec: &WorkloadSpec) -> CoreResult<WorkloadResult> {
    let mut results = query_errors(published, std::slice::from_ref(spec))?;
    Ok(results.pop().expect("one result per spec"))
}

/// [`query_error`] for several specs over one index of the release: the
/// index holds a copy of every published row's keys (about 8 bytes per QI
/// and SA column per row), so building it once bounds the memory of
/// several workloads by one index, not one each. The specs run one thread
/// each over the shared index; each result is the one [`query_error`]
/// gives.
pub fn query_errors(
    published: &Published,
    specs: &[WorkloadSpec],
) -> CoreResult<Vec<WorkloadResult>> {
    let table = published.original;
    for spec in specs {
        check(table, spec)?;
    }
    if table.rows() == 0 {
        return Ok(specs.iter().map(|s| empty(table, s)).collect());
    }
    let index = Index::new(published)?;
    let run = |spec: &WorkloadSpec| summarize(table, spec, &answers(&index, spec));
    if specs.len() == 1 {
        return Ok(vec![run(&specs[0])]);
    }
    // One spec per thread of the job's pool (crate::parallel), in order.
    use rayon::prelude::*;
    Ok(specs.par_iter().map(run).collect())
}

/// Every query of the workload with its actual and estimated counts, in
/// drawing order (the ones [`query_error`] averages, act = 0 included).
pub fn query_answers(published: &Published, spec: &WorkloadSpec) -> CoreResult<Vec<QueryAnswer>> {
    check(published.original, spec)?;
    if published.original.rows() == 0 {
        return Ok(Vec::new());
    }
    Ok(answers(&Index::new(published)?, spec))
}

fn check(table: &Table, spec: &WorkloadSpec) -> CoreResult<()> {
    let dims = table.qis().len();
    if spec.q == 0 || spec.q > dims {
        return Err(CoreError::invalid_parameters(
            Field::WorkloadParam("q"),
            format!(
                "q (QIs per query) must be between 1 and the number of QIs ({dims}), got {}",
                spec.q
            ),
        ));
    }
    if spec.queries == 0 {
        return Err(CoreError::invalid_parameters(
            Field::WorkloadParam("queries"),
            "the workload needs at least one query",
        ));
    }
    if !(spec.selectivity > 0.0 && spec.selectivity <= 1.0) {
        return Err(CoreError::invalid_parameters(
            Field::WorkloadParam("selectivity"),
            format!(
                "the selectivity must be in (0, 1], got {}",
                spec.selectivity
            ),
        ));
    }
    Ok(())
}

fn empty(table: &Table, spec: &WorkloadSpec) -> WorkloadResult {
    WorkloadResult {
        mean_relative_error: None,
        median_relative_error: None,
        queries_used: 0,
        queries: spec.queries,
        sa_predicates: sa_predicates(table),
    }
}

/// Draws and answers the queries of `spec` (already checked). The queries
/// are drawn in order from the seed, then answered together on the job's
/// pool ([`Index::answer_all`]: the same answers on any number of
/// threads). On a 5M-row release of 357k groups the answers were two
/// fifths of a service job's CPU time.
fn answers(index: &Index, spec: &WorkloadSpec) -> Vec<QueryAnswer> {
    let (dims, sa_dims) = (index.qi_domains.len(), index.sa_domains.len());
    let qs = sa_dims.min(2);
    let fraction = spec.selectivity.powf(1.0 / (spec.q + qs) as f64);
    let mut rng = StdRng::seed_from_u64(spec.seed);
    let mut queries = Vec::with_capacity(spec.queries);
    for _ in 0..spec.queries {
        let qis: Vec<_> = sample(&mut rng, dims, spec.q)
            .into_iter()
            .map(|d| (d, index.qi_domains[d].draw(fraction, &mut rng)))
            .collect();
        // Drawn only when there is a choice, so a single-column SA
        // consumes no randomness for it; in column order either way.
        let columns: Vec<usize> = if qs == sa_dims {
            (0..sa_dims).collect()
        } else {
            let mut c = sample(&mut rng, sa_dims, qs).into_vec();
            c.sort_unstable();
            c
        };
        let sa: Vec<_> = columns
            .into_iter()
            .map(|j| (j, index.sa_domains[j].draw(fraction, &mut rng)))
            .collect();
        queries.push((qis, sa));
    }
    let counts = index.answer_all(&queries);
    queries
        .into_iter()
        .zip(counts)
        .map(|((qis, sa), (actual, estimate))| QueryAnswer {
            qis,
            sa,
            actual,
            estimate,
        })
        .collect()
}

/// Mean and median relative error over the answers with act > 0.
fn summarize(table: &Table, spec: &WorkloadSpec, answers: &[QueryAnswer]) -> WorkloadResult {
    let mut errors: Vec<f64> = answers
        .iter()
        .filter(|a| a.actual > 0)
        .map(|a| (a.actual as f64 - a.estimate).abs() / a.actual as f64)
        .collect();
    if errors.is_empty() {
        return empty(table, spec);
    }
    let mean = errors.iter().sum::<f64>() / errors.len() as f64;
    errors.sort_by(f64::total_cmp);
    let mid = errors.len() / 2;
    let median = if errors.len() % 2 == 1 {
        errors[mid]
    } else {
        (errors[mid - 1] + errors[mid]) / 2.0
    };
    WorkloadResult {
        mean_relative_error: Some(mean),
        median_relative_error: Some(median),
        queries_used: errors.len(),
        queries: spec.queries,
        sa_predicates: sa_predicates(table),
    }
}

#[cfg(test)]
mod tests;
