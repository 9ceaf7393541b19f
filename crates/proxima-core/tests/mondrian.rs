//! Mondrian: random small tables (outputs satisfy their constraint by a
//! brute-force checker, cover every row once, groups are separated in the
//! QI space, no allowable cut is left untaken) and the shared adult data.

mod common;

use std::sync::Arc;
use std::time::Instant;

use proptest::prelude::*;
use proxima_core::audit::{audit, AuditCheck};
use proxima_core::error::Detail;
use proxima_core::ingest::shared::SharedTable;
use proxima_core::mondrian::anonymize;
use proxima_core::params::{
    Fraction, GroundDistance, LDiversity, LDiversityVariant, PrivacyModel, TCloseness, K,
};
use proxima_core::split::QiSpace;
use proxima_core::table::{QiValues, SaValues};
use proxima_core::{ErrorKind, Hierarchy, Partition, Progress, Table};
use proxima_test_support::shared::load_shared;

fn hierarchy() -> Arc<Hierarchy> {
    let paths: Vec<Vec<String>> = [
        ["a1", "A", "*"],
        ["a2", "A", "*"],
        ["a3", "A", "*"],
        ["b1", "B", "*"],
        ["b2", "B", "*"],
        ["c1", "C", "*"],
    ]
    .iter()
    .map(|p| p.iter().map(|s| s.to_string()).collect())
    .collect();
    Arc::new(Hierarchy::from_paths(&paths).unwrap())
}

fn table(rows: &[(u8, u8, u8)]) -> Table {
    let h = hierarchy();
    Table::from_columns(
        vec![
            (
                "age".into(),
                QiValues::Numeric(rows.iter().map(|r| r.0 as f64).collect()),
            ),
            (
                "job".into(),
                QiValues::Categorical {
                    codes: rows.iter().map(|r| r.1 as u32).collect(),
                    hierarchy: h,
                },
            ),
        ],
        vec![(
            "s".into(),
            SaValues::Numeric(rows.iter().map(|r| r.2 as f64).collect()),
        )],
    )
}

/// The model's group predicate, by brute force from the definitions.
fn brute_allows(model: &PrivacyModel, group: &[f64], table: &[f64]) -> bool {
    match model {
        PrivacyModel::KAnonymity(k) => group.len() >= k.get(),
        PrivacyModel::LDiversity(ld) => {
            group.len() >= ld.k.get()
                && match ld.variant {
                    LDiversityVariant::Distinct => common::distinct(group) as f64 >= ld.l,
                    LDiversityVariant::Entropy => common::entropy(group) >= ld.l.ln() - 1e-9,
                    LDiversityVariant::Recursive { c } => {
                        common::recursive_ok(group, c, ld.l as usize)
                    }
                }
        }
        PrivacyModel::TCloseness(tc) => {
            group.len() >= tc.k.get() && common::emd_ordered(group, table) <= tc.t.get() + 1e-9
        }
        _ => unreachable!(),
    }
}

fn model_of(kind: u8, k: u64, l: u8, t: f64) -> PrivacyModel {
    let k = K::new(k, "/model/k").unwrap();
    let ld = |variant| {
        PrivacyModel::LDiversity(LDiversity::new(l as f64, variant, k, "/model").unwrap())
    };
    match kind {
        0 => PrivacyModel::KAnonymity(k),
        1 => ld(LDiversityVariant::Distinct),
        2 => ld(LDiversityVariant::Entropy),
        3 => ld(LDiversityVariant::Recursive { c: 2.0 }),
        _ => PrivacyModel::TCloseness(TCloseness {
            t: Fraction::new(t, "t", "/model/t").unwrap(),
            k,
            ground: GroundDistance::Ordered,
        }),
    }
}

/// Two groups of a strict multidimensional partition are separated on some
/// QI: every key of one is below every key of the other (numeric value, or
/// depth-first leaf rank for the categorical QI).
fn separated(space: &QiSpace, a: &[u32], b: &[u32]) -> bool {
    (0..space.dims()).any(|d| {
        let range = |g: &[u32]| {
            g.iter()
                .map(|&r| space.key(d, r))
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
                    (lo.min(x), hi.max(x))
                })
        };
        let ((alo, ahi), (blo, bhi)) = (range(a), range(b));
        ahi < blo || bhi < alo
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn outputs_satisfy_their_model(
        rows in prop::collection::vec((0u8..12, 0u8..6, 0u8..5), 1..70),
        kind in 0u8..5,
        k in 1u64..6,
        l in 1u8..4,
        t in 0.1f64..0.6,
    ) {
        let t_table = table(&rows);
        let sa: Vec<f64> = rows.iter().map(|r| r.2 as f64).collect();
        let model = model_of(kind, k, l, t);
        match anonymize(&t_table, &model, Progress::none()) {
            Err(e) => {
                prop_assert_eq!(e.kind, ErrorKind::InfeasibleParameters);
                prop_assert!(!brute_allows(&model, &sa, &sa), "refused a feasible model: {}", e.message);
            }
            Ok(p) => {
                p.check_covers(rows.len()).unwrap();
                let space = QiSpace::new(&t_table);
                for (i, g) in p.groups.iter().enumerate() {
                    let v: Vec<f64> = g.iter().map(|&r| sa[r as usize]).collect();
                    prop_assert!(brute_allows(&model, &v, &sa), "group {:?} misses the model", v);
                    for h in &p.groups[i + 1..] {
                        prop_assert!(separated(&space, g, h));
                    }
                    // Mondrian stops only when no cut keeps both halves
                    // allowable.
                    for d in space.dims_by_width(g) {
                        if let Some((a, b)) = space.cut(g, d) {
                            let va: Vec<f64> = a.iter().map(|&r| sa[r as usize]).collect();
                            let vb: Vec<f64> = b.iter().map(|&r| sa[r as usize]).collect();
                            prop_assert!(!(brute_allows(&model, &va, &sa) && brute_allows(&model, &vb, &sa)));
                        }
                    }
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// t-closeness on a categorical SA with a hierarchy: hierarchical and
    /// equal ground distances, checked by the dense brute-force EMD.
    #[test]
    fn categorical_t_closeness_groups_are_close(
        rows in prop::collection::vec((0u8..12, 0u8..6, 0u8..6), 1..70),
        hierarchical in any::<bool>(),
        k in 1u64..4,
        t in 0.05f64..0.5,
    ) {
        let h = hierarchy();
        let n = rows.len();
        let sa_codes: Vec<u32> = rows.iter().map(|r| r.2 as u32).collect();
        let t_table = Table::from_columns(
            vec![("age".into(), QiValues::Numeric(rows.iter().map(|r| r.0 as f64).collect()))],
            vec![(
                "d".into(),
                SaValues::Categorical { codes: sa_codes.clone(), hierarchy: h.clone(), has_hierarchy: true },
            )],
        );
        let ground = if hierarchical { GroundDistance::Hierarchical } else { GroundDistance::Equal };
        let model = PrivacyModel::TCloseness(TCloseness {
            t: Fraction::new(t, "t", "/model/t").unwrap(),
            k: K::new(k, "/model/k").unwrap(),
            ground,
        });
        let emd = |g: &[u32]| {
            let codes: Vec<u32> = g.iter().map(|&r| sa_codes[r as usize]).collect();
            if hierarchical {
                common::emd_hierarchical(&codes, &sa_codes, &h)
            } else {
                let as_f64 = |v: &[u32]| v.iter().map(|&c| c as f64).collect::<Vec<_>>();
                common::emd_equal(&as_f64(&codes), &as_f64(&sa_codes))
            }
        };
        match anonymize(&t_table, &model, Progress::none()) {
            Err(e) => prop_assert!(k as usize > n, "{}", e.message),
            Ok(p) => {
                p.check_covers(n).unwrap();
                for g in &p.groups {
                    prop_assert!(g.len() >= k as usize);
                    prop_assert!(emd(g) <= t + 1e-9, "EMD {} > {}", emd(g), t);
                }
            }
        }
    }
}

fn adult() -> Option<Table> {
    load_shared(SharedTable::Adult).map(|t| t.expect("adult loads"))
}

#[test]
fn adult_k10_groups_have_ten_rows() {
    let Some(t) = adult() else { return };
    let k = K::new(10, "/model/k").unwrap();
    let (start, cpu) = (Instant::now(), cpu_time());
    let p = anonymize(&t, &PrivacyModel::KAnonymity(k), Progress::none()).unwrap();
    let used = (start.elapsed(), cpu_time().zip(cpu).map(|(b, a)| b - a));
    p.check_covers(t.rows()).unwrap();
    assert!(p.min_group_size() >= 10);
    // Far more groups than a single cut would give (30,162 / 10 at most).
    assert!(
        p.len() > 500 && p.len() <= t.rows() / 10,
        "{} groups",
        p.len()
    );
    println!(
        "adult k=10: {} groups, largest {}, (wall, cpu) {:?}",
        p.len(),
        p.groups.iter().map(Vec::len).max().unwrap(),
        used
    );
}

#[test]
fn adult_l_diversity_on_salary_class() {
    let Some(t) = adult() else { return };
    let k = K::new(2, "/model/k").unwrap();
    let model = |l: f64| {
        PrivacyModel::LDiversity(
            LDiversity::new(l, LDiversityVariant::Distinct, k, "/model").unwrap(),
        )
    };
    let p = anonymize(&t, &model(2.0), Progress::none()).unwrap();
    let report = audit(
        &t,
        &p,
        None,
        &[AuditCheck::LDiversity {
            l: 2.0,
            variant: LDiversityVariant::Distinct,
        }],
        Progress::none(),
    )
    .unwrap();
    assert!(report.passed);
    println!("adult distinct 2-diversity: {} groups", p.len());
    let err = anonymize(&t, &model(3.0), Progress::none()).unwrap_err();
    assert_eq!(err.kind, ErrorKind::InfeasibleParameters);
    assert_eq!(err.detail("max_l"), Some(&Detail::Int(2)));
    assert!(
        err.message
            .contains("only 2 distinct values of salary-class"),
        "{}",
        err.message
    );
}

#[test]
fn adult_k_beyond_rows_is_infeasible() {
    let Some(t) = adult() else { return };
    let k = K::new(40_000, "/model/k").unwrap();
    let err = anonymize(&t, &PrivacyModel::KAnonymity(k), Progress::none()).unwrap_err();
    assert_eq!(err.message, "k = 40000 exceeds the 30162 rows");
    assert_eq!(err.detail("max_k"), Some(&Detail::Int(30162)));
}

/// CPU time of this process, all threads (Linux, 10 ms resolution; `None`
/// elsewhere): the machine running the tests is shared, so wall time alone
/// says little.
fn cpu_time() -> Option<std::time::Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name: state is field 3, utime 14, stime 15.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(std::time::Duration::from_millis(ticks * 10))
}

/// Mondrian k = 10 on the 600k-row table, then every audit check on it.
/// Prints the timings (no timing assertion).
#[test]
fn scaled_600k_mondrian_and_full_audit() {
    let Some(t) = load_shared(SharedTable::AdultScaledSynthetic).map(|t| t.unwrap()) else {
        return;
    };
    let (start, cpu) = (Instant::now(), cpu_time());
    let k = K::new(10, "/model/k").unwrap();
    let p: Partition = anonymize(&t, &PrivacyModel::KAnonymity(k), Progress::none()).unwrap();
    let mondrian = (start.elapsed(), cpu_time().zip(cpu).map(|(b, a)| b - a));
    assert!(p.min_group_size() >= 10);
    let checks = proxima_test_support::checks::every_check(k);
    let (start, cpu) = (Instant::now(), cpu_time());
    let report = audit(&t, &p, None, &checks, Progress::none()).unwrap();
    let audit_time = (start.elapsed(), cpu_time().zip(cpu).map(|(b, a)| b - a));
    for c in &checks {
        let (start, cpu) = (Instant::now(), cpu_time());
        audit(&t, &p, None, std::slice::from_ref(c), Progress::none()).unwrap();
        let used = cpu_time().zip(cpu).map(|(b, a)| b - a);
        println!(
            "  {} wall {:?}, cpu {:?}",
            c.kind_name(),
            start.elapsed(),
            used
        );
    }
    assert_eq!(report.rows, 600_000);
    assert_eq!(report.checks.len(), checks.len());
    assert!(report.checks[0].passed);
    println!(
        "600k: mondrian k=10 (wall, cpu) {:?} ({} groups), audit of {} checks (wall, cpu) {:?}",
        mondrian,
        p.len(),
        checks.len(),
        audit_time
    );
}
