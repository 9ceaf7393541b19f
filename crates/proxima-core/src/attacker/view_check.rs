//! Turning every victim's figure into a [`ViewCheck`].

use std::cmp::Ordering;

use crate::audit::summary::group_id;
use crate::audit::{WorstGroup, MAX_WORST_GROUPS};
use crate::partition::Partition;

use super::candidates::CandidateSets;
use super::measure::{value_of, Judged, Spec, Worse};
use super::{Spread, ViewCheck, WorstVictim, MAX_WORST_VICTIMS};

/// Buckets of the per-victim histogram.
const BUCKETS: usize = 10;

/// "a is worse than b" first, then the lower index.
fn worst_first(worse: Worse, values: &[f64]) -> impl Fn(&u32, &u32) -> Ordering + '_ {
    move |a, b| {
        let (x, y) = (values[*a as usize], values[*b as usize]);
        let by_value = match worse {
            Worse::Higher => y.total_cmp(&x),
            Worse::Lower => x.total_cmp(&y),
        };
        by_value.then(a.cmp(b))
    }
}

/// The first `limit` indices of `0..values.len()` in worst-first order.
fn top(worse: Worse, values: &[f64], limit: usize) -> Vec<u32> {
    let cmp = worst_first(worse, values);
    let mut order: Vec<u32> = (0..values.len() as u32).collect();
    if order.len() > limit && limit > 0 {
        order.select_nth_unstable_by(limit - 1, &cmp);
    }
    order.truncate(limit);
    order.sort_by(&cmp);
    order
}

pub(crate) struct Context<'a> {
    pub partition: &'a Partition,
    pub group_of: &'a [u32],
    pub ids: Option<&'a [String]>,
    pub sets: &'a CandidateSets,
}

pub(crate) fn assemble(
    kind: &'static str,
    spec: &Spec,
    judged: &Judged,
    cx: &Context,
) -> ViewCheck {
    let worse = spec.worse();
    let figures = &judged.figure;
    let victims = figures.len();
    let over_bound = judged.over.iter().filter(|&&o| o).count();
    let worst = figures
        .iter()
        .copied()
        .reduce(|a, b| if worse.worse(b, a) { b } else { a })
        .unwrap_or(0.0);

    // Per group: its worst victim's figure, and whether any victim is over.
    let groups = cx.partition.len();
    let mut group_value = vec![f64::NAN; groups];
    let mut group_over = vec![false; groups];
    for (r, &f) in figures.iter().enumerate() {
        let g = cx.group_of[r] as usize;
        if group_value[g].is_nan() || worse.worse(f, group_value[g]) {
            group_value[g] = f;
        }
        group_over[g] |= judged.over[r];
    }
    let worst_groups = top(worse, &group_value, MAX_WORST_GROUPS)
        .into_iter()
        .map(|g| WorstGroup {
            group_id: group_id(cx.ids, g as usize),
            size: cx.partition.groups[g as usize].len(),
            value: group_value[g as usize],
        })
        .collect();
    let worst_victims = top(worse, figures, MAX_WORST_VICTIMS)
        .into_iter()
        .map(|r| {
            let s = judged.set[r as usize] as usize;
            WorstVictim {
                row: r,
                group: cx.group_of[r as usize],
                value: figures[r as usize],
                candidates: cx.sets.size(s),
                candidate_groups: cx.sets.members(s).len(),
            }
        })
        .collect();

    ViewCheck {
        kind,
        passed: over_bound == 0,
        victims,
        over_bound,
        worst,
        value: value_of(spec, worst, over_bound, victims, judged.achieved_m),
        violating_groups: group_over.iter().filter(|&&o| o).count(),
        violating_rows: over_bound,
        worst_groups,
        worst_victims,
        candidate_groups: spread(&cx.sets.spread),
        distribution: distribution(figures, spec.is_probability()),
    }
}

/// Median (the lower one for an even count) and maximum.
pub(crate) fn spread(counts: &[u32]) -> Spread {
    if counts.is_empty() {
        return Spread { median: 0, max: 0 };
    }
    let mut v = counts.to_vec();
    let mid = (v.len() - 1) / 2;
    let (_, &mut median, _) = v.select_nth_unstable(mid);
    Spread {
        median: median as usize,
        max: counts.iter().copied().max().unwrap_or(0) as usize,
    }
}

/// [`BUCKETS`] equal-width buckets `(upper edge, victims)`: over [0, 1]
/// for probability-like figures, else over [min, max] (one bucket when
/// every figure is equal). A figure goes to the first bucket whose upper
/// edge it does not exceed: buckets are (previous edge, edge], the first
/// also holding its lower end.
pub(crate) fn distribution(figures: &[f64], probability: bool) -> Vec<(f64, usize)> {
    if figures.is_empty() {
        return Vec::new();
    }
    let (lo, hi) = if probability {
        (0.0, 1.0)
    } else {
        figures
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
                (lo.min(x), hi.max(x))
            })
    };
    if lo == hi {
        return vec![(hi, figures.len())];
    }
    let edges: Vec<f64> = (1..=BUCKETS)
        .map(|i| {
            if i == BUCKETS {
                hi
            } else {
                lo + (hi - lo) * i as f64 / BUCKETS as f64
            }
        })
        .collect();
    let mut counts = vec![0usize; BUCKETS];
    for &x in figures {
        let b = edges.partition_point(|&e| e < x).min(BUCKETS - 1);
        counts[b] += 1;
    }
    edges.into_iter().zip(counts).collect()
}
