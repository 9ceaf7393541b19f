use proptest::prelude::*;

use super::{close, table};
use crate::risk::zayatz::conditional_uniqueness;
use crate::risk::{
    population_uniqueness, reidentification, Choice, ClassSizes, Estimate, Population,
};

fn classes() -> impl Strategy<Value = ClassSizes> {
    prop::collection::vec((1usize..20, 0usize..30), 1..6)
        .prop_map(ClassSizes::from_frequencies)
        .prop_filter("a table with records", |c| !c.is_empty())
}

proptest! {
    #[test]
    fn sample_risks_are_consistent(c in classes()) {
        let r = reidentification(&c);
        // Prosecutor average = classes / records (each class contributes
        // |G|·1/|G| = 1 to the sum over records).
        prop_assert!(close(r.prosecutor.average, c.classes() as f64 / c.records() as f64, 1e-15));
        prop_assert!(r.lowest_risk <= r.prosecutor.average + 1e-15);
        prop_assert!(r.prosecutor.average <= r.prosecutor.max + 1e-15);
        prop_assert!(r.prosecutor.records_at_max <= r.records);
        prop_assert!((0.0..=1.0).contains(&r.sample_uniques_fraction));
        prop_assert!(r.marketer <= r.journalist.max);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn estimates_stay_within_the_population(c in classes(), factor in 1.0f64..500.0) {
        let n = c.records() as f64;
        let big_n = (n * factor).round().max(n) as u64;
        let p = population_uniqueness(&c, Population::Size(big_n));
        for e in [p.pitman, p.zayatz, p.snb] {
            if let Estimate::Uniques(u) = e {
                prop_assert!(u >= 0.0 && u <= big_n as f64, "{e:?} with N = {big_n}");
            }
        }
        prop_assert!((0.0..=1.0).contains(&p.fraction));
        // The rule reports the chosen model's value.
        match p.choice.model() {
            Some(m) => {
                let e = match m {
                    crate::risk::UniquenessModel::Pitman => p.pitman,
                    crate::risk::UniquenessModel::Zayatz => p.zayatz,
                    crate::risk::UniquenessModel::Snb => p.snb,
                };
                prop_assert_eq!(e, Estimate::Uniques(p.uniques));
            }
            None => prop_assert_eq!(p.uniques, 0.0),
        }
    }

    #[test]
    fn a_sample_unique_is_likelier_unique_in_a_smaller_population(
        c in classes(),
        f1 in 1.0f64..50.0,
        f2 in 1.0f64..50.0,
    ) {
        // Zayatz (1991): P(population unique | sample unique) grows with
        // the sampling fraction (h(i)/h(1) = i·Π(1 − (n−1)/(N−k)) grows
        // with N), reaching 1 at π = 1.
        prop_assume!(c.classes_of_size(1) > 0);
        let n = c.records() as f64;
        let (small, large) = (n * f1.min(f2), n * f1.max(f2));
        let p_small = conditional_uniqueness(&c, small).unwrap();
        let p_large = conditional_uniqueness(&c, large).unwrap();
        prop_assert!(p_small >= p_large - 1e-12, "{p_small} < {p_large}");
        prop_assert!(close(conditional_uniqueness(&c, n).unwrap(), 1.0, 1e-12));
    }
}

#[test]
fn population_uniqueness_edge_cases() {
    // All classes unique, π = 0.01: Pitman finds no root, Zayatz (the
    // fallback) says every population class is a singleton: N uniques.
    let all = population_uniqueness(&table(&[(1, 40)]), Population::Size(4000));
    assert_eq!(all.choice, Choice::ZayatzPitmanFailed);
    assert!(close(all.uniques, 4000.0, 1e-12) && close(all.fraction, 1.0, 1e-12));

    // No sample uniques: nothing is estimated.
    let none = population_uniqueness(&table(&[(2, 3), (5, 1)]), Population::Size(1000));
    assert_eq!(none.choice, Choice::NoSampleUniques);
    assert_eq!(
        (none.uniques, none.fraction, none.sample_uniques),
        (0.0, 0.0, 0)
    );

    // The whole population (π = 1): SNB is undefined, Zayatz gives the
    // sample uniques themselves: 2 of 7 people are unique.
    let whole = population_uniqueness(
        &table(&[(1, 2), (2, 1), (3, 1)]),
        Population::SamplingFraction(1.0),
    );
    assert_eq!((whole.population_size, whole.sampling_fraction), (7.0, 1.0));
    assert_eq!(whole.choice, Choice::ZayatzSnbFailed);
    assert_eq!(whole.snb, Estimate::Undefined);
    assert_eq!(whole.uniques, 2.0);
    assert!(close(whole.fraction, 2.0 / 7.0, 1e-15));

    // One record of a population of 10 (π = 0.1): Pitman cannot be fitted,
    // Zayatz: 1·1/0.1 = 10.
    let one = population_uniqueness(&table(&[(1, 1)]), Population::Size(10));
    assert_eq!(one.choice, Choice::ZayatzPitmanFailed);
    assert!(close(one.uniques, 10.0, 1e-12));

    // An empty table: no uniques, whatever the population.
    let empty = population_uniqueness(&table(&[]), Population::SamplingFraction(0.5));
    assert_eq!(empty.choice, Choice::NoSampleUniques);
    assert_eq!(empty.uniques, 0.0);
}

#[test]
fn size_and_fraction_give_the_same_figures() {
    let t = table(&[(1, 50), (2, 20), (3, 10), (4, 5), (5, 3), (10, 2)]);
    let by_size = population_uniqueness(&t, Population::Size(17_500));
    let by_fraction = population_uniqueness(&t, Population::SamplingFraction(0.01));
    assert_eq!(by_size, by_fraction);
    assert_eq!(by_size.choice, Choice::PitmanSmallFraction);
}
