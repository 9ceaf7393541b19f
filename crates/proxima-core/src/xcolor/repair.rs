//! Algorithm 2's repair loop: swap a violating vertex v ∈ V with a vertex
//! v′ of a movable class V′ when the swap strictly lowers the number of
//! monochromatic edges,
//!   Δ = D_V′(v) + D_V(v′) − 2·adj(v,v′) − D_V(v) − D_V′(v′) < 0,
//! choosing v and v′ by the paper's two-step information-loss heuristic.
//!
//! Bounded: each swap lowers the potential by ≥ 1 (so swaps ≤ initial
//! monochromatic edges), a swap budget proportional to n caps it anyway, and
//! violations left without an exchange are retried only after some other
//! swap changed the colouring (a pass with no swap ends the loop).
//!
//! Cost: class-local degrees are kept per row and updated in O(k) per swap;
//! the partner search first looks at the classes nearest in QI order (the
//! same part of the QI-aware split, then the neighbouring parts) and picks
//! the best loss among them, and only scans further out when none of them
//! has an exchange.

use std::collections::VecDeque;
use std::ops::Range;
use std::time::{Duration, Instant};

use crate::error::CoreResult;
use crate::metric::SensitiveSpace;
use crate::progress::Progress;
use crate::split::QiSpace;

use super::degrees::{adjacent, local_degree};
use super::feasibility::allowed_neighbours;

/// Classes around V whose candidates are compared on information loss
/// before the search settles for the first exchangeable class further out.
const NEAR_CLASSES: usize = 16;

/// Partner-search distance evaluations allowed per row and per unit of k
/// (see `Repair::work_budget`); normal runs use a small fraction of it.
const WORK_PER_ROW_AND_K: u64 = 100;

/// Wall-clock interval between progress checkpoints (cancellation latency).
const REPORT_EVERY: Duration = Duration::from_millis(100);

/// Re-passes over violations that found no exchange, each after at least one
/// swap elsewhere changed the colouring.
const MAX_RETRY_PASSES: usize = 8;

/// A partner found for v: (v′, V′, D_V′(v), D_V(v′), adj(v, v′)).
type Exchange = (u32, usize, u32, u32, bool);

pub(crate) struct Repair<'a> {
    space: &'a SensitiveSpace,
    qs: &'a QiSpace<'a>,
    epsilon: f64,
    delta: f64,
    pub(crate) classes: Vec<Vec<u32>>,
    class_of: Vec<u32>,
    /// local[row] = D_{class_of[row]}(row), the row's neighbours in its class.
    local: Vec<u32>,
    part_of: Vec<u32>,
    ranges: Vec<Range<usize>>,
    pub(crate) swaps: usize,
    /// Distance evaluations spent searching for partners.
    pub(crate) work: u64,
    /// Cap on `work`: with a graph far beyond Theorem 3 (e.g. all values
    /// equal and δ near 1) every violation scans all classes in vain, which
    /// would be O(n²); past the cap the repair stops and the fallback /
    /// verification decide (the result is then a clear failure, not a hang).
    pub(crate) work_budget: u64,
    pub(crate) exhausted: bool,
    scratch_a: Vec<u32>,
    scratch_b: Vec<u32>,
}

impl<'a> Repair<'a> {
    pub(crate) fn new(
        space: &'a SensitiveSpace,
        qs: &'a QiSpace<'a>,
        params: (f64, f64, usize),
        classes: Vec<Vec<u32>>,
        ranges: Vec<Range<usize>>,
    ) -> Repair<'a> {
        let (epsilon, delta, k) = params;
        let n = space.rows();
        let mut class_of = vec![u32::MAX; n];
        let mut local = vec![0u32; n];
        for (c, class) in classes.iter().enumerate() {
            for &r in class {
                class_of[r as usize] = c as u32;
                local[r as usize] = local_degree(space, epsilon, r, class);
            }
        }
        let mut part_of = vec![0u32; classes.len()];
        for (p, range) in ranges.iter().enumerate() {
            for c in range.clone() {
                part_of[c] = p as u32;
            }
        }
        Repair {
            space,
            qs,
            epsilon,
            delta,
            classes,
            class_of,
            local,
            part_of,
            ranges,
            swaps: 0,
            work: 0,
            work_budget: WORK_PER_ROW_AND_K * n as u64 * (k as u64 + 1) + 10_000_000,
            exhausted: false,
            scratch_a: Vec::new(),
            scratch_b: Vec::new(),
        }
    }

    #[inline]
    fn allowed(&self, c: usize) -> u32 {
        allowed_neighbours(self.delta, self.classes[c].len()) as u32
    }

    #[inline]
    fn violates(&self, r: u32) -> bool {
        self.local[r as usize] > self.allowed(self.class_of[r as usize] as usize)
    }

    /// Rows currently violating their class's allowance.
    pub(crate) fn violations(&self) -> Vec<u32> {
        self.classes
            .iter()
            .flatten()
            .copied()
            .filter(|&r| self.violates(r))
            .collect()
    }

    /// loss(G) = Σ over QIs of the normalized width (the paper's loss).
    fn loss(&self, rows: &[u32]) -> f64 {
        (0..self.qs.dims())
            .map(|d| self.qs.normalized_width(d, rows))
            .sum()
    }

    /// Runs the repair until no violation is left, none can be exchanged,
    /// or the swap budget is spent.
    pub(crate) fn run(&mut self, progress: Progress<'_>) -> CoreResult<()> {
        let n = self.space.rows();
        // Every swap lowers the potential (monochromatic edges) by ≥ 1, so
        // the initial potential (≤ n·k/2) bounds the swaps; the budget only
        // guards against a broken invariant.
        let potential: usize = self.local.iter().map(|&d| d as usize).sum::<usize>() / 2;
        let budget = potential + n + 1_000;
        let mut queued = vec![false; n];
        let mut queue: VecDeque<u32> = VecDeque::new();
        for r in self.violations() {
            queued[r as usize] = true;
            queue.push_back(r);
        }
        let initial = queue.len().max(1);
        let mut last = Instant::now();
        let mut stuck: Vec<u32> = Vec::new();
        let mut swaps_at_last_pass = self.swaps;
        let mut passes = 0;
        loop {
            while let Some(r) = queue.pop_front() {
                queued[r as usize] = false;
                if last.elapsed() >= REPORT_EVERY {
                    last = Instant::now();
                    let left = (queue.len() + stuck.len()) as f64 / initial as f64;
                    progress.report(1.0 - left.min(1.0))?;
                }
                if !self.violates(r) {
                    continue;
                }
                if self.swaps >= budget || self.work >= self.work_budget {
                    self.exhausted = self.work >= self.work_budget;
                    return Ok(());
                }
                let c = self.class_of[r as usize] as usize;
                match self.fix_class(c) {
                    Some((c1, c2)) => {
                        for cl in [c1, c2] {
                            for i in 0..self.classes[cl].len() {
                                let u = self.classes[cl][i];
                                if !queued[u as usize] && self.violates(u) {
                                    queued[u as usize] = true;
                                    queue.push_back(u);
                                }
                            }
                        }
                        // r itself may still violate (another member moved).
                        if !queued[r as usize] && self.violates(r) {
                            queued[r as usize] = true;
                            queue.push_back(r);
                        }
                    }
                    None => stuck.push(r),
                }
            }
            stuck.retain(|&r| self.violates(r));
            if stuck.is_empty() || self.swaps == swaps_at_last_pass || passes >= MAX_RETRY_PASSES {
                progress.report(1.0)?;
                return Ok(());
            }
            passes += 1;
            swaps_at_last_pass = self.swaps;
            for r in stuck.drain(..) {
                if !queued[r as usize] {
                    queued[r as usize] = true;
                    queue.push_back(r);
                }
            }
        }
    }

    /// Step 1: the violators of class `c` in order of the loss their
    /// departure leaves (smallest first); the first one with an exchange is
    /// swapped. Returns the two classes touched.
    fn fix_class(&mut self, c: usize) -> Option<(usize, usize)> {
        let members = self.classes[c].clone();
        let base = self.loss(&members);
        let mut violators: Vec<(f64, u32)> = members
            .iter()
            .copied()
            .filter(|&v| self.violates(v))
            .map(|v| {
                let rest: Vec<u32> = members.iter().copied().filter(|&u| u != v).collect();
                (self.loss(&rest) - base, v)
            })
            .collect();
        violators.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for (_, v) in violators {
            if let Some((vp, cp, dv, dvp, adj)) = self.find_partner(v, c) {
                self.swap(v, c, vp, cp, dv, dvp, adj);
                return Some((c, cp));
            }
        }
        None
    }

    /// Step 2: an exchange partner v′ for v ∈ V (class `c`): among the
    /// nearest classes the candidate with the least loss increase, else the
    /// best candidate of the first class further out that has one.
    /// Returns (v′, V′, D_V′(v), D_V(v′), adj(v,v′)).
    fn find_partner(&mut self, v: u32, c: usize) -> Option<Exchange> {
        let m = self.classes.len();
        let part = self.ranges[self.part_of[c] as usize].clone();
        let dv_home = self.local[v as usize];
        let base_c = self.loss(&self.classes[c]);
        let mut best: Option<(f64, Exchange)> = None;
        // Classes by distance in QI order: first inside the part, then out.
        // An exchange inside the part is always preferred: the split made
        // each part meet Lemma 2 on its own subgraph, and swaps that stay
        // inside keep that guarantee (and the groups QI-compact).
        let order = ClassOrder::new(c, m, part.clone());
        for (examined, cp) in order.enumerate() {
            let inside = part.contains(&cp);
            if best.is_some() && (examined >= NEAR_CLASSES || !inside) {
                break;
            }
            self.work += self.classes[cp].len() as u64;
            let dv = local_degree(self.space, self.epsilon, v, &self.classes[cp]);
            if dv > self.allowed(cp) {
                continue; // not movable (Definition 13)
            }
            let base_cp = self.loss(&self.classes[cp]);
            for i in 0..self.classes[cp].len() {
                let vp = self.classes[cp][i];
                self.work += self.classes[c].len() as u64 + 1;
                let dvp = local_degree(self.space, self.epsilon, vp, &self.classes[c]);
                let adj = adjacent(self.space, self.epsilon, v, vp);
                let change = dv as i64 + dvp as i64
                    - 2 * adj as i64
                    - dv_home as i64
                    - self.local[vp as usize] as i64;
                if change >= 0 {
                    continue;
                }
                let loss = self.swapped_loss(c, v, cp, vp) - base_c - base_cp;
                if best.as_ref().is_none_or(|(l, _)| loss < *l) {
                    best = Some((loss, (vp, cp, dv, dvp, adj)));
                }
            }
        }
        best.map(|(_, b)| b)
    }

    /// loss(V∖{v}∪{v′}) + loss(V′∖{v′}∪{v}).
    fn swapped_loss(&mut self, c: usize, v: u32, cp: usize, vp: u32) -> f64 {
        let mut a = std::mem::take(&mut self.scratch_a);
        let mut b = std::mem::take(&mut self.scratch_b);
        a.clear();
        b.clear();
        a.extend(self.classes[c].iter().map(|&u| if u == v { vp } else { u }));
        b.extend(
            self.classes[cp]
                .iter()
                .map(|&u| if u == vp { v } else { u }),
        );
        let l = self.loss(&a) + self.loss(&b);
        self.scratch_a = a;
        self.scratch_b = b;
        l
    }

    #[allow(clippy::too_many_arguments)]
    fn swap(&mut self, v: u32, c: usize, vp: u32, cp: usize, dv: u32, dvp: u32, adj: bool) {
        let (space, eps) = (self.space, self.epsilon);
        for &u in &self.classes[c] {
            if u != v {
                let l = &mut self.local[u as usize];
                *l = *l + adjacent(space, eps, u, vp) as u32 - adjacent(space, eps, u, v) as u32;
            }
        }
        for &u in &self.classes[cp] {
            if u != vp {
                let l = &mut self.local[u as usize];
                *l = *l + adjacent(space, eps, u, v) as u32 - adjacent(space, eps, u, vp) as u32;
            }
        }
        self.local[v as usize] = dv - adj as u32;
        self.local[vp as usize] = dvp - adj as u32;
        let i = self.classes[c]
            .iter()
            .position(|&u| u == v)
            .expect("v in its class");
        self.classes[c][i] = vp;
        let j = self.classes[cp]
            .iter()
            .position(|&u| u == vp)
            .expect("v′ in its class");
        self.classes[cp][j] = v;
        self.class_of[v as usize] = cp as u32;
        self.class_of[vp as usize] = c as u32;
        self.swaps += 1;
    }
}

/// Class indices ≠ c ordered by closeness in QI order: the classes of c's
/// part by increasing index distance, then every other class likewise.
struct ClassOrder {
    c: usize,
    m: usize,
    part: Range<usize>,
    /// Largest index distance from c to the part's ends.
    span: usize,
    inside: bool,
    step: usize,
    side: bool,
}

impl ClassOrder {
    fn new(c: usize, m: usize, part: Range<usize>) -> Self {
        let span = (c - part.start.min(c)).max(part.end.saturating_sub(c + 1));
        ClassOrder {
            c,
            m,
            span,
            part,
            inside: true,
            step: 1,
            side: false,
        }
    }
}

impl Iterator for ClassOrder {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        loop {
            if self.step >= self.m || (self.inside && self.step > self.span) {
                if self.inside {
                    self.inside = false;
                    self.step = 1;
                    self.side = false;
                    continue;
                }
                return None;
            }
            let cand = if self.side {
                self.c.checked_sub(self.step)
            } else {
                Some(self.c + self.step).filter(|&x| x < self.m)
            };
            if self.side {
                self.step += 1;
            }
            self.side = !self.side;
            if let Some(x) = cand {
                if self.part.contains(&x) == self.inside {
                    return Some(x);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn class_order_visits_each_other_class_once_part_first() {
        let order: Vec<usize> = ClassOrder::new(3, 8, 2..5).collect();
        assert_eq!(&order[..2], &[4, 2]);
        let mut sorted = order.clone();
        sorted.sort();
        assert_eq!(sorted, vec![0, 1, 2, 4, 5, 6, 7]);
        assert_eq!(&order[2..], &[5, 1, 6, 0, 7]);
    }
}
