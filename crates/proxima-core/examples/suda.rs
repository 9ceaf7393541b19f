//! Times SUDA2 (`proxima_core::risk::suda`) on a shared table as uploaded
//! and on a Mondrian k = 10 release of it (built untimed), over the QIs and
//! over every published column, and prints what it found.
//!
//! ```text
//! cargo run --release -p proxima-core --example suda -- <table> [max_size]
//! ```
//!
//! Tables: `adult`, `creditcard`, `fars`, `sal` (500k rows), `adult600k`.

use std::process::ExitCode;
use std::time::Instant;

use proxima_core::ingest::shared::SharedTable;
use proxima_core::params::{Algorithm, PrivacyModel, SuppressionLimit, K};
use proxima_core::risk::suda::{key_columns, suda, DisFraction, KeyScope, MaxSize, PublishedQis};
use proxima_core::run::{anonymize, JobSpec};
use proxima_core::xcolor::XColorOptions;
use proxima_core::{Progress, Table};
use proxima_test_support::shared::load_shared;

fn scan(label: &str, table: &Table, scope: KeyScope, qis: PublishedQis, max: MaxSize) {
    let t = Instant::now();
    let keys = key_columns(table, scope, qis).expect("key columns");
    let built = t.elapsed().as_secs_f64();
    let s = suda(&keys, max, DisFraction::default(), Progress::none()).expect("suda");
    let all = t.elapsed().as_secs_f64();
    println!(
        "{label:<28} {:>2} columns: keys {:>7.1} ms, search + scores {:>8.1} ms",
        keys.columns(),
        built * 1e3,
        (all - built) * 1e3
    );
    println!(
        "  {} records with an MSU, {} sample uniques, MSUs by size {:?}, max score {}, \
         max DIS-SUDA {:.4}",
        s.records_with_msu(),
        s.sample_uniques,
        s.msus_by_size,
        s.max_score(),
        s.max_dis()
    );
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let which = args.next().unwrap_or_default();
    let shared = match which.as_str() {
        "adult" => SharedTable::Adult,
        "creditcard" => SharedTable::CreditCard,
        "fars" => SharedTable::Fars,
        "sal" => SharedTable::SalSynthetic,
        "adult600k" => SharedTable::AdultScaledSynthetic,
        _ => {
            eprintln!("usage: suda adult|creditcard|fars|sal|adult600k [max_size]");
            return ExitCode::FAILURE;
        }
    };
    let max = args.next().and_then(|m| m.parse().ok()).unwrap_or(4);
    let max = MaxSize::new(max, "max_size").expect("max_size from 1 to 16");
    let Some(table) = load_shared(shared) else {
        return ExitCode::FAILURE;
    };
    let table = table.expect("the shared table loads");
    println!("{which}: {} rows, MSUs up to {}", table.rows(), max.get());
    let as_stored = PublishedQis::AsStored;
    scan(
        "upload, QIs",
        &table,
        KeyScope::QuasiIdentifiers,
        as_stored,
        max,
    );
    scan(
        "upload, published",
        &table,
        KeyScope::Published,
        as_stored,
        max,
    );
    let spec = JobSpec {
        model: PrivacyModel::KAnonymity(K::new(10, "/k").expect("k")),
        algorithm: Algorithm::Mondrian,
        metric: None,
        xcolor: XColorOptions::default(),
        suppression_limit: SuppressionLimit::default(),
    };
    let anonymized = anonymize(&table, &spec, Progress::none()).expect("Mondrian k = 10");
    let kept = anonymized.table(&table);
    let release = PublishedQis::Release(&anonymized.release);
    scan(
        "release k=10, QIs",
        kept,
        KeyScope::QuasiIdentifiers,
        release,
        max,
    );
    scan(
        "release k=10, published",
        kept,
        KeyScope::Published,
        release,
        max,
    );
    ExitCode::SUCCESS
}
