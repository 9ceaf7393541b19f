//! The XColor cases of BENCHMARKS.md on the shared data, as ignored tests:
//! `cargo test --release -p proxima-core --test xcolor_bench -- --ignored --nocapture`.
//! They print timings (no timing assertions) and assert each release
//! satisfies its model by a brute-force check, plus the Θ figures.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use proxima_core::metric::{LpNorm, MetricSpec, SensitiveSpace};
use proxima_core::params::{Dissimilarity, Epsilon, Fraction, K};
use proxima_core::table::{QiValues, SaValues};
use proxima_core::xcolor::{self, anonymize, InitialColoring, XColorOptions};
use proxima_core::{Hierarchy, Progress, Table};

fn shared_data() -> Option<PathBuf> {
    // The workspace's sibling `shared/`, or one level up from a worktree
    // (/work/wt/<name>), unless PROXIMA_SHARED_DATA says where it is.
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let candidates: Vec<PathBuf> = match std::env::var_os("PROXIMA_SHARED_DATA") {
        Some(dir) => vec![PathBuf::from(dir)],
        None => vec![
            manifest.join("../../../shared/data"),
            manifest.join("../../../../shared/data"),
        ],
    };
    let found = candidates.iter().find(|d| d.is_dir()).cloned();
    if found.is_none() {
        eprintln!("skipping: shared data not found at {:?}", candidates);
    }
    found
}

fn params(epsilon: f64, delta: f64, k: u64) -> Dissimilarity {
    Dissimilarity {
        epsilon: Epsilon::new(epsilon, "/e").unwrap(),
        delta: Fraction::new(delta, "delta", "/d").unwrap(),
        k: K::new(k, "/k").unwrap(),
    }
}

/// Brute-force model check (every group ≥ k, every row within its allowance).
fn check(space: &SensitiveSpace, groups: &[Vec<u32>], eps: f64, delta: f64, k: usize) {
    let mut seen = vec![false; space.rows()];
    for g in groups {
        assert!(g.len() >= k);
        let allowed = ((1.0 - delta) * (g.len() - 1) as f64).floor() as usize;
        for &v in g {
            assert!(!std::mem::replace(&mut seen[v as usize], true));
            let nb = g
                .iter()
                .filter(|&&u| u != v && space.distance(v, u) <= eps)
                .count();
            assert!(nb <= allowed);
        }
    }
    assert!(seen.iter().all(|&s| s));
}

/// Average normalized width of the groups over the QIs (GCP-like), to
/// compare the initial colourings.
fn mean_width(table: &Table, groups: &[Vec<u32>]) -> f64 {
    let qs = proxima_core::split::QiSpace::new(table);
    let n: usize = groups.iter().map(Vec::len).sum();
    let total: f64 = groups
        .iter()
        .map(|g| {
            (0..qs.dims())
                .map(|d| qs.normalized_width(d, g))
                .sum::<f64>()
                * g.len() as f64
        })
        .sum();
    total / (n as f64 * qs.dims() as f64)
}

fn run(name: &str, table: &Table, space: &SensitiveSpace, eps: f64, delta: f64, k: u64) {
    let f = xcolor::feasibility(space, eps);
    let bound = xcolor::inequality4_bound(space.rows(), k as usize, delta);
    println!(
        "{name}: rows {}, Θ = {}, bound {bound:.1}",
        space.rows(),
        f.max_degree
    );
    for initial in [InitialColoring::QiAware, InitialColoring::DegreeBalanced] {
        let mut times = Vec::new();
        let mut outcome = String::new();
        for _ in 0..3 {
            let start = Instant::now();
            let r = anonymize(
                table,
                space,
                &params(eps, delta, k),
                &XColorOptions { initial },
                Progress::none(),
            );
            times.push(start.elapsed().as_secs_f64());
            outcome = match r {
                Ok(p) => {
                    check(space, &p.groups, eps, delta, k as usize);
                    format!(
                        "satisfied, {} groups, mean width {:.4}",
                        p.len(),
                        mean_width(table, &p.groups)
                    )
                }
                Err(e) => format!("{e}"),
            };
        }
        times.sort_by(f64::total_cmp);
        println!(
            "  {initial:?}: median {:.3} s (min {:.3}, max {:.3}) — {outcome}",
            times[1], times[0], times[2]
        );
    }
}

fn creditcard(dir: &Path) -> Table {
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(b';')
        .from_path(dir.join("creditcard/creditcard.csv"))
        .unwrap();
    let header = reader.headers().unwrap().clone();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let names = ["SEX", "EDUCATION", "MARRIAGE", "AGE"];
    let idx: Vec<usize> = names.iter().map(|n| col(n)).collect();
    let sa = col("BILL_AMT1");
    let mut qi: Vec<Vec<f64>> = vec![Vec::new(); names.len()];
    let mut bill = Vec::new();
    for rec in reader.records() {
        let rec = rec.unwrap();
        for (q, &i) in idx.iter().enumerate() {
            qi[q].push(rec[i].parse().unwrap());
        }
        bill.push(rec[sa].parse().unwrap());
    }
    Table::from_columns(
        names
            .iter()
            .zip(qi)
            .map(|(n, v)| (n.to_string(), QiValues::Numeric(v)))
            .collect(),
        vec![("BILL_AMT1".into(), SaValues::Numeric(bill))],
    )
}

#[test]
#[ignore = "benchmark on shared data; run with --release --ignored"]
fn xc_credit() {
    let Some(dir) = shared_data() else { return };
    let t = creditcard(&dir);
    let s = SensitiveSpace::new(
        &t,
        &MetricSpec::Lp {
            p: LpNorm::L1,
            weights: vec![],
        },
    )
    .unwrap();
    run("xc-credit", &t, &s, 0.001, 0.5, 10);
    run("xc-credit-hard", &t, &s, 0.001, 0.8, 10);
}

#[test]
#[ignore = "benchmark on shared data; run with --release --ignored"]
fn xc_adult() {
    let Some(dir) = shared_data() else { return };
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(b';')
        .from_path(dir.join("adult_full/adult_full.csv"))
        .unwrap();
    let header = reader.headers().unwrap().clone();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let cat_names = [
        "sex",
        "race",
        "marital-status",
        "relationship",
        "education",
        "native-country",
        "workclass",
    ];
    let sa_names = ["education-num", "hours-per-week", "capital-gain"];
    let mut age = Vec::new();
    let mut cats: Vec<Vec<String>> = vec![Vec::new(); cat_names.len()];
    let mut sas: Vec<Vec<f64>> = vec![Vec::new(); sa_names.len()];
    for rec in reader.records() {
        let rec = rec.unwrap();
        if rec.iter().any(|c| c.trim() == "?") {
            continue;
        }
        age.push(rec[col("age")].parse().unwrap());
        for (i, n) in cat_names.iter().enumerate() {
            cats[i].push(rec[col(n)].to_string());
        }
        for (i, n) in sa_names.iter().enumerate() {
            sas[i].push(rec[col(n)].parse().unwrap());
        }
    }
    let mut qis = vec![("age".to_string(), QiValues::Numeric(age))];
    for (n, values) in cat_names.iter().zip(cats) {
        let h = Arc::new(Hierarchy::flat(values.iter()));
        let codes = values.iter().map(|v| h.leaf_code(v).unwrap()).collect();
        qis.push((
            n.to_string(),
            QiValues::Categorical {
                codes,
                hierarchy: h,
            },
        ));
    }
    let t = Table::from_columns(
        qis,
        sa_names
            .iter()
            .zip(sas)
            .map(|(n, v)| (n.to_string(), SaValues::Numeric(v)))
            .collect(),
    );
    let s = SensitiveSpace::new(
        &t,
        &MetricSpec::Lp {
            p: LpNorm::L1,
            weights: vec![],
        },
    )
    .unwrap();
    run("xc-adult", &t, &s, 0.02, 0.5, 10);
}

#[test]
#[ignore = "benchmark on shared data; run with --release --ignored"]
fn xc_sal() {
    let Some(dir) = shared_data() else { return };
    let out = std::process::Command::new("zcat")
        .arg(dir.join("sal_synthetic/sal_synthetic_500k.csv.gz"))
        .output()
        .expect("zcat");
    let mut reader = csv::Reader::from_reader(out.stdout.as_slice());
    let mut cols: Vec<Vec<f64>> = vec![Vec::new(); 4];
    for rec in reader.records() {
        let rec = rec.unwrap();
        for (i, c) in cols.iter_mut().enumerate() {
            c.push(rec[i].parse().unwrap());
        }
    }
    let income = cols.pop().unwrap();
    let names = ["Age", "Birthplace", "Occupation"];
    let t = Table::from_columns(
        names
            .iter()
            .zip(cols)
            .map(|(n, v)| (n.to_string(), QiValues::Numeric(v)))
            .collect(),
        vec![("Income".into(), SaValues::Numeric(income))],
    );
    let s = SensitiveSpace::new(
        &t,
        &MetricSpec::Lp {
            p: LpNorm::L1,
            weights: vec![],
        },
    )
    .unwrap();
    run("xc-sal", &t, &s, 0.01, 0.8, 10);
}
