use super::{close, table};
use crate::risk::zayatz::conditional_uniqueness;
use crate::risk::{zayatz, Estimate};

#[test]
fn zayatz_by_hand_half_sample() {
    // Classes 1, 1, 2: n = 4, u = 3, f₁ = 2, f₂ = 1; N = 8, π = 1/2.
    // h(1) = n/N = 1/2.
    // h(2) = 2·(4/8)·(N−n)/(N−1) = 2·(1/2)·(4/7) = 4/7
    //      (= C(2,1)·C(6,3)/C(8,4) = 2·20/70).
    // P(pop. unique | sample unique) = (2/3·1/2) / (2/3·1/2 + 1/3·4/7)
    //      = (1/3) / (1/3 + 4/21) = 7/11.
    // Population uniques = f₁·(7/11)/π = 2·(7/11)·2 = 28/11.
    let t = table(&[(1, 2), (2, 1)]);
    assert!(close(
        conditional_uniqueness(&t, 8.0).unwrap(),
        7.0 / 11.0,
        1e-14
    ));
    let Estimate::Uniques(u) = zayatz(&t, 8.0) else {
        panic!("Zayatz is defined here")
    };
    assert!(close(u, 28.0 / 11.0, 1e-14), "{u}");
}

#[test]
fn zayatz_by_hand_tenth_sample() {
    // Same classes, N = 40, π = 1/10.
    // h(1) = 1/10; h(2) = 2·(1/10)·(36/39) = 12/65
    //      (= C(2,1)·C(38,3)/C(40,4) = 2·8436/91390).
    // P = (2/3·1/10) / (2/3·1/10 + 1/3·12/65) = (13/195) / (13/195 + 12/195)
    //   = 13/25.
    // Population uniques = 2·(13/25)·10 = 10.4.
    let t = table(&[(1, 2), (2, 1)]);
    assert!(close(
        conditional_uniqueness(&t, 40.0).unwrap(),
        13.0 / 25.0,
        1e-14
    ));
    assert!(close(zayatz(&t, 40.0).uniques().unwrap(), 10.4, 1e-14));
}

#[test]
fn zayatz_by_hand_three_sizes() {
    // Classes 1, 1, 1, 2, 3: n = 8, u = 5; N = 16, π = 1/2.
    // h(1) = 1/2.
    // h(2) = 2·(1/2)·(N−n)/(N−1) = 8/15.
    // h(3) = 3·(1/2)·(8/15)·(7/14) = 2/5
    //      (= C(3,1)·C(13,7)/C(16,8) = 3·1716/12870).
    // Σ (f_i/u)·h(i) = (3/5)(1/2) + (1/5)(8/15) + (1/5)(2/5)
    //                = 3/10 + 8/75 + 2/25 = 45/150 + 16/150 + 12/150 = 73/150.
    // P = (3/10) / (73/150) = 45/73; uniques = 3·(45/73)·2 = 270/73.
    let t = table(&[(1, 3), (2, 1), (3, 1)]);
    assert!(close(
        conditional_uniqueness(&t, 16.0).unwrap(),
        45.0 / 73.0,
        1e-14
    ));
    assert!(close(
        zayatz(&t, 16.0).uniques().unwrap(),
        270.0 / 73.0,
        1e-14
    ));
}

#[test]
fn zayatz_edge_cases() {
    // π = 1: a class of 2 or more in the population leaves ≥ 2 records in
    // the sample, so h(i ≥ 2) = 0, P = 1 and the estimate is f₁ itself.
    let t = table(&[(1, 2), (2, 1), (3, 1)]);
    assert_eq!(zayatz(&t, 7.0), Estimate::Uniques(2.0));
    // All classes unique: P = 1, uniques = n/π = N (the sample's prior
    // says every class has size 1).
    assert!(close(
        zayatz(&table(&[(1, 5)]), 50.0).uniques().unwrap(),
        50.0,
        1e-14
    ));
    // No sample uniques: 0 without computing (as ARX).
    assert_eq!(zayatz(&table(&[(2, 3)]), 60.0), Estimate::Uniques(0.0));
    // A population far larger than 2³¹ (ARX clips N to an int there).
    let huge = zayatz(&table(&[(1, 2), (2, 1)]), 8e9).uniques().unwrap();
    // P → f₁/n·… as N → ∞: h(2)/h(1) → 2, so P → (2/3)/(2/3 + 2/3) = 1/2,
    // uniques → 2·(1/2)·(8e9/4) = 2e9.
    assert!(close(huge, 2e9, 1e-8), "{huge}");
}
