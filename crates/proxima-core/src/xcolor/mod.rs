//! XColor (`papers/xcolor.txt` §IV–V; DESIGN §4): a partition satisfying
//! (ε,δ)^k-dissimilarity — every group has ≥ k rows and every row has at
//! most ⌊(1−δ)(|G|−1)⌋ ε-neighbours in its group — found as a relaxed
//! equitable colouring of the graph Ψ^ε.
//!
//! Phases (progress ranges): degrees from an index (0–0.2, `degrees`), the
//! initial colouring (0.2–0.4, `initial`: QI-aware median cuts + Algorithm 1
//! per part, or the paper's plain Algorithm 1), Algorithm 2's swap repair
//! (0.4–0.9, `repair`), merging of classes the repair could not fix and the
//! final verification (0.9–1.0, `fallback`). Parameter guidance (Θ,
//! Inequality 4, risk(G, ε)) lives in `feasibility`.
//!
//! Guarantees: the release is verified group by group against the model
//! before it is returned, so a bug or a stalled repair yields
//! `model_not_satisfied`, never a breaching table. Within Lemma 2's
//! condition (see [`lemma2_holds`]) the repair always succeeds; beyond it,
//! it usually still does, and otherwise it ends — each swap lowers the
//! number of monochromatic edges, retries happen only after progress, and
//! work budgets cap hopeless searches — with residual-violation details.

mod degrees;
mod fallback;
mod feasibility;
mod initial;
mod repair;

pub use feasibility::{
    allowed_neighbours, feasibility, feasibility_with_progress, group_risk, inequality4_bound,
    lemma2_holds, max_guaranteed_delta, DissimilarityFeasibility, GuaranteedPair,
};

use crate::error::{CoreError, CoreResult, ErrorKind};
use crate::metric::{SensitiveSpace, SpaceKind};
use crate::params::Dissimilarity;
use crate::partition::Partition;
use crate::progress::Progress;
use crate::split::QiSpace;
use crate::table::Table;

use degrees::DegreeIndex;

/// How the initial colouring is built.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum InitialColoring {
    /// Median cuts over the QIs while each part meets Lemma 2's condition on
    /// its own subgraph, then Algorithm 1 inside each part (our default:
    /// groups stay QI-compact).
    #[default]
    QiAware,
    /// The paper's Algorithm 1 over the whole table (ignores the QIs).
    DegreeBalanced,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct XColorOptions {
    pub initial: InitialColoring,
}

/// Degrees of every row in Ψ^ε (ε-neighbours in the whole table, the row
/// itself excluded), from an index (see `degrees.rs`). For the asymmetric
/// `relative` space these are out-degrees |I(v)| − 1.
pub fn degrees(space: &SensitiveSpace, epsilon: f64) -> Vec<u32> {
    feasibility::index_degrees(space, epsilon)
}

/// Partitions `table` so that it satisfies (ε,δ)^k-dissimilarity under
/// `space`'s metric.
///
/// Errors: `invalid_parameters` at `/sensitive_metric` for the asymmetric
/// `relative` metric; `infeasible_parameters` at `/model/k` when k exceeds
/// the rows; `model_not_satisfied` (with `max_degree`, `bound`,
/// `residual_violating_groups`, `residual_violating_rows`, `guaranteed`)
/// when no release satisfying the model was found — never a partition that
/// misses it; `cancelled` when the progress callback says stop.
pub fn anonymize(
    table: &Table,
    space: &SensitiveSpace,
    params: &Dissimilarity,
    options: &XColorOptions,
    progress: Progress,
) -> CoreResult<Partition> {
    let n = table.rows();
    if space.rows() != n {
        return Err(CoreError::internal(format!(
            "the sensitive space has {} rows, the table {}",
            space.rows(),
            n
        )));
    }
    if let SpaceKind::Relative { .. } = space.kind() {
        return Err(CoreError::invalid_parameters(
            "/sensitive_metric",
            "XColor's dissimilarity needs a symmetric metric (ε-neighbourhood as a graph edge); \
             'relative' is asymmetric — use 'absolute' or 'lp'",
        ));
    }
    let (eps, delta, k) = (params.epsilon.get(), params.delta.get(), params.k.get());
    if k > n {
        let message = format!("k = {k} exceeds the {n} rows of the table; k must be ≤ {n}");
        return Err(
            CoreError::new(ErrorKind::InfeasibleParameters, message.clone())
                .with_error("/model/k", message)
                .with_detail("rows", n),
        );
    }

    // Degrees (0–0.2): the index, then Θ for guidance and diagnostics.
    let index = DegreeIndex::new(space, eps, progress.sub(0.0, 0.1))?;
    let global = index.global(progress.sub(0.1, 0.2))?;
    let max_degree = global.iter().copied().max().unwrap_or(0) as usize;
    progress.sub(0.0, 0.2).report(1.0)?;

    // Initial colouring (0.2–0.4).
    let qs = QiSpace::new(table);
    let mut rows: Vec<u32> = (0..n as u32).collect();
    if let SpaceKind::Scalar { values, .. } = space.kind() {
        // SA-sorted input keeps every (stable) part sorted: one sweep each.
        rows.sort_by(|&a, &b| values[a as usize].total_cmp(&values[b as usize]));
    }
    progress.sub(0.0, 0.2).report(1.0)?;
    let parts = match options.initial {
        InitialColoring::QiAware => {
            initial::qi_parts(&qs, &index, rows, k, delta, progress.sub(0.2, 0.3))?
        }
        InitialColoring::DegreeBalanced => vec![rows],
    };
    let (classes, ranges) = initial::colour_parts(&index, &parts, k, progress.sub(0.3, 0.4))?;
    drop(parts);

    // Repair (0.4–0.9).
    let mut repair = repair::Repair::new(space, &qs, (eps, delta, k), classes, ranges);
    repair.run(progress.sub(0.4, 0.9))?;
    let stalled = !repair.violations().is_empty();
    let exhausted = repair.exhausted;
    let classes = repair.classes;

    // Fallback and verification (0.9–1.0).
    let groups = if stalled {
        fallback::merge_violators(space, &qs, params, classes, progress.sub(0.9, 0.98))?
    } else {
        classes
    };
    let partition = fallback::publish(space, params, groups, max_degree).map_err(|mut e| {
        if exhausted && e.kind == ErrorKind::ModelNotSatisfied {
            e.message.push_str(
                " (the swap repair stopped at its work budget: the graph is far beyond Theorem 3's bound)",
            );
        }
        e.with_detail("repair_budget_exhausted", exhausted)
    })?;
    progress.report(1.0)?;
    Ok(partition)
}
