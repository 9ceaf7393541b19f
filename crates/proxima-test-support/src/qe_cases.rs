//! The bench cases on which the count-query workload is checked against
//! the independent reference `scripts/qe_reference.py` (used by the core's
//! `examples/qe_dump.rs`, which writes what the reference reads, and by
//! `tests/workload_reference.rs`, which compares with what it computed). Same tables and jobs as `proxima-tools bench`.

use proxima_core::ingest::shared::SharedTable;
use proxima_core::metric::{LpNorm, MetricSpec};
use proxima_core::params::{
    Algorithm, Dissimilarity, Epsilon, EpsilonM, Fraction, Neighborhood, PrivacyModel,
    SuppressionLimit, K, M,
};
use proxima_core::run::{run_job, JobOutcome, JobSpec};
use proxima_core::xcolor::XColorOptions;
use proxima_core::{Progress, Table};

use crate::shared::load_shared;

pub const CASES: &str = "xc-credit em-credit mo-adult xc-adult em-sal-s25";

/// The bench's workload seed (`proxima-tools` `WORKLOAD_SEED`).
pub const BENCH_SEED: u64 = proxima_core::utility::STANDARD_SEED;

fn spec(model: PrivacyModel, algorithm: Algorithm, metric: Option<MetricSpec>) -> JobSpec {
    JobSpec {
        model,
        algorithm,
        metric,
        xcolor: XColorOptions::default(),
        suppression_limit: Default::default(),
    }
}

fn xcolor(epsilon: f64, delta: f64) -> JobSpec {
    spec(
        PrivacyModel::Dissimilarity(Dissimilarity {
            epsilon: Epsilon::new(epsilon, "/e").unwrap(),
            delta: Fraction::new(delta, "delta", "/d").unwrap(),
            k: K::new(10, "/k").unwrap(),
        }),
        Algorithm::XColor,
        Some(MetricSpec::Lp {
            p: LpNorm::L1,
            weights: vec![],
        }),
    )
}

fn epsilon_m(epsilon: f64, m: u64) -> JobSpec {
    spec(
        PrivacyModel::EpsilonM(
            EpsilonM::new(
                Epsilon::new(epsilon, "/e").unwrap(),
                M::new(m, "/m").unwrap(),
                Neighborhood::Absolute,
                "/e",
            )
            .unwrap(),
        ),
        Algorithm::EpsilonM,
        None,
    )
}

/// The table and job of a case.
pub fn job(name: &str) -> Option<(SharedTable, JobSpec)> {
    Some(match name {
        "xc-credit" => (SharedTable::CreditCard, xcolor(0.001, 0.5)),
        "xc-adult" => (SharedTable::AdultFullComposite, xcolor(0.02, 0.5)),
        "em-credit" => (SharedTable::CreditCard, epsilon_m(1000.0, 4)),
        // A release that leaves rows out: the counts are the original's.
        "em-sal-s25" => (
            SharedTable::SalSynthetic,
            JobSpec {
                suppression_limit: SuppressionLimit::new(0.25, "/s").unwrap(),
                ..epsilon_m(4500.0, 5)
            },
        ),
        "mo-adult" => (
            SharedTable::Adult,
            spec(
                PrivacyModel::KAnonymity(K::new(10, "/k").unwrap()),
                Algorithm::Mondrian,
                None,
            ),
        ),
        _ => return None,
    })
}

/// Drops the rows with a `?` in any published cell, as the bench loads
/// xc-adult's table (the rows keep their line numbers in adult_full.csv).
fn without_question_marks(table: Table) -> Table {
    let columns: Vec<usize> = (0..table.schema().columns().len())
        .filter(|&i| table.text_column(i).is_some())
        .collect();
    let keep: Vec<bool> = (0..table.rows())
        .map(|r| columns.iter().all(|&i| table.text(i, r) != Some("?")))
        .collect();
    table.retain_rows(&keep)
}

/// The case's table and its job's outcome (the release is
/// `outcome.anonymized.release`, its rows `outcome.anonymized.table(&table)`);
/// `None` after printing why when the shared data is absent. Panics on an
/// unknown case.
pub fn run_case(name: &str) -> Option<(Table, JobOutcome)> {
    let (shared, spec) = job(name).unwrap_or_else(|| panic!("unknown case '{name}': {CASES}"));
    let mut table = load_shared(shared)?.expect("the shared table loads");
    if name == "xc-adult" {
        table = without_question_marks(table);
    }
    let outcome = run_job(&table, &spec, Progress::none()).expect("the case's job succeeds");
    Some((table, outcome))
}
