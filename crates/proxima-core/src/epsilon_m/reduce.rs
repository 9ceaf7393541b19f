//! The reduction of absolute and relative (ε,m)-anonymity to the generic
//! (e1,e2,m) form (paper §4.1), and the neighbourhood tests the sweeps use.
//!
//! **Why relative membership is decided on the raw values.** The paper
//! transforms each SA value v to log₂ v and uses e1 = log₂(1/(1−ε)),
//! e2 = log₂(1+ε): in exact arithmetic y ∈ [x(1−ε), x(1+ε)] iff
//! log₂y ∈ [log₂x − e1, log₂x + e2] (Lemma 1). In floating point the two
//! disagree at the exact boundary, and integer data hits that boundary
//! often (x = 8000, y = 9000, ε = 0.125): a group built on log₂ values
//! could then fail the audit, which decides with
//! [`crate::neighborhood::relative_interval`]. So the sweeps here decide
//! membership with the definition itself, on the raw values.
//!
//! This changes nothing in the paper's algorithms: find-maxsize (Fig. 1),
//! anonymity-check (Fig. 3), Lemma 2 and Theorem 1 only use that I(x) is a
//! closed interval containing x whose two ends never decrease as x grows.
//! That holds for the floating-point ends too: fl(x·(1−ε)), fl(x·(1+ε))
//! and fl(x − y) are monotone because IEEE rounding is monotone. The
//! (e1, e2) numbers of [`reduce`] remain what the paper reports (and what
//! `find-e-max` converts back, §4.4).

use crate::error::{CoreError, CoreResult, Field};
use crate::neighborhood::{in_closed_interval, relative_interval, within};
use crate::params::{Epsilon, Neighborhood};
use crate::table::format_number;

/// The (e1, e2) of the paper's reduction: I(t) = [t.S − e1, t.S + e2] on
/// the raw values (absolute) or on log₂ values (relative).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Reduced {
    pub e1: f64,
    pub e2: f64,
}

impl Reduced {
    /// max(e1, e2): by Lemma 3 the only one maxsize depends on.
    pub fn emax(&self) -> f64 {
        self.e1.max(self.e2)
    }
}

/// Absolute: e1 = e2 = ε. Relative: e1 = log₂(1/(1−ε)), e2 = log₂(1+ε).
pub fn reduce(epsilon: Epsilon, neighborhood: Neighborhood) -> Reduced {
    let e = epsilon.get();
    match neighborhood {
        Neighborhood::Absolute => Reduced { e1: e, e2: e },
        Neighborhood::Relative => Reduced {
            e1: (1.0 / (1.0 - e)).log2(),
            e2: (1.0 + e).log2(),
        },
    }
}

/// A family of closed neighbourhoods I(x) ∋ x whose ends are monotone in
/// x (see the module doc): what the sliding windows need.
pub(crate) trait Neighborhoods: Copy + Send + Sync {
    /// y ∈ I(x).
    fn covers(self, x: f64, y: f64) -> bool;

    /// y ∈ I(x) for y ≤ x: what a sweep over sorted values asks of the
    /// values behind x. The same answer as [`Self::covers`] (at y = x both
    /// hold: x ∈ I(x)); a family may answer without asking which side y
    /// lies on.
    #[inline]
    fn covers_below(self, x: f64, y: f64) -> bool {
        self.covers(x, y)
    }

    /// y ∈ I(x) for y ≥ x: the values ahead of x ([`Self::covers_below`]).
    #[inline]
    fn covers_above(self, x: f64, y: f64) -> bool {
        self.covers(x, y)
    }

    /// The width e1 + e2 of every neighbourhood, when it is the same for
    /// all values (absolute neighbourhoods); `None` for relative ones.
    fn fixed_width(self) -> Option<f64> {
        None
    }

    /// For a ≤ b: a ∈ I(b) or b ∈ I(a) — the test of Fig. 1, line 3.
    #[inline]
    fn either_covers(self, a: f64, b: f64) -> bool {
        self.covers(b, a) || self.covers(a, b)
    }
}

/// I(x) = {y ≤ x : x − y ≤ e1} ∪ {y ≥ x : y − x ≤ e2}, differences
/// computed as the audits compute |x − y| (negation is exact, so for
/// e1 = e2 = ε this is `within(|x−y|, ε)`, the absolute test).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Offsets {
    pub e1: f64,
    pub e2: f64,
}

impl Neighborhoods for Offsets {
    #[inline]
    fn covers(self, x: f64, y: f64) -> bool {
        if y <= x {
            within(x - y, self.e1)
        } else {
            within(y - x, self.e2)
        }
    }

    /// Without the branch on the side, which ties in the SA values make
    /// a coin toss for the branch predictor in a sweep: at y = x the
    /// difference is 0 and either offset (≥ 0) admits it, as `covers` does.
    #[inline]
    fn covers_below(self, x: f64, y: f64) -> bool {
        within(x - y, self.e1)
    }

    #[inline]
    fn covers_above(self, x: f64, y: f64) -> bool {
        within(y - x, self.e2)
    }

    /// Fig. 1 verbatim: t_j.S − t_i.S ≤ emax.
    #[inline]
    fn fixed_width(self) -> Option<f64> {
        Some(self.e1 + self.e2)
    }

    fn either_covers(self, a: f64, b: f64) -> bool {
        within(b - a, self.e1.max(self.e2))
    }
}

/// The relative ε-neighbourhood [x(1−ε), x(1+ε)] (Def. 6), for x > 0.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RelativeBand {
    pub epsilon: f64,
}

impl Neighborhoods for RelativeBand {
    #[inline]
    fn covers(self, x: f64, y: f64) -> bool {
        let (lo, hi) = relative_interval(x, self.epsilon);
        in_closed_interval(y, lo, hi)
    }

    /// One end only: for x > 0, fl(x·(1+ε)) ≥ x ≥ y (rounding is
    /// monotone and x is a float), so the upper test always holds.
    #[inline]
    fn covers_below(self, x: f64, y: f64) -> bool {
        relative_interval(x, self.epsilon).0 <= y
    }

    /// Symmetrically, fl(x·(1−ε)) ≤ x ≤ y.
    #[inline]
    fn covers_above(self, x: f64, y: f64) -> bool {
        y <= relative_interval(x, self.epsilon).1
    }
}

/// Checks the SA values fit the neighbourhood: finite, and > 0 for
/// relative (log₂ needs it, and [x(1−ε), x(1+ε)] is no neighbourhood of a
/// value ≤ 0). `line_of(i)` names value i in the message ("data line 17",
/// "row 3"); `pointer` is where the field error points.
pub(crate) fn check_values(
    values: &[f64],
    neighborhood: Neighborhood,
    line_of: impl Fn(usize) -> (String, u32),
) -> CoreResult<()> {
    if let Some(i) = values.iter().position(|v| !v.is_finite()) {
        let (what, line) = line_of(i);
        return Err(CoreError::invalid_parameters(
            Field::Model,
            format!(
                "(epsilon, m)-anonymity needs finite sensitive values; {what} {line} has {}",
                values[i]
            ),
        )
        .with_detail("line", line)
        .with_detail("value", format!("{}", values[i])));
    }
    if neighborhood == Neighborhood::Relative {
        if let Some(i) = values.iter().position(|&v| v <= 0.0) {
            let (what, line) = line_of(i);
            return Err(CoreError::invalid_parameters(
                Field::ModelParam("neighborhood"),
                format!(
                    "relative (epsilon, m)-anonymity needs every sensitive value to be > 0; {what} {line} has {}",
                    format_number(values[i])
                ),
            )
            .with_detail("line", line)
            .with_detail("value", values[i]));
        }
    }
    Ok(())
}

/// A relative ε must be < 1 (as [`crate::params::EpsilonM::new`] checks):
/// at ε ≥ 1 the reduction is infinite and the lower end x(1−ε) is no
/// longer monotone.
pub(crate) fn check_relative_epsilon(
    epsilon: Epsilon,
    neighborhood: Neighborhood,
) -> CoreResult<()> {
    if neighborhood == Neighborhood::Relative && epsilon.get() >= 1.0 {
        return Err(CoreError::invalid_parameters(
            Field::ModelParam("epsilon"),
            format!(
                "a relative epsilon must be in [0, 1), got {}",
                epsilon.get()
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The one-sided tests the sweeps use answer as `covers` does on
        /// their side, for both families: ties, values a rounding apart,
        /// and the neighbourhoods' exact ends.
        #[test]
        fn one_sided_tests_answer_as_covers(
            x in prop_oneof![1e-3f64..1e6, Just(8000.0), Just(1.0)],
            step in prop_oneof![Just(0.0), 0.0f64..2.0, Just(f64::EPSILON)],
            e1 in prop_oneof![Just(0.0), 0.0f64..1.5, Just(0.125)],
            e2 in prop_oneof![Just(0.0), 0.0f64..1.5, Just(0.125)],
            relative_e in 0.001f64..0.999,
        ) {
            let offsets = Offsets { e1, e2 };
            let band = RelativeBand { epsilon: relative_e };
            let (lo, hi) = relative_interval(x, relative_e);
            let below = [x, x - step * x, x - e1, lo, x.next_down(), x - e1 * x];
            let above = [x, x + step * x, x + e2, hi, x.next_up(), x + e2 * x];
            for y in below.into_iter().filter(|&y| y <= x && y > 0.0) {
                prop_assert_eq!(offsets.covers_below(x, y), offsets.covers(x, y));
                prop_assert_eq!(band.covers_below(x, y), band.covers(x, y));
            }
            for y in above.into_iter().filter(|&y| y >= x) {
                prop_assert_eq!(offsets.covers_above(x, y), offsets.covers(x, y));
                prop_assert_eq!(band.covers_above(x, y), band.covers(x, y));
            }
        }
    }

    #[test]
    fn relative_reduction_matches_the_paper_example() {
        // §4.1: relative (0.2, 2) → (0.32, 0.26, 2).
        let r = reduce(Epsilon::new(0.2, "/e").unwrap(), Neighborhood::Relative);
        assert_eq!(format!("{:.2} {:.2}", r.e1, r.e2), "0.32 0.26");
        assert_eq!(r.emax(), r.e1);
        let a = reduce(Epsilon::new(15.0, "/e").unwrap(), Neighborhood::Absolute);
        assert_eq!((a.e1, a.e2), (15.0, 15.0));
    }

    fn rel_covers_exact(x: f64, y: f64, e: f64) -> bool {
        RelativeBand { epsilon: e }.covers(x, y)
    }

    #[test]
    fn neighbourhoods_are_closed() {
        let abs = Offsets { e1: 10.0, e2: 10.0 };
        assert!(abs.covers(100.0, 90.0) && abs.covers(100.0, 110.0));
        assert!(!abs.covers(100.0, 89.5) && !abs.covers(100.0, 110.5));
        assert!(abs.either_covers(90.0, 100.0) && !abs.either_covers(89.0, 100.0));
        let asym = Offsets { e1: 20.0, e2: 5.0 };
        assert!(asym.covers(100.0, 80.0) && !asym.covers(100.0, 106.0));
        // Fig. 1's test uses emax for both directions (Lemma 3).
        assert!(asym.either_covers(100.0, 120.0));
        let rel = RelativeBand { epsilon: 0.125 };
        assert!(rel.covers(8000.0, 9000.0) && rel.covers(8000.0, 7000.0));
        // On log₂ values 165 falls outside I(150) for ε = 0.1 (glibc); by
        // the definition, the audits' test, it is inside: 150·1.1 = 165.
        assert!(rel_covers_exact(150.0, 165.0, 0.1));
        assert!(!rel.covers(8000.0, 9001.0) && !rel.covers(8000.0, 6999.0));
        // Relative neighbourhoods are asymmetric: 7000 ∈ I(8000) = [7000,
        // 9000] but 8000 ∉ I(7000) = [6125, 7875].
        assert!(!rel.covers(7000.0, 8000.0));
        assert!(rel.either_covers(7000.0, 8000.0));
    }

    #[test]
    fn value_checks_name_the_line() {
        let err = check_values(&[3.0, 0.0, -1.0], Neighborhood::Relative, |i| {
            ("data line".into(), i as u32 + 2)
        })
        .unwrap_err();
        assert_eq!(err.kind, crate::ErrorKind::InvalidParameters);
        assert!(err.message.contains("data line 3 has 0"), "{}", err.message);
        assert_eq!(err.errors[0].field, Field::ModelParam("neighborhood"));
        assert!(
            check_values(&[3.0, 0.0, -1.0], Neighborhood::Absolute, |i| (
                "row".into(),
                i as u32
            ))
            .is_ok()
        );
        let err = check_values(&[1.0, f64::INFINITY], Neighborhood::Absolute, |i| {
            ("row".into(), i as u32 + 1)
        })
        .unwrap_err();
        assert!(err.message.contains("row 2 has inf"), "{}", err.message);
        let e = Epsilon::new(1.0, "/e").unwrap();
        assert!(check_relative_epsilon(e, Neighborhood::Relative).is_err());
        assert!(check_relative_epsilon(e, Neighborhood::Absolute).is_ok());
    }
}
