//! The fast attacker's-view check (`proxima_core::attacker`) against the
//! brute-force twin (tests/attacker_twin), which shares no code with it:
//! on random small tables with RANDOM partitions — whose labels overlap
//! freely, exactly the releases the fast check must catch — every victim's
//! figure agrees within 1e-9 and so does the verdict, for every check kind;
//! and on the partitioners' own releases for the job's model.

mod attacker_twin;
mod common;

use attacker_twin::checks::{evaluate, Ground, TwinCheck, VictimFigure};
use attacker_twin::jobs::{dissimilarity, epsilon_m, k, runner, spec, twin_checks, twin_metric};
use attacker_twin::published::AttackerView;
use attacker_twin::tables::{table_case, SaKind, TableCase};
use proptest::prelude::*;
use proxima_core::attacker::{self, GroupBoxes, Victims};
use proxima_core::audit::AuditCheck;
use proxima_core::generalize::generalize;
use proxima_core::metric::{LpNorm, MetricSpec};
use proxima_core::params::*;
use proxima_core::run;
use proxima_core::table::Table;
use proxima_core::{Partition, Progress};

const CASES: u32 = 400;

/// A table with a random grouping of its rows (1 to n/2 + 1 groups).
fn grouped_case() -> impl Strategy<Value = (TableCase, Vec<usize>, u32)> {
    let all = vec![
        SaKind::Numeric,
        SaKind::Hierarchy,
        SaKind::Flat,
        SaKind::Composite,
    ];
    table_case(all, 2..=40).prop_flat_map(|case| {
        let n = case.rows();
        (
            Just(case),
            prop::collection::vec(0..n / 2 + 1, n),
            any::<u32>(),
        )
    })
}

/// Dense groups from a row → label draw (empty labels dropped).
fn partition(assignment: &[usize]) -> Partition {
    let mut groups: Vec<Vec<u32>> = vec![Vec::new(); assignment.len()];
    for (row, &g) in assignment.iter().enumerate() {
        groups[g].push(row as u32);
    }
    groups.retain(|g| !g.is_empty());
    Partition::new(groups)
}

fn epsilon(e: f64) -> Epsilon {
    Epsilon::new(e, "/e").unwrap()
}

fn fraction(v: f64) -> Fraction {
    Fraction::new(v, "f", "/f").unwrap()
}

/// Every check kind the SA supports, as (fast, twin) pairs; `pick`
/// varies the parameters from case to case.
fn checks(table: &Table, sa: SaKind, pick: u32) -> Vec<(AuditCheck, TwinCheck)> {
    let p = pick as usize;
    let kk = 1 + p % 4;
    let mut out = vec![(
        AuditCheck::KAnonymity { k: k(kk) },
        TwinCheck::KAnonymity { k: kk },
    )];
    let dissim = |e: f64, metric: MetricSpec| {
        let delta = [0.0, 0.3, 0.5, 0.85][p / 3 % 4];
        (
            AuditCheck::Dissimilarity {
                params: Dissimilarity {
                    epsilon: epsilon(e),
                    delta: fraction(delta),
                    k: k(kk),
                },
                metric: Some(metric.clone()),
            },
            TwinCheck::Dissimilarity {
                epsilon: e,
                delta,
                k: kk,
                metric: twin_metric(table, Some(&metric)),
            },
        )
    };
    let lp = |norm: LpNorm| MetricSpec::Lp {
        p: norm,
        weights: if sa == SaKind::Composite && p % 2 == 1 {
            vec![("s".into(), 0.7), ("t".into(), 0.3)]
        } else {
            vec![]
        },
    };
    for norm in [LpNorm::L1, LpNorm::L2, LpNorm::LInf] {
        out.push(dissim([0.0, 0.1, 0.25, 0.5][p % 4], lp(norm)));
    }
    match sa {
        SaKind::Numeric => {
            out.push(dissim([0.0, 1.0, 3.0][p % 3], MetricSpec::Absolute));
            for (e, nb) in [
                ([0.0, 1.0, 3.0][p % 3], Neighborhood::Absolute),
                ([0.05, 0.1, 0.5][p % 3], Neighborhood::Relative),
            ] {
                let m = 1 + p / 5 % 4;
                out.push((
                    AuditCheck::EpsilonM(
                        EpsilonM::new(epsilon(e), M::new(m as u64, "/m").unwrap(), nb, "/e")
                            .unwrap(),
                    ),
                    TwinCheck::EpsilonM {
                        epsilon: e,
                        m,
                        relative: nb == Neighborhood::Relative,
                    },
                ));
            }
            let (delta, l) = ([0.0, 0.5, 2.0][p % 3], 1 + p / 7 % 3);
            out.push((
                AuditCheck::DeltaLDiversity { delta, l },
                TwinCheck::DeltaL { delta, l },
            ));
        }
        SaKind::Hierarchy => {
            out.push(dissim([0.0, 0.5, 1.0][p % 3], MetricSpec::Hierarchical));
            out.push(dissim(0.0, MetricSpec::Equal));
        }
        SaKind::Flat => out.push(dissim(0.0, MetricSpec::Equal)),
        SaKind::Composite => return out,
    }
    // Checks on the SA multiset (one SA column).
    let l = 1 + p % 3;
    let c = [0.5, 1.0, 2.0, 3.0][p / 3 % 4];
    out.push((
        AuditCheck::LDiversity {
            l: l as f64,
            variant: LDiversityVariant::Distinct,
        },
        TwinCheck::DistinctL { l },
    ));
    let el = [1.0, 1.5, 2.0, 3.0][p % 4];
    out.push((
        AuditCheck::LDiversity {
            l: el,
            variant: LDiversityVariant::Entropy,
        },
        TwinCheck::EntropyL { l: el },
    ));
    out.push((
        AuditCheck::LDiversity {
            l: l as f64,
            variant: LDiversityVariant::Recursive { c },
        },
        TwinCheck::RecursiveL { c, l },
    ));
    let alpha = [0.3, 0.5, 1.0][p % 3];
    out.push((
        AuditCheck::AlphaK {
            alpha: fraction(alpha),
            k: k(kk),
        },
        TwinCheck::AlphaK { alpha, k: kk },
    ));
    let mut grounds = vec![
        (GroundDistance::Ordered, Ground::Ordered),
        (GroundDistance::Equal, Ground::Equal),
    ];
    if sa == SaKind::Hierarchy {
        grounds.push((GroundDistance::Hierarchical, Ground::Hierarchical));
    }
    let t = [0.0, 0.2, 0.5][p % 3];
    for (fast, twin) in grounds {
        out.push((
            AuditCheck::TCloseness {
                t: fraction(t),
                ground: fast,
            },
            TwinCheck::TCloseness { t, ground: twin },
        ));
    }
    out
}

fn same(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= 1e-9
}

#[test]
fn fast_check_agrees_with_the_twin_on_random_partitions() {
    let kinds =
        std::cell::RefCell::new(std::collections::BTreeMap::<String, (usize, usize)>::new());
    runner(CASES)
        .run(&grouped_case(), |(case, assignment, pick)| {
            let table = case.build();
            let release = generalize(&table, partition(&assignment)).unwrap();
            let view = AttackerView::from_release(&table, &release);
            let boxes = GroupBoxes::from_release(&table, &release);
            for (fast, twin) in checks(&table, case.sa, pick) {
                let figures = attacker::victim_figures(&table, release.partition(), &boxes, &fast)
                    .unwrap_or_else(|e| panic!("{fast:?}: {e}"));
                let mine: Vec<VictimFigure> = evaluate(&view, &table, &twin, 0..table.rows());
                for (row, (f, t)) in figures.iter().zip(&mine).enumerate() {
                    prop_assert!(
                        same(*f, t.figure),
                        "{twin:?}, row {row}: fast {f}, twin {} over {} candidates",
                        t.figure,
                        t.candidates
                    );
                }
                let report = attacker::evaluate(
                    &table,
                    release.partition(),
                    &boxes,
                    Victims::OriginalPoints,
                    std::slice::from_ref(&fast),
                    None,
                    Progress::none(),
                )
                .unwrap()
                .remove(0);
                // Victims at the bound (EMD = t, entropy = ln l, up to
                // rounding) may go either way; every other verdict agrees.
                let sure = mine.iter().filter(|f| !f.passed && !f.marginal).count();
                let marginal = mine.iter().filter(|f| f.marginal).count();
                prop_assert!(
                    (sure..=sure + marginal).contains(&report.over_bound),
                    "{:?}: fast {} victims over, twin {} (+{} at the bound)",
                    twin,
                    report.over_bound,
                    sure,
                    marginal
                );
                prop_assert_eq!(report.passed, report.over_bound == 0, "{:?}: verdict", twin);
                let over = sure;
                let mut k = kinds.borrow_mut();
                let e = k.entry(fast.kind_name().to_string()).or_default();
                e.0 += 1;
                e.1 += usize::from(over > 0);
            }
            Ok(())
        })
        .unwrap();
    // Both verdicts must occur for every kind, or agreement proves little.
    for (kind, (cases, failing)) in kinds.into_inner() {
        eprintln!("{kind}: {cases} cases, {failing} with victims over the bound");
        assert!(
            failing > 0 && failing < cases,
            "{kind}: {failing} of {cases} cases fail; the draw needs both verdicts"
        );
    }
}

/// Partitioner releases (before the job's self-audit, so breaching ones
/// too): identically labelled buckets, colour classes and categorical
/// cuts, judged by both checks for the job's own model.
#[test]
fn fast_check_agrees_with_the_twin_on_partitioner_releases() {
    let sa = vec![SaKind::Numeric, SaKind::Hierarchy, SaKind::Composite];
    let strategy = (table_case(sa, 5..=60), any::<u32>());
    let breached = std::cell::Cell::new(0usize);
    runner(150)
        .run(&strategy, |(case, pick)| {
            let table = case.build();
            let p = pick as usize;
            let job = match (case.sa, p % 3) {
                (SaKind::Numeric, 0) => spec(
                    epsilon_m(2.0, 2 + p / 3 % 2, Neighborhood::Absolute),
                    Algorithm::EpsilonM,
                    None,
                ),
                (SaKind::Numeric, 1) => spec(
                    epsilon_m(0.2, 2, Neighborhood::Relative),
                    Algorithm::Mondrian,
                    None,
                ),
                (SaKind::Hierarchy, 0) => spec(
                    PrivacyModel::TCloseness(TCloseness {
                        t: fraction(0.3),
                        k: k(2),
                        ground: GroundDistance::Hierarchical,
                    }),
                    Algorithm::Mondrian,
                    None,
                ),
                (SaKind::Hierarchy, _) => spec(dissimilarity(0.5, 0.5, 2), Algorithm::XColor, None),
                _ => spec(dissimilarity(0.1, 0.5, 2 + p % 2), Algorithm::XColor, None),
            };
            let Ok(release) = run::anonymize(&table, &job, Progress::none()).map(|a| a.release)
            else {
                return Ok(());
            };
            let fast = run::job_audit_checks(&table, &job).unwrap().remove(0);
            let twin = twin_checks(&table, &job).pop().unwrap();
            let view = AttackerView::from_release(&table, &release);
            let boxes = GroupBoxes::from_release(&table, &release);
            let figures =
                attacker::victim_figures(&table, release.partition(), &boxes, &fast).unwrap();
            let mine = evaluate(&view, &table, &twin, 0..table.rows());
            for (row, (f, t)) in figures.iter().zip(&mine).enumerate() {
                prop_assert!(
                    same(*f, t.figure),
                    "{twin:?}, row {row}: fast {f}, twin {}",
                    t.figure
                );
            }
            if mine.iter().any(|f| !f.passed) {
                breached.set(breached.get() + 1);
            }
            Ok(())
        })
        .unwrap();
    eprintln!(
        "{} partitioner releases with victims over the bound",
        breached.get()
    );
}
