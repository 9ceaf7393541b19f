//! Property tests of the (ε,m) partitioner and its theorems on random small
//! tables, against brute-force checkers written here from the paper's
//! definitions. They share no code with the partitioner: neighbourhoods
//! are the plain formulas of Def. 6, counts are plain loops.

use std::sync::Arc;

use proptest::prelude::*;
use proxima_core::epsilon_m::{anonymize, deliverable_max_m, max_epsilon, max_m, place};
use proxima_core::params::{Epsilon, EpsilonM, Neighborhood, M};
use proxima_core::table::{QiValues, SaValues};
use proxima_core::{Detail, ErrorKind, Hierarchy, Progress, Table};

/// y ∈ I(x), Def. 6.
fn covers(x: f64, y: f64, e: f64, nb: Neighborhood) -> bool {
    match nb {
        Neighborhood::Absolute => (x - y).abs() <= e,
        Neighborhood::Relative => x * (1.0 - e) <= y && y <= x * (1.0 + e),
    }
}

/// maxsize (Def. 10–11): the largest left or right covering set.
fn brute_maxsize(values: &[f64], e: f64, nb: Neighborhood) -> usize {
    values
        .iter()
        .map(|&x| {
            let left = values
                .iter()
                .filter(|&&y| y <= x && covers(x, y, e, nb))
                .count();
            let right = values
                .iter()
                .filter(|&&y| y >= x && covers(x, y, e, nb))
                .count();
            left.max(right)
        })
        .max()
        .unwrap_or(0)
}

/// The largest m a single group reaches: Pbrh(t) = count/|G| ≤ 1/m for
/// every t, i.e. m ≤ ⌊|G| / count⌋.
fn group_m(values: &[f64], e: f64, nb: Neighborhood) -> usize {
    values
        .iter()
        .map(|&x| values.len() / values.iter().filter(|&&y| covers(x, y, e, nb)).count())
        .min()
        .unwrap_or(usize::MAX)
}

/// The best m over every partition of the values (restricted-growth
/// strings enumerate each set partition once). Only for n ≤ 8.
fn exhaustive_max_m(values: &[f64], e: f64, nb: Neighborhood) -> usize {
    let n = values.len();
    let mut labels = vec![0usize; n];
    let mut best = 0;
    loop {
        let groups = labels.iter().max().map_or(0, |&k| k + 1);
        let m = (0..groups)
            .map(|g| {
                let members: Vec<f64> = (0..n)
                    .filter(|&i| labels[i] == g)
                    .map(|i| values[i])
                    .collect();
                group_m(&members, e, nb)
            })
            .min()
            .unwrap_or(0);
        best = best.max(m);
        // Next restricted-growth string: labels[i] ≤ 1 + max(labels[..i]).
        let mut i = n;
        loop {
            if i <= 1 {
                return best;
            }
            i -= 1;
            let prefix_max = labels[..i].iter().copied().max().unwrap_or(0);
            if labels[i] <= prefix_max {
                labels[i] += 1;
                labels[i + 1..].iter_mut().for_each(|l| *l = 0);
                break;
            }
        }
    }
}

fn eps(e: f64) -> Epsilon {
    Epsilon::new(e, "/e").unwrap()
}

fn params(e: f64, m: usize, nb: Neighborhood) -> EpsilonM {
    EpsilonM::new(eps(e), M::new(m as u64, "/m").unwrap(), nb, "/e").unwrap()
}

/// A random ε for the neighbourhood kind: absolute multiples of ½ up to 8,
/// relative from a list with exact-boundary values for integers.
fn epsilon_for(nb: Neighborhood, pick: usize) -> f64 {
    match nb {
        Neighborhood::Absolute => (pick % 17) as f64 / 2.0,
        Neighborhood::Relative => [0.0, 0.05, 0.1, 0.125, 0.2, 0.25, 0.5, 0.75, 0.9][pick % 9],
    }
}

fn neighborhood(relative: bool) -> Neighborhood {
    if relative {
        Neighborhood::Relative
    } else {
        Neighborhood::Absolute
    }
}

/// A table with `qis` columns (column 2 categorical with a flat hierarchy
/// when present, others numeric) and the SA `values`.
fn table(qis: &[Vec<u32>], values: &[f64]) -> Table {
    let columns = qis
        .iter()
        .enumerate()
        .map(|(d, col)| {
            let values = if d == 2 {
                let labels: Vec<String> = (0..6).map(|c| format!("c{c}")).collect();
                let h = Arc::new(Hierarchy::flat(&labels));
                let codes = col
                    .iter()
                    .map(|&c| h.leaf_code(&labels[c as usize]).unwrap())
                    .collect();
                QiValues::Categorical {
                    codes,
                    hierarchy: h,
                }
            } else {
                QiValues::Numeric(col.iter().map(|&v| v as f64).collect())
            };
            (format!("q{d}"), values)
        })
        .collect();
    Table::from_columns(
        columns,
        vec![("s".into(), SaValues::Numeric(values.to_vec()))],
    )
}

fn small_table() -> impl Strategy<Value = (Vec<Vec<u32>>, Vec<f64>)> {
    (1usize..=60, 1usize..=3, 2u32..=30).prop_flat_map(|(n, d, domain)| {
        (
            prop::collection::vec(prop::collection::vec(0u32..6, n), d),
            prop::collection::vec((1..=domain).prop_map(f64::from), n),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn every_group_satisfies_and_every_row_is_placed_once(
        (qis, values) in small_table(),
        relative in any::<bool>(),
        pick in 0usize..100,
        m_pick in 0usize..100,
    ) {
        let nb = neighborhood(relative);
        let e = epsilon_for(nb, pick);
        let bound = values.len() / brute_maxsize(&values, e, nb);
        prop_assert!(bound >= 1);
        let m = 1 + m_pick % bound;
        let t = table(&qis, &values);
        // Within Theorem 1 the paper always finds a partition; in the
        // attacker's view some rows may have to be left out (suppressed
        // within the job's limit), and then the job refuses to publish.
        let placement = place(&t, &params(e, m, nb), Progress::none()).unwrap();
        placement.check_covers(values.len()).unwrap();
        let part = &placement.partition;
        match anonymize(&t, &params(e, m, nb), Progress::none()) {
            Ok(p) => prop_assert!(placement.unplaced.is_empty() && &p == part),
            Err(err) => {
                prop_assert_eq!(err.kind, ErrorKind::ModelNotSatisfied);
                prop_assert!(!placement.unplaced.is_empty());
            }
        }
        for g in &part.groups {
            let group: Vec<f64> = g.iter().map(|&r| values[r as usize]).collect();
            for &x in &group {
                let count = group.iter().filter(|&&y| covers(x, y, e, nb)).count();
                prop_assert!(count * m <= group.len(), "{nb:?} ε={e} m={m}: {group:?}");
            }
        }
        // Deterministic.
        prop_assert_eq!(&place(&t, &params(e, m, nb), Progress::none()).unwrap(), &placement);
        // One past the bound is refused, naming it.
        let err = anonymize(&t, &params(e, bound + 1, nb), Progress::none()).unwrap_err();
        prop_assert_eq!(err.kind, ErrorKind::InfeasibleParameters);
        prop_assert_eq!(err.detail("max_m"), Some(&Detail::Int(bound as i64)));
        let expected = format!("Theorem 1 allows m ≤ {bound}");
        prop_assert!(err.message.contains(&expected), "{}", err.message);
    }

    /// The deliverable m (the whole table passes anonymity-check) is
    /// always placed without leaving a row out, and never exceeds
    /// Theorem 1's per-group bound.
    #[test]
    fn the_deliverable_m_is_always_delivered(
        (qis, values) in small_table(),
        relative in any::<bool>(),
        pick in 0usize..100,
    ) {
        let nb = neighborhood(relative);
        let e = epsilon_for(nb, pick);
        let m = deliverable_max_m(&values, eps(e), nb).unwrap();
        let bound = max_m(&values, eps(e), nb).unwrap().max_m;
        prop_assert!(m <= bound, "deliverable {m} > Theorem 1's {bound}");
        if m >= 1 {
            let t = table(&qis, &values);
            let placement = place(&t, &params(e, m, nb), Progress::none()).unwrap();
            prop_assert!(placement.unplaced.is_empty(), "m = {m}: {:?} left out", placement.unplaced);
        }
    }

    #[test]
    fn maxsize_and_max_m_match_brute_force(
        values in prop::collection::vec((1u32..=40).prop_map(f64::from), 1..=60),
        relative in any::<bool>(),
        pick in 0usize..100,
    ) {
        let nb = neighborhood(relative);
        let e = epsilon_for(nb, pick);
        let reach = max_m(&values, eps(e), nb).unwrap();
        let maxsize = brute_maxsize(&values, e, nb);
        prop_assert_eq!(reach.maxsize, maxsize);
        prop_assert_eq!(reach.max_m, values.len() / maxsize);
    }

    #[test]
    fn theorem1_is_the_best_over_all_partitions(
        values in prop::collection::vec((1u32..=12).prop_map(f64::from), 1..=7),
        relative in any::<bool>(),
        pick in 0usize..100,
    ) {
        let nb = neighborhood(relative);
        let e = epsilon_for(nb, pick);
        let reach = max_m(&values, eps(e), nb).unwrap();
        prop_assert_eq!(reach.max_m, exhaustive_max_m(&values, e, nb));
    }

    #[test]
    fn absolute_max_epsilon_is_the_exact_supremum(
        values in prop::collection::vec((0u32..=40).prop_map(f64::from), 1..=40),
        m in 1usize..=8,
    ) {
        let nb = Neighborhood::Absolute;
        let fast = max_epsilon(&values, M::new(m as u64, "/m").unwrap(), nb).unwrap();
        // Reachability only changes at pairwise differences: the supremum
        // is the smallest candidate at which m is out of reach.
        let mut candidates: Vec<f64> = vec![0.0];
        for a in &values {
            for b in &values {
                candidates.push((a - b).abs());
            }
        }
        candidates.sort_by(f64::total_cmp);
        candidates.dedup();
        let reachable = |c: f64| values.len() / brute_maxsize(&values, c, nb) >= m;
        let brute = candidates
            .into_iter()
            .filter(|&c| !reachable(c))
            .fold(f64::INFINITY, f64::min);
        prop_assert_eq!(fast, brute);
    }

    #[test]
    fn relative_max_epsilon_separates_reachable_from_not(
        values in prop::collection::vec((1u32..=40).prop_map(f64::from), 1..=40),
        m in 2usize..=8,
    ) {
        let nb = Neighborhood::Relative;
        let sup = max_epsilon(&values, M::new(m as u64, "/m").unwrap(), nb).unwrap();
        prop_assert!((0.0..1.0).contains(&sup), "{sup}");
        let reachable = |c: f64| values.len() / brute_maxsize(&values, c, nb) >= m;
        if sup > 0.0 {
            prop_assert!(reachable(sup * (1.0 - 1e-9)));
        }
        prop_assert!(!reachable((sup * (1.0 + 1e-9)).max(sup + 1e-12)));
    }
}

#[test]
fn exhaustive_search_is_sound() {
    // Table 1's salaries: maxsize 3 for ε = 10000, so m ≤ 2 (§4.2).
    let t1 = [
        1000.0, 1010.0, 1020.0, 16000.0, 24000.0, 31000.0, 33000.0, 50000.0,
    ];
    assert_eq!(exhaustive_max_m(&t1, 10000.0, Neighborhood::Absolute), 2);
    assert_eq!(brute_maxsize(&t1, 10000.0, Neighborhood::Absolute), 3);
    // Lemma 4: {40, 60} and {50, 80} reach m = 2, together only 1.
    assert_eq!(group_m(&[40.0, 60.0], 15.0, Neighborhood::Absolute), 2);
    assert_eq!(
        group_m(&[40.0, 50.0, 60.0, 80.0], 15.0, Neighborhood::Absolute),
        1
    );
    assert_eq!(
        exhaustive_max_m(&[40.0, 50.0, 60.0, 80.0], 15.0, Neighborhood::Absolute),
        2
    );
}
