//! Loading a case's table, and the bytes and schema an HTTP case uploads.
//! Shared tables go through `ingest::shared` (their schemas and the core's
//! loader) on the files `proxima-testdata` opens; nothing is re-parsed here
//! except the line filter that drops adult_full's `?` rows.

use std::io::Read;
use std::sync::Arc;

use anyhow::{anyhow, Context, Result};
use proxima::api::{ColumnDto, CsvDto, OnMissingDto, SchemaDto};
use proxima_core::ingest::load_table;
use proxima_core::ingest::shared::SharedTable;
use proxima_core::schema::{ColumnSpec, CsvOptions, MissingPolicy, Role, Schema, ValueType};
use proxima_core::Table;
use proxima_testdata::SharedData;

use super::cases::Source;

/// Rows of the generated `mini` table.
pub const MINI_ROWS: usize = 2000;

/// The shared data folder (`proxima_testdata::SharedData`, i.e.
/// `$PROXIMA_SHARED_DATA` or `../shared/data` beside the workspace).
pub fn data_dir() -> Result<SharedData> {
    SharedData::find().ok_or_else(|| {
        anyhow!(
            "no shared data folder: set PROXIMA_SHARED_DATA or place shared/data beside the \
             workspace (../shared/data)"
        )
    })
}

/// A table's CSV bytes (decompressed) and its schema.
pub struct Upload {
    pub csv: Vec<u8>,
    pub schema: Arc<Schema>,
    /// `(column, hierarchy file bytes)` for each categorical column with one.
    pub hierarchies: Vec<(String, Vec<u8>)>,
}

impl Upload {
    /// Loads the table in-process (the core's loader, as the server does).
    pub fn table(&self) -> Result<Table> {
        load_table(self.schema.clone(), self.csv.as_slice()).map_err(|e| anyhow!("{e}"))
    }

    /// The schema as the JSON document of `POST /v1/datasets`; categorical
    /// hierarchies travel as `hierarchy:<column>` parts.
    pub fn schema_json(&self) -> Result<Vec<u8>> {
        let s = &self.schema;
        let dto = SchemaDto {
            name: s.name().to_string(),
            csv: CsvDto {
                delimiter: (s.csv().delimiter as char).to_string(),
                missing: s.csv().missing.clone(),
                allow_line_breaks: s.csv().allow_line_breaks,
            },
            on_missing: match s.on_missing() {
                MissingPolicy::Reject => OnMissingDto::Reject,
                MissingPolicy::Suppress => OnMissingDto::Suppress,
            },
            columns: s
                .columns()
                .iter()
                .map(|c| ColumnDto {
                    name: c.name.clone(),
                    role: c.role.into(),
                    value_type: c.value_type.map(Into::into),
                    hierarchy: None,
                })
                .collect(),
            population: None,
        };
        Ok(serde_json::to_vec(&dto)?)
    }
}

/// Keeps the header and every data line none of whose cells is `?`
/// (adult_full's missing marker). The file has no quoting.
pub fn drop_missing_rows(csv: &[u8], delimiter: u8) -> Vec<u8> {
    let mut out = Vec::with_capacity(csv.len());
    for (i, line) in csv.split_inclusive(|&b| b == b'\n').enumerate() {
        let body = line.strip_suffix(b"\n").unwrap_or(line);
        let body = body.strip_suffix(b"\r").unwrap_or(body);
        let missing = body
            .split(|&b| b == delimiter)
            .any(|cell| cell.trim_ascii() == b"?");
        if i == 0 || !missing {
            out.extend_from_slice(line);
        }
    }
    out
}

/// The generated mini table: QIs age and zip (numeric), SA income.
fn mini_upload() -> Result<Upload> {
    let mut csv = String::from("age,zip,income\n");
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = |modulus: u64| {
        // xorshift64*: deterministic, no dependency on rand's stream.
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        (state.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) % modulus
    };
    for _ in 0..MINI_ROWS {
        let age = 18 + next(70);
        let zip = 10_000 + next(900);
        let income = 1_000 + next(99_000);
        csv.push_str(&format!("{age},{zip},{income}\n"));
    }
    let col = |name: &str, role| ColumnSpec {
        name: name.to_string(),
        role,
        value_type: Some(ValueType::Numeric),
        hierarchy: None,
    };
    let schema = Schema::new(
        "mini".to_string(),
        CsvOptions::default(),
        MissingPolicy::Reject,
        vec![
            col("age", Role::QuasiIdentifier),
            col("zip", Role::QuasiIdentifier),
            col("income", Role::Sensitive),
        ],
    )
    .map_err(|e| anyhow!("{e}"))?;
    Ok(Upload {
        csv: csv.into_bytes(),
        schema: Arc::new(schema),
        hierarchies: Vec::new(),
    })
}

/// The CSV of `generate.py rows seed` (the shared sal generator), written
/// once into the bench's cache folder (`$PROXIMA_BENCH_CACHE`, default a
/// folder in the temporary directory) and reused.
pub fn generated_sal(rows: usize, seed: u64) -> Result<std::path::PathBuf> {
    let dir = std::env::var_os("PROXIMA_BENCH_CACHE")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("proxima-bench-cache"));
    std::fs::create_dir_all(&dir)?;
    let path = dir.join(format!("sal_{rows}_{seed}.csv"));
    if path.is_file() {
        return Ok(path);
    }
    let generator = data_dir()?.path("sal_synthetic/generate.py");
    let part = path.with_extension("csv.part");
    let out = std::fs::File::create(&part)?;
    let status = std::process::Command::new("python3")
        .arg(&generator)
        .arg(rows.to_string())
        .arg(seed.to_string())
        .stdout(out)
        .status()
        .with_context(|| format!("running python3 {}", generator.display()))?;
    if !status.success() {
        anyhow::bail!("{} {rows} {seed} failed: {status}", generator.display());
    }
    std::fs::rename(&part, &path)?;
    Ok(path)
}

/// The sal layout's schema (the generated tables share it).
fn sal_schema() -> Result<Arc<Schema>> {
    let data = data_dir()?;
    let schema = SharedTable::SalSynthetic
        .schema(|file| data.open(file))
        .map_err(|e| anyhow!("{e}"))?;
    Ok(Arc::new(schema))
}

/// What an HTTP case uploads: the CSV (decompressed, `?` rows dropped for
/// adult_full), the standard schema and the hierarchy files.
pub fn upload(source: Source) -> Result<Upload> {
    let table = match source {
        Source::Mini => return mini_upload(),
        Source::SalGenerated { rows, seed } => {
            let csv = std::fs::read(generated_sal(rows, seed)?)?;
            return Ok(Upload {
                csv,
                schema: sal_schema()?,
                hierarchies: Vec::new(),
            });
        }
        Source::Shared(t) => t,
        Source::AdultFullNoMissing => SharedTable::AdultFullComposite,
    };
    let data = data_dir()?;
    // The schema reads its hierarchy files, one per categorical column with
    // a hierarchy, in column order: keep their bytes for the upload.
    let mut files = Vec::new();
    let schema = table
        .schema(|file| {
            let mut bytes = Vec::new();
            data.open(file)?.read_to_end(&mut bytes)?;
            files.push(bytes.clone());
            Ok(std::io::Cursor::new(bytes))
        })
        .map_err(|e| anyhow!("{e}"))?;
    let hierarchies: Vec<(String, Vec<u8>)> = schema
        .columns()
        .iter()
        .filter(|c| c.hierarchy.is_some())
        .map(|c| c.name.clone())
        .zip(files)
        .collect();
    let mut csv = Vec::new();
    data.open(table.data_file())?
        .read_to_end(&mut csv)
        .with_context(|| format!("reading {}", table.data_file()))?;
    if source == Source::AdultFullNoMissing {
        csv = drop_missing_rows(&csv, schema.csv().delimiter);
    }
    Ok(Upload {
        csv,
        schema: Arc::new(schema),
        hierarchies,
    })
}

/// Loads a case's table in-process.
pub fn load(source: Source) -> Result<Table> {
    match source {
        Source::Shared(t) => {
            let data = data_dir()?;
            t.load(|file| data.open(file))
                .map_err(|e| anyhow!("loading {}: {e}", t.name()))
        }
        Source::SalGenerated { rows, seed } => {
            // From the file, not via `upload`: the case's peak RSS should
            // not hold the CSV's bytes beside the table.
            let file = std::fs::File::open(generated_sal(rows, seed)?)?;
            load_table(
                sal_schema()?,
                std::io::BufReader::with_capacity(1 << 16, file),
            )
            .map_err(|e| anyhow!("{e}"))
        }
        Source::AdultFullNoMissing | Source::Mini => upload(source)?.table(),
    }
}

/// A population of `copies` × the table's rows, built from it: the table
/// itself (so it is a subset, as δ-presence needs), then copies whose every
/// QI is read at a pseudo-random row of its own (each QI independently):
/// combinations the sample does not hold, as in a real population.
pub fn population_of(table: &Table, copies: usize) -> Table {
    use proxima_core::table::{QiValues, SaValues};
    let n = table.rows();
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n.max(1) as u64) as usize
    };
    let qis = table
        .qis()
        .iter()
        .map(|c| {
            let rows: Vec<usize> = (0..n * copies)
                .map(|i| if i < n { i } else { next() })
                .collect();
            let values = match &c.values {
                QiValues::Numeric(v) => QiValues::Numeric(rows.iter().map(|&r| v[r]).collect()),
                QiValues::Date(v) => QiValues::Date(rows.iter().map(|&r| v[r]).collect()),
                QiValues::Categorical { codes, hierarchy } => QiValues::Categorical {
                    codes: rows.iter().map(|&r| codes[r]).collect(),
                    hierarchy: hierarchy.clone(),
                },
            };
            (c.name.clone(), values)
        })
        .collect();
    Table::from_columns(
        qis,
        vec![("s".to_string(), SaValues::Numeric(vec![0.0; n * copies]))],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_with_a_question_mark_cell_are_dropped_header_kept() {
        let csv = b"a;b;c\r\n1;?;x\r\n2;y;z\r\n3;x?;?\r\n4; ? ;w\r\n5;q;r";
        let kept = drop_missing_rows(csv, b';');
        assert_eq!(kept, b"a;b;c\r\n2;y;z\r\n5;q;r");
        let lf = drop_missing_rows(b"h\n?\nv\n", b';');
        assert_eq!(lf, b"h\nv\n");
    }

    #[test]
    fn the_mini_table_loads_with_its_schema() {
        let up = mini_upload().unwrap();
        let table = up.table().unwrap();
        assert_eq!(table.rows(), MINI_ROWS);
        assert_eq!(table.qis().len(), 2);
        let json: serde_json::Value = serde_json::from_slice(&up.schema_json().unwrap()).unwrap();
        assert_eq!(json["columns"][2]["role"], "sensitive");
        assert_eq!(json["csv"]["delimiter"], ",");
    }

    #[test]
    fn adult_full_without_question_marks_has_the_adult_rows() {
        if data_dir().is_err() {
            eprintln!("skipping: no shared data folder");
            return;
        }
        let table = load(Source::AdultFullNoMissing).unwrap();
        assert_eq!(table.rows(), 30_162);
        assert_eq!(table.suppressed_rows(), 0);
    }
}
