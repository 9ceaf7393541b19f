//! The `missing_values` error of a load under `on_missing: reject`.

use crate::error::{CoreError, Detail, ErrorKind, Field};
use crate::ingest::lines::At;
use crate::schema::Schema;

/// The missing values found under `reject`: the first lines with their
/// columns, and how many rows have one in all.
pub(crate) struct MissingReport {
    pub(crate) listed: Vec<(At, Vec<usize>)>,
    pub(crate) rows: u64,
}

impl MissingReport {
    pub(crate) fn into_error(self, schema: &Schema) -> CoreError {
        let name = |i: usize| schema.columns()[i].name.as_str();
        let listed: Vec<String> = self
            .listed
            .iter()
            .map(|(at, cols)| {
                let cols: Vec<&str> = cols.iter().map(|&c| name(c)).collect();
                format!("{} ({})", at.data_line, cols.join(", "))
            })
            .collect();
        let mut err = CoreError::new(
            ErrorKind::MissingValues,
            format!(
                "{} row(s) have a missing value in a quasi-identifier or sensitive column; \
                 first data lines: {}; fill them in or set on_missing to \"suppress\"",
                self.rows,
                listed.join(", ")
            ),
        );
        let mut entries = Vec::new();
        for (at, cols) in &self.listed {
            for &c in cols {
                err = err.with_error(
                    Field::DataCell(at.data_line, name(c).to_string()),
                    format!("missing value in column '{}' at {}", name(c), at.describe()),
                );
            }
            entries.push(Detail::Map(vec![
                ("line".into(), Detail::from(at.data_line as i64)),
                ("file_line".into(), Detail::from(at.file_line as i64)),
                (
                    "columns".into(),
                    Detail::List(cols.iter().map(|&c| Detail::from(name(c))).collect()),
                ),
            ]));
        }
        err.with_detail("rows_with_missing", self.rows as i64)
            .with_detail("missing", Detail::List(entries))
    }
}
