//! What a release may depend on (the release's order independence): the data, never its
//! upload order, and group ids that reveal no more than the labels.
//!
//! * Shuffling the input rows leaves the published groups — each group's
//!   labels with its multiset of published rows — the same multiset.
//! * Among groups printing identical labels, the id order must not follow
//!   the hidden original QI values: over many releases, a lower id holds the
//!   lower-valued rows about as often as the higher-valued ones.

mod attacker_twin;
mod common;

use std::cell::RefCell;
use std::collections::HashMap;

use attacker_twin::jobs::{dissimilarity, epsilon_m, k, runner, spec};
use attacker_twin::published::{printed_groups, PrintedGroup};
use attacker_twin::tables::{table_case, with_permutation, QiKind, SaKind, TableCase};
use proptest::prelude::*;
use proxima_core::params::*;
use proxima_core::run::{self, JobSpec};
use proxima_core::table::{QiValues, Table};
use proxima_core::Progress;

const CASES: u32 = 150;
const ROWS: std::ops::RangeInclusive<usize> = 5..=60;

/// The published groups as a sorted multiset (ids dropped).
fn group_multiset(table: &Table, job: &JobSpec) -> Result<Vec<PrintedGroup>, String> {
    match run::run_job(table, job, Progress::none()) {
        Ok(outcome) => {
            let mut groups: Vec<PrintedGroup> = printed_groups(table, &outcome.anonymized.release)
                .into_iter()
                .map(|(_, g)| g)
                .collect();
            groups.sort();
            Ok(groups)
        }
        Err(e) => Err(e.kind.code().to_string()),
    }
}

/// Runs each job on a table and on the same rows shuffled; returns how
/// many pairs published and the cases whose releases differ.
fn shuffle_survey(
    name: &str,
    sa: Vec<SaKind>,
    job: impl Fn(&TableCase, u32) -> JobSpec,
) -> (usize, Vec<String>) {
    let strategy = (with_permutation(table_case(sa, ROWS)), any::<u32>());
    let found = RefCell::new((0usize, Vec::new()));
    runner(CASES)
        .run(&strategy, |((case, perm), pick)| {
            let spec = job(&case, pick);
            let a = group_multiset(&case.build(), &spec);
            let b = group_multiset(&case.permuted(&perm).build(), &spec);
            let mut f = found.borrow_mut();
            if a.is_ok() || b.is_ok() {
                f.0 += 1;
            }
            if a != b {
                let differ = match (&a, &b) {
                    (Ok(x), Ok(y)) => format!(
                        "{} of {} groups differ",
                        x.iter().filter(|g| !y.contains(g)).count(),
                        x.len()
                    ),
                    _ => format!("{:?} vs {:?}", a.as_ref().err(), b.as_ref().err()),
                };
                f.1.push(format!(
                    "{} {} on {} rows: {differ}",
                    spec.model.kind_name(),
                    spec.algorithm.name(),
                    case.rows()
                ));
            }
            Ok(())
        })
        .unwrap();
    let (published, differing) = found.into_inner();
    eprintln!(
        "{name}: {published} published, {} releases depend on the row order",
        differing.len()
    );
    (published, differing)
}

fn assert_order_free(name: &str, (published, differing): (usize, Vec<String>)) {
    assert!(published > 0, "{name}: nothing was published");
    assert!(
        differing.is_empty(),
        "{name}: {} of {published} releases change when the rows are shuffled; first: {}",
        differing.len(),
        differing[0]
    );
}

#[test]

fn epsilon_m_release_does_not_depend_on_row_order() {
    let found = shuffle_survey("epsilon_m", vec![SaKind::Numeric], |_, pick| {
        let nb = if pick % 2 == 0 {
            Neighborhood::Absolute
        } else {
            Neighborhood::Relative
        };
        let e = if nb == Neighborhood::Absolute {
            3.0
        } else {
            0.2
        };
        let algorithm = if pick % 4 < 2 {
            Algorithm::EpsilonM
        } else {
            Algorithm::Mondrian
        };
        spec(
            epsilon_m(e, 2 + (pick as usize / 4) % 2, nb),
            algorithm,
            None,
        )
    });
    assert_order_free("epsilon_m", found);
}

#[test]

fn xcolor_release_does_not_depend_on_row_order() {
    let sa = vec![
        SaKind::Numeric,
        SaKind::Hierarchy,
        SaKind::Flat,
        SaKind::Composite,
    ];
    let found = shuffle_survey("xcolor", sa, |case, pick| {
        let e = match case.sa {
            SaKind::Numeric => 2.0,
            SaKind::Hierarchy => 0.5,
            SaKind::Flat => 0.0,
            SaKind::Composite => 0.1,
        };
        let delta = [0.2, 0.5, 0.85][pick as usize % 3];
        spec(
            dissimilarity(e, delta, 2 + pick as usize % 3),
            Algorithm::XColor,
            None,
        )
    });
    assert_order_free("xcolor", found);
}

#[test]
fn mondrian_release_does_not_depend_on_row_order() {
    let sa = vec![SaKind::Numeric, SaKind::Hierarchy, SaKind::Flat];
    let found = shuffle_survey("mondrian", sa, |_, pick| {
        let k_ = k(2 + pick as usize % 4);
        let model = match pick % 3 {
            0 => PrivacyModel::KAnonymity(k_),
            1 => PrivacyModel::LDiversity(
                LDiversity::new(2.0, LDiversityVariant::Entropy, k_, "/model").unwrap(),
            ),
            _ => PrivacyModel::TCloseness(TCloseness {
                t: Fraction::new(0.35, "t", "/t").unwrap(),
                k: k_,
                ground: GroundDistance::Equal,
            }),
        };
        spec(model, Algorithm::Mondrian, None)
    });
    assert_order_free("mondrian", found);
}

/// A row's hidden value of QI `d`: the number, the day, or the leaf's
/// depth-first rank (the order a hierarchy gives its leaves).
fn hidden(table: &Table, d: usize, row: usize) -> f64 {
    match &table.qis()[d].values {
        QiValues::Numeric(v) => v[row],
        QiValues::Date(v) => v[row] as f64,
        QiValues::Categorical { codes, hierarchy } => hierarchy.leaf_rank(codes[row]) as f64,
    }
}

/// Over consecutive groups (by id) that print identical labels, counts the
/// QIs on which the lower id holds strictly lower / strictly higher hidden
/// values than the next (every row below every row of the other).
fn id_order_vs_hidden(table: &Table, job: &JobSpec) -> (usize, usize) {
    let Ok(outcome) = run::run_job(table, job, Progress::none()) else {
        return (0, 0);
    };
    let groups = &outcome.anonymized.release.partition().groups;
    let printed = printed_groups(table, &outcome.anonymized.release);
    let mut last_with: HashMap<&Vec<String>, usize> = HashMap::new();
    let (mut lower, mut higher) = (0, 0);
    for (g, (_, (labels, _))) in printed.iter().enumerate() {
        if let Some(&prev) = last_with.get(labels) {
            for d in 0..table.qis().len() {
                let range = |g: usize| {
                    groups[g]
                        .iter()
                        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &r| {
                            let x = hidden(table, d, r as usize);
                            (lo.min(x), hi.max(x))
                        })
                };
                let ((a_lo, a_hi), (b_lo, b_hi)) = (range(prev), range(g));
                if a_hi < b_lo {
                    lower += 1;
                } else if b_hi < a_lo {
                    higher += 1;
                }
            }
        }
        last_with.insert(labels, g);
    }
    (lower, higher)
}

fn hidden_order_survey(name: &str, job: impl Fn(&TableCase, u32) -> JobSpec) {
    // Categorical QIs make identically labelled siblings (both sides of a
    // cut between children print their common ancestor).
    let cases = table_case(vec![SaKind::Numeric], 20..=60).prop_map(|mut c| {
        for (i, (kind, _)) in c.qis.iter_mut().enumerate() {
            if i == 0 {
                *kind = QiKind::Hierarchy;
            }
        }
        c
    });
    let counts = RefCell::new((0usize, 0usize));
    runner(CASES)
        .run(&(cases, any::<u32>()), |(case, pick)| {
            let (lo, hi) = id_order_vs_hidden(&case.build(), &job(&case, pick));
            let mut c = counts.borrow_mut();
            c.0 += lo;
            c.1 += hi;
            Ok(())
        })
        .unwrap();
    let (lower, higher) = counts.into_inner();
    let total = lower + higher;
    eprintln!("{name}: among identically labelled groups, the lower id holds the lower hidden values {lower} times, the higher {higher} times");
    // Ids independent of the hidden values split these about evenly; ids in
    // hierarchy or value order put nearly all on one side.
    // (With p = ½ a share under 0.25 of 30 pairs has probability ≈ 0.3 %;
    // the runner's seed is fixed, so the verdict is stable.)
    if total >= 30 {
        let share = lower.min(higher) as f64 / total as f64;
        assert!(
            share >= 0.25,
            "{name}: group ids follow the hidden QI order ({lower} lower vs {higher} higher)"
        );
    }
}

#[test]

fn mondrian_ids_do_not_follow_hidden_values() {
    hidden_order_survey("mondrian k_anonymity", |_, pick| {
        spec(
            PrivacyModel::KAnonymity(k(2 + pick as usize % 3)),
            Algorithm::Mondrian,
            None,
        )
    });
}

#[test]

fn epsilon_m_ids_do_not_follow_hidden_values() {
    hidden_order_survey("epsilon_m", |_, pick| {
        spec(
            epsilon_m(2.0, 2 + pick as usize % 2, Neighborhood::Absolute),
            Algorithm::EpsilonM,
            None,
        )
    });
}

#[test]

fn xcolor_ids_do_not_follow_hidden_values() {
    hidden_order_survey("xcolor", |_, pick| {
        spec(
            dissimilarity(2.0, 0.5, 2 + pick as usize % 3),
            Algorithm::XColor,
            None,
        )
    });
}
