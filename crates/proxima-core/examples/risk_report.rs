//! Times the risk figures and warnings of the release report
//! (`proxima_core::risk`) on a shared table: before (the raw table grouped
//! by its published QI values) and after (a Mondrian k = 10 release, built
//! untimed), and prints what they found.
//!
//! ```text
//! cargo run --release -p proxima-core --example risk_report -- <table>
//! ```
//!
//! Tables: `adult`, `creditcard`, `fars`, `sal` (500k rows), `adult600k`.

use std::process::ExitCode;
use std::time::Instant;

use proxima_core::audit::group_by_published_qis;
use proxima_core::ingest::shared::SharedTable;
use proxima_core::params::{Algorithm, PrivacyModel, SuppressionLimit, K};
use proxima_core::risk::warnings::{
    fine_grained_columns, sa_associations, suppression_in_bins, ungeneralized_qis, Bins,
    SUPPRESSION_BINS,
};
use proxima_core::risk::{population_uniqueness, reidentification, ClassSizes, Population};
use proxima_core::run::{anonymize, JobSpec};
use proxima_core::xcolor::XColorOptions;
use proxima_core::Progress;
use proxima_test_support::shared::load_shared;

/// The process's user + system CPU seconds (Linux, 10 ms ticks): on a
/// shared machine it says more than wall time.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<f64> = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .map(|f| f.parse().unwrap_or(0.0))
        .collect();
    // utime and stime are fields 14 and 15 of stat, 12 and 13 after ')'.
    (fields.get(11).unwrap_or(&0.0) + fields.get(12).unwrap_or(&0.0)) / 100.0
}

fn timed<T>(label: &str, f: impl FnOnce() -> T) -> T {
    let (t, cpu) = (Instant::now(), cpu_seconds());
    let out = f();
    println!(
        "{label:<44} wall {:>8.1} ms  cpu {:>6.0} ms",
        t.elapsed().as_secs_f64() * 1e3,
        (cpu_seconds() - cpu) * 1e3
    );
    out
}

fn main() -> ExitCode {
    let which = std::env::args().nth(1).unwrap_or_default();
    let shared = match which.as_str() {
        "adult" => SharedTable::Adult,
        "creditcard" => SharedTable::CreditCard,
        "fars" => SharedTable::Fars,
        "sal" => SharedTable::SalSynthetic,
        "adult600k" => SharedTable::AdultScaledSynthetic,
        _ => {
            eprintln!("usage: risk_report adult|creditcard|fars|sal|adult600k");
            return ExitCode::FAILURE;
        }
    };
    let Some(table) = load_shared(shared) else {
        return ExitCode::FAILURE;
    };
    let table = table.expect("the shared table loads");
    println!("{which}: {} rows", table.rows());
    let total = Instant::now();

    let (groups, _) = timed("before: group by published QIs", || {
        group_by_published_qis(&table)
    });
    let classes = ClassSizes::from_partition(&groups);
    let r = timed("before: sample risks", || reidentification(&classes));
    println!(
        "  prosecutor max {:.3} avg {:.4}, sample uniques {} ({:.1}%)",
        r.prosecutor.max,
        r.prosecutor.average,
        r.sample_uniques,
        100.0 * r.sample_uniques_fraction
    );
    for f in [0.01, 0.1, 0.5] {
        let p = timed(&format!("before: population uniqueness π = {f}"), || {
            population_uniqueness(&classes, Population::SamplingFraction(f))
        });
        println!(
            "  {} → {:.0} uniques ({:.2}% of N)",
            p.choice.name(),
            p.uniques,
            100.0 * p.fraction
        );
    }
    let assoc = timed("SA association of insensitive columns", || {
        sa_associations(&table)
    });
    for a in assoc.iter().filter(|a| a.fires()) {
        println!("  warns: {} (strength {:.2})", a.column, a.strength);
    }
    timed("before: fine-grained insensitive columns", || {
        fine_grained_columns(&table, &groups, Some(10))
    });

    let spec = JobSpec {
        model: PrivacyModel::KAnonymity(K::new(10, "/k").expect("k")),
        algorithm: Algorithm::Mondrian,
        metric: None,
        xcolor: XColorOptions::default(),
        suppression_limit: SuppressionLimit::new(0.0, "/s").expect("limit"),
    };
    let before_release = total.elapsed();
    let anonymized = anonymize(&table, &spec, Progress::none()).expect("Mondrian k = 10");
    let total_release = Instant::now();
    let released = anonymized.table(&table);
    let release = &anonymized.release;
    let after = ClassSizes::from_partition(release.partition());
    timed("after: sample risks + population (π = 0.01)", || {
        (
            reidentification(&after),
            population_uniqueness(&after, Population::SamplingFraction(0.01)),
        )
    });
    let fine = timed("after: fine-grained insensitive columns", || {
        fine_grained_columns(released, release.partition(), Some(10))
    });
    for f in fine.iter().filter(|f| f.fires()) {
        println!(
            "  warns: {} ({} distinct; unique {} → {}; below k {:?})",
            f.column, f.distinct_values, f.unique_before, f.unique_after, f.below_k
        );
    }
    let ungen = timed("after: ungeneralized QIs", || {
        ungeneralized_qis(released, release)
    });
    for q in ungen.iter().filter(|q| q.fires()) {
        println!("  warns: {} (NCP {:.3})", q.qi, q.ncp);
    }
    timed("suppression concentration, every QI", || {
        // No suppression by the model here: every row is kept.
        for qi in released.qis() {
            let bins = Bins::of_qi(qi, SUPPRESSION_BINS);
            let none = vec![false; released.rows()];
            let _ = suppression_in_bins(&qi.name, &bins, &none, &[]);
        }
    });
    println!(
        "total (release build excluded): {:.1} ms",
        (before_release + total_release.elapsed()).as_secs_f64() * 1e3
    );
    ExitCode::SUCCESS
}
