//! What each check measures on a candidate set, and its bound.
//!
//! [`Spec::validate`] resolves a check against the table with the very
//! helpers (and so the errors) of [`crate::audit::audit`]; [`judge`] then
//! computes every victim's figure over its candidate sets with the
//! per-group building blocks: value counts ([`crate::privacy`]) for the
//! checks on a set's SA multiset, and neighbour counts on sorted SA values
//! (the audit's binary searches, on the same arithmetic) for the checks
//! on a victim's own neighbourhood.

use std::borrow::Cow;

use crate::audit::proximity::{
    count_delta_similar, count_relative, count_scalar, delta_l_sa, delta_similar, epsilon_m_sa,
    neighbour_level,
};
use crate::audit::{dissimilarity_space, AuditCheck};
use crate::error::{CoreError, CoreResult, Detail, Field};
use crate::metric::{scalar_distance, SensitiveSpace, SpaceKind};
use crate::neighborhood::{in_closed_interval, relative_interval, within};
use crate::params::{Fraction, LDiversity, LDiversityVariant, Neighborhood, K};
use crate::partition::Partition;
use crate::privacy::{self, EmdReference, GroupCounts, SaCodes};
use crate::progress::Progress;
use crate::table::Table;

use super::candidates::CandidateSets;
pub(crate) use super::judged::Worse;
use super::judged::{Judged, Out, Tally};
use crate::ticker::Ticker;
use rayon::prelude::*;

/// A check resolved against the table: parameters validated, reference
/// distributions and SA spaces built.
pub(crate) enum Spec<'t> {
    K {
        k: usize,
    },
    L {
        l: f64,
        variant: LDiversityVariant,
    },
    AlphaK {
        alpha: f64,
        k: usize,
    },
    T {
        t: f64,
        reference: EmdReference,
    },
    EpsilonM {
        sa: &'t [f64],
        eps: f64,
        m: usize,
        neighborhood: Neighborhood,
    },
    Dissimilarity {
        space: SensitiveSpace,
        eps: f64,
        delta: f64,
        k: usize,
    },
    DeltaL {
        sa: &'t [f64],
        delta: f64,
        l: usize,
    },
}

impl<'t> Spec<'t> {
    /// Validates `check` (at `field`, [`Field::Check`]) as the audit does;
    /// `sa` holds the table's SA codes once a check has needed them (built
    /// here by the first that does, so its field names the error).
    pub fn validate(
        check: &AuditCheck,
        table: &'t Table,
        sa: &mut Option<Cow<'_, SaCodes>>,
        field: impl Into<Field>,
        progress: Progress,
    ) -> CoreResult<Spec<'t>> {
        let field = &field.into();
        if check.needs_sa_codes() && sa.is_none() {
            *sa = Some(Cow::Owned(SaCodes::new_checked(table, field, progress)?));
        }
        Ok(match check {
            AuditCheck::KAnonymity { k } => Spec::K { k: k.get() },
            AuditCheck::LDiversity { l, variant } => {
                LDiversity::new(*l, *variant, K::new(1, field)?, field)?;
                Spec::L {
                    l: *l,
                    variant: *variant,
                }
            }
            AuditCheck::AlphaK { alpha, k } => Spec::AlphaK {
                alpha: alpha.get(),
                k: k.get(),
            },
            AuditCheck::TCloseness { t, ground } => {
                let codes = sa.as_ref().expect("built above");
                Spec::T {
                    t: Fraction::get(*t),
                    reference: EmdReference::new(codes, *ground, field.param("ground_distance"))?,
                }
            }
            AuditCheck::EpsilonM(params) => Spec::EpsilonM {
                sa: epsilon_m_sa(*params, table, field)?,
                eps: params.epsilon.get(),
                m: params.m.get(),
                neighborhood: params.neighborhood,
            },
            AuditCheck::Dissimilarity { params, metric } => Spec::Dissimilarity {
                space: dissimilarity_space(table, metric.as_ref(), field)?,
                eps: params.epsilon.get(),
                delta: params.delta.get(),
                k: params.k.get(),
            },
            AuditCheck::SpecialUniques { .. } => {
                return Err(CoreError::internal(format!(
                    "{} is a table-wide scan, not judged per victim",
                    check.kind_name()
                )))
            }
            AuditCheck::DeltaLDiversity { delta, l } => Spec::DeltaL {
                sa: delta_l_sa(*delta, *l, table, field)?,
                delta: *delta,
                l: *l,
            },
        })
    }

    pub fn worse(&self) -> Worse {
        match self {
            Spec::K { .. } | Spec::L { .. } | Spec::DeltaL { .. } => Worse::Lower,
            _ => Worse::Higher,
        }
    }

    /// Figures in [0, 1] (their histogram spans [0, 1]).
    pub fn is_probability(&self) -> bool {
        !matches!(self, Spec::K { .. } | Spec::L { .. } | Spec::DeltaL { .. })
    }
}

/// What a check reads, built once and shared by the threads.
enum Prepared<'a> {
    Size,
    /// The SA codes and the groups: each set's value counts are made when
    /// it is judged, never kept per group (they would cost about a word
    /// per row).
    Frequency(&'a SaCodes, &'a Partition),
    Neighbours {
        counter: Counter<'a>,
        index: GroupIndex,
        rule: Rule,
    },
}

impl<'a> Prepared<'a> {
    fn new(spec: &'a Spec, sa: Option<&'a SaCodes>, partition: &'a Partition) -> Prepared<'a> {
        match spec {
            Spec::K { .. } => Prepared::Size,
            Spec::L { .. } | Spec::AlphaK { .. } | Spec::T { .. } => Prepared::Frequency(
                sa.expect("validated: a frequency check has its SA codes"),
                partition,
            ),
            Spec::EpsilonM { .. } | Spec::Dissimilarity { .. } | Spec::DeltaL { .. } => {
                let counter = Counter::new(spec);
                let index = GroupIndex::new(&counter, partition);
                Prepared::Neighbours {
                    counter,
                    index,
                    rule: Rule::of(spec),
                }
            }
        }
    }

    /// True when the figure depends on the victim, not only on its set.
    fn per_victim(&self) -> bool {
        matches!(self, Prepared::Neighbours { .. })
    }
}

/// Computes every victim's figure for `spec` over `sets`: on large tables
/// the sets are split in runs of about equal work, one per thread of the
/// pool ([`crate::parallel`]), judged concurrently and combined in order (a
/// victim keeps the worse figure, the earlier set on a tie, as one thread
/// would).
pub(crate) fn judge(
    spec: &Spec,
    sa: Option<&SaCodes>,
    table: &Table,
    partition: &Partition,
    sets: &CandidateSets,
    ticker: &mut Ticker,
) -> CoreResult<Judged> {
    judge_on(
        spec,
        sa,
        table,
        partition,
        sets,
        ticker,
        crate::parallel::parts_for(table.rows()),
        sets.once(),
    )
}

/// The least of two runs' achieved m.
fn least(a: Option<usize>, b: Option<usize>) -> Option<usize> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// [`judge`] in `parts` runs of about equal work, into slots per set or
/// victim when `slots` (only when every row is in one set) or else into
/// per-row tallies.
#[allow(clippy::too_many_arguments)]
fn judge_on(
    spec: &Spec,
    sa: Option<&SaCodes>,
    table: &Table,
    partition: &Partition,
    sets: &CandidateSets,
    ticker: &mut Ticker,
    parts: usize,
    slots: bool,
) -> CoreResult<Judged> {
    debug_assert!(!slots || sets.once(), "slots need every row in one set");
    let prepared = Prepared::new(spec, sa, partition);
    let n = table.rows();
    let ranges: Vec<std::ops::Range<usize>> = if parts <= 1 {
        std::iter::once(0..sets.len()).collect()
    } else {
        let work = |s: usize| sets.victims(s).len() * sets.members(s).len() + sets.size(s);
        crate::parallel::balanced_ranges(sets.len(), parts, work)
    };
    if slots {
        // One slot per set or per victim position; each run writes its own
        // consecutive slots of the shared arrays.
        let per_victim = prepared.per_victim();
        let at = |s: usize| if per_victim { sets.victim_start(s) } else { s };
        let slots = at(sets.len());
        let mut figure = vec![f64::NAN; slots];
        let mut over = vec![false; slots];
        let mut runs = Vec::with_capacity(ranges.len());
        let (mut rest_figure, mut rest_over) = (&mut figure[..], &mut over[..]);
        for range in ranges {
            let (base, end) = (at(range.start), at(range.end));
            let (f, more_f) = std::mem::take(&mut rest_figure).split_at_mut(end - base);
            let (o, more_o) = std::mem::take(&mut rest_over).split_at_mut(end - base);
            (rest_figure, rest_over) = (more_f, more_o);
            let out = Out::Slots {
                per_victim,
                base,
                figure: f,
                over: o,
            };
            runs.push((range, out));
        }
        let achieved_m = if runs.len() == 1 {
            let (range, mut out) = runs.pop().expect("one run");
            judge_sets(spec, &prepared, sets, range, &mut out, ticker)?
        } else {
            let base = &*ticker;
            let found: Vec<CoreResult<Option<usize>>> = runs
                .into_par_iter()
                .map(|(range, mut out)| {
                    judge_sets(spec, &prepared, sets, range, &mut out, &mut base.fork())
                })
                .collect();
            let mut achieved_m = None;
            for m in found {
                achieved_m = least(achieved_m, m?);
            }
            achieved_m
        };
        return Ok(Judged::slots(per_victim, figure, over, achieved_m));
    }
    let run = |range: std::ops::Range<usize>, ticker: &mut Ticker| {
        let mut out = Out::Rows(Tally::new(n));
        let m = judge_sets(spec, &prepared, sets, range, &mut out, ticker)?;
        let Out::Rows(tally) = out else {
            unreachable!("a tally was given")
        };
        Ok::<_, CoreError>((tally, m))
    };
    if ranges.len() == 1 {
        let (tally, m) = run(ranges[0].clone(), ticker)?;
        return Ok(Judged::rows(tally, m));
    }
    let base = &*ticker;
    let tallies: Vec<CoreResult<(Tally, Option<usize>)>> = ranges
        .into_par_iter()
        .map(|range| run(range, &mut base.fork()))
        .collect();
    let mut tallies = tallies.into_iter();
    let (mut out, mut achieved_m) = tallies.next().expect("at least one range")?;
    for later in tallies {
        let (later, m) = later?;
        out.absorb(later, spec.worse());
        achieved_m = least(achieved_m, m);
    }
    Ok(Judged::rows(out, achieved_m))
}

/// Judges the victims of the sets in `range` into `out`; (ε,m)'s least
/// ⌊|C|/x⌋ over them.
fn judge_sets(
    spec: &Spec,
    prepared: &Prepared,
    sets: &CandidateSets,
    range: std::ops::Range<usize>,
    out: &mut Out,
    ticker: &mut Ticker,
) -> CoreResult<Option<usize>> {
    let worse = spec.worse();
    match prepared {
        Prepared::Size => {
            let Spec::K { k } = spec else {
                unreachable!("prepared for k-anonymity")
            };
            for s in range {
                let c = sets.size(s);
                out.set(worse, sets, s, c as f64, c < *k);
                ticker.tick(sets.victims(s).len())?;
            }
            Ok(None)
        }
        Prepared::Frequency(sa, partition) => {
            let mut counter = SetCounter::new(sa.distinct_values());
            for s in range {
                if sets.victims(s).is_empty() {
                    continue;
                }
                let counts = counter.count(
                    sets.members(s)
                        .iter()
                        .flat_map(|&g| partition.groups[g as usize].iter())
                        .map(|&r| sa.code(r)),
                );
                let (figure, over) = match spec {
                    Spec::L { l, variant } => (
                        privacy::achieved_l(&counts, *variant),
                        !privacy::is_l_diverse(&counts, *l, *variant),
                    ),
                    Spec::AlphaK { alpha, k } => {
                        let f = privacy::max_frequency(&counts);
                        (f, f > *alpha || sets.size(s) < *k)
                    }
                    Spec::T { t, reference } => {
                        let e = reference.emd(&counts);
                        (e, e > *t)
                    }
                    _ => unreachable!("a frequency check"),
                };
                out.set(worse, sets, s, figure, over);
                ticker.tick(sets.size(s) + sets.victims(s).len())?;
                counter.recycle(counts);
            }
            Ok(None)
        }
        Prepared::Neighbours {
            counter,
            index,
            rule,
        } => {
            let mut achieved_m = usize::MAX;
            let mut union = Index::default();
            for s in range {
                let victims = sets.victims(s);
                if victims.is_empty() {
                    continue;
                }
                let members = sets.members(s);
                let c = sets.size(s);
                // Sum the members' counts, or count once in the union's own
                // index, whichever touches fewer values.
                let by_union = members.len() > 1
                    && !matches!(counter, Counter::Pairwise { .. })
                    && victims.len() * members.len() > 2 * c;
                let per_victim = if by_union { 1 } else { members.len() };
                // One victim's cost: a pass over the candidates for the
                // pairwise test, a search per member otherwise. Counted per
                // victim, so a set with many victims and many candidates
                // (a wide union on a large table) still reaches a
                // checkpoint every few milliseconds.
                let scan = match counter {
                    Counter::Pairwise { .. } => c,
                    _ => per_victim,
                };
                if by_union {
                    union.fill(index, members);
                    ticker.tick(c)?;
                }
                for (i, &v) in victims.iter().enumerate() {
                    let x = if by_union {
                        counter.count(union.slice(), v)
                    } else {
                        members
                            .iter()
                            .map(|&g| counter.count(index.group(g), v))
                            .sum()
                    };
                    let (figure, over) = rule.apply(x, c);
                    if let Rule::EpsilonM { .. } = rule {
                        achieved_m = achieved_m.min(c / x.max(1));
                    }
                    out.victim(worse, sets, s, i, v, figure, over);
                    ticker.tick(scan)?;
                }
            }
            Ok((achieved_m != usize::MAX).then_some(achieved_m))
        }
    }
}

/// The SA value counts of a set's rows: added up in a dense table over the
/// codes (only the touched codes are read back and reset), so a set costs
/// its rows and distinct values, not a sort of its rows.
struct SetCounter {
    dense: Vec<u32>,
    touched: Vec<u32>,
    spare: Vec<(u32, u64)>,
}

impl SetCounter {
    fn new(codes: usize) -> SetCounter {
        SetCounter {
            dense: vec![0; codes],
            touched: Vec::new(),
            spare: Vec::new(),
        }
    }

    /// The counts of `codes` (any order; fewer than 2^32 of them).
    fn count(&mut self, codes: impl Iterator<Item = u32>) -> GroupCounts {
        self.touched.clear();
        for code in codes {
            let slot = &mut self.dense[code as usize];
            if *slot == 0 {
                self.touched.push(code);
            }
            *slot += 1;
        }
        self.touched.sort_unstable();
        let mut entries = std::mem::take(&mut self.spare);
        entries.clear();
        for &code in &self.touched {
            entries.push((code, std::mem::take(&mut self.dense[code as usize]) as u64));
        }
        GroupCounts::from_sorted_entries(entries)
    }

    /// Hands a count's allocation back for the next set.
    fn recycle(&mut self, counts: GroupCounts) {
        self.spare = counts.into_entries();
    }
}

/// How a victim's neighbour count x among |C| = c candidates becomes its
/// figure and verdict.
#[derive(Debug, Clone, Copy)]
enum Rule {
    /// Pbrh = x/c, over when x·m > c.
    EpsilonM { m: usize },
    /// risk = (x−1)/(c−1) (1 when c = 1), over when c < k or
    /// x − 1 > (1−δ)(c−1), and a lone candidate (risk 1) when δ > 0 —
    /// Definition 6's convention, as the per-group audit and XColor's groups
    /// have it.
    Dissimilarity { delta: f64, k: usize },
    /// l = c/x, over when x·l > c.
    DeltaL { l: usize },
}

impl Rule {
    fn of(spec: &Spec) -> Rule {
        match spec {
            Spec::EpsilonM { m, .. } => Rule::EpsilonM { m: *m },
            Spec::Dissimilarity { delta, k, .. } => Rule::Dissimilarity {
                delta: *delta,
                k: *k,
            },
            Spec::DeltaL { l, .. } => Rule::DeltaL { l: *l },
            _ => unreachable!("a neighbourhood check"),
        }
    }

    #[inline]
    fn apply(self, x: usize, c: usize) -> (f64, bool) {
        match self {
            Rule::EpsilonM { m } => (x as f64 / c as f64, x * m > c),
            Rule::Dissimilarity { delta, k } => {
                if c == 1 {
                    (1.0, c < k || delta > 0.0)
                } else {
                    let others = x.saturating_sub(1);
                    let limit = (1.0 - delta) * (c - 1) as f64;
                    (
                        others as f64 / (c - 1) as f64,
                        c < k || others as f64 > limit,
                    )
                }
            }
            Rule::DeltaL { l } => (c as f64 / x.max(1) as f64, x * l > c),
        }
    }
}

/// Indexes at most this long are scanned rather than searched.
const SHORT: usize = 16;

/// Counts a victim's neighbours among a sorted index of candidates, on
/// the audit's arithmetic. The victim is always among the candidates and
/// always its own neighbour.
enum Counter<'a> {
    /// |x − y| / divisor ≤ ε (absolute (ε,m), scalar dissimilarity).
    Scalar {
        values: &'a [f64],
        eps: f64,
        divisor: f64,
    },
    /// y ∈ [x(1−ε), x(1+ε)].
    Relative { values: &'a [f64], eps: f64 },
    /// δ-intervals overlap ((δ,l)-diversity).
    Similar { values: &'a [f64], delta: f64 },
    /// Equal keys (a categorical value, or its ancestor at the neighbour
    /// level of a hierarchical metric).
    Keys { keys: Vec<u32> },
    /// Every candidate is a neighbour (the equal metric with ε ≥ 1).
    Everyone,
    /// The pairwise test (composite and distribution SAs).
    Pairwise { space: &'a SensitiveSpace, eps: f64 },
}

impl<'a> Counter<'a> {
    fn new(spec: &'a Spec) -> Counter<'a> {
        match spec {
            Spec::EpsilonM {
                sa,
                eps,
                neighborhood: Neighborhood::Absolute,
                ..
            } => Counter::Scalar {
                values: sa,
                eps: *eps,
                divisor: 1.0,
            },
            Spec::EpsilonM {
                sa,
                eps,
                neighborhood: Neighborhood::Relative,
                ..
            } => Counter::Relative {
                values: sa,
                eps: *eps,
            },
            Spec::DeltaL { sa, delta, .. } => Counter::Similar {
                values: sa,
                delta: *delta,
            },
            Spec::Dissimilarity { space, eps, .. } => {
                let eps = *eps;
                match space.kind() {
                    SpaceKind::Scalar { values, divisor } => Counter::Scalar {
                        values,
                        eps,
                        divisor: *divisor,
                    },
                    SpaceKind::Relative { values } => Counter::Relative { values, eps },
                    SpaceKind::Categorical {
                        codes,
                        hierarchy,
                        hierarchical,
                    } => {
                        if *hierarchical {
                            let level = neighbour_level(hierarchy, eps);
                            Counter::Keys {
                                keys: codes
                                    .iter()
                                    .map(|&c| hierarchy.ancestor(c, level))
                                    .collect(),
                            }
                        } else if within(1.0, eps) {
                            Counter::Everyone
                        } else {
                            Counter::Keys {
                                keys: codes.clone(),
                            }
                        }
                    }
                    SpaceKind::Lp { .. } | SpaceKind::Variational { .. } => {
                        Counter::Pairwise { space, eps }
                    }
                }
            }
            _ => unreachable!("a neighbourhood check"),
        }
    }

    /// The victim's neighbours in `index` (sorted values or keys, or rows
    /// for the pairwise test). A short index is scanned with the very
    /// membership test the binary searches bound (one group of a release
    /// is a handful of rows: a scan beats two searches there).
    #[inline]
    fn count(&self, index: IndexSlice, v: u32) -> usize {
        let r = v as usize;
        match (self, index) {
            (
                Counter::Scalar {
                    values,
                    eps,
                    divisor,
                },
                IndexSlice::Values(s),
            ) if s.len() <= SHORT => {
                let x = values[r];
                s.iter()
                    .filter(|&&y| within(scalar_distance(x, y, *divisor), *eps))
                    .count()
            }
            (Counter::Relative { values, eps }, IndexSlice::Values(s)) if s.len() <= SHORT => {
                let (lo, hi) = relative_interval(values[r], *eps);
                s.iter().filter(|&&y| in_closed_interval(y, lo, hi)).count()
            }
            (Counter::Similar { values, delta }, IndexSlice::Values(s)) if s.len() <= SHORT => {
                let x = values[r];
                s.iter().filter(|&&w| delta_similar(x, w, *delta)).count()
            }
            (Counter::Keys { keys }, IndexSlice::Keys(s)) if s.len() <= SHORT => {
                let k = keys[r];
                s.iter().filter(|&&x| x == k).count()
            }
            (
                Counter::Scalar {
                    values,
                    eps,
                    divisor,
                },
                IndexSlice::Values(s),
            ) => count_scalar(s, values[r], *eps, *divisor),
            (Counter::Relative { values, eps }, IndexSlice::Values(s)) => {
                count_relative(s, values[r], *eps)
            }
            (Counter::Similar { values, delta }, IndexSlice::Values(s)) => {
                count_delta_similar(s, values[r], *delta)
            }
            (Counter::Keys { keys }, IndexSlice::Keys(s)) => {
                let k = keys[r];
                s.partition_point(|&x| x <= k) - s.partition_point(|&x| x < k)
            }
            (Counter::Everyone, IndexSlice::Keys(s)) => s.len(),
            (Counter::Pairwise { space, eps }, IndexSlice::Keys(rows)) => rows
                .iter()
                .filter(|&&c| space.is_neighbor(v, c, *eps))
                .count(),
            _ => unreachable!("an index built for its counter"),
        }
    }
}

#[derive(Clone, Copy)]
enum IndexSlice<'a> {
    Values(&'a [f64]),
    /// Sorted keys, or the rows themselves (pairwise, `Everyone`).
    Keys(&'a [u32]),
}

/// Every group's sorted values (or keys, or rows), concatenated in
/// partition order.
struct GroupIndex {
    start: Vec<usize>,
    /// True when the index holds values (else keys or rows).
    is_values: bool,
    values: Vec<f64>,
    keys: Vec<u32>,
}

impl GroupIndex {
    fn new(counter: &Counter, partition: &Partition) -> GroupIndex {
        let is_values = matches!(
            counter,
            Counter::Scalar { .. } | Counter::Relative { .. } | Counter::Similar { .. }
        );
        let mut start = Vec::with_capacity(partition.len() + 1);
        start.push(0);
        let mut values = Vec::new();
        let mut keys = Vec::new();
        for rows in &partition.groups {
            match counter {
                Counter::Scalar { values: v, .. }
                | Counter::Relative { values: v, .. }
                | Counter::Similar { values: v, .. } => {
                    let from = values.len();
                    values.extend(rows.iter().map(|&r| v[r as usize]));
                    values[from..].sort_unstable_by(f64::total_cmp);
                }
                Counter::Keys { keys: k } => {
                    let from = keys.len();
                    keys.extend(rows.iter().map(|&r| k[r as usize]));
                    keys[from..].sort_unstable();
                }
                Counter::Everyone | Counter::Pairwise { .. } => keys.extend_from_slice(rows),
            }
            start.push(if is_values { values.len() } else { keys.len() });
        }
        GroupIndex {
            start,
            is_values,
            values,
            keys,
        }
    }

    fn group(&self, g: u32) -> IndexSlice<'_> {
        let (a, b) = (self.start[g as usize], self.start[g as usize + 1]);
        if self.is_values {
            IndexSlice::Values(&self.values[a..b])
        } else {
            IndexSlice::Keys(&self.keys[a..b])
        }
    }
}

/// The sorted index of one union of groups (reused buffer).
#[derive(Default)]
struct Index {
    values: Vec<f64>,
    keys: Vec<u32>,
    is_values: bool,
}

impl Index {
    fn fill(&mut self, groups: &GroupIndex, members: &[u32]) {
        self.values.clear();
        self.keys.clear();
        self.is_values = groups.is_values;
        for &g in members {
            match groups.group(g) {
                IndexSlice::Values(s) => self.values.extend_from_slice(s),
                IndexSlice::Keys(s) => self.keys.extend_from_slice(s),
            }
        }
        if self.is_values {
            self.values.sort_unstable_by(f64::total_cmp);
        } else {
            self.keys.sort_unstable();
        }
    }

    fn slice(&self) -> IndexSlice<'_> {
        if self.is_values {
            IndexSlice::Values(&self.values)
        } else {
            IndexSlice::Keys(&self.keys)
        }
    }
}

/// The check's natural figures over the victims (same keys as the audit's
/// `CheckReport::value`).
pub(crate) fn value_of(
    spec: &Spec,
    worst: f64,
    over: usize,
    victims: usize,
    achieved_m: Option<usize>,
) -> Vec<(String, Detail)> {
    let d = |k: &str, v: Detail| (k.to_string(), v);
    match spec {
        Spec::K { .. } => vec![d("min_size", Detail::Int(worst as i64))],
        Spec::L { variant, .. } => match variant {
            LDiversityVariant::Entropy => vec![d("l", Detail::Num(worst))],
            _ => vec![d("l", Detail::Int(worst as i64))],
        },
        Spec::AlphaK { .. } => vec![d("max_frequency", Detail::Num(worst))],
        Spec::T { .. } => vec![d("max_emd", Detail::Num(worst))],
        Spec::EpsilonM { .. } => vec![
            d("max_breach_probability", Detail::Num(worst)),
            d("achieved_m", Detail::Int(achieved_m.unwrap_or(0) as i64)),
        ],
        Spec::Dissimilarity { .. } => vec![
            d("max_risk", Detail::Num(worst)),
            d(
                "vulnerability",
                Detail::Num(if victims == 0 {
                    0.0
                } else {
                    over as f64 / victims as f64
                }),
            ),
        ],
        Spec::DeltaL { .. } => vec![d("l", Detail::Num(worst))],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attacker::{GroupBoxes, Victims};
    use crate::generalize::generalize;
    use crate::params::{Epsilon, EpsilonM, LDiversityVariant, M};
    use crate::progress::Progress;
    use crate::table::{QiValues, SaValues};

    /// A set's counts, added up densely, are the sorted counts of its rows.
    #[test]
    fn set_counts_are_the_sorted_counts() {
        let groups: Vec<Vec<u32>> = vec![
            vec![3, 1, 1, 9],
            vec![],
            vec![1, 2, 9, 9, 9],
            vec![0],
            vec![7, 3],
        ];
        let mut counter = SetCounter::new(10);
        for take in 1..=groups.len() {
            let all = || groups[..take].iter().flatten().copied();
            let counted = counter.count(all());
            assert_eq!(counted, GroupCounts::from_codes(all()), "{take} groups");
            counter.recycle(counted);
        }
    }

    /// Two threads judge exactly as one: the same figure, verdict and set
    /// for every victim, the same achieved m.
    #[test]
    fn several_threads_judge_as_one() {
        let n = 3000u32;
        // Rows dealt round-robin into 300 groups over the QI order: every
        // group spans most of the QI range, so boxes overlap heavily.
        let qi: Vec<f64> = (0..n).map(|i| ((i * 7) % 1000) as f64).collect();
        let sa: Vec<f64> = (0..n).map(|i| ((i * 13) % 97) as f64).collect();
        let t = Table::from_columns(
            vec![("q".into(), QiValues::Numeric(qi))],
            vec![("s".into(), SaValues::Numeric(sa))],
        );
        let mut groups = vec![Vec::new(); 300];
        for i in 0..n {
            groups[(i % 300) as usize].push(i);
        }
        let release = generalize(&t, Partition::new(groups)).unwrap();
        let p = release.partition();
        let boxes = GroupBoxes::from_release(&t, &release);
        let mut ticker = Ticker::new(Progress::none());
        let build = |victims: Victims, ticker: &mut Ticker| {
            CandidateSets::build(
                &t,
                p,
                &boxes,
                &victims,
                ticker,
                crate::attacker::budget::Budget::new(usize::MAX),
            )
            .unwrap()
        };
        let at_points = build(Victims::OriginalPoints, &mut ticker);
        assert!(at_points.once());
        assert!((0..at_points.len()).any(|s| at_points.members(s).len() > 1));
        let anywhere = build(Victims::AnyPointOfItsBox, &mut ticker);
        assert!(!anywhere.once(), "victims in several sets");
        let checks = [
            AuditCheck::EpsilonM(
                EpsilonM::new(
                    Epsilon::new(3.0, "/e").unwrap(),
                    M::new(3, "/m").unwrap(),
                    Neighborhood::Absolute,
                    "/e",
                )
                .unwrap(),
            ),
            AuditCheck::KAnonymity {
                k: K::new(12, "/k").unwrap(),
            },
            AuditCheck::LDiversity {
                l: 5.0,
                variant: LDiversityVariant::Entropy,
            },
        ];
        let mut codes = None;
        for check in &checks {
            let spec =
                Spec::validate(check, &t, &mut codes, "/checks/0", Progress::none()).unwrap();
            let rows = n as usize;
            for sets in [&at_points, &anywhere] {
                let judge = |parts: usize, slots: bool, ticker: &mut Ticker| {
                    judge_on(&spec, codes.as_deref(), &t, p, sets, ticker, parts, slots).unwrap()
                };
                // One thread, per-row tallies: the reference.
                let one = judge(1, false, &mut ticker);
                let (_, _, set) = one.by_row(sets, rows);
                assert!(set.iter().all(|&s| s != u32::MAX), "every row judged");
                for parts in [1, 2, 3, 7] {
                    for slots in [false, sets.once()] {
                        let many = judge(parts, slots, &mut ticker);
                        assert_eq!(one.by_row(sets, rows), many.by_row(sets, rows));
                        assert_eq!(one.achieved_m, many.achieved_m);
                    }
                }
            }
        }
    }
}
