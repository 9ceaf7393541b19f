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

/// Newton steps on the model's moment equations (`moments`) from `x`: the
/// solver stops once both residuals are within 1e-6, so its root is only
/// that accurate; a few more steps land on the equations' root itself.
fn polish(t: &crate::risk::ClassSizes, f: f64, k: f64, mut x: (f64, f64)) -> (f64, f64) {
    let (c1, c2) = (t.classes_of_size(1) as f64, t.classes_of_size(2) as f64);
    for _ in 0..4 {
        let ((e1, e2), j) = moments(k, f, x);
        let (r1, r2) = (e1 - c1, e2 - c2);
        let det = j[0][0] * j[1][1] - j[0][1] * j[1][0];
        x.0 -= (j[1][1] * r1 - j[0][1] * r2) / det;
        x.1 -= (j[0][0] * r2 - j[1][0] * r1) / det;
    }
    x
}

#[test]
// The literals are the independent computation's digits, kept as it printed them.
#[allow(clippy::excessive_precision, clippy::type_complexity)]
fn snb_estimate_matches_an_independent_computation() {
    // Computed apart from this code (python3 + mpmath, 60 digits), from the
    // model rather than from the closed forms in snb.rs: a population class
    // has F = 1 + X records, P(X=x) = Γ(α+x)/(Γ(α)x!)·β^α(1−β)^x; a sample
    // class has s ~ Binomial(F, π) records, so
    //   p_j = P(s=j) = Σ_{x≥0} P(X=x)·C(1+x, j)·π^j(1−π)^(1+x−j),
    // summed term by term (Γ by loggamma) until a term is < 1e−70 of the
    // sum. K is Shlosser's (Haas & Stokes) in exact rationals (Fraction,
    // q = π); (α, β) solve K·p₁ = f₁, K·p₂ = f₂ (mpmath.findroot to 1e−40,
    // started from a grid scan over α ∈ [0.001, 1000], β ∈ (0, 1), which
    // found one basin per table); the estimate is K·P(X=0) = K·β^α.
    //
    // table (size, count)            π      K                      α                      β                      K·β^α
    // 50×1 20×2 10×3 5×4 3×5 2×10    7/12   117.79791286923158366  0.67932653668687031816 0.31382283552432875645 53.607067311875402287
    // 3×1 2×2 1×3                    1/2    7.8840167482288924615  8.0035163823142888005  0.81167300702078759053 1.4841497185768846871
    // 4×1 2×2 1×3 1×4                1/2    10.620920209120970376  1.0226383493880519992  0.34160972254065150961 3.5410516626013731579
    // 5×1 2×2 1×3                    1/3    14.235008108330706291  0.81297457596237672909 0.27423072601434913742 4.9723352732241177725
    // 4×1 2×2 1×3 1×4                0.999  8.0040020010059603368  0.99999999999777507077 0.49974987493635654829 3.9999989989992495030
    // (K exactly: 446259/56603, 4975232/468437, 5012246/352107 for rows 2–4.)
    //
    // The solver stops at residuals ≤ 1e-6 (newton::ACCURACY), which moves
    // the root: re-solving with f₁ or f₂ off by 1e-6 moves K·β^α by (sum of
    // both, relative) 5.8e-8, 1.9e-6, 9.9e-7, 7.8e-7, 2.5e-7 and (α, β) by
    // at most 1.4e-5 (row 2's α), 2.8e-6. So `snb` is held to 4× those
    // bounds, and the root of the equations themselves (the solver's root
    // polished by Newton steps) to 1e-10.
    let rows: [(&[(usize, usize)], f64, f64, f64, f64, f64, f64); 5] = [
        (
            &[(1, 50), (2, 20), (3, 10), (4, 5), (5, 3), (10, 2)],
            300.0,
            117.797_912_869_231_583_66,
            0.679_326_536_686_870_318_16,
            0.313_822_835_524_328_756_45,
            53.607_067_311_875_402_287,
            2.4e-7,
        ),
        (
            &[(1, 3), (2, 2), (3, 1)],
            20.0,
            446_259.0 / 56_603.0,
            8.003_516_382_314_288_800_5,
            0.811_673_007_020_787_590_53,
            1.484_149_718_576_884_687_1,
            8e-6,
        ),
        (
            &[(1, 4), (2, 2), (3, 1), (4, 1)],
            30.0,
            4_975_232.0 / 468_437.0,
            1.022_638_349_388_051_999_2,
            0.341_609_722_540_651_509_61,
            3.541_051_662_601_373_157_9,
            4e-6,
        ),
        (
            &[(1, 5), (2, 2), (3, 1)],
            36.0,
            5_012_246.0 / 352_107.0,
            0.812_974_575_962_376_729_09,
            0.274_230_726_014_349_137_42,
            4.972_335_273_224_117_772_5,
            4e-6,
        ),
        (
            &[(1, 4), (2, 2), (3, 1), (4, 1)],
            15.0 / 0.999,
            8.004_002_001_005_960_336_8,
            0.999_999_999_997_775_070_77,
            0.499_749_874_936_356_548_29,
            3.999_998_998_999_249_503_0,
            1e-6,
        ),
    ];
    for (pairs, n, k, alpha, beta, uniques, tol) in rows {
        let t = table(pairs);
        let f = t.records() as f64 / n;
        let got_k = shlosser(&t, f);
        assert!(close(got_k, k, 1e-13), "{pairs:?}: K {got_k} vs {k}");
        let Estimate::Uniques(u) = snb(&t, n) else {
            panic!("{pairs:?}: SNB is defined here: {:?}", snb(&t, n))
        };
        assert!(
            (u - uniques).abs() <= tol * uniques,
            "{pairs:?}: uniques {u} vs {uniques}"
        );
        let (a, b) = snb_parameters(&t, f, got_k).unwrap();
        assert!(
            (a - alpha).abs() <= 6e-5 * alpha && (b - beta).abs() <= 1.2e-5 * beta,
            "{pairs:?}: (α, β) ({a}, {b}) vs ({alpha}, {beta})"
        );
        let (a, b) = polish(&t, f, got_k, (a, b));
        let u = got_k * b.powf(a);
        assert!(
            close(a, alpha, 1e-10) && close(b, beta, 1e-10) && close(u, uniques, 1e-10),
            "{pairs:?}: polished ({a}, {b}, {u}) vs ({alpha}, {beta}, {uniques})"
        );
    }

    // π = 1 (the sample is the population): E[f₁] = K·β^α, so the estimate
    // is the sample uniques, f₁. Shlosser's K is 0/0 there, so give K = u:
    // classes 4×1 2×2 1×3 1×4, K = 8, solve K·β^α = 4, K·αβ^α(1−β) = 2:
    // α = 1, β = ½ (geometric sizes: P(F=1) = ½, P(F=2) = ¼). The last row
    // above (π = 0.999) is the same table approaching this: 3.999999.
    let t = table(&[(1, 4), (2, 2), (3, 1), (4, 1)]);
    let (a, b) = snb_parameters(&t, 1.0, 8.0).unwrap();
    assert!((8.0 * b.powf(a) - 4.0).abs() <= 1e-5, "{a} {b}");
    let (a, b) = polish(&t, 1.0, 8.0, (a, b));
    assert!(close(a, 1.0, 1e-12) && close(b, 0.5, 1e-12), "{a} {b}");
    assert!(close(8.0 * b.powf(a), 4.0, 1e-12));
}
