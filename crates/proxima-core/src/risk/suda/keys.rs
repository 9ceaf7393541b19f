//! The columns a SUDA scan reads, as an attacker reads the published table.
//!
//! Two scans: the declared quasi-identifiers, and every published column
//! (quasi-identifiers, sensitive and insensitive columns; identifiers are
//! never published). Quasi-identifiers read as published: an uploaded
//! table's values as they stand (a table uploaded generalized is read
//! through its labels), a job's release through each group's generalized
//! value — two records whose groups publish the same label share it, so an
//! MSU of a release is a combination the downloaded CSV really singles out.
//! Sensitive and insensitive columns read as their published text; an
//! insensitive cell equal to one of the schema's missing markers matches
//! nothing (sdcMicro's `missing`).

use std::collections::HashMap;
use std::hash::Hash;

use super::{KeyColumns, MISSING};
use crate::error::{CoreError, CoreResult};
use crate::generalize::{label, Release};
use crate::schema::Role;
use crate::table::{QiColumn, QiValues, Table};

/// Which columns a scan reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeyScope {
    QuasiIdentifiers,
    /// Every published column.
    Published,
}

impl KeyScope {
    pub fn name(self) -> &'static str {
        match self {
            KeyScope::QuasiIdentifiers => "quasi_identifiers",
            KeyScope::Published => "published",
        }
    }
}

/// How the quasi-identifiers are published.
#[derive(Debug, Clone, Copy)]
pub enum PublishedQis<'r> {
    /// As the table holds them (an uploaded table).
    AsStored,
    /// Through each group's generalization (a job's release over the table
    /// of the rows it kept).
    Release(&'r Release),
}

/// A dictionary from values to dense codes.
struct Dictionary<K>(HashMap<K, u32, foldhash::fast::RandomState>);

impl<K: Hash + Eq> Dictionary<K> {
    fn new() -> Self {
        Dictionary(HashMap::default())
    }
    fn code(&mut self, key: K) -> u32 {
        let next = self.0.len() as u32;
        *self.0.entry(key).or_insert(next)
    }
}

/// The key columns of `table` for `scope`, in schema order.
pub fn key_columns(table: &Table, scope: KeyScope, qis: PublishedQis) -> CoreResult<KeyColumns> {
    if let PublishedQis::Release(release) = qis {
        release.partition().check_covers(table.rows())?;
    }
    let schema = table.schema();
    let missing = &schema.csv().missing;
    let mut names = Vec::new();
    let mut codes = Vec::new();
    for (i, spec) in schema.columns().iter().enumerate() {
        let column = match spec.role {
            Role::Identifier => continue,
            Role::QuasiIdentifier => {
                let (d, qi) = table
                    .qis()
                    .iter()
                    .enumerate()
                    .find(|(_, q)| q.schema_index == i)
                    .ok_or_else(|| CoreError::internal("a QI of the schema is not in the table"))?;
                match qis {
                    PublishedQis::AsStored => stored_qi(qi),
                    PublishedQis::Release(release) => released_qi(table.rows(), qi, release, d),
                }
            }
            Role::Sensitive | Role::Insensitive if scope == KeyScope::Published => {
                let text = table
                    .text_column(i)
                    .ok_or_else(|| CoreError::internal("a published column has no text"))?;
                let may_miss = spec.role == Role::Insensitive;
                let mut dict = Dictionary::new();
                (0..table.rows())
                    .map(|r| {
                        let cell = text.get(r);
                        if may_miss && missing.iter().any(|m| m == cell) {
                            MISSING
                        } else {
                            dict.code(cell)
                        }
                    })
                    .collect()
            }
            Role::Sensitive | Role::Insensitive => continue,
        };
        names.push(spec.name.clone());
        codes.push(column);
    }
    KeyColumns::new(names, codes)
}

/// A QI's values as stored: equal values, equal codes.
fn stored_qi(qi: &QiColumn) -> Vec<u32> {
    match &qi.values {
        QiValues::Numeric(v) => {
            let mut dict = Dictionary::new();
            // -0 and 0 print alike.
            v.iter().map(|&x| dict.code((x + 0.0).to_bits())).collect()
        }
        QiValues::Categorical { codes, .. } => codes.clone(),
        QiValues::Date(v) => {
            let mut dict = Dictionary::new();
            v.iter().map(|&x| dict.code(x)).collect()
        }
    }
}

/// QI `d` as the release publishes it: each row the code of its group's
/// label (two groups printing the same label publish the same value).
fn released_qi(rows: usize, qi: &QiColumn, release: &Release, d: usize) -> Vec<u32> {
    let mut dict = Dictionary::new();
    let mut out = vec![0u32; rows];
    for (group, generalized) in release.partition().groups.iter().zip(release.generalized()) {
        let code = dict.code(label(&qi.values, &generalized[d]));
        for &r in group {
            out[r as usize] = code;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::generalize::generalize;
    use crate::ingest::load_table;
    use crate::partition::Partition;
    use crate::schema::{ColumnSpec, CsvOptions, MissingPolicy, Schema, ValueType};

    fn col(name: &str, role: Role, t: Option<ValueType>) -> ColumnSpec {
        ColumnSpec {
            name: name.into(),
            role,
            value_type: t,
            hierarchy: None,
        }
    }

    fn table() -> Table {
        let schema = Schema::new(
            "t".into(),
            CsvOptions {
                missing: vec!["".into(), "?".into()],
                ..CsvOptions::default()
            },
            MissingPolicy::Reject,
            vec![
                col("id", Role::Identifier, None),
                col("age", Role::QuasiIdentifier, Some(ValueType::Numeric)),
                col("town", Role::Insensitive, None),
                col("pay", Role::Sensitive, Some(ValueType::Numeric)),
            ],
        )
        .unwrap();
        let csv = "id,age,town,pay\n1,30,A,10\n2,31,?,10\n3,30,A,20\n4,40,,20\n";
        load_table(Arc::new(schema), csv.as_bytes()).unwrap()
    }

    #[test]
    fn published_columns_leave_identifiers_out_and_missing_cells_match_nothing() {
        let t = table();
        let qis = key_columns(&t, KeyScope::QuasiIdentifiers, PublishedQis::AsStored).unwrap();
        assert_eq!(qis.names(), ["age"]);
        assert_eq!(qis.codes()[0], [0, 1, 0, 2]);
        let all = key_columns(&t, KeyScope::Published, PublishedQis::AsStored).unwrap();
        assert_eq!(all.names(), ["age", "town", "pay"]);
        // '?' and '' are the schema's missing markers.
        assert_eq!(all.codes()[1], [0, MISSING, 0, MISSING]);
        assert_eq!(all.codes()[2], [0, 0, 1, 1]);
    }

    #[test]
    fn a_release_is_read_through_its_labels() {
        let t = table();
        // Groups {30, 31} and {30, 40}: the first prints [30-31], the
        // second [30-40]; rows 0 and 2 hold 30 but publish different labels.
        let release = generalize(&t, Partition::new(vec![vec![0, 1], vec![2, 3]])).unwrap();
        let keys = key_columns(
            &t,
            KeyScope::QuasiIdentifiers,
            PublishedQis::Release(&release),
        )
        .unwrap();
        assert_eq!(keys.codes()[0], [0, 0, 1, 1]);
        let same = generalize(&t, Partition::new(vec![vec![0, 2], vec![1], vec![3]])).unwrap();
        let keys =
            key_columns(&t, KeyScope::QuasiIdentifiers, PublishedQis::Release(&same)).unwrap();
        assert_eq!(keys.codes()[0], [0, 1, 0, 2]);
    }
}
