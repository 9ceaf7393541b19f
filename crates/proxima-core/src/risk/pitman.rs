//! Pitman's model of population uniques (Hoshino 2001, "Applying Pitman's
//! sampling formula to microdata disclosure risk assessment", *Journal of
//! Official Statistics* 17(4); as ARX's `ModelPitman` implements it).
//!
//! The class sizes of a sample follow Pitman's sampling formula with
//! parameters (θ, α). For a sample of n records in u classes, f_j of size
//! j, the log-likelihood is (up to a constant)
//!
//! L(θ, α) = Σ_{i=1}^{u−1} ln(θ + iα) − Σ_{i=1}^{n−1} ln(θ + i)
//!           + Σ_j f_j Σ_{k=1}^{j−1} ln(k − α)
//!
//! and the maximum-likelihood estimate solves ∂L/∂θ = ∂L/∂α = 0:
//!
//! ∂L/∂θ = Σ_{i=1}^{u−1} 1/(θ+iα) − Σ_{i=1}^{n−1} 1/(θ+i)
//! ∂L/∂α = Σ_{i=1}^{u−1} i/(θ+iα) − Σ_j f_j Σ_{k=1}^{j−1} 1/(k−α)
//!
//! The expected number of population uniques in a population of N is then
//! Γ(θ+1) / Γ(θ+α) · N^α (Hoshino 2001).
//!
//! As in ARX: the sums are evaluated in closed form with ψ and ψ′
//! (Σ_{i=1}^{m} 1/(x+i) = ψ(x+m+1) − ψ(x+1)); the root is checked against
//! the plain sums and, when that check or the closed-form solve fails, the
//! equations are solved again with the plain sums (within a work bound,
//! [`PLAIN_SUM_WORK`], where ARX has a 1 s time limit). The solver starts from
//! Hoshino's moment estimates and keeps θ ≥ 0 (as ARX) and α < 1 (Pitman's
//! parameter space; ARX does not check it and can stop at a spurious
//! "root" with a huge θ and α > 1, where every term is below the
//! tolerance: on the classes {1×10, 2×4, 3×2, 4, 8} with N = 360 it takes
//! θ ≈ 3·10⁸, α ≈ 3.8 and reports 6·10⁻¹⁵ uniques, where the likelihood's
//! stationary point θ ≈ 15.9, α ≈ −0.11 gives 11.2). The estimate counts
//! only when α ≠ 0 and it lies in [0, N].

use super::classes::ClassSizes;
use super::estimate::Estimate;
use super::newton::{self, ACCURACY, J2, V2};
use super::special::{digamma, ln_gamma, trigamma};

/// Pitman's estimate of the number of population uniques.
pub fn pitman(classes: &ClassSizes, population_size: f64) -> Estimate {
    match pitman_fit(classes) {
        PitmanFit::NoSampleUniques => Estimate::Uniques(0.0),
        PitmanFit::Parameters { theta, alpha } => {
            match expected_uniques(theta, alpha, population_size) {
                Some(u) => Estimate::Uniques(u),
                None => Estimate::Undefined,
            }
        }
        PitmanFit::NotConverged => Estimate::NotConverged,
    }
}

/// The outcome of fitting Pitman's model to a table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PitmanFit {
    /// f₁ = 0: ARX sets every estimate to 0 without solving.
    NoSampleUniques,
    /// The maximum-likelihood (θ, α).
    Parameters { theta: f64, alpha: f64 },
    /// No root found (or a single record, whose likelihood does not depend
    /// on the parameters, so any start value would pass for a root).
    NotConverged,
}

/// The most terms the plain-sum fallback may add up in all, about a
/// second of CPU in a release build: ARX's 1 s time limit on the solver,
/// made a deterministic work bound (on 600k records, about 800 Newton
/// steps; on 30k, the full 17 tries).
pub const PLAIN_SUM_WORK: usize = 1_000_000_000;

/// …but never fewer evaluations than this.
pub const MIN_PLAIN_SUM_EVALUATIONS: usize = 100;

/// Fits (θ, α) by maximum likelihood.
pub fn pitman_fit(classes: &ClassSizes) -> PitmanFit {
    if classes.classes_of_size(1) == 0 {
        return PitmanFit::NoSampleUniques;
    }
    if classes.records() < 2 {
        return PitmanFit::NotConverged;
    }
    let start = moment_start(classes);
    let inside = |(t, a): V2| t >= 0.0 && a < 1.0;
    let closed = newton::solve(|x| closed_form(classes, x), start, inside);
    let checked = closed.filter(|&x| {
        let (f1, f2) = plain_sums(classes, x).0;
        f1.abs() <= ACCURACY && f2.abs() <= ACCURACY
    });
    let root = checked.or_else(|| {
        // Each plain-sum evaluation costs O(n + u + Σ sizes): bound the
        // fallback's work at about PLAIN_SUM_WORK terms in all.
        let cost = classes.records() + classes.classes() + classes.entries().len();
        let evaluations = (PLAIN_SUM_WORK / cost.max(1)).max(MIN_PLAIN_SUM_EVALUATIONS);
        newton::solve_within(|x| plain_sums(classes, x), start, inside, evaluations)
    });
    match root {
        Some((theta, alpha)) => PitmanFit::Parameters { theta, alpha },
        None => PitmanFit::NotConverged,
    }
}

/// Hoshino's moment estimates, ARX's start value: with c = f₁(f₁−1)/f₂
/// (f₂ taken as 1 when 0), θ₀ = (n·u·c − f₁(n−1)(2u + c)) /
/// (2f₁u + f₁c − n·c) and α₀ = (θ₀(f₁ − n) + (n−1)f₁) / (n·u).
fn moment_start(classes: &ClassSizes) -> V2 {
    let c1 = classes.classes_of_size(1) as f64;
    let c2 = match classes.classes_of_size(2) {
        0 => 1.0,
        c => c as f64,
    };
    let n = classes.records() as f64;
    let u = classes.classes() as f64;
    let c = c1 * (c1 - 1.0) / c2;
    let t = (n * u * c - c1 * (n - 1.0) * (2.0 * u + c)) / (2.0 * c1 * u + c1 * c - n * c);
    let a = (t * (c1 - n) + (n - 1.0) * c1) / (n * u);
    (t, a)
}

/// Σ_j f_j Σ_{k=1}^{j−1} 1/(k−α) and the same with squares, in closed form.
fn class_terms(classes: &ClassSizes, a: f64) -> (f64, f64) {
    let (d1, t1) = (digamma(1.0 - a), trigamma(1.0 - a));
    classes
        .entries()
        .iter()
        .filter(|&&(s, _)| s > 1)
        .fold((0.0, 0.0), |(o, d), &(s, c)| {
            let s = s as f64;
            let c = c as f64;
            (
                o + c * (digamma(s - a) - d1),
                d + c * (t1 - trigamma(s - a)),
            )
        })
}

/// The likelihood equations and their Jacobian with ψ and ψ′.
fn closed_form(classes: &ClassSizes, (t, a): V2) -> (V2, J2) {
    let n = classes.records() as f64;
    let u = classes.classes() as f64;
    let r = t / a;
    // S0 = Σ_{i=1}^{u−1} 1/(θ+iα), S1 = Σ 1/(θ+iα)².
    let s0 = (digamma(r + u) - digamma(r + 1.0)) / a;
    let s1 = (trigamma(r + 1.0) - trigamma(r + u)) / (a * a);
    // Σ i/(θ+iα) = ((u−1) − θ·S0)/α; Σ i/(θ+iα)² = (S0 − θ·S1)/α;
    // Σ i²/(θ+iα)² = ((u−1) − 2θ·S0 + θ²·S1)/α².
    let i1 = (u - 1.0 - t * s0) / a;
    let i1sq = (s0 - t * s1) / a;
    let i2sq = (u - 1.0 - 2.0 * t * s0 + t * t * s1) / (a * a);
    let o2 = digamma(t + n) - digamma(t + 1.0);
    let d2 = trigamma(t + 1.0) - trigamma(t + n);
    let (o4, d4) = class_terms(classes, a);
    ((s0 - o2, i1 - o4), [[d2 - s1, -i1sq], [-i1sq, -i2sq - d4]])
}

/// The same equations as plain sums (exact, O(n) per evaluation).
fn plain_sums(classes: &ClassSizes, (t, a): V2) -> (V2, J2) {
    let n = classes.records();
    let u = classes.classes();
    let (mut s0, mut s1, mut i1, mut i1sq, mut i2sq) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for i in 1..u {
        let i = i as f64;
        let v = 1.0 / (t + i * a);
        s0 += v;
        s1 += v * v;
        i1 += i * v;
        i1sq += i * v * v;
        i2sq += i * i * v * v;
    }
    let (mut o2, mut d2) = (0.0, 0.0);
    for i in 1..n {
        let v = 1.0 / (t + i as f64);
        o2 += v;
        d2 += v * v;
    }
    let (mut o4, mut d4) = (0.0, 0.0);
    for &(s, c) in classes.entries() {
        let (mut o, mut d) = (0.0, 0.0);
        for k in 1..s {
            let v = 1.0 / (k as f64 - a);
            o += v;
            d += v * v;
        }
        o4 += c as f64 * o;
        d4 += c as f64 * d;
    }
    ((s0 - o2, i1 - o4), [[d2 - s1, -i1sq], [-i1sq, -i2sq - d4]])
}

/// Γ(θ+1)/Γ(θ+α) · N^α, when α ≠ 0 and the value lies in [0, N].
pub fn expected_uniques(theta: f64, alpha: f64, population_size: f64) -> Option<f64> {
    if alpha == 0.0 || !theta.is_finite() || !alpha.is_finite() {
        return None;
    }
    let (l1, s1) = ln_gamma(theta + 1.0);
    let (l2, s2) = ln_gamma(theta + alpha);
    let v = s1 * s2 * (l1 - l2 + alpha * population_size.ln()).exp();
    (v.is_finite() && (0.0..=population_size).contains(&v)).then_some(v)
}
