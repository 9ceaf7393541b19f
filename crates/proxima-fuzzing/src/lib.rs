//! Fuzzing entry points: the service's real input paths, callable on
//! arbitrary bytes. The proptest fuzz tests (this crate's `tests/fuzz`) and
//! the cargo-fuzz targets (`fuzz/` at the repository root) both call these,
//! so they exercise exactly what `POST /v1/datasets` and `POST /v1/jobs` do.
//!
//! A crate of its own, not a module of `proxima`: neither these entry
//! points nor the generated sample upload they run jobs against
//! (`proxima_testdata::sample`) belong in the production binary. It uses
//! only `proxima`'s public parsing functions. Every function returns
//! the input's verdict (`Ok` or a `CoreError` that maps to a problem); the
//! requirement under fuzzing is that none of them panics or hangs.

use std::sync::{Arc, OnceLock};

use proxima_core::error::CoreResult;
use proxima_core::ingest::{
    hierarchy_from_inline, load_table, parse_hierarchy_csv, BlockLimits, StatsBuilder,
};
use proxima_core::{run, Table};
use serde_json::json;

use proxima::api::dataset::{columns_of, parse_schema};
use proxima::api::JobRequestDto;
use proxima::store::table_frames::{decode, write_stored};

/// The upload path of `POST /v1/datasets`: the schema document with its
/// hierarchy files (by column) validated into a schema, the CSV loaded
/// against it block by block into its stored form with the column
/// statistics the response carries, then the stored form decoded as a job
/// decodes it. Blocks of 7 rows, so fuzzed tables cross block boundaries;
/// the decoded table must be the one `load_table` gives.
pub fn upload(
    schema_json: &[u8],
    hierarchies: &[(String, Vec<u8>)],
    csv: &[u8],
) -> CoreResult<Table> {
    let (dto, schema) = parse_schema(schema_json, hierarchies)?;
    let schema = Arc::new(schema);
    let mut stats = StatsBuilder::new(&schema);
    let limits = BlockLimits {
        rows: 7,
        ..BlockLimits::default()
    };
    let stored = write_stored(&schema, csv, &limits, Vec::new(), |b| stats.add(b));
    let whole = load_table(schema.clone(), csv);
    let (_, stored) = match (stored, &whole) {
        (Ok(stored), Ok(_)) => stored,
        (Err(a), Err(b)) if a == *b => return Err(a),
        (a, b) => panic!("the block loader and load_table disagree: {a:?} / {b:?}"),
    };
    // The response echoes the schema and describes the columns.
    let _ = serde_json::to_value(&dto);
    let _ = columns_of(stats.finish(&schema));
    let table = decode(schema.clone(), &stored)?;
    assert!(
        whole.is_ok_and(|t| t == table),
        "the stored table decodes to another table"
    );
    // No accepted upload holds a line break in a published cell unless its
    // schema opts in: a stray quote would have merged other rows into it.
    if let Err(e) = proxima_core::ingest::check_line_breaks(&table) {
        panic!("an accepted upload holds a line break: {}", e.message);
    }
    Ok(table)
}

/// The same, from one byte string: parts separated by NUL bytes — the
/// schema, the CSV, then hierarchy files as `column=bytes`.
pub fn upload_bytes(data: &[u8]) -> CoreResult<Table> {
    let mut parts = data.split(|&b| b == 0);
    let schema = parts.next().unwrap_or_default();
    let csv = parts.next().unwrap_or_default();
    let hierarchies: Vec<(String, Vec<u8>)> = parts
        .map(|p| match p.iter().position(|&b| b == b'=') {
            Some(i) => (
                String::from_utf8_lossy(&p[..i]).into_owned(),
                p[i + 1..].to_vec(),
            ),
            None => (String::new(), p.to_vec()),
        })
        .collect();
    upload(schema, &hierarchies, csv)
}

/// Joins upload parts into [`upload_bytes`]' format (for seeds).
pub fn join_upload(schema: &[u8], csv: &[u8], hierarchies: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut out = schema.to_vec();
    out.push(0);
    out.extend_from_slice(csv);
    for (column, bytes) in hierarchies {
        out.push(0);
        out.extend_from_slice(column.as_bytes());
        out.push(b'=');
        out.extend_from_slice(bytes);
    }
    out
}

/// Hierarchies: the bytes as an ARX CSV file, and (when they are JSON) as
/// an inline hierarchy (`[[leaf, …, root], …]`). Returns how many of the
/// two parsed.
pub fn hierarchy(data: &[u8]) -> usize {
    let mut ok = usize::from(parse_hierarchy_csv(data, "h").is_ok());
    if let Ok(paths) = serde_json::from_slice::<Vec<Vec<String>>>(data) {
        ok += usize::from(hierarchy_from_inline(paths, "h").is_ok());
    }
    ok
}

/// The job path of `POST /v1/jobs`: the request parsed and turned into the
/// core's job spec against each of two small tables (numeric SA;
/// categorical SA with a hierarchy), validated against the data, and run
/// (partition, release, self-audit) when valid. Returns how many ran.
pub fn job(data: &[u8]) -> usize {
    let Ok(request) = JobRequestDto::from_json(data).and_then(JobRequestDto::into_request) else {
        return 0;
    };
    let mut ran = 0;
    for table in small_tables() {
        let Ok(spec) = request.to_spec(table.schema()) else {
            continue;
        };
        if run::validate(table, &spec).is_ok()
            && run::run_job(table, &spec, proxima_core::Progress::none()).is_ok()
        {
            ran += 1;
        }
    }
    ran
}

/// Valid job requests, one per model kind and option family (seeds).
pub fn sample_jobs() -> Vec<Vec<u8>> {
    [
        json!({"dataset_id": "d", "model": {"kind": "epsilon_m", "epsilon": 4500, "m": 2, "neighborhood": "absolute"}}),
        json!({"dataset_id": "d", "model": {"kind": "epsilon_m", "epsilon": 0.1, "m": 2, "neighborhood": "relative"}, "algorithm": "mondrian"}),
        json!({"dataset_id": "d", "model": {"kind": "dissimilarity", "epsilon": 0.1, "delta": 0.2, "k": 4}, "algorithm": "xcolor",
               "sensitive_metric": {"kind": "lp", "p": 1}}),
        json!({"dataset_id": "d", "model": {"kind": "dissimilarity", "epsilon": 0.5, "delta": 0.5, "k": 3},
               "sensitive_metric": {"kind": "hierarchical"}, "xcolor": {"initial": "degree_balanced"}}),
        json!({"dataset_id": "d", "model": {"kind": "k_anonymity", "k": 5}}),
        json!({"dataset_id": "d", "model": {"kind": "l_diversity", "l": 2, "variant": "recursive", "c": 3, "k": 3}}),
        json!({"dataset_id": "d", "model": {"kind": "l_diversity", "l": 2, "variant": "entropy", "k": 2}}),
        json!({"dataset_id": "d", "model": {"kind": "t_closeness", "t": 0.4, "k": 3}}),
    ]
    .iter()
    .map(|v| serde_json::to_vec(v).expect("a JSON value serializes"))
    .collect()
}

/// The two tables the job target validates and runs against.
fn small_tables() -> &'static [Table; 2] {
    static TABLES: OnceLock<[Table; 2]> = OnceLock::new();
    TABLES.get_or_init(|| {
        [false, true].map(|categorical| {
            let (schema, csv, hierarchies) = proxima_testdata::sample::people(40, categorical);
            upload(&schema, &hierarchies, &csv).expect("the sample upload is valid")
        })
    })
}
