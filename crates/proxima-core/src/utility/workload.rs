//! The papers' count-query workload (docs/benchmarks.md §Utility).
//!
//! A query is `count(*) where A1 ∈ I1 and … and Aq ∈ Iq and SA ∈ Is` over q
//! distinct random QIs and the sensitive attribute:
//! * Each predicate is a random interval covering a fraction
//!   f = s^(1/(q+1)) of its attribute's domain, so that under independence
//!   and uniformity the expected selectivity is f^(q+1) = s. This is the
//!   (ε,m) paper's rule (epsilon-m-anonymity.txt §6: w = q + 1 dimensions,
//!   the last one the SA, |b_i| = ⌊|A_i|·s^(1/w)⌋) and XColor's
//!   (xcolor.txt §VI: |I_i| = |A_i|·s^(1/q) over all q queried attributes).
//! * Domains: a numeric attribute spans [min, max] of the table; when all
//!   its values are integers it is discrete (|A| = max − min + 1 integers,
//!   predicates of ⌊|A|·f⌋ ≥ 1 integers, as in the paper), otherwise
//!   continuous (length (max − min)·f). Dates are discrete days. A
//!   categorical attribute is the hierarchy's leaves in depth-first order,
//!   so an interval is a set of values in which every subtree is contiguous.
//! * The SA is the first sensitive column when the SA spans several (the
//!   papers' composite SA is queried per component; one component keeps the
//!   selectivity rule above exact).
//! * The actual count is taken on the original table. The estimate follows
//!   both papers (which defer to their refs 25 and 14): QIs are published
//!   generalized and the SA exactly per row (Table 1b of the (ε,m) paper),
//!   so a group contributes (its rows matching the SA predicate) × Π over
//!   the queried QIs of the fraction of the group's box that the predicate
//!   covers, assuming values uniform inside the box (for a categorical QI
//!   the box is the ancestor's leaves, for a discrete one its integers).
//! * The error of a query is |act − est| / act; queries whose actual count is
//!   0 are skipped (the relative error is undefined), as the papers do
//!   implicitly by dividing by act. `queries_used` says how many counted.
//!
//! Speed: per query the groups are scanned, not the rows. Inside a group the
//! rows are kept sorted by SA, so the SA predicate is two binary searches;
//! the actual count needs the rows only for groups whose box straddles a QI
//! predicate, and then only the rows inside the SA range.

use rand::rngs::StdRng;
use rand::seq::index::sample;
use rand::{Rng, SeedableRng};

use crate::error::{CoreError, CoreResult};
use crate::generalize::{GeneralizedQi, Release};
use crate::table::{QiValues, SaValues, Table};

/// The workload's parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkloadSpec {
    /// Number of queries drawn (the papers use 1,000).
    pub queries: usize,
    /// QIs per query (the papers' q_d / w − 1), 1 ≤ q ≤ number of QIs.
    pub q: usize,
    /// Expected selectivity s in (0, 1] (the papers' default 0.1).
    pub selectivity: f64,
    pub seed: u64,
}

impl Default for WorkloadSpec {
    fn default() -> Self {
        WorkloadSpec {
            queries: 1000,
            q: 2,
            selectivity: 0.1,
            seed: 0,
        }
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
}

/// A one-dimensional domain in key space (see the module doc).
#[derive(Debug, Clone, Copy)]
struct Domain {
    lo: f64,
    hi: f64,
    discrete: bool,
}

impl Domain {
    fn of(keys: &[f64], discrete: bool) -> Domain {
        let (lo, hi) = keys
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
                (lo.min(x), hi.max(x))
            });
        Domain { lo, hi, discrete }
    }

    /// A random closed interval covering a fraction `f` of the domain.
    fn draw(&self, f: f64, rng: &mut StdRng) -> (f64, f64) {
        if self.discrete {
            let size = self.hi - self.lo + 1.0;
            let len = (size * f).floor().max(1.0);
            let start = self.lo + (rng.gen::<f64>() * (size - len + 1.0)).floor();
            (start, start + len - 1.0)
        } else {
            let len = (self.hi - self.lo) * f;
            let start = self.lo + rng.gen::<f64>() * (self.hi - self.lo - len);
            (start, start + len)
        }
    }

    /// The fraction of the box `[l, h]` (inside this domain) that `[a, b]`
    /// covers, values being uniform inside the box.
    #[inline]
    fn overlap(&self, (l, h): (f64, f64), (a, b): (f64, f64)) -> f64 {
        if self.discrete {
            let covered = (h.min(b) - l.max(a) + 1.0).max(0.0);
            covered / (h - l + 1.0)
        } else if h > l {
            (h.min(b) - l.max(a)).max(0.0) / (h - l)
        } else if a <= l && l <= b {
            1.0
        } else {
            0.0
        }
    }
}

fn all_integers(v: &[f64]) -> bool {
    v.iter().all(|x| x.fract() == 0.0)
}

/// The table and release indexed for fast queries.
struct Index {
    /// Per QI: the domain.
    qi_domains: Vec<Domain>,
    /// `[group * dims + d]` = the group's box on QI d, in key space.
    boxes: Vec<(f64, f64)>,
    sa_domain: Domain,
    /// Group g's rows, sorted by SA key, sit at positions
    /// `offsets[g]..offsets[g+1]`: their SA keys in `sa[pos]`, their QI keys
    /// in `qi[pos * dims + d]`. Stored in this order, not by row, so the
    /// scan of a group reads memory sequentially (random access into
    /// per-column vectors made the workload 10× slower on 500k rows).
    offsets: Vec<usize>,
    sa: Vec<f64>,
    qi: Vec<f64>,
}

impl Index {
    fn new(table: &Table, release: &Release) -> CoreResult<Index> {
        let sa_col = table.sensitive().first().ok_or_else(|| {
            CoreError::invalid_parameters(
                "/workload",
                "the count-query workload needs a sensitive attribute; the table has none",
            )
        })?;
        let (sa_keys, sa_domain) = match &sa_col.values {
            SaValues::Numeric(v) => (v.clone(), Domain::of(v, all_integers(v))),
            SaValues::Categorical {
                codes, hierarchy, ..
            } => (
                codes
                    .iter()
                    .map(|&c| hierarchy.leaf_rank(c) as f64)
                    .collect(),
                Domain {
                    lo: 0.0,
                    hi: hierarchy.leaf_count() as f64 - 1.0,
                    discrete: true,
                },
            ),
        };
        let mut qi_domains = Vec::new();
        let mut qi_keys = Vec::new();
        // Per categorical QI: first depth-first rank under each node, per level.
        let mut first_rank: Vec<Vec<Vec<f64>>> = Vec::new();
        for c in table.qis() {
            let (keys, domain, firsts) = match &c.values {
                QiValues::Numeric(v) => (v.clone(), Domain::of(v, all_integers(v)), Vec::new()),
                QiValues::Date(v) => {
                    let keys: Vec<f64> = v.iter().map(|&d| d as f64).collect();
                    let domain = Domain::of(&keys, true);
                    (keys, domain, Vec::new())
                }
                QiValues::Categorical { codes, hierarchy } => {
                    let mut firsts: Vec<Vec<f64>> = (0..=hierarchy.height())
                        .map(|l| vec![f64::INFINITY; hierarchy.node_count(l)])
                        .collect();
                    for leaf in 0..hierarchy.leaf_count() as u32 {
                        let rank = hierarchy.leaf_rank(leaf) as f64;
                        for (level, f) in firsts.iter_mut().enumerate() {
                            let node = hierarchy.ancestor(leaf, level) as usize;
                            f[node] = f[node].min(rank);
                        }
                    }
                    let keys = codes
                        .iter()
                        .map(|&c| hierarchy.leaf_rank(c) as f64)
                        .collect();
                    let domain = Domain {
                        lo: 0.0,
                        hi: hierarchy.leaf_count() as f64 - 1.0,
                        discrete: true,
                    };
                    (keys, domain, firsts)
                }
            };
            qi_keys.push(keys);
            qi_domains.push(domain);
            first_rank.push(firsts);
        }
        let dims = qi_domains.len();
        let groups = release.partition().groups.len();
        let mut boxes = Vec::with_capacity(groups * dims);
        for gen in release.generalized() {
            for (d, g) in gen.iter().enumerate() {
                boxes.push(match (g, &table.qis()[d].values) {
                    (GeneralizedQi::Numeric { lo, hi }, _) => (*lo, *hi),
                    (GeneralizedQi::Date { lo, hi }, _) => (*lo as f64, *hi as f64),
                    (
                        GeneralizedQi::Categorical { level, node },
                        QiValues::Categorical { hierarchy, .. },
                    ) => {
                        let first = first_rank[d][*level][*node as usize];
                        let under = hierarchy.leaves_under(*level, *node) as f64;
                        (first, first + under - 1.0)
                    }
                    (GeneralizedQi::Categorical { .. }, _) => {
                        return Err(CoreError::internal(
                            "a categorical generalization of a non-categorical column",
                        ))
                    }
                });
            }
        }
        let mut offsets = Vec::with_capacity(groups + 1);
        let mut rows = Vec::with_capacity(release.partition().rows());
        offsets.push(0);
        for group in &release.partition().groups {
            let start = rows.len();
            rows.extend_from_slice(group);
            rows[start..].sort_by(|&a, &b| sa_keys[a as usize].total_cmp(&sa_keys[b as usize]));
            offsets.push(rows.len());
        }
        let sa = rows.iter().map(|&r| sa_keys[r as usize]).collect();
        let mut qi = Vec::with_capacity(rows.len() * dims);
        for &r in &rows {
            qi.extend(qi_keys.iter().map(|k| k[r as usize]));
        }
        Ok(Index {
            qi_domains,
            boxes,
            sa_domain,
            offsets,
            sa,
            qi,
        })
    }

    /// (actual, estimated) counts of one query: `preds` are (QI, interval)
    /// pairs, `sa_pred` the SA interval.
    fn answer(&self, preds: &[(usize, (f64, f64))], sa_pred: (f64, f64)) -> (u64, f64) {
        let dims = self.qi_domains.len();
        let (a, b) = sa_pred;
        let mut actual = 0u64;
        let mut estimate = 0.0;
        for g in 0..self.offsets.len() - 1 {
            let gbox = &self.boxes[g * dims..(g + 1) * dims];
            // Comparisons first: most groups miss some predicate entirely,
            // and then no row of theirs can match.
            if preds
                .iter()
                .any(|&(d, (pa, pb))| gbox[d].1 < pa || gbox[d].0 > pb)
            {
                continue;
            }
            let (s, e) = (self.offsets[g], self.offsets[g + 1]);
            let sa = &self.sa[s..e];
            let i0 = sa.partition_point(|&x| x < a);
            let i1 = sa.partition_point(|&x| x <= b);
            if i1 <= i0 {
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
            estimate += fraction * (i1 - i0) as f64;
            if inside {
                actual += (i1 - i0) as u64;
            } else {
                actual += self.qi[(s + i0) * dims..(s + i1) * dims]
                    .chunks_exact(dims)
                    .filter(|keys| {
                        preds
                            .iter()
                            .all(|&(d, (pa, pb))| pa <= keys[d] && keys[d] <= pb)
                    })
                    .count() as u64;
            }
        }
        (actual, estimate)
    }
}

/// Runs the workload of `spec` against `release` of `table` (see the module
/// doc). Deterministic for a given seed. Errors (`invalid_parameters`) for
/// q outside 1..=QIs, no queries, s outside (0, 1], or a table without SA.
pub fn query_error(
    table: &Table,
    release: &Release,
    spec: &WorkloadSpec,
) -> CoreResult<WorkloadResult> {
    let mut results = query_errors(table, release, std::slice::from_ref(spec))?;
    Ok(results.pop().expect("one result per spec"))
}

/// [`query_error`] for several specs over one index of the release: the
/// index holds a copy of every published row's keys (about 8 bytes per QI
/// and SA per row), so building it once bounds the memory of several
/// workloads by one index, not one each. The specs run one thread each
/// over the shared index; each result is the one [`query_error`] gives.
pub fn query_errors(
    table: &Table,
    release: &Release,
    specs: &[WorkloadSpec],
) -> CoreResult<Vec<WorkloadResult>> {
    let dims = table.qis().len();
    for spec in specs {
        check(spec, dims)?;
    }
    if table.rows() == 0 {
        return Ok(specs.iter().map(WorkloadResult::empty).collect());
    }
    let index = Index::new(table, release)?;
    if specs.len() == 1 {
        return Ok(vec![run(&index, &specs[0], dims)]);
    }
    let index = &index;
    Ok(std::thread::scope(|scope| {
        let handles: Vec<_> = specs
            .iter()
            .map(|spec| scope.spawn(move || run(index, spec, dims)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    }))
}

fn check(spec: &WorkloadSpec, dims: usize) -> CoreResult<()> {
    if spec.q == 0 || spec.q > dims {
        return Err(CoreError::invalid_parameters(
            "/workload/q",
            format!(
                "q (QIs per query) must be between 1 and the number of QIs ({dims}), got {}",
                spec.q
            ),
        ));
    }
    if spec.queries == 0 {
        return Err(CoreError::invalid_parameters(
            "/workload/queries",
            "the workload needs at least one query",
        ));
    }
    if !(spec.selectivity > 0.0 && spec.selectivity <= 1.0) {
        return Err(CoreError::invalid_parameters(
            "/workload/selectivity",
            format!(
                "the selectivity must be in (0, 1], got {}",
                spec.selectivity
            ),
        ));
    }
    Ok(())
}

impl WorkloadResult {
    fn empty(spec: &WorkloadSpec) -> WorkloadResult {
        WorkloadResult {
            mean_relative_error: None,
            median_relative_error: None,
            queries_used: 0,
            queries: spec.queries,
        }
    }
}

/// One workload over the index (its spec already checked).
fn run(index: &Index, spec: &WorkloadSpec, dims: usize) -> WorkloadResult {
    let fraction = spec.selectivity.powf(1.0 / (spec.q as f64 + 1.0));
    let mut rng = StdRng::seed_from_u64(spec.seed);
    let mut errors = Vec::with_capacity(spec.queries);
    let mut preds = Vec::with_capacity(spec.q);
    for _ in 0..spec.queries {
        preds.clear();
        for d in sample(&mut rng, dims, spec.q).into_iter() {
            preds.push((d, index.qi_domains[d].draw(fraction, &mut rng)));
        }
        let sa_pred = index.sa_domain.draw(fraction, &mut rng);
        let (actual, estimate) = index.answer(&preds, sa_pred);
        if actual > 0 {
            errors.push((actual as f64 - estimate).abs() / actual as f64);
        }
    }
    if errors.is_empty() {
        return WorkloadResult::empty(spec);
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
    }
}

#[cfg(test)]
mod tests;
