use proptest::prelude::*;

use super::*;
use crate::parallel::{with_threads, Threads};

fn keys(columns: Vec<Vec<u32>>) -> KeyColumns {
    let names = (0..columns.len()).map(|c| format!("c{c}")).collect();
    KeyColumns::new(names, columns).unwrap()
}

fn fast(k: &KeyColumns, max: usize) -> Vec<(u32, Vec<u16>)> {
    minimal_sample_uniques(k, MaxSize::new(max as u64, "/max_size").unwrap())
        .unwrap()
        .into_iter()
        .map(|m| (m.row, m.columns))
        .collect()
}

fn run(k: &KeyColumns, max: usize) -> Suda {
    suda(
        k,
        MaxSize::new(max as u64, "/max_size").unwrap(),
        DisFraction::default(),
        Progress::none(),
    )
    .unwrap()
}

/// sdcMicro's test of `suda2`'s attribute contributions: a = (2, 1, 1),
/// b = (0, 3, 0), c = (0, 6, 0) give contributions 50, 37.5, 37.5 (and so
/// do the columns in another order). By hand: record 1's MSU is {a},
/// record 2's are {b} and {c}, record 3's {a, b} and {a, c}; with
/// ATT = M = 3 a 1-MSU scores 2! = 2 and a 2-MSU 1! = 1.
#[test]
fn sdcmicro_contribution_example() {
    let k = keys(vec![vec![2, 1, 1], vec![0, 3, 0], vec![0, 6, 0]]);
    let s = run(&k, 3);
    assert_eq!(s.scores, vec![2.0, 4.0, 2.0]);
    assert_eq!(s.contributions, vec![50.0, 37.5, 37.5]);
    assert_eq!(s.msus, vec![1, 2, 2]);
    assert_eq!(s.msus_by_size, vec![3, 2, 0]);
    assert_eq!(s.smallest_names(2), vec!["c0", "c1"]);
    assert_eq!(s.records_with_msu(), 3);
    let swapped = keys(vec![vec![2, 1, 1], vec![0, 6, 0], vec![0, 3, 0]]);
    assert_eq!(run(&swapped, 3).contributions, vec![50.0, 37.5, 37.5]);
    // Every record is unique over all three columns and none is in a pair:
    // a match on any record with an MSU is certainly right.
    assert_eq!(s.sample_uniques, 3);
    assert_eq!(s.dis, vec![1.0, 1.0, 1.0]);
}

#[test]
fn weights_follow_elliot_and_sdcmicro() {
    // M = ATT: a k-MSU scores (ATT − k)!, as sdcMicro's suda2.
    assert_eq!(msu_weight(1, 4, 4), 6.0);
    assert_eq!(msu_weight(2, 4, 4), 2.0);
    assert_eq!(msu_weight(4, 4, 4), 1.0);
    // M < ATT: ∏_{i=k}^{M} (ATT − i) (Elliot et al.): ATT = 8, M = 4.
    assert_eq!(msu_weight(1, 4, 8), 7.0 * 6.0 * 5.0 * 4.0);
    assert_eq!(msu_weight(4, 4, 8), 4.0);
    // The ratio between sizes is the same as sdcMicro's (ATT − k)!.
    assert_eq!(msu_weight(1, 4, 8) / msu_weight(2, 4, 8), 7.0);
}

/// DIS-SUDA as sdcMicro's C++ writes it (U/DIS − U with DIS = Uf / (Uf +
/// P(1 − f))) on a table with pairs and uniques.
#[test]
fn dis_suda_matches_sdcmicros_form() {
    // Rows 0 and 1 are a pair, 2 and 3 are unique, 4..6 a triple.
    let k = keys(vec![
        vec![0, 0, 1, 2, 3, 3, 3],
        vec![0, 0, 0, 1, 1, 1, 1],
        vec![5, 5, 6, 5, 5, 5, 5],
    ]);
    let f = 0.1;
    let s = suda(
        &k,
        MaxSize::new(3, "/m").unwrap(),
        DisFraction::new(f, "/f").unwrap(),
        Progress::none(),
    )
    .unwrap();
    assert_eq!(s.sample_uniques, 2);
    let (u, p) = (2.0, 2.0);
    let dis = u * f / (u * f + p * (1.0 - f));
    let att = 3.0;
    let q = 1.0 + (8.0 - att) / 20.0;
    let adj: f64 = s
        .scores
        .iter()
        .filter(|&&x| x > 0.0)
        .map(|x| x.powf(-q))
        .sum();
    for (r, &score) in s.scores.iter().enumerate() {
        let want = if score > 0.0 {
            1.0 / (1.0 + (u / dis - u) / (score.powf(q) * adj))
        } else {
            0.0
        };
        assert!(
            (s.dis[r] - want).abs() < 1e-12,
            "row {r}: {} vs {want}",
            s.dis[r]
        );
    }
    assert!(s.scores[2] > 0.0 && s.scores[3] > 0.0);
    assert_eq!(s.scores[0], 0.0);
}

#[test]
fn missing_cells_match_nothing_and_join_no_msu() {
    // Row 2's second cell is missing: {c1} cannot be its MSU, and a
    // missing cell does not make the other rows' values shared.
    let k = keys(vec![vec![0, 0, 0], vec![1, 2, MISSING]]);
    assert_eq!(fast(&k, 2), brute::msus(k.codes(), 2));
    assert_eq!(fast(&k, 2), vec![(0, vec![1]), (1, vec![1])]);
}

#[test]
fn one_row_and_constant_columns() {
    let one = keys(vec![vec![4], vec![7]]);
    assert_eq!(fast(&one, 2), vec![(0, vec![0]), (0, vec![1])]);
    let constant = keys(vec![vec![1, 1, 1], vec![1, 1, 1]]);
    assert!(fast(&constant, 2).is_empty());
    assert_eq!(run(&constant, 2).max_score(), 0.0);
    assert_eq!(run(&constant, 2).max_dis(), 0.0);
}

#[test]
fn sparse_codes_are_renumbered() {
    let k = keys(vec![vec![1_000_000, 7, 7], vec![3, 3, 9]]);
    assert_eq!(k.cardinality(), &[2, 2]);
    assert_eq!(fast(&k, 2), brute::msus(k.codes(), 2));
}

#[test]
fn max_size_is_validated() {
    assert!(MaxSize::new(0, "/m").is_err());
    assert!(MaxSize::new(MAX_MSU_SIZE as u64 + 1, "/m").is_err());
    assert!(DisFraction::new(0.0, "/f").is_err());
    assert!(DisFraction::new(1.5, "/f").is_err());
    assert!(DisFraction::new(f64::NAN, "/f").is_err());
    assert_eq!(DisFraction::new(1.0, "/f").unwrap().get(), 1.0);
}

/// A pseudo-random table: `rows` × `cols` codes below `card`.
fn random_table(rows: usize, cols: usize, card: u32, seed: u64) -> KeyColumns {
    let mut x = seed | 1;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    keys(
        (0..cols)
            .map(|c| {
                (0..rows)
                    .map(|_| (next() % (card as u64 + c as u64)) as u32)
                    .collect()
            })
            .collect(),
    )
}

#[test]
fn the_result_does_not_depend_on_the_threads() {
    let k = random_table(60_000, 6, 9, 42);
    let one = with_threads(Threads::ONE, || run(&k, 4));
    let three = with_threads(Threads::new(3, "/t").unwrap(), || run(&k, 4));
    assert_eq!(one, three);
    assert!(one.records_with_msu() > 0);
}

#[test]
fn a_stop_cancels_the_search() {
    let k = random_table(20_000, 6, 9, 7);
    let stop = |_: f64| false;
    let e = suda(
        &k,
        MaxSize::default(),
        DisFraction::default(),
        Progress::new(&stop),
    )
    .unwrap_err();
    assert_eq!(e.kind, crate::ErrorKind::Cancelled);
}

fn table_strategy() -> impl Strategy<Value = (Vec<Vec<u32>>, usize)> {
    (1usize..=6, 1usize..=24, 1u32..=4).prop_flat_map(|(cols, rows, card)| {
        (
            proptest::collection::vec(
                proptest::collection::vec(
                    // One value in eight is missing.
                    (0..card * 8).prop_map(move |v| if v % 8 == 7 { MISSING } else { v % card }),
                    rows,
                ),
                cols,
            ),
            1..=cols,
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// SUDA2's search finds exactly the MSUs the definition enumerates.
    #[test]
    fn the_search_agrees_with_brute_force((columns, max) in table_strategy()) {
        let k = keys(columns.clone());
        prop_assert_eq!(fast(&k, max), brute::msus(&columns, max));
    }
}
