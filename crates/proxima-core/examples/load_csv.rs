//! Times loading a shared table's CSV as `proxima anonymize` loads it —
//! the file already in memory, the QIs' text not kept — several times,
//! and prints each run's wall time: the read stage of the whole pipeline
//! alone, for before/after comparisons that the stages after it would
//! otherwise drown in noise.
//!
//! ```text
//! cargo run --release -p proxima-core --example load_csv -- [table] [runs] [threads] [loader]
//! ```
//!
//! `table`: a shared table's name (default `adult_scaled_synthetic`, adult
//! 600k); `threads`: the pool's size (default 2); `loader`: `pieces`
//! (default: `ingest::try_load_pieces`, as the CLI loads a file) or
//! `stream` (the one-thread streaming loader an upload goes through).

use std::io::Read;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use proxima_core::ingest::shared::SharedTable;
use proxima_core::ingest::{load_table_with_limits, try_load_pieces, BlockLimits, PIECE_BYTES};
use proxima_core::Progress;
use proxima_testdata::SharedData;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args
        .first()
        .map_or("adult_scaled_synthetic", String::as_str);
    let runs: usize = args.get(1).and_then(|r| r.parse().ok()).unwrap_or(7);
    let threads: usize = args.get(2).and_then(|t| t.parse().ok()).unwrap_or(2);
    let pieces = match args.get(3).map_or("pieces", String::as_str) {
        "pieces" => true,
        "stream" => false,
        other => {
            eprintln!("unknown loader '{other}': pieces or stream");
            return ExitCode::FAILURE;
        }
    };
    let Some(table) = SharedTable::ALL.into_iter().find(|t| t.name() == name) else {
        eprintln!("unknown table '{name}'");
        return ExitCode::FAILURE;
    };
    let Some(data) = SharedData::find_or_skip(name) else {
        return ExitCode::SUCCESS;
    };
    let schema = Arc::new(table.schema(|f| data.open(f)).expect("the standard schema"));
    let mut csv = Vec::new();
    data.open(table.data_file())
        .and_then(|mut r| r.read_to_end(&mut csv))
        .expect("the data file");
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a pool");
    let limits = BlockLimits {
        qi_text: false,
        ..BlockLimits::whole()
    };
    let mut times = Vec::new();
    for run in 0..runs {
        let started = Instant::now();
        let rows = pool.install(|| {
            let table = if pieces {
                try_load_pieces(
                    schema.clone(),
                    &csv[..],
                    &limits,
                    PIECE_BYTES,
                    Progress::none(),
                )
                .expect("no cancel")
                .expect("the pieces vouch for the file")
            } else {
                load_table_with_limits(schema.clone(), &csv[..], &limits, Progress::none())
                    .expect("the file loads")
            };
            table.rows()
        });
        let ms = started.elapsed().as_secs_f64() * 1e3;
        println!("run {run}: {rows} rows in {ms:.1} ms");
        times.push(ms);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "{name}, {threads} thread(s), {}: median {:.1} ms, min {:.1} ms over {runs} runs ({:.0} MB of CSV)",
        if pieces { "pieces" } else { "stream" },
        times[runs / 2],
        times[0],
        csv.len() as f64 / 1e6
    );
    ExitCode::SUCCESS
}
