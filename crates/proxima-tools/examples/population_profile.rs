//! Where a k-map job's time goes on adult600k against a 3M-row population
//! built from it (as the bench's kmap-600k): the population's index, then
//! Mondrian with the time inside its predicate split between building a
//! half's box and counting the population it covers.
//!
//! ```text
//! cargo run --release -p proxima-tools --example population_profile -- [copies] [k]
//! ```

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use proxima_core::ingest::shared::SharedTable;
use proxima_core::population::{box_of_rows, PopulationIndex};
use proxima_core::Progress;
use proxima_tools::bench::cases::Source;
use proxima_tools::bench::data::{load, population_of};

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
    (fields.get(11).unwrap_or(&0.0) + fields.get(12).unwrap_or(&0.0)) / 100.0
}

fn main() {
    let copies: usize = std::env::args().nth(1).map_or(5, |s| s.parse().unwrap());
    let k: u64 = std::env::args().nth(2).map_or(10, |s| s.parse().unwrap());
    let table = match load(Source::Shared(SharedTable::AdultScaledSynthetic)) {
        Ok(table) => table,
        Err(e) => {
            eprintln!("adult600k is not available: {e}");
            return;
        }
    };
    let population = population_of(&table, copies);
    let (t, cpu) = (Instant::now(), cpu_seconds());
    let index = PopulationIndex::for_release(&table, &population, "/p", Progress::none()).unwrap();
    println!(
        "index: {} rows → {} cells in {:.0} ms (cpu {:.0} ms)",
        index.rows(),
        index.cells(),
        t.elapsed().as_secs_f64() * 1e3,
        (cpu_seconds() - cpu) * 1e3
    );
    let (calls, boxing, counting) = (AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0));
    let t = Instant::now();
    let partition = proxima_core::mondrian::anonymize_with(
        &table,
        |rows: &[u32]| {
            calls.fetch_add(1, Ordering::Relaxed);
            let a = Instant::now();
            let b = box_of_rows(&table, rows);
            let m = Instant::now();
            let c = index.count_up_to(&b, k);
            boxing.fetch_add((m - a).as_nanos() as u64, Ordering::Relaxed);
            counting.fetch_add(m.elapsed().as_nanos() as u64, Ordering::Relaxed);
            c >= k
        },
        Progress::none(),
    )
    .unwrap();
    println!(
        "mondrian: {} groups in {:.0} ms; {} predicate calls, boxes {:.0} ms, counts {:.0} ms (thread time)",
        partition.len(),
        t.elapsed().as_secs_f64() * 1e3,
        calls.load(Ordering::Relaxed),
        boxing.load(Ordering::Relaxed) as f64 / 1e6,
        counting.load(Ordering::Relaxed) as f64 / 1e6
    );
    let boxes = {
        let release = proxima_core::generalize::generalize(&table, partition).unwrap();
        proxima_core::attacker::GroupBoxes::from_release(&table, &release)
    };
    let (t, cpu) = (Instant::now(), cpu_seconds());
    let counts = proxima_core::population::class_counts(&index, &boxes);
    println!(
        "the release's exact counts: {} classes in {:.0} ms (cpu {:.0} ms)",
        counts.len(),
        t.elapsed().as_secs_f64() * 1e3,
        (cpu_seconds() - cpu) * 1e3
    );
    let spec = proxima_core::run::JobSpec {
        model: proxima_core::params::PrivacyModel::Population(
            proxima_core::params::PopulationModel::KMap {
                k: proxima_core::params::K::new(k, "/k").unwrap(),
            },
        ),
        algorithm: proxima_core::params::Algorithm::Mondrian,
        metric: None,
        xcolor: Default::default(),
        suppression_limit: Default::default(),
    };
    let (t, cpu) = (Instant::now(), cpu_seconds());
    proxima_core::run::run_job_with(&table, &spec, Some(&index), Progress::none()).unwrap();
    println!(
        "the whole job (index given): {:.0} ms (cpu {:.0} ms)",
        t.elapsed().as_secs_f64() * 1e3,
        (cpu_seconds() - cpu) * 1e3
    );
}
