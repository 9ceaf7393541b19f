//! The header row of a data CSV, checked against the schema.

use std::collections::HashSet;

use crate::error::{CoreError, CoreResult, Detail, ErrorKind, Field};
use crate::ingest::{echoed, quote_value};

/// At most this many column names are listed in one error.
pub(crate) const NAMES_LISTED: usize = 20;
use crate::schema::Schema;

fn malformed(field: Field, message: String) -> CoreError {
    CoreError::new(ErrorKind::MalformedCsv, message.clone()).with_error(field, message)
}

/// Checks the header against the schema and returns, for each CSV
/// position, the schema index of its column.
pub(crate) fn map_header(schema: &Schema, header: &csv::ByteRecord) -> CoreResult<Vec<usize>> {
    let mut names = Vec::with_capacity(header.len());
    for (pos, field) in header.iter().enumerate() {
        let name = std::str::from_utf8(field).map_err(|_| {
            malformed(
                Field::HeaderCell(pos),
                format!(
                    "header field {} is not valid UTF-8: {}",
                    pos + 1,
                    quote_value(&String::from_utf8_lossy(field))
                ),
            )
        })?;
        names.push(name);
    }
    let mut seen = HashSet::new();
    for (pos, name) in names.iter().enumerate() {
        if !seen.insert(*name) {
            return Err(malformed(
                Field::HeaderCell(pos),
                format!("the header names column {} twice", quote_value(name)),
            )
            .with_detail("column", echoed(name).0));
        }
    }
    let undescribed: Vec<(usize, &str)> = names
        .iter()
        .enumerate()
        .filter(|(_, n)| schema.column(n).is_none())
        .map(|(p, n)| (p, *n))
        .collect();
    // Schema columns missing from the header: named in their own error,
    // and beside the undescribed ones when both happen (a renamed column).
    let absent: Vec<(usize, &str)> = schema
        .columns()
        .iter()
        .enumerate()
        .filter(|(_, c)| !seen.contains(c.name.as_str()))
        .map(|(i, c)| (i, c.name.as_str()))
        .collect();
    let missing_error = |err: CoreError| {
        absent
            .iter()
            .take(NAMES_LISTED)
            .fold(err, |err, (i, name)| {
                err.with_error(
                    Field::ColumnParam(*i, "name"),
                    format!(
                        "column {} is missing from the CSV header",
                        quote_value(name)
                    ),
                )
            })
    };
    let missing_detail = || {
        Detail::List(
            absent
                .iter()
                .take(NAMES_LISTED)
                .map(|(_, n)| Detail::from(echoed(n).0))
                .collect(),
        )
    };
    if !undescribed.is_empty() {
        let total = undescribed.len();
        let list = quoted_list(undescribed.iter().map(|(_, n)| *n), total);
        let also_missing = if absent.is_empty() {
            String::new()
        } else {
            format!(
                "; the schema's column(s) {} are missing from the CSV",
                quoted_list(absent.iter().map(|(_, n)| *n), absent.len())
            )
        };
        let mut err = CoreError::new(
            ErrorKind::UndescribedColumn,
            format!(
                "the CSV has column(s) the schema does not describe: {list}; describe every \
                 column (role \"identifier\" drops one){also_missing}"
            ),
        );
        for (pos, name) in undescribed.iter().take(NAMES_LISTED) {
            err = err.with_error(
                Field::HeaderCell(*pos),
                format!(
                    "column {} is not described by the schema",
                    quote_value(name)
                ),
            );
        }
        let cols = undescribed
            .iter()
            .take(NAMES_LISTED)
            .map(|(_, n)| Detail::from(echoed(n).0))
            .collect();
        let mut err = missing_error(err)
            .with_detail("columns", Detail::List(cols))
            .with_detail("count", total);
        if !absent.is_empty() {
            err = err.with_detail("missing", missing_detail());
        }
        return Err(err);
    }
    if !absent.is_empty() {
        let total = absent.len();
        let list = quoted_list(absent.iter().map(|(_, n)| *n), total);
        let err = CoreError::new(
            ErrorKind::UnknownColumn,
            format!("column(s) of the schema missing from the CSV: {list}"),
        );
        return Err(missing_error(err)
            .with_detail("columns", missing_detail())
            .with_detail("missing", missing_detail())
            .with_detail("count", total));
    }
    Ok(names
        .iter()
        .map(|n| schema.column(n).map(|(i, _)| i).unwrap_or(usize::MAX))
        .collect())
}

/// The first [`NAMES_LISTED`] names, quoted and shortened, and how many
/// more there are: a 100k-column header must not make a megabyte error.
fn quoted_list<'a>(names: impl Iterator<Item = &'a str>, total: usize) -> String {
    let mut list = names
        .take(NAMES_LISTED)
        .map(quote_value)
        .collect::<Vec<_>>()
        .join(", ");
    if total > NAMES_LISTED {
        list.push_str(&format!(" and {} more", total - NAMES_LISTED));
    }
    list
}
