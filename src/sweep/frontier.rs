//! The risk–utility Pareto front of a sweep's points.
//!
//! A point is a candidate when its job succeeded and both of its figures
//! are finite numbers; every other point (queued, running, failed,
//! cancelled, infeasible, or a figure that is null) is never on the front
//! and never pushes another point off it. Among the candidates, p
//! **dominates** q when p is at least as safe and at most as lossy, and
//! strictly better in one of the two. The front is the candidates no
//! candidate dominates. So points with identical figures are all on the
//! front together (neither dominates the other), and a point that is as
//! safe as another but strictly lossier is not.
//!
//! "Safer" is lower risk for the models whose attacker's-view figure is a
//! breach probability, risk or distance, and higher for those whose figure
//! is a size (k's smallest candidate set, l): [`Safer`].
//!
//! The front is listed along the map: from the safest point to the least
//! safe (ties by lower loss, then by point index), which is also the order
//! the map's line joins them in.

use std::cmp::Ordering;

/// Which way a risk figure is safer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Safer {
    Lower,
    Higher,
}

/// One point's figures (`None`: not a candidate).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Figures {
    pub risk: f64,
    pub loss: f64,
}

/// The risk oriented so that lower is safer.
fn oriented(risk: f64, safer: Safer) -> f64 {
    match safer {
        Safer::Lower => risk,
        Safer::Higher => -risk,
    }
}

/// The indexes of the points on the front, safest first (see the module
/// doc). `points[i]` is `None` for a point that is not a candidate.
pub fn frontier(points: &[Option<Figures>], safer: Safer) -> Vec<usize> {
    let candidates: Vec<(usize, f64, f64)> = points
        .iter()
        .enumerate()
        .filter_map(|(i, p)| {
            p.filter(|f| f.risk.is_finite() && f.loss.is_finite())
                .map(|f| (i, oriented(f.risk, safer), f.loss))
        })
        .collect();
    let dominated = |&(_, r, l): &(usize, f64, f64)| {
        candidates
            .iter()
            .any(|&(_, r2, l2)| r2 <= r && l2 <= l && (r2 < r || l2 < l))
    };
    let mut front: Vec<(usize, f64, f64)> = candidates
        .iter()
        .filter(|c| !dominated(c))
        .copied()
        .collect();
    front.sort_by(|a, b| {
        a.1.partial_cmp(&b.1)
            .unwrap_or(Ordering::Equal)
            .then(a.2.partial_cmp(&b.2).unwrap_or(Ordering::Equal))
            .then(a.0.cmp(&b.0))
    });
    front.into_iter().map(|(i, _, _)| i).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(risk: f64, loss: f64) -> Option<Figures> {
        Some(Figures { risk, loss })
    }

    #[test]
    fn a_hand_made_map() {
        // 0 ·  safe and lossy          (on the front)
        // 1 ·  dominated by 2          (same risk, more loss)
        // 2 ·  on the front
        // 3 ·  dominated by 2 in both figures
        // 4 ·  risky and cheap         (on the front)
        // 5 ·  failed / not finished   (never on the front)
        // 6 ·  identical to 2: a tie, both on the front
        // 7 ·  a figure that is not finite: not a candidate
        let points = [
            f(0.1, 0.9),
            f(0.3, 0.6),
            f(0.3, 0.4),
            f(0.35, 0.5),
            f(0.8, 0.1),
            None,
            f(0.3, 0.4),
            f(f64::NAN, 0.0),
        ];
        assert_eq!(frontier(&points, Safer::Lower), [0, 2, 6, 4]);
    }

    #[test]
    fn a_failed_point_does_not_push_others_off() {
        // The failed point would dominate everything if it counted.
        let points = [f(0.5, 0.5), None, f(0.6, 0.4)];
        assert_eq!(frontier(&points, Safer::Lower), [0, 2]);
        assert!(frontier(&[None, None], Safer::Lower).is_empty());
    }

    #[test]
    fn higher_is_safer_for_sizes() {
        // k-anonymity's figure: the smallest candidate set.
        let points = [f(5.0, 0.2), f(10.0, 0.3), f(10.0, 0.5), f(3.0, 0.25)];
        assert_eq!(frontier(&points, Safer::Higher), [1, 0]);
        assert_eq!(frontier(&points, Safer::Lower), [3, 0]);
    }

    #[test]
    fn one_point_is_its_own_front() {
        assert_eq!(frontier(&[f(0.2, 0.2)], Safer::Lower), [0]);
    }
}
