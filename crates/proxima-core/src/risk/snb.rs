//! The SNB (shifted negative binomial) model of population uniques (Chen &
//! Keller-McNulty 1998, "Estimation of identification disclosure risk in
//! microdata", *Journal of Official Statistics* 14(1); as ARX's `ModelSNB`
//! implements it).
//!
//! The population has K non-empty classes whose sizes are 1 + X with X
//! negative binomial, P(X = x) = Γ(α+x)/(Γ(α)·x!) · β^α (1−β)^x (α > 0,
//! 0 < β ≤ 1). Each record is in the sample with probability π, so with
//! d = (1−π)(1−β) the expected numbers of sample classes of size 1 and 2
//! are (from the probability generating function u·(β/(1−(1−β)u))^α at
//! u = 1 − π + πt):
//!
//! E\[f₁\] = K·π·(β/(1−d))^α · (1 + α·d/(1−d))
//! E\[f₂\] = K·π²/2 · α(1−β)·β^α · (1−d)^−(α+2) · (2 − (1−α)·d)
//!
//! The moment estimates (α, β) solve E\[f₁\] = f₁, E\[f₂\] = f₂, and the
//! estimated number of population uniques is K·P(X = 0) = K·β^α.
//!
//! K is estimated with Shlosser's estimator in Haas & Stokes' form (1998,
//! "Estimating the number of classes in a finite population", *JASA*
//! 93(444), their D̂_Sh3), with q = π:
//!
//! K = u + f₁ · [Σ_i i q²(1−q²)^{i−1} f_i / Σ_i (1−q)^i((1+q)^i − 1) f_i]
//!            · [Σ_i (1−q)^i f_i / Σ_i i q (1−q)^{i−1} f_i]²
//!
//! Where we differ from ARX's current code, on purpose: ARX's
//! `estimateNonEmptyEquivalenceClasses` adds `(1−q)^i(1+q)^i f_i − 1` to the
//! second sum instead of `(1−q)^i((1+q)^i − 1) f_i` (its own 2013 version,
//! `SNBModel`, had the formula above), and its second moment equation
//! multiplies by (1−d)^(α+2) where the model divides (again, the 2013
//! `NewtonSNB` divided). We follow the model. The solver starts at (1, 1)
//! as ARX's does; a try is abandoned when (α, β) leaves α > 0, 0 < β ≤ 1
//! (ARX does not constrain; a root outside is no negative binomial), and
//! the estimate counts when it lies in [0, N].

use super::classes::ClassSizes;
use super::estimate::Estimate;
use super::newton::{self, J2, V2};

/// The SNB estimate of the number of population uniques.
pub fn snb(classes: &ClassSizes, population_size: f64) -> Estimate {
    if classes.classes_of_size(1) == 0 {
        return Estimate::Uniques(0.0);
    }
    let f = classes.records() as f64 / population_size;
    let k = shlosser(classes, f);
    if !k.is_finite() || k <= 0.0 {
        return Estimate::Undefined;
    }
    match snb_parameters(classes, f, k) {
        Some((a, b)) => {
            let v = k * b.powf(a);
            if v.is_finite() && (0.0..=population_size).contains(&v) {
                Estimate::Uniques(v)
            } else {
                Estimate::Undefined
            }
        }
        None => Estimate::NotConverged,
    }
}

/// Shlosser's estimate of the number of non-empty population classes, K
/// (NaN when undefined, e.g. at q = 1 where both ratios are 0/0-like).
pub fn shlosser(classes: &ClassSizes, q: f64) -> f64 {
    let (mut s1, mut s2, mut s3, mut s4) = (0.0, 0.0, 0.0, 0.0);
    for &(i, c) in classes.entries() {
        let (i, c) = (i as f64, c as f64);
        s1 += i * q * q * (1.0 - q * q).powf(i - 1.0) * c;
        s2 += (1.0 - q).powf(i) * ((1.0 + q).powf(i) - 1.0) * c;
        s3 += (1.0 - q).powf(i) * c;
        s4 += i * q * (1.0 - q).powf(i - 1.0) * c;
    }
    let f1 = classes.classes_of_size(1) as f64;
    classes.classes() as f64 + f1 * (s1 / s2) * (s3 / s4) * (s3 / s4)
}

/// The (α, β) solving the two moment equations, if the solver finds them.
pub fn snb_parameters(classes: &ClassSizes, f: f64, k: f64) -> Option<(f64, f64)> {
    let c1 = classes.classes_of_size(1) as f64;
    let c2 = classes.classes_of_size(2) as f64;
    newton::solve(
        |x| {
            let ((e1, e2), j) = moments(k, f, x);
            ((e1 - c1, e2 - c2), j)
        },
        (1.0, 1.0),
        |(a, b)| a > 0.0 && b > 0.0 && b <= 1.0,
    )
}

/// (E\[f₁\], E\[f₂\]) at (α, β) and their Jacobian.
pub(super) fn moments(k: f64, f: f64, (a, b): V2) -> (V2, J2) {
    let g = 1.0 - (1.0 - f) * (1.0 - b);
    let d = 1.0 - g;
    let ln_ratio = b.ln() - g.ln();
    // E\[f₁\] = K f A B with A = β^α g^−(α+1), B = α + (1−α) g.
    let pa = b.powf(a) * g.powf(-a - 1.0);
    let pb = a + (1.0 - a) * g;
    let e1 = k * f * pa * pb;
    let e1_a = k * f * pa * (ln_ratio * pb + (1.0 - g));
    let e1_b = k * f * pa * ((a / b - (a + 1.0) * (1.0 - f) / g) * pb + (1.0 - a) * (1.0 - f));
    // E\[f₂\] = K f²/2 · C D with C = α(1−β) β^α g^−(α+2), D = 2 − (1−α) d.
    let p = b.powf(a) * g.powf(-a - 2.0);
    let pc = a * (1.0 - b) * p;
    let pd = 2.0 - (1.0 - a) * d;
    let pc_a = (1.0 - b) * p * (1.0 + a * ln_ratio);
    let pc_b = a * p * (-1.0 + (1.0 - b) * (a / b - (a + 2.0) * (1.0 - f) / g));
    let half = k * f * f / 2.0;
    let e2 = half * pc * pd;
    let e2_a = half * (pc_a * pd + pc * d);
    let e2_b = half * (pc_b * pd + pc * (1.0 - a) * (1.0 - f));
    ((e1, e2), [[e1_a, e1_b], [e2_a, e2_b]])
}
