//! The view's report — victims over the bound, the worst figure, the
//! groups holding an over-bound victim, the worst groups and victims, the
//! histogram — against a plain reading of every victim's figure, row by
//! row, on random releases whose boxes overlap (shared values, few
//! distinct points), for checks whose figure is the candidate set's own.

use proptest::prelude::*;

use super::tests::{figures, run};
use super::*;
use crate::audit::AuditCheck;
use crate::generalize::generalize;
use crate::params::{LDiversityVariant, K};
use crate::table::{QiValues, SaValues};

/// Two numeric QIs of few values and an SA of few values, the rows dealt
/// to `groups` groups (each non-empty).
fn arb_release() -> impl Strategy<Value = (Table, Partition)> {
    (2usize..8, 6usize..120).prop_flat_map(|(groups, rows)| {
        let rows = rows.max(groups);
        (
            prop::collection::vec((0u8..4, 0u8..4, 0u8..3), rows),
            prop::collection::vec(0..groups, rows - groups),
        )
            .prop_map(move |(cells, deal)| {
                let a = cells.iter().map(|c| c.0 as f64).collect();
                let b = cells.iter().map(|c| c.1 as f64).collect();
                let s = cells.iter().map(|c| c.2 as f64).collect();
                let table = Table::from_columns(
                    vec![
                        ("a".into(), QiValues::Numeric(a)),
                        ("b".into(), QiValues::Numeric(b)),
                    ],
                    vec![("s".into(), SaValues::Numeric(s))],
                );
                // The first `groups` rows open one group each; the rest
                // are dealt at random.
                let mut members: Vec<Vec<u32>> = (0..groups as u32).map(|g| vec![g]).collect();
                for (i, &g) in deal.iter().enumerate() {
                    members[g].push((groups + i) as u32);
                }
                (table, Partition::new(members))
            })
    })
}

/// The report of `figures` (one per row) judged against "over when below
/// `bound`" (both checks here: a lower figure is worse), computed row by
/// row.
fn plain_report(figures: &[f64], bound: f64, partition: &Partition) -> ViewCheckReference {
    let n = figures.len();
    let over = |r: usize| figures[r] < bound;
    let mut group_of = vec![0usize; n];
    for (g, rows) in partition.groups.iter().enumerate() {
        rows.iter().for_each(|&r| group_of[r as usize] = g);
    }
    let mut group_value = vec![f64::INFINITY; partition.len()];
    let mut group_over = vec![false; partition.len()];
    for r in 0..n {
        let g = group_of[r];
        group_value[g] = group_value[g].min(figures[r]);
        group_over[g] |= over(r);
    }
    let mut groups: Vec<usize> = (0..partition.len()).collect();
    groups.sort_by(|&x, &y| group_value[x].total_cmp(&group_value[y]).then(x.cmp(&y)));
    let mut rows: Vec<usize> = (0..n).collect();
    rows.sort_by(|&x, &y| figures[x].total_cmp(&figures[y]).then(x.cmp(&y)));
    let (lo, hi) = figures
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &f| {
            (l.min(f), h.max(f))
        });
    let distribution = if lo == hi {
        vec![(hi, n)]
    } else {
        let edge = |i: usize| {
            if i == 10 {
                hi
            } else {
                lo + (hi - lo) * i as f64 / 10.0
            }
        };
        (1..=10)
            .map(|i| {
                let inside = |f: f64| (f <= edge(i) || i == 10) && (i == 1 || f > edge(i - 1));
                (edge(i), figures.iter().filter(|&&f| inside(f)).count())
            })
            .collect()
    };
    ViewCheckReference {
        over_bound: (0..n).filter(|&r| over(r)).count(),
        worst: lo,
        violating_groups: group_over.iter().filter(|&&o| o).count(),
        worst_groups: groups
            .iter()
            .take(crate::audit::MAX_WORST_GROUPS)
            .map(|&g| {
                (
                    (g + 1).to_string(),
                    partition.groups[g].len(),
                    group_value[g],
                )
            })
            .collect(),
        worst_victims: rows
            .iter()
            .take(MAX_WORST_VICTIMS)
            .map(|&r| (r as u32, group_of[r] as u32, figures[r]))
            .collect(),
        distribution,
    }
}

#[derive(Debug, PartialEq)]
struct ViewCheckReference {
    over_bound: usize,
    worst: f64,
    violating_groups: usize,
    worst_groups: Vec<(String, usize, f64)>,
    worst_victims: Vec<(u32, u32, f64)>,
    distribution: Vec<(f64, usize)>,
}

fn reported(v: &ViewCheck) -> ViewCheckReference {
    ViewCheckReference {
        over_bound: v.over_bound,
        worst: v.worst,
        violating_groups: v.violating_groups,
        worst_groups: v
            .worst_groups
            .iter()
            .map(|w| (w.group_id.clone(), w.size, w.value))
            .collect(),
        worst_victims: v
            .worst_victims
            .iter()
            .map(|w| (w.row, w.group, w.value))
            .collect(),
        distribution: v.distribution.clone(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn the_report_is_the_row_by_row_reading_of_the_figures(
        (table, partition) in arb_release(),
        k in 2u64..6,
        l in 1u64..3,
    ) {
        let release = generalize(&table, partition).unwrap();
        let checks = [
            AuditCheck::KAnonymity { k: K::new(k, "/k").unwrap() },
            AuditCheck::LDiversity { l: l as f64, variant: LDiversityVariant::Distinct },
        ];
        let views = run(&table, &release, &checks);
        for ((view, check), bound) in views.iter().zip(&checks).zip([k as f64, l as f64]) {
            let figures = figures(&table, &release, check);
            let expected = plain_report(&figures, bound, release.partition());
            prop_assert_eq!(reported(view), expected, "{}", view.kind);
        }
    }
}
