//! The benchmark tables of `shared/data` with their standard schemas, for
//! tests and benchmarks in every crate of the workspace.
//!
//! The data is never copied into the repository: [`shared_data_dir`] finds
//! it (env `PROXIMA_SHARED_DATA`, else a `shared/data` folder beside the
//! workspace root or one of its ancestors). Tests call [`load_shared`] and
//! return early (after printing why) when it gives `None`.
//!
//! The schemas mirror `shared/examples/*.json` where an example exists, and
//! the data README's natural quasi-identifiers otherwise (see
//! [`SharedTable`]).

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::error::{CoreError, CoreResult, ErrorKind};
use crate::hierarchy::Hierarchy;
use crate::ingest::{load_table, parse_hierarchy_csv};
use crate::schema::{ColumnSpec, CsvOptions, MissingPolicy, Role, Schema, ValueType};
use crate::table::Table;

/// A table of `shared/data` and its standard schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SharedTable {
    /// `adult/adult.csv` (CRLF): the 8 QIs of `adult.schema.json` (age
    /// numeric, 7 categorical with the adult hierarchies), SA salary-class
    /// (categorical, no hierarchy). 30,162 rows.
    Adult,
    /// `adult_full/adult_full.csv` with `adult_full_composite.schema.json`:
    /// 8 QIs (categorical ones with the adult_full hierarchies), SA
    /// education-num + capital-gain + hours-per-week, fnlwgt an identifier,
    /// `?` missing and suppressed. 32,561 rows, 30,169 kept: of the 2,399
    /// rows with a `?`, 7 ("Never-worked") have it only in occupation, which
    /// is insensitive in this schema, so they stay (with the text `?`).
    AdultFullComposite,
    /// `creditcard/creditcard.csv` with `creditcard.schema.json`: QIs SEX,
    /// EDUCATION, MARRIAGE, AGE (numeric), SA BILL_AMT1, ID an identifier.
    /// 30,000 rows.
    CreditCard,
    /// `cup/cup_int.csv`: QIs ZIP, AGE, GENDER, STATE (numeric), SA
    /// RAMNTALL (numeric), INCOME/NGIFTALL/MINRAMNT insensitive. 63,441 rows.
    Cup,
    /// `fars/fars_int.csv`: QIs iage (numeric) and irace, ideathmon,
    /// ideathday, isex, ihispanic, istatenum (categorical with the fars
    /// interval hierarchies); SA iinjury (categorical with its hierarchy).
    /// 100,937 rows.
    Fars,
    /// `sal_synthetic/sal_synthetic_500k.csv.gz` with `sal.schema.json`
    /// (comma-separated): QIs Age, Birthplace, Occupation (numeric), SA
    /// Income (numeric). 500,000 rows.
    SalSynthetic,
    /// `adult_scaled_synthetic/adult_full_synthetic_600k.csv.gz`: adult's 8
    /// QIs with the adult hierarchies, SA hours-per-week (numeric), the
    /// other 6 columns insensitive. 600,000 rows.
    AdultScaledSynthetic,
}

impl SharedTable {
    pub const ALL: [SharedTable; 7] = [
        SharedTable::Adult,
        SharedTable::AdultFullComposite,
        SharedTable::CreditCard,
        SharedTable::Cup,
        SharedTable::Fars,
        SharedTable::SalSynthetic,
        SharedTable::AdultScaledSynthetic,
    ];

    /// A short name (used as the schema's name).
    pub fn name(self) -> &'static str {
        match self {
            SharedTable::Adult => "adult",
            SharedTable::AdultFullComposite => "adult_full",
            SharedTable::CreditCard => "creditcard",
            SharedTable::Cup => "cup",
            SharedTable::Fars => "fars",
            SharedTable::SalSynthetic => "sal_synthetic",
            SharedTable::AdultScaledSynthetic => "adult_scaled_synthetic",
        }
    }

    /// The data file, relative to the shared data folder.
    pub fn data_file(self) -> &'static str {
        match self {
            SharedTable::Adult => "adult/adult.csv",
            SharedTable::AdultFullComposite => "adult_full/adult_full.csv",
            SharedTable::CreditCard => "creditcard/creditcard.csv",
            SharedTable::Cup => "cup/cup_int.csv",
            SharedTable::Fars => "fars/fars_int.csv",
            SharedTable::SalSynthetic => "sal_synthetic/sal_synthetic_500k.csv.gz",
            SharedTable::AdultScaledSynthetic => {
                "adult_scaled_synthetic/adult_full_synthetic_600k.csv.gz"
            }
        }
    }

    /// Rows of the loaded table (after suppression), per the data README.
    pub fn expected_rows(self) -> usize {
        match self {
            SharedTable::Adult => 30_162,
            SharedTable::AdultFullComposite => 30_169,
            SharedTable::CreditCard => 30_000,
            SharedTable::Cup => 63_441,
            SharedTable::Fars => 100_937,
            SharedTable::SalSynthetic => 500_000,
            SharedTable::AdultScaledSynthetic => 600_000,
        }
    }

    /// The standard schema, reading its hierarchy files from `dir`.
    pub fn schema(self, dir: &Path) -> CoreResult<Schema> {
        use Role::{Identifier as Id, Insensitive as Ins, QuasiIdentifier as Qi, Sensitive as Sa};
        use ValueType::{Categorical as Cat, Numeric as Num};
        // (name, role, type, hierarchy file prefix when categorical with one)
        type Col = (&'static str, Role, Option<ValueType>, Option<&'static str>);
        const ADULT_H: Option<&str> = Some("adult/adult_hierarchy_");
        const FULL_H: Option<&str> = Some("adult_full/adult_full_hierarchy_");
        const FARS_H: Option<&str> = Some("fars/fars_int_hierarchy_");
        let semicolon = CsvOptions {
            delimiter: b';',
            ..CsvOptions::default()
        };
        let (csv, policy, cols): (CsvOptions, MissingPolicy, Vec<Col>) = match self {
            SharedTable::Adult => (
                semicolon,
                MissingPolicy::Reject,
                vec![
                    ("sex", Qi, Some(Cat), ADULT_H),
                    ("age", Qi, Some(Num), None),
                    ("race", Qi, Some(Cat), ADULT_H),
                    ("marital-status", Qi, Some(Cat), ADULT_H),
                    ("education", Qi, Some(Cat), ADULT_H),
                    ("native-country", Qi, Some(Cat), ADULT_H),
                    ("workclass", Qi, Some(Cat), ADULT_H),
                    ("occupation", Qi, Some(Cat), ADULT_H),
                    ("salary-class", Sa, Some(Cat), None),
                ],
            ),
            SharedTable::AdultFullComposite => (
                CsvOptions {
                    delimiter: b';',
                    missing: vec!["?".to_string()],
                    allow_line_breaks: false,
                },
                MissingPolicy::Suppress,
                vec![
                    ("age", Qi, Some(Num), None),
                    ("workclass", Qi, Some(Cat), FULL_H),
                    ("fnlwgt", Id, None, None),
                    ("education", Qi, Some(Cat), FULL_H),
                    ("education-num", Sa, Some(Num), None),
                    ("marital-status", Qi, Some(Cat), FULL_H),
                    ("occupation", Ins, None, None),
                    ("relationship", Qi, Some(Cat), FULL_H),
                    ("race", Qi, Some(Cat), FULL_H),
                    ("sex", Qi, Some(Cat), FULL_H),
                    ("capital-gain", Sa, Some(Num), None),
                    ("capital-loss", Ins, None, None),
                    ("hours-per-week", Sa, Some(Num), None),
                    ("native-country", Qi, Some(Cat), FULL_H),
                    ("salary-class", Ins, None, None),
                ],
            ),
            SharedTable::CreditCard => {
                let mut cols: Vec<Col> =
                    vec![("ID", Id, None, None), ("LIMIT_BAL", Ins, None, None)];
                for q in ["SEX", "EDUCATION", "MARRIAGE", "AGE"] {
                    cols.push((q, Qi, Some(Num), None));
                }
                for p in ["PAY_0", "PAY_2", "PAY_3", "PAY_4", "PAY_5", "PAY_6"] {
                    cols.push((p, Ins, None, None));
                }
                cols.push(("BILL_AMT1", Sa, Some(Num), None));
                for b in [
                    "BILL_AMT2",
                    "BILL_AMT3",
                    "BILL_AMT4",
                    "BILL_AMT5",
                    "BILL_AMT6",
                    "PAY_AMT1",
                    "PAY_AMT2",
                    "PAY_AMT3",
                    "PAY_AMT4",
                    "PAY_AMT5",
                    "PAY_AMT6",
                ] {
                    cols.push((b, Ins, None, None));
                }
                cols.push(("default-payment-next-month", Ins, None, None));
                (semicolon, MissingPolicy::Reject, cols)
            }
            SharedTable::Cup => (
                semicolon,
                MissingPolicy::Reject,
                vec![
                    ("ZIP", Qi, Some(Num), None),
                    ("AGE", Qi, Some(Num), None),
                    ("GENDER", Qi, Some(Num), None),
                    ("INCOME", Ins, None, None),
                    ("STATE", Qi, Some(Num), None),
                    ("RAMNTALL", Sa, Some(Num), None),
                    ("NGIFTALL", Ins, None, None),
                    ("MINRAMNT", Ins, None, None),
                ],
            ),
            SharedTable::Fars => (
                semicolon,
                MissingPolicy::Reject,
                vec![
                    ("iage", Qi, Some(Num), None),
                    ("irace", Qi, Some(Cat), FARS_H),
                    ("ideathmon", Qi, Some(Cat), FARS_H),
                    ("ideathday", Qi, Some(Cat), FARS_H),
                    ("isex", Qi, Some(Cat), FARS_H),
                    ("ihispanic", Qi, Some(Cat), FARS_H),
                    ("istatenum", Qi, Some(Cat), FARS_H),
                    ("iinjury", Sa, Some(Cat), FARS_H),
                ],
            ),
            SharedTable::SalSynthetic => (
                CsvOptions::default(),
                MissingPolicy::Reject,
                vec![
                    ("Age", Qi, Some(Num), None),
                    ("Birthplace", Qi, Some(Num), None),
                    ("Occupation", Qi, Some(Num), None),
                    ("Income", Sa, Some(Num), None),
                ],
            ),
            SharedTable::AdultScaledSynthetic => (
                semicolon,
                MissingPolicy::Reject,
                vec![
                    ("age", Qi, Some(Num), None),
                    ("workclass", Qi, Some(Cat), ADULT_H),
                    ("fnlwgt", Ins, None, None),
                    ("education", Qi, Some(Cat), ADULT_H),
                    ("education-num", Ins, None, None),
                    ("marital-status", Qi, Some(Cat), ADULT_H),
                    ("occupation", Qi, Some(Cat), ADULT_H),
                    ("relationship", Ins, None, None),
                    ("race", Qi, Some(Cat), ADULT_H),
                    ("sex", Qi, Some(Cat), ADULT_H),
                    ("capital-gain", Ins, None, None),
                    ("capital-loss", Ins, None, None),
                    ("hours-per-week", Sa, Some(Num), None),
                    ("native-country", Qi, Some(Cat), ADULT_H),
                    ("salary-class", Ins, None, None),
                ],
            ),
        };
        let mut specs = Vec::with_capacity(cols.len());
        for (name, role, value_type, hierarchy_prefix) in cols {
            let hierarchy = match hierarchy_prefix {
                Some(prefix) => Some(Arc::new(shared_hierarchy(
                    &dir.join(format!("{prefix}{name}.csv")),
                    name,
                )?)),
                None => None,
            };
            specs.push(ColumnSpec {
                name: name.to_string(),
                role,
                value_type,
                hierarchy,
            });
        }
        Schema::new(self.name().to_string(), csv, policy, specs)
    }
}

/// Reads and parses one hierarchy file of the shared data.
pub fn shared_hierarchy(path: &Path, column: &str) -> CoreResult<Hierarchy> {
    let bytes = std::fs::read(path).map_err(|e| io_error(path, e))?;
    parse_hierarchy_csv(&bytes, column)
}

fn io_error(path: &Path, e: std::io::Error) -> CoreError {
    CoreError::new(
        ErrorKind::Internal,
        format!("cannot read shared data file {}: {e}", path.display()),
    )
}

/// The shared data folder: `$PROXIMA_SHARED_DATA` when set, else the first
/// `shared/data` folder found beside the workspace root or one of its
/// ancestors (the workspace root is located from `CARGO_MANIFEST_DIR` at run
/// time, then at build time, then the current directory). `None` when no
/// such folder exists.
pub fn shared_data_dir() -> Option<PathBuf> {
    let starts = [
        std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from),
        Some(PathBuf::from(env!("CARGO_MANIFEST_DIR"))),
        std::env::current_dir().ok(),
    ];
    locate_shared_data(
        std::env::var_os("PROXIMA_SHARED_DATA").map(PathBuf::from),
        starts.into_iter().flatten(),
    )
}

/// [`shared_data_dir`] without the environment: an explicit folder wins
/// (and must exist); otherwise the first start whose workspace root has a
/// `shared/data` beside it or beside one of its ancestors.
fn locate_shared_data(
    explicit: Option<PathBuf>,
    starts: impl IntoIterator<Item = PathBuf>,
) -> Option<PathBuf> {
    if let Some(dir) = explicit {
        return dir.is_dir().then_some(dir);
    }
    starts.into_iter().find_map(|start| {
        let root = workspace_root(&start);
        // The data lives outside the repository, never inside it: beside the
        // checkout (`../shared`, as in CI) or beside the folder holding it
        // (`../../shared`, for worktrees). No further up, so an unrelated
        // `shared/data` higher in the file system (say /tmp/shared) is never
        // picked up.
        root.ancestors()
            .skip(1)
            .take(2)
            .map(|a| a.join("shared").join("data"))
            .find(|d| d.is_dir())
    })
}

/// The nearest ancestor of `start` whose Cargo.toml declares a workspace
/// (`start` itself when there is none).
fn workspace_root(start: &Path) -> PathBuf {
    start
        .ancestors()
        .find(|a| {
            std::fs::read_to_string(a.join("Cargo.toml"))
                .map(|s| s.lines().any(|l| l.trim() == "[workspace]"))
                .unwrap_or(false)
        })
        .unwrap_or(start)
        .to_path_buf()
}

/// Opens a data file, decompressing `.gz` files on the fly.
pub fn open_data_file(path: &Path) -> CoreResult<Box<dyn Read>> {
    let file = File::open(path).map_err(|e| io_error(path, e))?;
    let buffered = BufReader::with_capacity(1 << 16, file);
    if path.extension().is_some_and(|e| e == "gz") {
        Ok(Box::new(flate2::read::MultiGzDecoder::new(buffered)))
    } else {
        Ok(Box::new(buffered))
    }
}

/// Loads a shared table with its standard schema from `dir`.
pub fn load_shared_from(dir: &Path, table: SharedTable) -> CoreResult<Table> {
    let schema = Arc::new(table.schema(dir)?);
    let reader = open_data_file(&dir.join(table.data_file()))?;
    load_table(schema, reader)
}

/// Loads a shared table with its standard schema; `None` (after printing
/// the reason on stderr) when the shared data folder is not available, so a
/// test can return early.
pub fn load_shared(table: SharedTable) -> Option<CoreResult<Table>> {
    let Some(dir) = shared_data_dir() else {
        eprintln!(
            "skipping {}: no shared data folder (set PROXIMA_SHARED_DATA or place shared/data \
             beside the workspace)",
            table.name()
        );
        return None;
    };
    Some(load_shared_from(&dir, table))
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    /// A fresh directory under the system temp dir (removed by the caller).
    fn temp_dir(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "proxima-ingest-{tag}-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn finds_shared_data_beside_an_ancestor_of_the_workspace() {
        let base = temp_dir("locate");
        let root = base.join("wt").join("repo");
        let krate = root.join("crates").join("core");
        std::fs::create_dir_all(&krate).unwrap();
        std::fs::write(root.join("Cargo.toml"), "[workspace]\nmembers = []\n").unwrap();
        std::fs::write(krate.join("Cargo.toml"), "[package]\nname = \"core\"\n").unwrap();
        // Not found yet; a shared/data inside the repository does not count.
        std::fs::create_dir_all(root.join("shared").join("data")).unwrap();
        assert_eq!(locate_shared_data(None, [krate.clone()]), None);
        // Two levels up, as for worktrees at /work/wt/<name>.
        let data = base.join("shared").join("data");
        std::fs::create_dir_all(&data).unwrap();
        assert_eq!(
            locate_shared_data(None, [krate.clone()]),
            Some(data.clone())
        );
        // Three levels up is too far: nothing beyond ../../shared counts.
        let deep = base.join("a").join("b").join("c");
        let deep_krate = deep.join("crates").join("core");
        std::fs::create_dir_all(&deep_krate).unwrap();
        std::fs::write(deep.join("Cargo.toml"), "[workspace]\nmembers = []\n").unwrap();
        assert_eq!(locate_shared_data(None, [deep_krate]), None);
        // An explicit folder wins, and must exist.
        let other = base.join("elsewhere");
        assert_eq!(
            locate_shared_data(Some(other.clone()), [krate.clone()]),
            None
        );
        std::fs::create_dir_all(&other).unwrap();
        assert_eq!(
            locate_shared_data(Some(other.clone()), [krate]),
            Some(other)
        );
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn gzip_files_are_decompressed_and_plain_files_read_as_is() {
        let dir = temp_dir("gz");
        let csv = "Age,Birthplace,Occupation,Income\n30,1,2,1000\n45,3,4,2500.5\n";
        let gz_path = dir.join("t.csv.gz");
        let mut enc = flate2::write::GzEncoder::new(
            File::create(&gz_path).unwrap(),
            flate2::Compression::fast(),
        );
        enc.write_all(csv.as_bytes()).unwrap();
        enc.finish().unwrap();
        let plain_path = dir.join("t.csv");
        std::fs::write(&plain_path, csv).unwrap();
        for path in [&gz_path, &plain_path] {
            let mut text = String::new();
            open_data_file(path)
                .unwrap()
                .read_to_string(&mut text)
                .unwrap();
            assert_eq!(text, csv);
        }
        // The sal schema needs no hierarchy files, so it loads from `dir`.
        let schema = Arc::new(SharedTable::SalSynthetic.schema(&dir).unwrap());
        let table = load_table(schema, open_data_file(&gz_path).unwrap()).unwrap();
        assert_eq!(table.single_numeric_sa(), Some(&[1000.0, 2500.5][..]));
        let missing = open_data_file(&dir.join("absent.csv")).err().unwrap();
        assert!(
            missing.message.contains("absent.csv"),
            "{}",
            missing.message
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn every_standard_schema_is_valid_when_the_data_is_present() {
        let Some(dir) = shared_data_dir() else {
            eprintln!("skipping: no shared data folder");
            return;
        };
        for t in SharedTable::ALL {
            let schema = t
                .schema(&dir)
                .unwrap_or_else(|e| panic!("{}: {e}", t.name()));
            assert_eq!(schema.name(), t.name());
            assert!(dir.join(t.data_file()).is_file(), "{}", t.data_file());
        }
    }
}
