//! Property-based fuzzing of the service's input paths (`proxima_fuzzing`):
//! the upload (schema JSON + hierarchy files + CSV), hierarchies (ARX CSV
//! and inline) and job requests (parsed, validated against a small table
//! and run). Requirement: no panic and no hang on any input.
//!
//! Two kinds of input per target: arbitrary bytes, and valid documents
//! mutated with structure (byte flips, truncation, inserted quotes,
//! delimiters, NaN, huge numbers, deep JSON nesting, JSON values swapped
//! for hostile ones). Every case runs under a watchdog thread that fails
//! the test when one input takes longer than `PROXIMA_FUZZ_TIMEOUT_SECS`
//! (default 5 s). `PROXIMA_FUZZ_CASES` raises the case count of every
//! property (default 1000) for longer runs; `cargo fuzz` (see `fuzz/`)
//! is the open-ended variant.

mod mutate;
mod regressions;
mod seeds;

use std::sync::mpsc;
use std::time::Duration;

use proptest::prelude::*;
use proxima_fuzzing as fuzzing;

use mutate::{json_mutations, mutate_bytes, mutate_json, Mutation};

fn cases() -> u32 {
    std::env::var("PROXIMA_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000)
}

fn limit() -> Duration {
    Duration::from_secs_f64(
        std::env::var("PROXIMA_FUZZ_TIMEOUT_SECS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(5.0),
    )
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: cases(),
        // A hang costs the whole limit per shrinking step: keep shrinking short.
        max_shrink_iters: 64,
        ..ProptestConfig::default()
    }
}

/// Runs `f(input)` on its own thread; a panic is re-raised here (so
/// proptest shrinks it) and an input that runs longer than the limit fails
/// the test (the stuck thread is left behind; the process ends soon after).
pub fn guarded<T: Send + 'static>(target: &str, input: Vec<u8>, f: fn(&[u8]) -> T) -> T {
    let (tx, rx) = mpsc::channel();
    let shown = String::from_utf8_lossy(&input[..input.len().min(400)]).into_owned();
    let worker = std::thread::Builder::new()
        .name(format!("fuzz-{target}"))
        .spawn(move || {
            let r = f(&input);
            let _ = tx.send(());
            r
        })
        .expect("spawning the fuzz worker");
    match rx.recv_timeout(limit()) {
        Ok(()) | Err(mpsc::RecvTimeoutError::Disconnected) => match worker.join() {
            Ok(r) => r,
            Err(panic) => {
                let msg = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                panic!("{target} panicked ({msg}) on input {shown:?}")
            }
        },
        Err(mpsc::RecvTimeoutError::Timeout) => {
            panic!("{target} took more than {:?} on input {shown:?}", limit())
        }
    }
}

fn upload(data: Vec<u8>) {
    // Err is a fine verdict; only a panic or a hang fails.
    let _verdict = guarded("upload", data, |d| {
        fuzzing::upload_bytes(d).map(|t| t.rows())
    });
}

fn hierarchy(data: Vec<u8>) {
    guarded("hierarchy", data, fuzzing::hierarchy);
}

fn job(data: Vec<u8>) {
    guarded("job", data, fuzzing::job);
}

/// The sample upload in parts: (schema, csv, hierarchy files).
fn sample(categorical: bool) -> proxima_testdata::sample::Upload {
    proxima_testdata::sample::people(12, categorical)
}

/// A schema document with its hierarchy inline: `[[leaf, …, root], …]`.
fn inline_hierarchy_seed() -> Vec<u8> {
    br#"[["flu","respiratory","*"],["cold","respiratory","*"],["ulcer","stomach","*"]]"#.to_vec()
}

fn arx_hierarchy_seed() -> Vec<u8> {
    b"flu;respiratory;*\ncold;respiratory;*\nulcer;stomach;*\n\"a;b\";x;*\r\n".to_vec()
}

#[test]
fn the_seeds_are_valid() {
    for categorical in [false, true] {
        let (s, c, h) = sample(categorical);
        fuzzing::upload(&s, &h, &c).unwrap();
        assert!(fuzzing::upload_bytes(&fuzzing::join_upload(&s, &c, &h)).is_ok());
    }
    assert_eq!(fuzzing::hierarchy(&inline_hierarchy_seed()), 1);
    assert_eq!(fuzzing::hierarchy(&arx_hierarchy_seed()), 1);
    for j in fuzzing::sample_jobs() {
        assert!(
            fuzzing::job(&j) >= 1,
            "{} runs on no table",
            String::from_utf8_lossy(&j)
        );
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn upload_survives_arbitrary_bytes(data in prop::collection::vec(any::<u8>(), 0..2048)) {
        upload(data);
    }

    #[test]
    fn upload_survives_a_mutated_csv(
        categorical in any::<bool>(),
        muts in prop::collection::vec(any::<Mutation>(), 1..8),
    ) {
        let (s, c, h) = sample(categorical);
        upload(fuzzing::join_upload(&s, &mutate_bytes(c, &muts), &h));
    }

    /// Quotes put at random places of the sample CSV (a stray quote in
    /// any column, closed lines later or never): every upload is refused
    /// or holds no line break in a cell (the entry point asserts it).
    #[test]
    fn stray_quotes_never_merge_rows_into_a_cell(
        categorical in any::<bool>(),
        at in prop::collection::vec(any::<prop::sample::Index>(), 1..4),
    ) {
        let (s, c, h) = sample(categorical);
        let mut c = c;
        for i in &at {
            let i = i.index(c.len() + 1);
            c.insert(i, b'"');
        }
        upload(fuzzing::join_upload(&s, &c, &h));
    }

    #[test]
    fn upload_survives_a_mutated_schema(
        categorical in any::<bool>(),
        json_muts in json_mutations(),
        muts in prop::collection::vec(any::<Mutation>(), 0..3),
    ) {
        let (s, c, h) = sample(categorical);
        let s = mutate_bytes(mutate_json(&s, &json_muts), &muts);
        upload(fuzzing::join_upload(&s, &c, &h));
    }

    #[test]
    fn upload_survives_a_mutated_hierarchy_file(
        muts in prop::collection::vec(any::<Mutation>(), 1..8),
        csv_muts in prop::collection::vec(any::<Mutation>(), 0..2),
    ) {
        let (s, c, mut h) = sample(true);
        h[0].1 = mutate_bytes(std::mem::take(&mut h[0].1), &muts);
        upload(fuzzing::join_upload(&s, &mutate_bytes(c, &csv_muts), &h));
    }

    #[test]
    fn hierarchy_survives_arbitrary_bytes(data in prop::collection::vec(any::<u8>(), 0..1024)) {
        hierarchy(data);
    }

    #[test]
    fn hierarchy_survives_mutations(
        inline in any::<bool>(),
        json_muts in json_mutations(),
        muts in prop::collection::vec(any::<Mutation>(), 0..8),
    ) {
        let seed = if inline {
            mutate_json(&inline_hierarchy_seed(), &json_muts)
        } else {
            arx_hierarchy_seed()
        };
        hierarchy(mutate_bytes(seed, &muts));
    }

    #[test]
    fn job_survives_arbitrary_bytes(data in prop::collection::vec(any::<u8>(), 0..512)) {
        job(data);
    }

    #[test]
    fn job_survives_mutated_requests(
        which in any::<prop::sample::Index>(),
        json_muts in json_mutations(),
        muts in prop::collection::vec(any::<Mutation>(), 0..3),
    ) {
        let seeds = fuzzing::sample_jobs();
        let seed = &seeds[which.index(seeds.len())];
        job(mutate_bytes(mutate_json(seed, &json_muts), &muts));
    }
}
