use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::{close, table};
use crate::risk::pitman::{expected_uniques, pitman_fit, PitmanFit};
use crate::risk::{pitman, ClassSizes, Estimate};

#[test]
fn expected_uniques_by_hand() {
    // Γ(θ+1)/Γ(θ+α)·N^α.
    // θ = 1, α = ½, N = 100: Γ(2)/Γ(3/2)·10 = 1/(√π/2)·10 = 20/√π.
    let pi = std::f64::consts::PI;
    assert!(close(
        expected_uniques(1.0, 0.5, 100.0).unwrap(),
        20.0 / pi.sqrt(),
        1e-13
    ));
    // θ = 2, α = ½, N = 10⁴: Γ(3)/Γ(5/2)·100 = 2/(¾√π)·100 = 800/(3√π).
    assert!(close(
        expected_uniques(2.0, 0.5, 1e4).unwrap(),
        800.0 / (3.0 * pi.sqrt()),
        1e-13
    ));
    // α = 0 is rejected (ARX: NaN), and so is a value above N.
    assert_eq!(expected_uniques(1.0, 0.0, 100.0), None);
    assert_eq!(expected_uniques(0.0, 1.5, 100.0), None);
}

/// The likelihood equations of Hoshino (2001), written out as plain sums.
fn likelihood_equations(t: &ClassSizes, theta: f64, alpha: f64) -> (f64, f64) {
    let (n, u) = (t.records(), t.classes());
    let d_theta: f64 = (1..u)
        .map(|i| 1.0 / (theta + i as f64 * alpha))
        .sum::<f64>()
        - (1..n).map(|i| 1.0 / (theta + i as f64)).sum::<f64>();
    let d_alpha: f64 = (1..u)
        .map(|i| i as f64 / (theta + i as f64 * alpha))
        .sum::<f64>()
        - t.entries()
            .iter()
            .map(|&(j, f)| f as f64 * (1..j).map(|k| 1.0 / (k as f64 - alpha)).sum::<f64>())
            .sum::<f64>();
    (d_theta, d_alpha)
}

#[test]
fn pitman_by_hand_on_a_small_table() {
    // Classes: ten of size 1, four of 2, two of 3, one of 4, one of 8:
    // n = 10 + 8 + 6 + 4 + 8 = 36 records, u = 18 classes.
    // ∂L/∂θ = Σ_{i=1}^{17} 1/(θ+iα) − Σ_{i=1}^{35} 1/(θ+i)
    // ∂L/∂α = Σ_{i=1}^{17} i/(θ+iα)
    //         − [4·1/(1−α) + 2·(1/(1−α) + 1/(2−α))
    //            + (1/(1−α) + 1/(2−α) + 1/(3−α)) + Σ_{k=1}^{7} 1/(k−α)]
    // Newton from Hoshino's moment start converges to θ ≈ 15.894,
    // α ≈ −0.1105 (α < 0 is allowed, as in ARX). At that root both sums
    // vanish; then with N = 360 (π = 0.1):
    // Γ(θ+1)/Γ(θ+α)·N^α = Γ(16.894)/Γ(15.783)·360^(−0.1105)
    //   = exp(30.3747 − 27.3071) · 0.52194 = 21.4895 · 0.52194 ≈ 11.216.
    let t = table(&[(1, 10), (2, 4), (3, 2), (4, 1), (8, 1)]);
    let PitmanFit::Parameters { theta, alpha } = pitman_fit(&t) else {
        panic!("Pitman converges here")
    };
    assert!(
        (theta - 15.894).abs() < 1e-3 && (alpha + 0.1105).abs() < 1e-4,
        "{theta} {alpha}"
    );
    let (a, b) = likelihood_equations(&t, theta, alpha);
    assert!(a.abs() <= 1e-6 && b.abs() <= 1e-6, "{a} {b}");
    let Estimate::Uniques(u) = pitman(&t, 360.0) else {
        panic!("the estimate is in range")
    };
    assert_eq!(Some(u), expected_uniques(theta, alpha, 360.0));
    assert!((u - 11.216).abs() < 1e-3, "{u}");
}

/// A sample of `n` records from the Chinese-restaurant construction of
/// Pitman's partition with parameters (θ, α): record m+1 joins class c
/// with probability (n_c − α)/(m + θ), or opens a new class with
/// probability (θ + K·α)/(m + θ).
fn pitman_sample(n: usize, theta: f64, alpha: f64, seed: u64) -> ClassSizes {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut sizes: Vec<usize> = Vec::new();
    for m in 0..n {
        let k = sizes.len() as f64;
        let mut x = rng.gen::<f64>() * (m as f64 + theta);
        let new = theta + k * alpha;
        if x < new {
            sizes.push(1);
            continue;
        }
        x -= new;
        let mut chosen = sizes.len() - 1;
        for (c, &s) in sizes.iter().enumerate() {
            let w = s as f64 - alpha;
            if x < w {
                chosen = c;
                break;
            }
            x -= w;
        }
        sizes[chosen] += 1;
    }
    ClassSizes::from_sizes(sizes)
}

#[test]
fn pitman_recovers_the_parameters_of_a_pitman_sample() {
    // Maximum likelihood is consistent: on 5000 records drawn from
    // Pitman's model with θ = 30, α = 0.6, the fit lands near them.
    let t = pitman_sample(5000, 30.0, 0.6, 7);
    let PitmanFit::Parameters { theta, alpha } = pitman_fit(&t) else {
        panic!("Pitman converges on Pitman data")
    };
    assert!((alpha - 0.6).abs() < 0.05, "α = {alpha}");
    assert!(theta > 10.0 && theta < 60.0, "θ = {theta}");
    let (a, b) = likelihood_equations(&t, theta, alpha);
    assert!(a.abs() <= 1e-6 && b.abs() <= 1e-6);
}

#[test]
fn pitman_edge_cases() {
    // No sample uniques: 0 without solving (as ARX).
    assert_eq!(pitman(&table(&[(2, 4)]), 100.0), Estimate::Uniques(0.0));
    assert_eq!(pitman_fit(&table(&[(2, 4)])), PitmanFit::NoSampleUniques);
    // One record: the likelihood does not depend on (θ, α).
    assert_eq!(pitman(&table(&[(1, 1)]), 100.0), Estimate::NotConverged);
    // All classes unique: ∂L/∂α = Σ i/(θ+iα) has no root with θ ≥ 0,
    // α ≥ 0, and the solver finds none in range.
    assert!(!pitman(&table(&[(1, 40)]), 4000.0).is_valid());
}
