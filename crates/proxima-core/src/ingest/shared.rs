//! The benchmark tables of `shared/data` with their standard schemas, for
//! tests, examples and the benchmark tool in every crate of the workspace.
//!
//! Pure like the rest of this crate: it describes the tables and parses
//! what it is handed. The caller does the I/O: it passes a function that
//! opens a file of the shared data folder by its relative path, as the
//! dev-only `proxima-testdata` crate provides (it locates the folder beside
//! the checkout and decompresses `.gz` files):
//!
//! ```ignore
//! let Some(data) = proxima_testdata::SharedData::find_or_skip("creditcard") else { return };
//! let table = SharedTable::CreditCard.load(|file| data.open(file))?;
//! ```
//!
//! The schemas mirror `shared/examples/*.json` where an example exists, and
//! the data README's natural quasi-identifiers otherwise (see
//! [`SharedTable`]).

use std::io::Read;
use std::sync::Arc;

use crate::error::{CoreError, CoreResult, ErrorKind};
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

    /// The standard schema, its hierarchy files read through `open`
    /// (relative paths in the shared data folder).
    pub fn schema<R: Read>(
        self,
        mut open: impl FnMut(&str) -> std::io::Result<R>,
    ) -> CoreResult<Schema> {
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
                Some(prefix) => {
                    let file = format!("{prefix}{name}.csv");
                    let mut bytes = Vec::new();
                    open(&file)
                        .and_then(|mut r| r.read_to_end(&mut bytes))
                        .map_err(|e| io_error(&file, e))?;
                    Some(Arc::new(parse_hierarchy_csv(&bytes, name)?))
                }
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

    /// The table with its standard schema, its files read through `open`
    /// (relative paths in the shared data folder).
    pub fn load<R: Read>(
        self,
        mut open: impl FnMut(&str) -> std::io::Result<R>,
    ) -> CoreResult<Table> {
        let schema = Arc::new(self.schema(&mut open)?);
        let reader = open(self.data_file()).map_err(|e| io_error(self.data_file(), e))?;
        load_table(schema, reader)
    }
}

fn io_error(file: &str, e: std::io::Error) -> CoreError {
    CoreError::new(
        ErrorKind::Internal,
        format!("cannot read shared data file {file}: {e}"),
    )
}

/// The core's own tests load shared tables through `proxima-testdata` (a
/// dev-dependency that does not depend on this crate, so no second copy of
/// its types): `None`, after printing why the test skips, when the shared
/// data folder is absent.
#[cfg(test)]
pub(crate) fn load_shared(table: SharedTable) -> Option<CoreResult<Table>> {
    let data = proxima_testdata::SharedData::find_or_skip(table.name())?;
    Some(table.load(|file| data.open(file)))
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::io::ErrorKind as IoKind;

    use super::*;

    /// `open` over files held in memory.
    fn in_memory<'a>(
        files: &'a HashMap<&str, &str>,
    ) -> impl FnMut(&str) -> std::io::Result<&'a [u8]> {
        move |name: &str| {
            files
                .get(name)
                .map(|text| text.as_bytes())
                .ok_or_else(|| std::io::Error::new(IoKind::NotFound, "absent"))
        }
    }

    #[test]
    fn a_table_loads_from_the_files_it_is_handed() {
        // The sal schema needs no hierarchy files.
        let csv = "Age,Birthplace,Occupation,Income\n30,1,2,1000\n45,3,4,2500.5\n";
        let files = HashMap::from([(SharedTable::SalSynthetic.data_file(), csv)]);
        let table = SharedTable::SalSynthetic.load(in_memory(&files)).unwrap();
        assert_eq!(table.single_numeric_sa(), Some(&[1000.0, 2500.5][..]));
        // A file that cannot be read is an error naming it.
        let missing = SharedTable::Cup.load(in_memory(&files)).err().unwrap();
        assert!(
            missing.message.contains("cup/cup_int.csv"),
            "{}",
            missing.message
        );
        let missing = SharedTable::Fars.schema(in_memory(&files)).err().unwrap();
        assert!(
            missing
                .message
                .contains("fars/fars_int_hierarchy_irace.csv"),
            "{}",
            missing.message
        );
    }

    #[test]
    fn every_standard_schema_is_valid_when_the_data_is_present() {
        let Some(data) = proxima_testdata::SharedData::find_or_skip("the standard schemas") else {
            return;
        };
        for t in SharedTable::ALL {
            let schema = t
                .schema(|file| data.open(file))
                .unwrap_or_else(|e| panic!("{}: {e}", t.name()));
            assert_eq!(schema.name(), t.name());
            assert!(data.path(t.data_file()).is_file(), "{}", t.data_file());
        }
    }
}
