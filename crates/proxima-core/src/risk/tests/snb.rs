use super::{close, table};
use crate::risk::snb::{moments, shlosser, snb_parameters};
use crate::risk::{snb, Estimate};

#[test]
fn shlosser_by_hand() {
    // Classes 1, 1, 2 (u = 3, f₁ = 2, f₂ = 1), q = ½:
    // Σ i q²(1−q²)^{i−1} f_i = 1·¼·1·2 + 2·¼·¾·1 = ½ + ⅜ = 7/8
    // Σ (1−q)^i((1+q)^i − 1) f_i = ½·½·2 + ¼·(9/4 − 1)·1 = ½ + 5/16 = 13/16
    // Σ (1−q)^i f_i = ½·2 + ¼ = 5/4
    // Σ i q(1−q)^{i−1} f_i = 1·½·2 + 2·½·½ = 3/2
    // K = 3 + 2·(7/8)/(13/16)·((5/4)/(3/2))² = 3 + 2·(14/13)·(25/36)
    //   = 3 + 175/117 = 526/117.
    let t = table(&[(1, 2), (2, 1)]);
    assert!(close(shlosser(&t, 0.5), 526.0 / 117.0, 1e-14));
}

#[test]
fn moment_equations_match_the_model_summed_directly() {
    // E[f₁]/K and E[f₂]/K are P(a class leaves 1 / 2 records in the
    // sample). Summed directly over the population class size F = 1 + X,
    // X negative binomial (α, β), each record kept with probability π:
    // P(1) = Σ_x P(X=x)·(1+x)·π(1−π)^x,
    // P(2) = Σ_x P(X=x)·C(1+x, 2)·π²(1−π)^(x−1).
    let (a, b, f) = (2.0_f64, 0.4_f64, 0.3_f64);
    let mut p1 = 0.0;
    let mut p2 = 0.0;
    // P(X=x) = Γ(α+x)/(Γ(α) x!)·β^α(1−β)^x, by the recurrence
    // P(x+1) = P(x)·(α+x)/(x+1)·(1−β).
    let mut px = b.powf(a);
    for x in 0..2000 {
        let xf = x as f64;
        p1 += px * (1.0 + xf) * f * (1.0 - f).powf(xf);
        if x >= 1 {
            p2 += px * (1.0 + xf) * xf / 2.0 * f * f * (1.0 - f).powf(xf - 1.0);
        }
        px *= (a + xf) / (xf + 1.0) * (1.0 - b);
    }
    let ((e1, e2), _) = moments(1.0, f, (a, b));
    assert!(close(e1, p1, 1e-12), "{e1} {p1}");
    assert!(close(e2, p2, 1e-12), "{e2} {p2}");
}

#[test]
fn moment_jacobian_matches_finite_differences() {
    for &(k, f, a, b) in &[
        (100.0, 0.3, 2.0, 0.4),
        (50.0, 0.05, 0.7, 0.9),
        (10.0, 0.8, 3.0, 0.1),
    ] {
        let (_, j) = moments(k, f, (a, b));
        let h = 1e-6;
        let d = |x: (f64, f64), y: (f64, f64)| {
            let ((p1, p2), _) = moments(k, f, x);
            let ((m1, m2), _) = moments(k, f, y);
            ((p1 - m1) / (2.0 * h), (p2 - m2) / (2.0 * h))
        };
        let (da1, da2) = d((a + h, b), (a - h, b));
        let (db1, db2) = d((a, b + h), (a, b - h));
        for (analytic, numeric) in [
            (j[0][0], da1),
            (j[1][0], da2),
            (j[0][1], db1),
            (j[1][1], db2),
        ] {
            assert!(close(analytic, numeric, 1e-6), "{analytic} vs {numeric}");
        }
    }
}

#[test]
fn snb_solves_the_moment_equations() {
    // Classes: 50 of size 1, 20 of 2, 10 of 3, 5 of 4, 3 of 5, 2 of 10:
    // n = 50 + 40 + 30 + 20 + 15 + 20 = 175 records, u = 90; N = 300,
    // π = 175/300. Shlosser's K from the formula; the solver's (α, β)
    // must give E[f₁] = 50 and E[f₂] = 20 (formulas in snb.rs), and the
    // estimate is K·β^α.
    let t = table(&[(1, 50), (2, 20), (3, 10), (4, 5), (5, 3), (10, 2)]);
    let f = 175.0 / 300.0;
    let k = shlosser(&t, f);
    let (a, b) = snb_parameters(&t, f, k).expect("SNB converges here");
    assert!(a > 0.0 && b > 0.0 && b <= 1.0);
    // The equations written out: d = (1−π)(1−β).
    let d = (1.0 - f) * (1.0 - b);
    let e1 = k * f * (b / (1.0 - d)).powf(a) * (1.0 + a * d / (1.0 - d));
    let e2 = k * f * f / 2.0 * a * (1.0 - b) * b.powf(a) / (1.0 - d).powf(a + 2.0)
        * (2.0 - (1.0 - a) * d);
    assert!(
        (e1 - 50.0).abs() <= 1e-6 && (e2 - 20.0).abs() <= 1e-6,
        "{e1} {e2}"
    );
    let Estimate::Uniques(u) = snb(&t, 300.0) else {
        panic!("SNB is defined here")
    };
    assert!(close(u, k * b.powf(a), 1e-14));
    // At least the sample uniques that are in the population, at most K.
    assert!(u <= k && u > 0.0, "{u} {k}");
}

#[test]
fn snb_edge_cases() {
    // π = 1: Shlosser's ratios are 0/0-like, the model is undefined.
    assert_eq!(
        snb(&table(&[(1, 2), (2, 1), (3, 1)]), 7.0),
        Estimate::Undefined
    );
    // No sample uniques: 0 without solving.
    assert_eq!(snb(&table(&[(3, 4)]), 100.0), Estimate::Uniques(0.0));
    // No classes of size 2: E[f₂] = 0 forces α(1−β) = 0, outside the
    // model's domain (α > 0, β < 1 unless every class is a singleton).
    assert!(!snb(&table(&[(1, 5), (3, 2)]), 100.0).is_valid());
}
