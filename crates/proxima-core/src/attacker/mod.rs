//! The attacker's view (docs/design.md §4): every audit check judged over the
//! rows an attacker cannot tell a victim apart from.
//!
//! An attacker knows a victim's QI values, not its group. The victim's
//! **candidates** C(v) are all rows of every group whose published box
//! contains v's QI point (v's own group always does, v itself included),
//! and the attacker's belief is uniform over them. Per victim:
//!
//! | check | figure | over the bound when | worst |
//! |---|---|---|---|
//! | `k_anonymity` | \|C(v)\| | \|C\| < k | min |
//! | `l_diversity` | the l the SA multiset of C(v) achieves (as [`crate::privacy`] per group) | the per-group rule fails on that multiset | min |
//! | `alpha_k` | the largest relative SA frequency in C(v) | > α, or \|C\| < k | max |
//! | `t_closeness` | EMD of C(v)'s SA distribution against the table's | > t | max |
//! | `epsilon_m` | x/\|C\|, x = \|{c ∈ C(v): c.S ∈ I(v.S)}\| (closed) | x·m > \|C\| | max |
//! | `dissimilarity` | \|{c ∈ C(v), c ≠ v: Δ(c,v) ≤ ε}\| / (\|C\|−1), 1 when \|C\| = 1 | \|C\| < k, or that count > (1−δ)(\|C\|−1), or \|C\| = 1 with δ > 0 | max |
//! | `delta_l_diversity` | \|C\|/n(v), n(v) = the candidates δ-similar to v (v included) | n(v)·l > \|C\| | min |
//!
//! (ε,m) reports `achieved_m` = ⌊1/worst⌋ (in integers, the least
//! ⌊\|C\|/x⌋), dissimilarity `vulnerability` = over_bound / victims. With
//! disjoint boxes C(v) is v's group and every figure is the per-group
//! audit's ([`crate::audit::audit`]): the same over-bound rows, the same
//! worst value (a lone candidate has risk 1 and breaches whenever δ > 0, as
//! the audit's lone group does).
//!
//! # Key spaces and boxes
//!
//! A [`GroupBoxes`] holds one closed interval per QI per group: numeric QIs
//! by value, date QIs by day, categorical QIs by depth-first leaf rank
//! ([`crate::hierarchy::Hierarchy::leaf_rank`]), where a node label covers
//! the rank range of the leaves under it — exactly the leaves it covers,
//! since subtrees are contiguous in that order.
//!
//! [`GroupBoxes::from_release`] reads the boxes a job's release publishes.
//! [`GroupBoxes::from_labels`] reads the boxes of an uploaded, already
//! generalized table from each group's published QI text:
//! * a numeric or date QI column holds points (its values);
//! * a categorical column with a declared hierarchy holds leaves (ingest
//!   checks that), each a point at its rank;
//! * a categorical column without a hierarchy whose every distinct label
//!   parses with [`crate::generalize::parse_numeric_label`] (`17`,
//!   `[17-24]`) is read as numeric intervals; else, when every label
//!   parses with [`crate::generalize::parse_date_interval_label`], as day
//!   intervals; else the labels are opaque: `*` covers every value, any
//!   other label only itself (a label is a point at its rank in order of
//!   first appearance, `*` spans every rank — so the rank of a literal `*`
//!   stands for the values no other label shows);
//! * a group whose rows read different labels gets the bounding box of
//!   them (for opaque labels, the range of their ranks).
//!
//! # Victims
//!
//! [`Victims::OriginalPoints`] (a job's release): every row is a victim at
//! its own QI point. [`Victims::AnyPointOfItsBox`] (an uploaded table whose
//! original values are unknown): every row of group g may sit at any point
//! of g's box. Every distinct set of groups covering some point of the box
//! is one candidate set: the cells of the arrangement of the boxes meeting
//! box(g), enumerated exactly (numeric keys are real numbers; day and rank
//! keys are integers, so no cell lies strictly between two consecutive
//! integers). A row is over the bound when any of its candidate sets
//! breaches; its figure is the worst over them (the first such set in
//! order of set id gives `candidates` in [`WorstVictim`]), and its count
//! of candidate groups in [`ViewCheck::candidate_groups`] is the largest.
//!
//! # Cost
//!
//! Nothing scans all groups per victim. A bounding-volume hierarchy over
//! the boxes finds, per group, the boxes that meet it; a group meeting no
//! other box gives all its rows the candidate set {g}, and its figures are
//! the per-group ones on its sorted SA. Victims of overlapping groups are
//! stabbed once per distinct QI point; equal candidate sets are interned
//! and measured once (neighbour counts are summed over the set's groups'
//! sorted SA, or taken in the union's own sorted SA when many victims
//! share a large set; a union's value counts are the sum of its groups').
//! Tables of 50,000 rows or more stab their victims and judge their sets
//! on two threads, with the very results of one.

mod boxes;
mod budget;
mod bvh;
mod candidates;
mod cells;
mod judged;
mod measure;
mod view_check;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_labels;
#[cfg(test)]
mod tests_report;

pub use boxes::GroupBoxes;
pub(crate) use boxes::{Axis, Dim};
pub use budget::DEFAULT_VIEW_BUDGET_BYTES;

use std::borrow::Cow;

use crate::audit::{AuditCheck, WorstGroup};
use crate::error::{CoreError, CoreResult, Detail, Field};
use crate::partition::Partition;
use crate::privacy::SaCodes;
use crate::progress::Progress;
use crate::table::Table;
use rayon::prelude::*;

use crate::ticker::Ticker;
use candidates::CandidateSets;
use measure::{judge, Spec};

/// The most victims a check lists in `worst_victims`.
pub const MAX_WORST_VICTIMS: usize = 20;

/// Who the possible victims are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Victims {
    /// A job's release: each row is a victim at its original QI point (the
    /// table's own values).
    OriginalPoints,
    /// An uploaded generalized table (original values unknown): every row of
    /// group g is a possible victim at every point of g's box; each distinct
    /// set of groups covering some point of the box is one candidate set.
    AnyPointOfItsBox,
}

/// Median (the lower one for an even count) and maximum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spread {
    pub median: usize,
    pub max: usize,
}

/// One of the worst victims of a check.
#[derive(Debug, Clone, PartialEq)]
pub struct WorstVictim {
    /// The row (index into the table).
    pub row: u32,
    /// Its group (0-based index into the partition).
    pub group: u32,
    pub value: f64,
    /// |C(v)| of the candidate set that gives `value`.
    pub candidates: usize,
    /// The number of groups in that set.
    pub candidate_groups: usize,
}

/// One check judged in the attacker's view.
#[derive(Debug, Clone, PartialEq)]
pub struct ViewCheck {
    pub kind: &'static str,
    pub passed: bool,
    /// Rows judged.
    pub victims: usize,
    /// Victims whose candidate set breaches the check.
    pub over_bound: usize,
    /// The worst per-victim figure (0 without victims).
    pub worst: f64,
    /// The check's natural figures, with the keys of
    /// [`crate::audit::CheckReport::value`], over candidate sets:
    /// `min_size`; `l`; `max_frequency`; `max_breach_probability` +
    /// `achieved_m`; `max_risk` + `vulnerability`; `max_emd`; `l` (δ,l).
    pub value: Vec<(String, Detail)>,
    /// Groups holding at least one over-bound victim.
    pub violating_groups: usize,
    /// = `over_bound`.
    pub violating_rows: usize,
    /// At most [`crate::audit::MAX_WORST_GROUPS`]: each group's worst
    /// victim figure, worst first (ties by group order).
    pub worst_groups: Vec<WorstGroup>,
    /// At most [`MAX_WORST_VICTIMS`], worst first, ties by row.
    pub worst_victims: Vec<WorstVictim>,
    /// The number of candidate groups per victim.
    pub candidate_groups: Spread,
    /// Histogram of per-victim figures, `(upper edge, victims)`: ten
    /// equal-width buckets over [0, 1] for probability-like figures
    /// ((ε,m), dissimilarity, α, t), over [min, max] otherwise (a single
    /// bucket when all are equal). A bucket holds the figures in
    /// (previous edge, edge], the first also its lower end.
    pub distribution: Vec<(f64, usize)>,
}

/// Checks that the partition, the boxes and the ids describe the same
/// groups of the table.
fn check_inputs(
    table: &Table,
    partition: &Partition,
    boxes: &GroupBoxes,
    group_ids: Option<&[String]>,
) -> CoreResult<()> {
    partition.check_covers(table.rows())?;
    if boxes.groups() != partition.len() || boxes.dimensions() != table.qis().len() {
        return Err(CoreError::internal(format!(
            "{} boxes over {} QIs for {} groups over {} QIs",
            boxes.groups(),
            boxes.dimensions(),
            partition.len(),
            table.qis().len()
        )));
    }
    if let Some(ids) = group_ids {
        if ids.len() != partition.len() {
            return Err(CoreError::internal(format!(
                "{} group ids for {} groups",
                ids.len(),
                partition.len()
            )));
        }
    }
    Ok(())
}

/// The headline figures of one check in the attacker's view (the job
/// summary's `attacker_view`).
#[derive(Debug, Clone, PartialEq)]
pub struct ViewSummary {
    pub victims: usize,
    pub over_bound: usize,
    pub worst: f64,
    pub candidate_groups: Spread,
}

impl From<&ViewCheck> for ViewSummary {
    fn from(c: &ViewCheck) -> Self {
        ViewSummary {
            victims: c.victims,
            over_bound: c.over_bound,
            worst: c.worst,
            candidate_groups: c.candidate_groups,
        }
    }
}

/// Evaluates every check in the attacker's view. `group_ids` as in
/// [`crate::audit::audit`] (None = "1".."G"). The same parameter validation
/// and errors as the audit (field [`Field::Check`]); internal errors when
/// the partition, boxes and ids do not fit the table, or when
/// [`Victims::OriginalPoints`] is asked of boxes read from interval labels.
/// Cancellation via `progress`, checked every few milliseconds of work.
/// Memory within [`DEFAULT_VIEW_BUDGET_BYTES`] ([`evaluate_within`]).
pub fn evaluate(
    table: &Table,
    partition: &Partition,
    boxes: &GroupBoxes,
    victims: Victims,
    checks: &[AuditCheck],
    group_ids: Option<&[String]>,
    progress: Progress,
) -> CoreResult<Vec<ViewCheck>> {
    evaluate_within(
        table,
        partition,
        boxes,
        victims,
        checks,
        group_ids,
        DEFAULT_VIEW_BUDGET_BYTES,
        None,
        progress,
    )
}

/// [`evaluate`] with the memory that grows with the boxes' overlap (the
/// candidate sets, their victims, the cells enumerated for
/// [`Victims::AnyPointOfItsBox`]) bounded by `budget_bytes`, checked before
/// allocating: past it, `attacker_view_too_large` (422) with the budget in
/// its details. The table, the partition, the per-check figures and one
/// (set, victim) entry per row (a few words per row) are the caller's and
/// not counted: they grow with the rows, not with the overlap.
///
/// `known_sa`: the SA's codes when the caller built them
/// ([`crate::audit::sa_codes_for`], shared with the audit of the same
/// checks); `None` to have them built here by the first check that needs
/// them.
#[allow(clippy::too_many_arguments)]
pub fn evaluate_within(
    table: &Table,
    partition: &Partition,
    boxes: &GroupBoxes,
    victims: Victims,
    checks: &[AuditCheck],
    group_ids: Option<&[String]>,
    budget_bytes: usize,
    known_sa: Option<&SaCodes>,
    progress: Progress,
) -> CoreResult<Vec<ViewCheck>> {
    // Checkpoints between the input checks (each a pass over the table).
    progress.report(0.0)?;
    check_inputs(table, partition, boxes, group_ids)?;
    progress.report(0.0)?;
    if victims == Victims::OriginalPoints {
        boxes.check_points(table)?;
        progress.report(0.0)?;
    }
    let mut sa: Option<Cow<'_, SaCodes>> = known_sa.map(Cow::Borrowed);
    let specs = checks
        .iter()
        .enumerate()
        .map(|(i, c)| {
            // The SA's codes, built by the first check that needs them,
            // make checkpoints at the view's start.
            let field = Field::Check(i);
            Spec::validate(c, table, &mut sa, &field, progress.sub(0.0, 0.0))
        })
        .collect::<CoreResult<Vec<_>>>()?;
    let mut ticker = Ticker::new(progress);
    ticker.phase(0.0)?;
    let budget = budget::Budget::new(budget_bytes);
    let sets = CandidateSets::build(table, partition, boxes, &victims, &mut ticker, budget)?;
    let group_of = partition.group_of_rows(table.rows());
    let cx = view_check::Context {
        partition,
        group_of: &group_of,
        ids: group_ids,
        sets: &sets,
    };
    // The checks are judged concurrently on the job's pool
    // (crate::parallel), each over the same sets, and reported in order.
    ticker.phase(0.2)?;
    let base = &ticker;
    let out: Vec<CoreResult<ViewCheck>> = checks
        .par_iter()
        .zip(&specs)
        .map(|(check, spec)| {
            let mut ticker = base.fork();
            let judged = judge(spec, sa.as_deref(), table, partition, &sets, &mut ticker)?;
            view_check::assemble(check.kind_name(), spec, &judged, &cx, &mut ticker)
        })
        .collect();
    let out = out.into_iter().collect::<CoreResult<Vec<_>>>()?;
    ticker.phase(1.0)?;
    Ok(out)
}

/// The per-victim figure of one check, one entry per row, for victims at
/// their original points (errors as [`evaluate`]'s, at `/checks/0`).
pub fn victim_figures(
    table: &Table,
    partition: &Partition,
    boxes: &GroupBoxes,
    check: &AuditCheck,
) -> CoreResult<Vec<f64>> {
    check_inputs(table, partition, boxes, None)?;
    boxes.check_points(table)?;
    let mut sa: Option<Cow<'_, SaCodes>> = None;
    let spec = Spec::validate(check, table, &mut sa, Field::Check(0), Progress::none())?;
    let mut ticker = Ticker::new(Progress::none());
    let sets = CandidateSets::build(
        table,
        partition,
        boxes,
        &Victims::OriginalPoints,
        &mut ticker,
        budget::Budget::new(DEFAULT_VIEW_BUDGET_BYTES),
    )?;
    let judged = judge(&spec, sa.as_deref(), table, partition, &sets, &mut ticker)?;
    Ok(judged.by_row(&sets, table.rows()).0)
}
