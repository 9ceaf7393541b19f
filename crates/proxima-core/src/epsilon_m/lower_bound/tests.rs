//! The greedy against brute force, the bound against exhaustive search.

use proptest::prelude::*;

use super::*;
use crate::epsilon_m::max_m;

fn eps(e: f64) -> Epsilon {
    Epsilon::new(e, "/e").unwrap()
}

fn em(m: usize) -> M {
    M::new(m as u64, Field::ModelParam("m")).unwrap()
}

/// a ≤ b are neighbours one way or the other, written from the
/// definitions (I(x) = [x − ε, x + ε] or [x(1 − ε), x(1 + ε)]), not with
/// the crate's helpers.
fn window_ends(a: f64, b: f64, e: f64, nb: Neighborhood) -> bool {
    match nb {
        Neighborhood::Absolute => b - a <= e,
        Neighborhood::Relative => b * (1.0 - e) <= a || b <= a * (1.0 + e),
    }
}

/// y ∈ I(x), from the definition.
fn in_neighbourhood(x: f64, y: f64, e: f64, nb: Neighborhood) -> bool {
    match nb {
        Neighborhood::Absolute => (x - y).abs() <= e,
        Neighborhood::Relative => x * (1.0 - e) <= y && y <= x * (1.0 + e),
    }
}

/// Every window holds at most `c` of the chosen (sorted) values.
fn windows_hold_at_most(chosen: &[f64], c: usize, e: f64, nb: Neighborhood) -> bool {
    (0..chosen.len()).all(|i| {
        (i..chosen.len())
            .filter(|&j| window_ends(chosen[i], chosen[j], e, nb))
            .all(|j| j - i < c)
    })
}

fn subset(sorted: &[f64], mask: u32) -> Vec<f64> {
    (0..sorted.len())
        .filter(|&i| mask >> i & 1 == 1)
        .map(|i| sorted[i])
        .collect()
}

/// max |S| over subsets S with every window holding ≤ c of S.
fn brute_most_rows(sorted: &[f64], c: usize, e: f64, nb: Neighborhood) -> usize {
    (0u32..1 << sorted.len())
        .map(|mask| subset(sorted, mask))
        .filter(|s| windows_hold_at_most(s, c, e, nb))
        .map(|s| s.len())
        .max()
        .unwrap_or(0)
}

/// max |P| over subsets P with every window holding ≤ ⌊|P|/m⌋ of P.
fn brute_relaxed(sorted: &[f64], m: usize, e: f64, nb: Neighborhood) -> usize {
    (0u32..1 << sorted.len())
        .map(|mask| subset(sorted, mask))
        .filter(|p| windows_hold_at_most(p, p.len() / m, e, nb))
        .map(|p| p.len())
        .max()
        .unwrap_or(0)
}

/// A group satisfies (ε, m), by the definition: every member t has at most
/// |G|/m members (itself included) in I(t).
fn group_ok(values: &[f64], e: f64, m: usize, nb: Neighborhood) -> bool {
    values.iter().all(|&t| {
        let near = values
            .iter()
            .filter(|&&c| in_neighbourhood(t, c, e, nb))
            .count();
        near * m <= values.len()
    })
}

/// The most rows any collection of disjoint groups, each satisfying
/// (ε, m), can keep (any groups: QI boxes are ignored). Exhaustive over
/// every subset and every partition of it, by dynamic programming over
/// bit masks: the lowest row of a mask is either left out or in some
/// group drawn from the mask. O(3^n).
fn exhaustive_release(values: &[f64], e: f64, m: usize, nb: Neighborhood) -> usize {
    let n = values.len();
    let full = (1usize << n) - 1;
    let valid: Vec<bool> = (0..=full)
        .map(|mask| {
            let g: Vec<f64> = (0..n)
                .filter(|&i| mask >> i & 1 == 1)
                .map(|i| values[i])
                .collect();
            !g.is_empty() && group_ok(&g, e, m, nb)
        })
        .collect();
    let mut best = vec![0usize; full + 1];
    for mask in 1..=full {
        let low = mask & mask.wrapping_neg();
        let rest = mask ^ low;
        let mut b = best[rest];
        // Every sub-mask of `rest`, with the lowest row added.
        let mut sub = rest;
        loop {
            let group = sub | low;
            if valid[group] {
                b = b.max(group.count_ones() as usize + best[mask ^ group]);
            }
            if sub == 0 {
                break;
            }
            sub = (sub - 1) & rest;
        }
        best[mask] = b;
    }
    best[full]
}

fn sorted(mut v: Vec<f64>) -> Vec<f64> {
    v.sort_unstable_by(f64::total_cmp);
    v
}

fn bound(values: &[f64], e: f64, m: usize, nb: Neighborhood) -> MinimumSuppression {
    minimum_suppression(values, eps(e), em(m), nb).unwrap()
}

/// Small tables on a coarse grid (many ties and exact window ends), with
/// absolute or relative neighbourhoods.
fn small_table(max_n: usize) -> impl Strategy<Value = (Vec<f64>, f64, Neighborhood)> {
    prop_oneof![
        (
            proptest::collection::vec((0u32..16).prop_map(f64::from), 1..=max_n),
            prop_oneof![Just(0.0), Just(1.0), Just(2.0), Just(3.0), Just(5.0)],
        )
            .prop_map(|(v, e)| (v, e, Neighborhood::Absolute)),
        (
            proptest::collection::vec((1u32..17).prop_map(f64::from), 1..=max_n),
            prop_oneof![Just(0.0), Just(0.1), Just(0.25), Just(0.5)],
        )
            .prop_map(|(v, e)| (v, e, Neighborhood::Relative)),
    ]
}

/// The greedy's count for (ε, neighbourhood kind).
fn greedy(s: &[f64], c: usize, e: f64, nb: Neighborhood) -> usize {
    match nb {
        Neighborhood::Absolute => most_rows(s, Offsets { e1: e, e2: e }, c),
        Neighborhood::Relative => most_rows(s, RelativeBand { epsilon: e }, c),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The greedy scan chooses as many rows as the best subset.
    #[test]
    fn the_greedy_is_optimal((values, e, nb) in small_table(11), c in 1usize..5) {
        let s = sorted(values);
        prop_assert_eq!(greedy(&s, c, e, nb), brute_most_rows(&s, c, e, nb));
    }

    /// p_max is the exhaustive optimum of the relaxed constraint (every
    /// window holds at most ⌊|P|/m⌋ of the published rows P).
    #[test]
    fn p_max_is_the_optimum_of_the_window_constraint(
        (values, e, nb) in small_table(11),
        m in 1usize..5,
    ) {
        let s = sorted(values.clone());
        let b = bound(&values, e, m, nb);
        prop_assert_eq!(b.max_published, brute_relaxed(&s, m, e, nb));
        prop_assert_eq!(b.rows, values.len());
    }

    /// Soundness: no collection of disjoint groups that each satisfy
    /// (ε, m) keeps more rows than p_max.
    #[test]
    fn no_release_keeps_more_rows_than_the_bound_allows(
        (values, e, nb) in small_table(10),
        m in 1usize..5,
    ) {
        let b = bound(&values, e, m, nb);
        let kept = exhaustive_release(&values, e, m, nb);
        prop_assert!(
            kept <= b.max_published,
            "a release keeps {} rows, the bound allows {}",
            kept,
            b.max_published
        );
        // And it is reached when the groups are free (no QI boxes): the
        // best subset's windows hold at most ⌊p/m⌋ each, which is
        // Theorem 1's condition on it, and its round-robin buckets are
        // (ε, m)-anonymous.
        prop_assert_eq!(kept, b.max_published);
    }

    /// The bound is 0 exactly when Theorem 1 admits m on the whole table.
    #[test]
    fn the_bound_is_positive_exactly_beyond_theorem_1(
        (values, e, nb) in small_table(40),
        m in 1usize..8,
    ) {
        let b = bound(&values, e, m, nb);
        let theorem_1 = max_m(&values, eps(e), nb).unwrap().max_m;
        prop_assert_eq!(b.suppressed_rows() == 0, m <= theorem_1, "{:?}", b);
    }
}

#[test]
fn bound_by_hand() {
    // ε = 1, absolute: the windows are [a, a + 1]. Values 0, 0, 0, 1, 5, 10
    // and m = 2. All six: the window [0, 1] holds 4 > 3. Five rows: ⌊5/2⌋
    // = 2 per window, at most 2 of {0, 0, 0, 1} plus 5 and 10 = 4 < 5.
    // Four: 2 per window, {0, 1, 5, 10} or {0, 0, 5, 10} work. So 2 rows
    // of 6 must go, whatever the groups.
    let b = bound(
        &[0.0, 10.0, 0.0, 5.0, 0.0, 1.0],
        1.0,
        2,
        Neighborhood::Absolute,
    );
    assert_eq!(b.max_published, 4);
    assert_eq!(b.suppressed_rows(), 2);
    assert!((b.share() - 1.0 / 3.0).abs() < 1e-15);
    // And a release keeps 4: {0, 5} and {0, 10}... or {0, 1, 5, 10} as one
    // group: each member sees itself and at most one other within 1.
    assert_eq!(
        exhaustive_release(
            &[0.0, 10.0, 0.0, 5.0, 0.0, 1.0],
            1.0,
            2,
            Neighborhood::Absolute
        ),
        4
    );
    // m = 1 publishes everything; equal values publish nothing for m ≥ 2.
    assert_eq!(
        bound(&[3.0, 3.0], 0.0, 1, Neighborhood::Absolute).max_published,
        2
    );
    assert_eq!(
        bound(&[3.0; 5], 0.0, 2, Neighborhood::Absolute).max_published,
        0
    );
    assert_eq!(
        bound(&[3.0; 5], 0.0, 2, Neighborhood::Absolute).share(),
        1.0
    );
    // m above the rows: nothing.
    assert_eq!(
        bound(&[1.0, 9.0], 0.0, 3, Neighborhood::Absolute).max_published,
        0
    );
}

#[test]
fn relative_windows_reach_down_to_b_times_one_minus_epsilon() {
    // ε = 0.5: I(10) = [5, 15], so {5, 10} is a window (5 ∈ I(10)) though
    // 10 > 5·1.5: the top member's neighbourhood holds both.
    let b = bound(&[5.0, 10.0, 100.0, 1000.0], 0.5, 2, Neighborhood::Relative);
    // All four: ⌊4/2⌋ = 2 per window, and every window holds ≤ 2: fine.
    assert_eq!(b.max_published, 4);
    let b = bound(&[5.0, 8.0, 10.0, 100.0], 0.5, 2, Neighborhood::Relative);
    // {5, 8, 10} is one window (5 ∈ I(10)): at most 2 of it for 4 rows,
    // and 3 rows allow only 1 per window: {5 or 8 or 10, 100} = 2.
    assert_eq!(b.max_published, 2);
    assert_eq!(
        exhaustive_release(&[5.0, 8.0, 10.0, 100.0], 0.5, 2, Neighborhood::Relative),
        2
    );
}

#[test]
fn bad_inputs_are_refused() {
    let e = minimum_suppression(&[], eps(1.0), em(2), Neighborhood::Absolute).unwrap_err();
    assert_eq!(e.kind, crate::ErrorKind::InvalidParameters);
    let e = minimum_suppression(&[1.0, -1.0], eps(0.1), em(2), Neighborhood::Relative).unwrap_err();
    assert!(e.message.contains("row 2"), "{}", e.message);
    assert!(minimum_suppression(&[1.0], eps(1.0), em(2), Neighborhood::Relative).is_err());
}
