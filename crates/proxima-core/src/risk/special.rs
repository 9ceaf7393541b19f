//! The special functions the population models need: ln Γ, digamma ψ and
//! trigamma ψ′ (std has none of them stable).
//!
//! * ln Γ: Lanczos' approximation (g = 7, nine coefficients, ~15 digits)
//!   with the reflection Γ(x)Γ(1−x) = π / sin(πx) below ½.
//! * ψ, ψ′: the recurrences ψ(x) = ψ(x+1) − 1/x and ψ′(x) = ψ′(x+1) + 1/x²
//!   up to x ≥ 14 (where the first omitted term is below 1e-15), then the
//!   asymptotic (Stirling-type) series in 1/x with
//!   Bernoulli-number coefficients (Abramowitz & Stegun 6.3.18, 6.4.12);
//!   reflection for negative arguments (A&S 6.3.7, and its derivative).

use std::f64::consts::PI;

const LANCZOS_G: f64 = 7.0;
const LANCZOS: [f64; 9] = [
    0.999_999_999_999_809_9,
    676.520_368_121_885_1,
    -1_259.139_216_722_402_8,
    771.323_428_777_653_1,
    -176.615_029_162_140_6,
    12.507_343_278_686_905,
    -0.138_571_095_265_720_12,
    9.984_369_578_019_572e-6,
    1.505_632_735_149_311_6e-7,
];

/// `(ln |Γ(x)|, sign of Γ(x))`; `(∞, 1)` at the poles 0, −1, −2, …
pub fn ln_gamma(x: f64) -> (f64, f64) {
    if x.is_nan() {
        return (f64::NAN, 1.0);
    }
    if x <= 0.0 && x.fract() == 0.0 {
        return (f64::INFINITY, 1.0);
    }
    if x < 0.5 {
        // Γ(x) = π / (sin(πx) Γ(1−x))
        let s = (PI * x).sin();
        let (lg, sg) = ln_gamma(1.0 - x);
        return (
            PI.ln() - s.abs().ln() - lg,
            sg * if s < 0.0 { -1.0 } else { 1.0 },
        );
    }
    let x = x - 1.0;
    let mut a = LANCZOS[0];
    let t = x + LANCZOS_G + 0.5;
    for (i, c) in LANCZOS.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    (0.5 * (2.0 * PI).ln() + (x + 0.5) * t.ln() - t + a.ln(), 1.0)
}

/// ψ(x) = d/dx ln Γ(x); NaN at the poles.
pub fn digamma(x: f64) -> f64 {
    if !x.is_finite() || (x <= 0.0 && x.fract() == 0.0) {
        return f64::NAN;
    }
    if x < 0.0 {
        // ψ(1−x) − ψ(x) = π cot(πx)
        return digamma(1.0 - x) - PI / (PI * x).tan();
    }
    let (mut x, mut acc) = (x, 0.0);
    while x < 14.0 {
        acc -= 1.0 / x;
        x += 1.0;
    }
    let r = 1.0 / (x * x);
    acc + x.ln()
        - 0.5 / x
        - r * (1.0 / 12.0
            - r * (1.0 / 120.0 - r * (1.0 / 252.0 - r * (1.0 / 240.0 - r * (1.0 / 132.0)))))
}

/// ψ′(x) = d²/dx² ln Γ(x); NaN at the poles.
pub fn trigamma(x: f64) -> f64 {
    if !x.is_finite() || (x <= 0.0 && x.fract() == 0.0) {
        return f64::NAN;
    }
    if x < 0.0 {
        // ψ′(1−x) + ψ′(x) = π² / sin²(πx)
        let s = PI / (PI * x).sin();
        return -trigamma(1.0 - x) + s * s;
    }
    let (mut x, mut acc) = (x, 0.0);
    while x < 14.0 {
        acc += 1.0 / (x * x);
        x += 1.0;
    }
    let r = 1.0 / (x * x);
    // 1/x + 1/(2x²) + Σ B_2k / x^(2k+1)
    acc + 1.0 / x
        + 0.5 * r
        + (r / x)
            * (1.0 / 6.0
                - r * (1.0 / 30.0 - r * (1.0 / 42.0 - r * (1.0 / 30.0 - r * (5.0 / 66.0)))))
}

#[cfg(test)]
mod tests {
    use super::*;

    const EULER_GAMMA: f64 = 0.577_215_664_901_532_9;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol * (1.0 + b.abs())
    }

    #[test]
    fn ln_gamma_matches_known_values() {
        // Γ(1) = Γ(2) = 1, Γ(5) = 24, Γ(½) = √π, Γ(−½) = −2√π.
        assert!(close(ln_gamma(1.0).0, 0.0, 1e-14));
        assert!(close(ln_gamma(2.0).0, 0.0, 1e-14));
        assert!(close(ln_gamma(5.0).0, 24f64.ln(), 1e-14));
        assert!(close(ln_gamma(0.5).0, PI.sqrt().ln(), 1e-14));
        let (l, s) = ln_gamma(-0.5);
        assert!(close(l, (2.0 * PI.sqrt()).ln(), 1e-13));
        assert_eq!(s, -1.0);
        // ln Γ(101) = ln 100! = 363.739375555563…
        assert!(close(ln_gamma(101.0).0, 363.739_375_555_563_5, 1e-14));
        assert_eq!(ln_gamma(0.0).0, f64::INFINITY);
    }

    #[test]
    fn digamma_and_trigamma_match_known_values() {
        // ψ(1) = −γ, ψ(½) = −γ − 2 ln 2, ψ(n+1) = ψ(n) + 1/n.
        assert!(close(digamma(1.0), -EULER_GAMMA, 1e-14));
        assert!(close(digamma(0.5), -EULER_GAMMA - 2.0 * 2f64.ln(), 1e-14));
        assert!(close(
            digamma(4.0),
            -EULER_GAMMA + 1.0 + 0.5 + 1.0 / 3.0,
            1e-14
        ));
        // ψ′(1) = π²/6, ψ′(½) = π²/2.
        assert!(close(trigamma(1.0), PI * PI / 6.0, 1e-14));
        assert!(close(trigamma(0.5), PI * PI / 2.0, 1e-14));
        // Reflection: ψ(−½) = ψ(3/2) + π cot(−π/2)·… = 2 − γ − 2 ln 2 + ... checked
        // against the recurrence ψ(½) = ψ(−½) + 1/(−½).
        assert!(close(digamma(-0.5), digamma(0.5) + 2.0, 1e-13));
        assert!(close(trigamma(-0.5), trigamma(0.5) + 4.0, 1e-13));
        assert!(digamma(-2.0).is_nan() && trigamma(0.0).is_nan());
        // Large arguments: ψ(x) ≈ ln x − 1/(2x) − 1/(12x²),
        // ψ′(x) ≈ 1/x + 1/(2x²).
        let x = 1e6;
        assert!(close(
            digamma(x),
            x.ln() - 0.5 / x - 1.0 / (12.0 * x * x),
            1e-15
        ));
        assert!(close(trigamma(x), 1.0 / x + 0.5 / (x * x), 1e-12));
    }

    #[test]
    fn digamma_is_the_derivative_of_ln_gamma() {
        for x in [0.3, 1.7, 4.2, 13.5, 250.0] {
            let h = 1e-5 * x;
            let numeric = (ln_gamma(x + h).0 - ln_gamma(x - h).0) / (2.0 * h);
            assert!(close(digamma(x), numeric, 1e-7), "x = {x}");
            let numeric2 = (digamma(x + h) - digamma(x - h)) / (2.0 * h);
            assert!(close(trigamma(x), numeric2, 1e-6), "x = {x}");
        }
    }
}
