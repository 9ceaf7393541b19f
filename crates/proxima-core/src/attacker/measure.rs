//! What each check measures on a candidate set, and its bound.
//!
//! [`Spec::validate`] resolves a check against the table with the very
//! helpers (and so the errors) of [`crate::audit::audit`]; [`judge`] then
//! computes every victim's figure over its candidate sets with the
//! per-group building blocks: value counts ([`crate::privacy`]) for the
//! checks on a set's SA multiset, and neighbour counts on sorted SA values
//! (the audit's binary searches, on the same arithmetic) for the checks
//! on a victim's own neighbourhood.

use crate::audit::proximity::{
    count_delta_similar, count_relative, count_scalar, delta_l_sa, epsilon_m_sa, neighbour_level,
};
use crate::audit::{dissimilarity_space, AuditCheck};
use crate::error::{CoreResult, Detail};
use crate::metric::{SensitiveSpace, SpaceKind};
use crate::neighborhood::within;
use crate::params::{Fraction, LDiversity, LDiversityVariant, Neighborhood, K};
use crate::partition::Partition;
use crate::privacy::{self, EmdReference, GroupCounts, SaCodes};
use crate::table::Table;

use super::candidates::CandidateSets;
use super::ticker::Ticker;

/// Which direction of a figure is worse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Worse {
    Higher,
    Lower,
}

impl Worse {
    /// True when `a` is strictly worse than `b`.
    #[inline]
    pub fn worse(self, a: f64, b: f64) -> bool {
        match self {
            Worse::Higher => a > b,
            Worse::Lower => a < b,
        }
    }
}

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
    /// Validates `check` (at `pointer`, `/checks/{i}`) as the audit does;
    /// `sa` holds the table's SA codes once a check has needed them (built
    /// here by the first that does, so its pointer names the error).
    pub fn validate(
        check: &AuditCheck,
        table: &'t Table,
        sa: &mut Option<SaCodes>,
        pointer: &str,
    ) -> CoreResult<Spec<'t>> {
        let needs_sa = matches!(
            check,
            AuditCheck::LDiversity { .. }
                | AuditCheck::AlphaK { .. }
                | AuditCheck::TCloseness { .. }
        );
        if needs_sa && sa.is_none() {
            *sa = Some(SaCodes::new(table, pointer)?);
        }
        Ok(match check {
            AuditCheck::KAnonymity { k } => Spec::K { k: k.get() },
            AuditCheck::LDiversity { l, variant } => {
                LDiversity::new(*l, *variant, K::new(1, pointer)?, pointer)?;
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
                    reference: EmdReference::new(
                        codes,
                        *ground,
                        &format!("{pointer}/ground_distance"),
                    )?,
                }
            }
            AuditCheck::EpsilonM(params) => Spec::EpsilonM {
                sa: epsilon_m_sa(*params, table, pointer)?,
                eps: params.epsilon.get(),
                m: params.m.get(),
                neighborhood: params.neighborhood,
            },
            AuditCheck::Dissimilarity { params, metric } => Spec::Dissimilarity {
                space: dissimilarity_space(table, metric.as_ref(), pointer)?,
                eps: params.epsilon.get(),
                delta: params.delta.get(),
                k: params.k.get(),
            },
            AuditCheck::DeltaLDiversity { delta, l } => Spec::DeltaL {
                sa: delta_l_sa(*delta, *l, table, pointer)?,
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

/// Every victim's figure: the worst over its candidate sets.
pub(crate) struct Judged {
    pub figure: Vec<f64>,
    /// True when any of the victim's candidate sets breaches.
    pub over: Vec<bool>,
    /// The set that gives the victim's figure (the first such in set order).
    pub set: Vec<u32>,
    /// (ε,m) only: the least ⌊|C|/x⌋ over every victim and candidate set.
    pub achieved_m: Option<usize>,
}

impl Judged {
    fn new(n: usize) -> Self {
        Judged {
            figure: vec![f64::NAN; n],
            over: vec![false; n],
            set: vec![u32::MAX; n],
            achieved_m: None,
        }
    }

    #[inline]
    fn record(&mut self, worse: Worse, row: u32, set: usize, figure: f64, over: bool) {
        let r = row as usize;
        self.over[r] |= over;
        if self.set[r] == u32::MAX || worse.worse(figure, self.figure[r]) {
            self.figure[r] = figure;
            self.set[r] = set as u32;
        }
    }
}

/// Computes every victim's figure for `spec` over `sets`.
pub(crate) fn judge(
    spec: &Spec,
    sa: Option<&SaCodes>,
    table: &Table,
    partition: &Partition,
    sets: &CandidateSets,
    ticker: &mut Ticker,
) -> CoreResult<Judged> {
    let mut out = Judged::new(table.rows());
    let worse = spec.worse();
    match spec {
        Spec::K { k } => {
            for s in 0..sets.len() {
                let c = sets.size(s);
                for &v in sets.victims(s) {
                    out.record(worse, v, s, c as f64, c < *k);
                }
                ticker.tick(sets.victims(s).len())?;
            }
        }
        Spec::L { .. } | Spec::AlphaK { .. } | Spec::T { .. } => {
            let sa = sa.expect("validated: a frequency check has its SA codes");
            let mut codes: Vec<u32> = Vec::new();
            for s in 0..sets.len() {
                if sets.victims(s).is_empty() {
                    continue;
                }
                let counts = union_counts(sa, partition, sets.members(s), &mut codes);
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
                for &v in sets.victims(s) {
                    out.record(worse, v, s, figure, over);
                }
                ticker.tick(sets.size(s) + sets.victims(s).len())?;
            }
        }
        Spec::EpsilonM { .. } | Spec::Dissimilarity { .. } | Spec::DeltaL { .. } => {
            let counter = Counter::new(spec);
            let index = GroupIndex::new(&counter, partition);
            let rule = Rule::of(spec);
            let mut achieved_m = usize::MAX;
            let mut union = Index::default();
            for s in 0..sets.len() {
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
                if by_union {
                    union.fill(&index, members);
                }
                for &v in victims {
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
                    out.record(worse, v, s, figure, over);
                }
                let per_victim = if by_union { 1 } else { members.len() };
                let scan = match counter {
                    Counter::Pairwise { .. } => c,
                    _ => per_victim,
                };
                ticker.tick(victims.len() * scan + if by_union { c } else { 0 })?;
            }
            if let Rule::EpsilonM { .. } = rule {
                out.achieved_m = Some(if achieved_m == usize::MAX {
                    0
                } else {
                    achieved_m
                });
            }
        }
    }
    Ok(out)
}

/// The SA value counts of the union of `members` (a group's own counts for
/// a singleton).
fn union_counts(
    sa: &SaCodes,
    partition: &Partition,
    members: &[u32],
    codes: &mut Vec<u32>,
) -> GroupCounts {
    if let [g] = members {
        return sa.group_counts(&partition.groups[*g as usize]);
    }
    codes.clear();
    for &g in members {
        codes.extend(partition.groups[g as usize].iter().map(|&r| sa.code(r)));
    }
    GroupCounts::from_codes(codes.iter().copied())
}

/// How a victim's neighbour count x among |C| = c candidates becomes its
/// figure and verdict.
#[derive(Debug, Clone, Copy)]
enum Rule {
    /// Pbrh = x/c, over when x·m > c.
    EpsilonM { m: usize },
    /// risk = (x−1)/(c−1) (1 when c = 1), over when c < k or
    /// x − 1 > (1−δ)(c−1).
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
                    (1.0, c < k)
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
    /// for the pairwise test).
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
