//! What (ε, m) pairs a table can reach (paper §4.2–4.4): Theorem 1 (the
//! largest m for ε), Theorem 2 / `find-e-max` (the supremum ε for m) and
//! the feasibility check every job runs before partitioning.

use super::maxsize::find_maxsize;
use super::reduce::{check_relative_epsilon, check_values, Neighborhoods, Offsets, RelativeBand};
use crate::error::{CoreError, CoreResult, ErrorKind, Field};
use crate::params::{Epsilon, EpsilonM, Neighborhood, M};
use crate::table::format_number;

/// Theorem 1 on a whole table: (ε, m) is reachable iff m ≤ `max_m` =
/// ⌊n / maxsize⌋.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MaxM {
    pub max_m: usize,
    /// maxsize(T) (Def. 11): the largest covering set of one value.
    pub maxsize: usize,
}

/// Sorts a copy of the values (the public entry points take them as the
/// table holds them).
fn sorted(values: &[f64]) -> Vec<f64> {
    let mut v = values.to_vec();
    v.sort_unstable_by(f64::total_cmp);
    v
}

fn row_of(i: usize) -> (String, u32) {
    ("row".to_string(), i as u32 + 1)
}

fn check_nonempty(values: &[f64]) -> CoreResult<()> {
    if values.is_empty() {
        return Err(CoreError::invalid_parameters(
            Field::Model,
            "the data has no rows: (epsilon, m)-anonymity needs at least one",
        ));
    }
    Ok(())
}

/// Theorem 1 on already SA-sorted, already checked values.
pub(crate) fn max_m_sorted(sorted: &[f64], epsilon: Epsilon, neighborhood: Neighborhood) -> MaxM {
    let n = sorted.len();
    let e = epsilon.get();
    let get = |k: usize| sorted[k];
    let maxsize = match neighborhood {
        Neighborhood::Absolute => find_maxsize(n, get, Offsets { e1: e, e2: e }, usize::MAX),
        Neighborhood::Relative => find_maxsize(n, get, RelativeBand { epsilon: e }, usize::MAX),
    };
    MaxM {
        max_m: n.checked_div(maxsize).unwrap_or(0),
        maxsize,
    }
}

/// The largest m reachable with `epsilon` on these SA values (Theorem 1;
/// §4.4 "ε decided; seek m"). Errors (`invalid_parameters`) on no values,
/// a non-finite value, a relative ε ≥ 1 or a relative value ≤ 0 (named by
/// its 1-based position in `values`).
pub fn max_m(values: &[f64], epsilon: Epsilon, neighborhood: Neighborhood) -> CoreResult<MaxM> {
    check_nonempty(values)?;
    check_relative_epsilon(epsilon, neighborhood)?;
    check_values(values, neighborhood, row_of)?;
    Ok(max_m_sorted(&sorted(values), epsilon, neighborhood))
}

/// `find-e-max` (Fig. 2) on sorted values: min over i of the gap between
/// t_i and t_{i+h}, h = ⌊n/m⌋, as a supremum of the reachable ε.
pub(crate) fn max_epsilon_sorted(sorted: &[f64], m: M, neighborhood: Neighborhood) -> f64 {
    let n = sorted.len();
    let h = n / m.get();
    if h >= n {
        // m = 1 (or no rows): no window of h + 1 values exists, every ε is
        // reachable: unbounded (for relative, every ε of its domain [0, 1)).
        return f64::INFINITY;
    }
    let gaps = sorted.iter().zip(&sorted[h..]);
    match neighborhood {
        // Fig. 2 verbatim: emax = min(t_{i+h}.S − t_i.S). The sweeps test
        // `t_j − t_i ≤ ε` with the same subtraction, so every ε < emax
        // gives maxsize ≤ h and none ≥ emax does: exact in floating point.
        Neighborhood::Absolute => gaps.map(|(a, b)| b - a).fold(f64::INFINITY, f64::min),
        // §4.4: ε approaches 1 − 1/2^emax with emax from Fig. 2 on log₂
        // values. 1 − 2^−log₂(b/a) = (b − a)/b, and the minimum commutes
        // with that increasing map, so we take min (b − a)/b directly:
        // same number, without the log/exp rounding (and (b − a)/b is
        // exactly the point where a leaves [b(1−ε), b(1+ε)]).
        Neighborhood::Relative => gaps.map(|(a, b)| (b - a) / b).fold(f64::INFINITY, f64::min),
    }
}

/// The supremum of the ε for which `m` is reachable on these SA values
/// (Theorem 2, `find-e-max` of Fig. 2; §4.4 "m decided; seek ε").
///
/// What the number means: every ε strictly below it is reachable, the
/// number itself and anything above are not ("exclusive"). It is 0 when
/// no ε ≥ 0 works (more than ⌊n/m⌋ equal values, or m > n).
/// * Absolute: a value in the SA's units, exact in floating point.
/// * Relative: 1 − 1/2^emax with emax from `find-e-max` on log₂ values,
///   i.e. min over i of (t_{i+h} − t_i)/t_{i+h}; it is < 1. At the number
///   itself floating-point rounding of x(1−ε) may go either way, which does
///   not matter for a supremum that is never itself offered.
/// * m = 1 is reachable with any ε: `f64::INFINITY` (unbounded; for
///   relative, every ε of the domain [0, 1) is reachable).
pub fn max_epsilon(values: &[f64], m: M, neighborhood: Neighborhood) -> CoreResult<f64> {
    check_nonempty(values)?;
    check_values(values, neighborhood, row_of)?;
    Ok(max_epsilon_sorted(&sorted(values), m, neighborhood))
}

/// The most rows of the (sorted) table in one closed neighbourhood I(x):
/// the whole table passes anonymity-check for m iff that count · m ≤ n.
fn densest_neighbourhood(sorted: &[f64], epsilon: f64, neighborhood: Neighborhood) -> usize {
    fn densest<N: Neighborhoods>(s: &[f64], nb: N) -> usize {
        let (mut i, mut j, mut best) = (0usize, 0usize, 0usize);
        for x in 0..s.len() {
            while i < x && !nb.covers(s[x], s[i]) {
                i += 1;
            }
            j = j.max(x + 1);
            while j < s.len() && nb.covers(s[x], s[j]) {
                j += 1;
            }
            best = best.max(j - i);
        }
        best
    }
    match neighborhood {
        Neighborhood::Absolute => densest(
            sorted,
            Offsets {
                e1: epsilon,
                e2: epsilon,
            },
        ),
        Neighborhood::Relative => densest(sorted, RelativeBand { epsilon }),
    }
}

/// What the service delivers for sure (docs/design.md §4): the largest m for which
/// the whole table passes anonymity-check — then a job at that m always
/// succeeds without suppression (the root is a valid group in the
/// attacker's view and absorbs any failing part). Theorem 1's `max_m` is
/// a per-group upper bound; between the two a job may succeed or fail with
/// `model_not_satisfied`. Same checks and errors as [`max_m`].
pub fn deliverable_max_m(
    values: &[f64],
    epsilon: Epsilon,
    neighborhood: Neighborhood,
) -> CoreResult<usize> {
    check_nonempty(values)?;
    check_relative_epsilon(epsilon, neighborhood)?;
    check_values(values, neighborhood, row_of)?;
    let sorted = sorted(values);
    Ok(sorted.len() / densest_neighbourhood(&sorted, epsilon.get(), neighborhood).max(1))
}

/// The largest ε (to bisection precision, never above a working value) for
/// which the whole table passes anonymity-check for m — see
/// [`deliverable_max_m`]; `None` when even ε = 0 does not (a value repeats
/// more than n/m times). Infinite for m = 1.
pub fn deliverable_max_epsilon(
    values: &[f64],
    m: M,
    neighborhood: Neighborhood,
) -> CoreResult<Option<f64>> {
    check_nonempty(values)?;
    check_values(values, neighborhood, row_of)?;
    let sorted = sorted(values);
    let n = sorted.len();
    let m = m.get();
    if m == 1 {
        return Ok(Some(f64::INFINITY));
    }
    let works = |e: f64| densest_neighbourhood(&sorted, e, neighborhood) * m <= n;
    if !works(0.0) {
        return Ok(None);
    }
    // Theorem 2's supremum bounds every working ε; relative ε stays < 1.
    let mut hi = max_epsilon_sorted(
        &sorted,
        M::new(m as u64, Field::ModelParam("m"))?,
        neighborhood,
    );
    if neighborhood == Neighborhood::Relative {
        hi = hi.min(1.0);
    }
    if !hi.is_finite() {
        hi = sorted[n - 1] - sorted[0] + 1.0;
    }
    let mut lo = 0.0;
    for _ in 0..64 {
        let mid = lo + (hi - lo) / 2.0;
        if mid <= lo || mid >= hi {
            break;
        }
        if works(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Ok(Some(lo))
}

/// Checks Theorem 1 for `params` on sorted, checked values.
pub(crate) fn check_feasible_sorted(sorted: &[f64], params: &EpsilonM) -> CoreResult<MaxM> {
    let reach = max_m_sorted(sorted, params.epsilon, params.neighborhood);
    let m = params.m.get();
    if m <= reach.max_m {
        return Ok(reach);
    }
    if sorted.len() < m {
        // No ε helps: every group needs m rows.
        let n = sorted.len();
        return Err(CoreError::new(
            ErrorKind::InfeasibleParameters,
            format!(
                "m = {m} needs at least {m} rows in a group; the table has only {n} \
                 (Theorem 1 allows m ≤ {})",
                reach.max_m
            ),
        )
        .with_error(
            Field::ModelParam("m"),
            format!("m must be at most {n}, the table's rows"),
        )
        .with_detail("max_m", reach.max_m)
        .with_detail("maxsize", reach.maxsize));
    }
    let sup = max_epsilon_sorted(sorted, params.m, params.neighborhood);
    let kind = match params.neighborhood {
        Neighborhood::Absolute => "",
        Neighborhood::Relative => "relative ",
    };
    let message = format!(
        "m = {m} is not reachable with {kind}epsilon = {} on this data: Theorem 1 allows m ≤ {} \
         (the largest covering set has {} of {} values); m = {m} needs epsilon < {}",
        format_number(params.epsilon.get()),
        reach.max_m,
        reach.maxsize,
        sorted.len(),
        format_number(sup),
    );
    Err(CoreError::new(ErrorKind::InfeasibleParameters, message)
        .with_error(
            Field::ModelParam("m"),
            format!(
                "m must be at most {} for this epsilon and data",
                reach.max_m
            ),
        )
        .with_detail("max_m", reach.max_m)
        .with_detail("maxsize", reach.maxsize)
        .with_detail("max_epsilon_exclusive", sup))
}

/// Whether `params` is reachable on these SA values (Theorem 1): the
/// reach when it is; else `infeasible_parameters` naming the bound, with
/// a field error at `/model/m` and details `max_m`, `maxsize` and
/// `max_epsilon_exclusive` (the supremum ε for the requested m).
pub fn check_feasible(values: &[f64], params: &EpsilonM) -> CoreResult<MaxM> {
    check_nonempty(values)?;
    check_values(values, params.neighborhood, row_of)?;
    check_feasible_sorted(&sorted(values), params)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fewer_rows_than_m_is_refused_without_an_epsilon_advice() {
        let p = EpsilonM::new(
            Epsilon::new(10.0, "/e").unwrap(),
            M::new(5, "/m").unwrap(),
            Neighborhood::Absolute,
            "/e",
        )
        .unwrap();
        let e = check_feasible(&[1.0, 50.0, 100.0], &p).unwrap_err();
        assert_eq!(e.kind, ErrorKind::InfeasibleParameters);
        assert!(e.message.contains("only 3"), "{}", e.message);
        assert!(!e.message.contains("epsilon <"), "{}", e.message);
    }
    use crate::error::Detail;

    const TABLE1: [f64; 8] = [
        50000.0, 1000.0, 1010.0, 16000.0, 1020.0, 24000.0, 31000.0, 33000.0,
    ];

    fn eps(e: f64) -> Epsilon {
        Epsilon::new(e, "/e").unwrap()
    }

    fn m(m: u64) -> M {
        M::new(m, "/m").unwrap()
    }

    #[test]
    fn table1_theorems() {
        // emax = 10000: maxsize 3, m ≤ 2 (§4.2).
        let r = max_m(&TABLE1, eps(10000.0), Neighborhood::Absolute).unwrap();
        assert_eq!(
            r,
            MaxM {
                max_m: 2,
                maxsize: 3
            }
        );
        // find-e-max for m = 3 is 20 (§4.3): ε must be < 20.
        assert_eq!(
            max_epsilon(&TABLE1, m(3), Neighborhood::Absolute).unwrap(),
            20.0
        );
        assert_eq!(
            max_m(&TABLE1, eps(19.9), Neighborhood::Absolute)
                .unwrap()
                .max_m,
            4
        );
        assert_eq!(
            max_m(&TABLE1, eps(20.0), Neighborhood::Absolute)
                .unwrap()
                .max_m,
            2
        );
        assert_eq!(
            max_epsilon(&TABLE1, m(1), Neighborhood::Absolute).unwrap(),
            f64::INFINITY
        );
        assert_eq!(
            max_epsilon(&TABLE1, m(1), Neighborhood::Relative).unwrap(),
            f64::INFINITY
        );
        // m > n: h = 0, nothing reachable.
        assert_eq!(
            max_epsilon(&TABLE1, m(9), Neighborhood::Absolute).unwrap(),
            0.0
        );
        // Relative m = 3: min (t_{i+2} − t_i)/t_{i+2} = 20/1020.
        let r = max_epsilon(&TABLE1, m(3), Neighborhood::Relative).unwrap();
        assert!((r - 20.0 / 1020.0).abs() < 1e-15);
        assert_eq!(
            max_m(&TABLE1, eps(r * 0.999), Neighborhood::Relative)
                .unwrap()
                .max_m,
            4
        );
        assert_eq!(
            max_m(&TABLE1, eps(r * 1.001), Neighborhood::Relative)
                .unwrap()
                .max_m,
            2
        );
    }

    #[test]
    fn infeasible_m_names_the_bound() {
        let p = EpsilonM::new(eps(10000.0), m(3), Neighborhood::Absolute, "/e").unwrap();
        let err = check_feasible(&TABLE1, &p).unwrap_err();
        assert_eq!(err.kind, ErrorKind::InfeasibleParameters);
        assert!(
            err.message.starts_with(
                "m = 3 is not reachable with epsilon = 10000 on this data: Theorem 1 allows m ≤ 2"
            ),
            "{}",
            err.message
        );
        assert!(
            err.message.contains("needs epsilon < 20"),
            "{}",
            err.message
        );
        assert_eq!(err.errors[0].field, Field::ModelParam("m"));
        assert_eq!(err.detail("max_m"), Some(&Detail::Int(2)));
        assert_eq!(err.detail("maxsize"), Some(&Detail::Int(3)));
        assert_eq!(
            err.detail("max_epsilon_exclusive"),
            Some(&Detail::Num(20.0))
        );
        let ok = EpsilonM::new(eps(10000.0), m(2), Neighborhood::Absolute, "/e").unwrap();
        assert_eq!(check_feasible(&TABLE1, &ok).unwrap().max_m, 2);
    }

    #[test]
    fn bad_inputs_are_rejected() {
        let err = max_m(&[], eps(1.0), Neighborhood::Absolute).unwrap_err();
        assert_eq!(err.kind, ErrorKind::InvalidParameters);
        let err = max_m(&[5.0, -2.0], eps(0.1), Neighborhood::Relative).unwrap_err();
        assert!(err.message.contains("row 2 has -2"), "{}", err.message);
        let err = max_m(&[5.0], eps(1.5), Neighborhood::Relative).unwrap_err();
        assert_eq!(err.errors[0].field, Field::ModelParam("epsilon"));
        assert!(max_epsilon(&[0.0], m(2), Neighborhood::Relative).is_err());
    }
}
