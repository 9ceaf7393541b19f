//! Turning every victim's figure into a [`ViewCheck`].

use std::cmp::Ordering;

use crate::audit::summary::group_id;
use crate::audit::{WorstGroup, MAX_WORST_GROUPS};
use crate::partition::Partition;

use super::candidates::CandidateSets;
use super::judged::Judged;
use super::measure::{value_of, Spec, Worse};
use super::{ViewCheck, WorstVictim, MAX_WORST_VICTIMS};
use crate::error::CoreResult;
use crate::ticker::Ticker;

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

/// The check's figures over every victim; two passes over the victims,
/// with a checkpoint through `ticker` every few milliseconds of them.
pub(crate) fn assemble(
    kind: &'static str,
    spec: &Spec,
    judged: &Judged,
    cx: &Context,
    ticker: &mut Ticker,
) -> CoreResult<ViewCheck> {
    let worse = spec.worse();
    let victims = cx.group_of.len();
    let mut over_bound = 0usize;
    let mut worst: Option<f64> = None;
    // Per group: its worst victim's figure, and whether any victim is over.
    let groups = cx.partition.len();
    let mut group_value = vec![f64::NAN; groups];
    let mut group_over = vec![false; groups];
    let mut worst_victims = Top::new(worse, MAX_WORST_VICTIMS);
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    // By runs of victims with one figure (a set's victims, when the figure
    // is the set's): most of the work is once per run, not per victim.
    judged.try_each_run(cx.sets, |s, f, over, run| {
        if run.is_empty() {
            return Ok(()); // a set that judges no victim gives no figure
        }
        over_bound += over as usize * run.len();
        worst = Some(match worst {
            Some(w) if !worse.worse(f, w) => w,
            _ => f,
        });
        let mut judge_group = |g: usize| {
            if group_value[g].is_nan() || worse.worse(f, group_value[g]) {
                group_value[g] = f;
            }
            group_over[g] |= over;
        };
        // A victim's own group is always among its candidates: the victims
        // of a one-group set are that group's rows, and the scattered
        // lookups of their groups are not needed. (A row no set judged
        // comes with no set: its group is looked up.)
        let members = (s < cx.sets.len()).then(|| cx.sets.members(s));
        match members {
            Some(&[g]) => {
                debug_assert!(run.iter().all(|&r| cx.group_of[r as usize] == g));
                judge_group(g as usize);
            }
            _ => run
                .iter()
                .for_each(|&r| judge_group(cx.group_of[r as usize] as usize)),
        }
        run.iter().for_each(|&r| worst_victims.offer(f, r, s));
        (lo, hi) = (lo.min(f), hi.max(f));
        ticker.tick(run.len())
    })?;
    let worst = worst.unwrap_or(0.0);
    let worst_groups = top(worse, &group_value, MAX_WORST_GROUPS)
        .into_iter()
        .map(|g| WorstGroup {
            group_id: group_id(cx.ids, g as usize),
            size: cx.partition.groups[g as usize].len(),
            value: group_value[g as usize],
        })
        .collect();
    let worst_victims = worst_victims
        .finish()
        .into_iter()
        .map(|(f, r, s)| WorstVictim {
            row: r,
            group: cx.group_of[r as usize],
            value: f,
            candidates: cx.sets.size(s),
            candidate_groups: cx.sets.members(s).len(),
        })
        .collect();
    let range = if spec.is_probability() {
        (0.0, 1.0)
    } else {
        (lo, hi)
    };
    let distribution = buckets(victims, range, |count| {
        judged.try_each_run(cx.sets, |_, f, _, run| {
            count(f, run.len());
            ticker.tick(run.len())
        })
    })?;

    Ok(ViewCheck {
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
        candidate_groups: cx.sets.spread,
        distribution,
    })
}

/// The first `limit` of a stream of `(figure, row, set)` in worst-first
/// order (ties by row), in that order: [`top`] without a table-sized list.
struct Top {
    worse: Worse,
    limit: usize,
    kept: Vec<(f64, u32, usize)>,
    /// Once `limit` are kept: the last of them in the order. An offer
    /// after it can never be among the first `limit` and is turned away
    /// with one comparison (most offers, over a large table).
    last: Option<(f64, u32)>,
}

impl Top {
    fn new(worse: Worse, limit: usize) -> Top {
        Top {
            worse,
            limit,
            kept: Vec::with_capacity(2 * limit + 1),
            last: None,
        }
    }

    fn order(worse: Worse) -> impl Fn(&(f64, u32, usize), &(f64, u32, usize)) -> Ordering {
        move |a, b| {
            let by_value = match worse {
                Worse::Higher => b.0.total_cmp(&a.0),
                Worse::Lower => a.0.total_cmp(&b.0),
            };
            by_value.then(a.1.cmp(&b.1))
        }
    }

    #[inline]
    fn offer(&mut self, figure: f64, row: u32, set: usize) {
        if self.limit == 0 {
            return;
        }
        let order = Self::order(self.worse);
        if let Some((f, r)) = self.last {
            if order(&(figure, row, set), &(f, r, 0)) == Ordering::Greater {
                return;
            }
        }
        self.kept.push((figure, row, set));
        if self.kept.len() > 2 * self.limit {
            self.kept.select_nth_unstable_by(self.limit - 1, &order);
            self.kept.truncate(self.limit);
            let (f, r, _) = self.kept[self.limit - 1];
            self.last = Some((f, r));
        }
    }

    fn finish(mut self) -> Vec<(f64, u32, usize)> {
        self.kept.sort_by(Self::order(self.worse));
        self.kept.truncate(self.limit);
        self.kept
    }
}

/// [`BUCKETS`] equal-width buckets `(upper edge, victims)` over
/// `(lo, hi)` (one bucket when lo = hi) of the `n` figures `each` hands to
/// its callback (a figure and how many victims have it): over [0, 1] for
/// probability-like figures, else over
/// [min, max]. A figure goes to the first bucket whose upper edge it does
/// not exceed: buckets are (previous edge, edge], the first also holding
/// its lower end.
fn buckets(
    n: usize,
    (lo, hi): (f64, f64),
    each: impl FnOnce(&mut dyn FnMut(f64, usize)) -> CoreResult<()>,
) -> CoreResult<Vec<(f64, usize)>> {
    if n == 0 {
        return Ok(Vec::new());
    }
    if lo == hi {
        return Ok(vec![(hi, n)]);
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
    each(&mut |x, victims| {
        let b = edges.partition_point(|&e| e < x).min(BUCKETS - 1);
        counts[b] += victims;
    })?;
    Ok(edges.into_iter().zip(counts).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The streamed selection keeps exactly what sorting every figure
    /// keeps, ties by row, in both directions.
    #[test]
    fn streamed_top_is_the_sorted_top() {
        // Many ties, a few distinct values, rows in a scrambled order.
        let figures: Vec<f64> = (0..500u32).map(|i| ((i * 37) % 11) as f64 / 4.0).collect();
        for worse in [Worse::Higher, Worse::Lower] {
            for limit in [1, 3, 20, 499, 500, 600] {
                let mut streamed = Top::new(worse, limit);
                for i in 0..500u32 {
                    let r = (i * 211) % 500;
                    streamed.offer(figures[r as usize], r, r as usize + 1);
                }
                let got: Vec<u32> = streamed.finish().iter().map(|&(_, r, _)| r).collect();
                assert_eq!(got, top(worse, &figures, limit), "{worse:?} {limit}");
            }
        }
    }

    #[test]
    fn buckets_span_the_range() {
        let figures = [0.0, 0.05, 0.1, 0.55, 1.0];
        let hist = buckets(5, (0.0, 1.0), |count| {
            figures.iter().for_each(|&x| count(x, 1));
            Ok(())
        })
        .unwrap();
        assert_eq!(hist.len(), BUCKETS);
        assert_eq!(hist[0].1, 3, "0, 0.05 and the edge 0.1");
        assert_eq!(hist[5].1, 1);
        assert_eq!(hist[9], (1.0, 1));
        assert_eq!(buckets(2, (3.0, 3.0), |_| Ok(())).unwrap(), vec![(3.0, 2)]);
        assert!(buckets(0, (0.0, 1.0), |_| Ok(())).unwrap().is_empty());
    }
}
