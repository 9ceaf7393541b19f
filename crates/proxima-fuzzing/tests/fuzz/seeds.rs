//! The seed corpus of the cargo-fuzz targets (`fuzz/`), written by an
//! ignored test so it reuses this binary (`fuzz/seed.sh` runs it): the
//! generated sample uploads and job requests, plus — when shared/ is
//! present — each example schema with the first rows of its table and its
//! categorical columns' hierarchy files (small ones only), and the shared
//! hierarchy files on their own. Nothing from shared/ is committed.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use proxima_fuzzing as fuzzing;
use proxima_testdata::SharedData;

/// Hierarchy files larger than this stay out of the seeds (libFuzzer works
/// best on small inputs).
const MAX_HIERARCHY_BYTES: u64 = 16 * 1024;
const DATA_ROWS: usize = 25;

/// (example schema, data folder, data file)
const EXAMPLES: &[(&str, &str, &str)] = &[
    ("adult.schema.json", "adult", "adult.csv"),
    (
        "adult_full_composite.schema.json",
        "adult_full",
        "adult_full.csv",
    ),
    ("creditcard.schema.json", "creditcard", "creditcard.csv"),
    (
        "sal.schema.json",
        "sal_synthetic",
        "sal_synthetic_500k.csv.gz",
    ),
];

fn corpus_dir() -> PathBuf {
    std::env::var_os("PROXIMA_FUZZ_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus"))
}

fn write(target: &str, name: &str, bytes: &[u8]) {
    let dir = corpus_dir().join(target);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(name), bytes).unwrap();
}

fn head(data: &SharedData, file: &str, rows: usize) -> Vec<u8> {
    let reader = BufReader::new(data.open(file).unwrap());
    let mut out = Vec::new();
    for line in reader.split(b'\n').take(rows + 1) {
        out.extend(line.unwrap());
        out.push(b'\n');
    }
    out
}

#[test]
#[ignore = "writes the cargo-fuzz seed corpus: fuzz/seed.sh"]
fn write_seed_corpus() {
    for categorical in [false, true] {
        let (s, c, h) = proxima_testdata::sample::people(20, categorical);
        write(
            "upload",
            &format!("people_{categorical}"),
            &fuzzing::join_upload(&s, &c, &h),
        );
        for (column, bytes) in &h {
            write("hierarchy", &format!("people_{column}"), bytes);
        }
    }
    write(
        "hierarchy",
        "inline",
        br#"[["flu","respiratory","*"],["cold","respiratory","*"],["ulcer","stomach","*"]]"#,
    );
    for (i, job) in fuzzing::sample_jobs().iter().enumerate() {
        write("job", &format!("job_{i}"), job);
    }
    let Some(data) = SharedData::find_or_skip("the shared seeds") else {
        eprintln!("only the generated seeds were written");
        return;
    };
    let examples = data.dir().parent().unwrap().join("examples");
    for (schema_file, folder, data_file) in EXAMPLES {
        let Ok(schema) = std::fs::read(examples.join(schema_file)) else {
            continue;
        };
        let doc: serde_json::Value = serde_json::from_slice(&schema).unwrap();
        let mut hierarchies = Vec::new();
        for col in doc["columns"].as_array().unwrap() {
            let name = col["name"].as_str().unwrap();
            let file = data.path(&format!("{folder}/{folder}_hierarchy_{name}.csv"));
            let small = std::fs::metadata(&file).is_ok_and(|m| m.len() <= MAX_HIERARCHY_BYTES);
            if col["type"] == "categorical" && small {
                hierarchies.push((name.to_string(), std::fs::read(&file).unwrap()));
            }
        }
        let csv = head(&data, &format!("{folder}/{data_file}"), DATA_ROWS);
        write(
            "upload",
            folder,
            &fuzzing::join_upload(&schema, &csv, &hierarchies),
        );
    }
    for entry in std::fs::read_dir(data.dir()).unwrap() {
        let dir = entry.unwrap().path();
        let Ok(files) = std::fs::read_dir(&dir) else {
            continue;
        };
        for f in files {
            let f = f.unwrap().path();
            let name = f.file_name().unwrap().to_string_lossy().into_owned();
            let small = std::fs::metadata(&f).is_ok_and(|m| m.len() <= MAX_HIERARCHY_BYTES);
            if name.contains("_hierarchy_") && small {
                write("hierarchy", &name, &std::fs::read(&f).unwrap());
            }
        }
    }
}
