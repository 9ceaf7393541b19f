//! Runs a bench case's job and writes what the independent reference
//! (`scripts/qe_reference.py`) needs to check the count-query workload
//! query by query: the release (as `proxima anonymize --row-id` writes it)
//! and, per q, every query of the workload with Proxima's actual and
//! estimated counts.
//!
//! ```text
//! cargo run --release -p proxima-core --example qe_dump -- <case> <out-dir> [seed] [queries]
//! scripts/qe_reference.py … --release <out-dir>/<case>.csv --queries-from <out-dir>/<case>.q2.jsonl
//! ```
//!
//! Writes `<case>.csv` and `<case>.q2.jsonl`, `<case>.q3.jsonl` (one JSON
//! object per query: `qis` and `sa` predicates as `{"column", "lo", "hi"}`
//! or `{"column", "values": [leaf labels]}`, `actual`, `estimate`), and
//! prints the mean and median per q. The seed defaults to the bench's.
//! xc-adult's table is adult_full without the rows holding a `?` anywhere,
//! as the bench loads it; its row ids are lines of `adult_full.csv`.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

use proxima_core::generalize::{for_each_release_row, release_header};
use proxima_core::table::{QiValues, SaValues};
use proxima_core::utility::{query_answers, query_error, WorkloadSpec};
use proxima_core::Hierarchy;
use proxima_test_support::qe_cases::{run_case, BENCH_SEED, CASES};

fn csv_cell(out: &mut String, cell: &str) {
    if cell.contains([',', '"', '\n', '\r']) {
        let _ = write!(out, "\"{}\"", cell.replace('"', "\"\""));
    } else {
        out.push_str(cell);
    }
}

fn json_str(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A predicate in the reference's terms: values for a categorical column
/// (its leaves at ranks lo..=hi), the interval otherwise.
fn predicate(name: &str, categorical: Option<&Hierarchy>, (lo, hi): (f64, f64)) -> String {
    let column = json_str(name);
    match categorical {
        Some(h) => {
            let values: Vec<String> = (lo as u32..=hi as u32)
                .map(|rank| json_str(h.leaf_label(h.leaf_at_rank(rank))))
                .collect();
            format!("{{\"column\":{column},\"values\":[{}]}}", values.join(","))
        }
        None => format!("{{\"column\":{column},\"lo\":{lo},\"hi\":{hi}}}"),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(name), Some(out_dir)) = (args.first(), args.get(1)) else {
        eprintln!("usage: qe_dump <case> <out-dir> [seed] [queries]\ncases: {CASES}");
        return ExitCode::FAILURE;
    };
    if proxima_test_support::qe_cases::job(name).is_none() {
        eprintln!("unknown case '{name}': {CASES}");
        return ExitCode::FAILURE;
    }
    let seed: u64 = args
        .get(2)
        .map_or(BENCH_SEED, |s| s.parse().expect("a seed"));
    let queries: usize = args.get(3).map_or(1000, |s| s.parse().expect("a count"));
    let Some((table, outcome)) = run_case(name) else {
        return ExitCode::SUCCESS;
    };
    let release = &outcome.anonymized.release;
    // The counts are taken on the original table (rows the job left out
    // included); the release's rows are the kept ones.
    let published = outcome.anonymized.published(&table);
    let table = outcome.anonymized.table(&table);
    let dir = Path::new(out_dir);

    let mut csv = release_header(table, true).join(",");
    csv.push('\n');
    for_each_release_row(table, release, true, |cells| {
        for (i, c) in cells.iter().enumerate() {
            if i > 0 {
                csv.push(',');
            }
            csv_cell(&mut csv, c);
        }
        csv.push('\n');
        Ok::<(), ()>(())
    })
    .unwrap();
    std::fs::write(dir.join(format!("{name}.csv")), csv).expect("the release is written");

    for q in [2, 3] {
        let spec = WorkloadSpec {
            queries,
            q,
            selectivity: 0.1,
            seed,
        };
        let answers = query_answers(&published, &spec).unwrap();
        let path = dir.join(format!("{name}.q{q}.jsonl"));
        let mut f = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        for a in &answers {
            let qis: Vec<String> = a
                .qis
                .iter()
                .map(|&(d, p)| {
                    let c = &table.qis()[d];
                    let h = match &c.values {
                        QiValues::Categorical { hierarchy, .. } => Some(&**hierarchy),
                        _ => None,
                    };
                    predicate(&c.name, h, p)
                })
                .collect();
            let sa: Vec<String> =
                a.sa.iter()
                    .map(|&(j, p)| {
                        let c = &table.sensitive()[j];
                        let h = match &c.values {
                            SaValues::Categorical { hierarchy, .. } => Some(&**hierarchy),
                            SaValues::Numeric(_) => None,
                        };
                        predicate(&c.name, h, p)
                    })
                    .collect();
            writeln!(
                f,
                "{{\"qis\":[{}],\"sa\":[{}],\"actual\":{},\"estimate\":{}}}",
                qis.join(","),
                sa.join(","),
                a.actual,
                a.estimate
            )
            .unwrap();
        }
        let r = query_error(&published, &spec).unwrap();
        println!(
            "{name} q={q} seed={seed}: mean {:?} median {:?} over {} of {} queries ({} SA predicates); {} groups, {} rows left out",
            r.mean_relative_error,
            r.median_relative_error,
            r.queries_used,
            r.queries,
            r.sa_predicates,
            release.groups(),
            outcome.anonymized.suppressed_by_model()
        );
    }
    ExitCode::SUCCESS
}
