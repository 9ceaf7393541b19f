//! Hierarchies as users send them: ARX CSV files (`leaf;level1;…;root`, one
//! row per leaf, no header) and inline JSON arrays of paths.
//!
//! Both forms are checked row by row here (so errors can name the line or
//! the path index) and then handed to [`Hierarchy::from_paths`], whose tree
//! checks (one root, one parent per node) are prefixed with the column.

use crate::error::{CoreError, CoreResult, ErrorKind, Field};
use crate::hierarchy::Hierarchy;
use crate::ingest::lines::{record_line, LineCounting};
use crate::ingest::quote_value;

/// Where a hierarchy row came from, for error messages and pointers.
#[derive(Clone, Copy)]
enum RowAt {
    /// A line of an ARX file (1-based, as in the file).
    FileLine(u64),
    /// An index into the inline JSON array of paths (0-based, as in JSON).
    Path(usize),
}

impl RowAt {
    fn describe(self) -> String {
        match self {
            RowAt::FileLine(l) => format!("line {l}"),
            RowAt::Path(i) => format!("path {i}"),
        }
    }

    fn field(self, column: &str) -> Field {
        match self {
            RowAt::FileLine(l) => Field::HierarchyLine(column.to_string(), l),
            RowAt::Path(i) => Field::HierarchyPath(column.to_string(), i),
        }
    }
}

fn row_error(column: &str, at: RowAt, message: String) -> CoreError {
    let message = format!(
        "hierarchy of column '{column}', {}: {message}",
        at.describe()
    );
    let mut err = CoreError::new(ErrorKind::InvalidHierarchy, message.clone())
        .with_error(at.field(column), message)
        .with_detail("column", column);
    err = match at {
        RowAt::FileLine(l) => err.with_detail("line", l as i64),
        RowAt::Path(i) => err.with_detail("path", i),
    };
    err
}

/// A hint for a one-field row that holds another usual delimiter: the file
/// was most likely written with `,`, a tab or `|` where ARX's format (and
/// this parser) expects `;`. Empty when no such delimiter is in the row.
fn delimiter_hint(field: &str) -> String {
    let found = [(',', "','"), ('\t', "a tab"), ('|', "'|'")]
        .into_iter()
        .find(|(c, _)| field.contains(*c));
    match found {
        Some((_, name)) => format!(
            " (the line is separated by {name}: hierarchy files are ';'-separated, \
             `leaf;level1;…;root`, as ARX writes them)"
        ),
        None => String::new(),
    }
}

/// Checks one row before the tree checks: at least a leaf and a root, the
/// same number of levels as the first row, and no empty label (an empty
/// label almost always comes from a stray trailing delimiter).
fn check_row(
    column: &str,
    at: RowAt,
    row: &[String],
    first: Option<(RowAt, usize)>,
) -> CoreResult<()> {
    if row.len() < 2 {
        let only = row.first().map(String::as_str).unwrap_or("");
        return Err(row_error(
            column,
            at,
            format!(
                "{} has {} level(s); a hierarchy row needs at least a leaf and a root{}",
                quote_value(only),
                row.len(),
                delimiter_hint(only)
            ),
        ));
    }
    if let Some((first_at, levels)) = first {
        if row.len() != levels {
            return Err(row_error(
                column,
                at,
                format!(
                    "the row for {} has {} levels but {} has {}",
                    quote_value(&row[0]),
                    row.len(),
                    first_at.describe(),
                    levels
                ),
            ));
        }
    }
    if let Some(level) = row.iter().position(String::is_empty) {
        let what = if level == 0 {
            "the leaf label is empty".to_string()
        } else {
            format!(
                "the label at level {level} of {} is empty",
                quote_value(&row[0])
            )
        };
        return Err(row_error(column, at, what));
    }
    Ok(())
}

/// Prefixes a [`Hierarchy::from_paths`] error with the column it is for.
fn tree_error(column: &str, err: CoreError) -> CoreError {
    let message = format!("hierarchy of column '{column}': {}", err.message);
    let mut out = CoreError::new(ErrorKind::InvalidHierarchy, message.clone())
        .with_error(Field::Hierarchy(column.to_string()), message)
        .with_detail("column", column);
    out.details.extend(err.details);
    out
}

/// Parses an ARX hierarchy file for `column`: `;`-separated, no header,
/// quoted fields allowed (`"[0; 1["`), LF or CRLF line ends, an optional
/// UTF-8 byte-order mark, blank lines ignored.
///
/// Errors are `invalid_hierarchy` and name the column and the offending
/// line or value.
pub fn parse_hierarchy_csv(bytes: &[u8], column: &str) -> CoreResult<Hierarchy> {
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(b';')
        .has_headers(false)
        .flexible(true)
        .from_reader(LineCounting::new(bytes, b';'));
    let mut record = csv::ByteRecord::new();
    let mut paths: Vec<Vec<String>> = Vec::new();
    let mut first: Option<(RowAt, usize)> = None;
    loop {
        let more = reader.read_byte_record(&mut record).map_err(|e| {
            let line = e.position().map(|p| p.line()).unwrap_or(0);
            row_error(
                column,
                RowAt::FileLine(line),
                format!("unreadable CSV: {e}"),
            )
        })?;
        if let Some(opened) = reader.get_ref().unclosed_quote() {
            return Err(row_error(
                column,
                RowAt::FileLine(opened),
                "a quoted label opens here and is never closed".to_string(),
            ));
        }
        if !more {
            break;
        }
        let at = RowAt::FileLine(record_line(&reader, &record));
        let mut row = Vec::with_capacity(record.len());
        for field in record.iter() {
            let label = std::str::from_utf8(field)
                .map_err(|_| row_error(column, at, "a label is not valid UTF-8".to_string()))?;
            row.push(label.to_string());
        }
        check_row(column, at, &row, first)?;
        first.get_or_insert((at, row.len()));
        paths.push(row);
    }
    if paths.is_empty() {
        return Err(CoreError::new(
            ErrorKind::InvalidHierarchy,
            format!("the hierarchy file of column '{column}' has no rows"),
        )
        .with_error(
            Field::Hierarchy(column.to_string()),
            "the hierarchy file is empty",
        )
        .with_detail("column", column));
    }
    Hierarchy::from_paths(&paths).map_err(|e| tree_error(column, e))
}

/// Builds the hierarchy of `column` from the JSON-inline form (an array of
/// leaf-to-root paths). Errors name the column and the path index.
pub fn hierarchy_from_inline(paths: Vec<Vec<String>>, column: &str) -> CoreResult<Hierarchy> {
    if paths.is_empty() {
        return Err(CoreError::new(
            ErrorKind::InvalidHierarchy,
            format!("the inline hierarchy of column '{column}' has no paths"),
        )
        .with_error(
            Field::Hierarchy(column.to_string()),
            "the hierarchy is empty",
        )
        .with_detail("column", column));
    }
    let mut first: Option<(RowAt, usize)> = None;
    for (i, row) in paths.iter().enumerate() {
        check_row(column, RowAt::Path(i), row, first)?;
        first.get_or_insert((RowAt::Path(i), row.len()));
    }
    Hierarchy::from_paths(&paths).map_err(|e| tree_error(column, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_quoted_labels_crlf_bom_and_trailing_blank_lines() {
        let bytes = "\u{feff}17;\"[15; 20[\";*\r\n18;\"[15; 20[\";*\r\n25;\"[25; 30[\";*\r\n\r\n\n";
        let h = parse_hierarchy_csv(bytes.as_bytes(), "age").unwrap();
        assert_eq!(h.height(), 2);
        assert_eq!(h.leaf_count(), 3);
        // The BOM is not part of the first leaf.
        let first = h.leaf_code("17").expect("BOM stripped from the first leaf");
        assert_eq!(first, 0);
        let (a, b) = (h.leaf_code("18").unwrap(), h.leaf_code("25").unwrap());
        assert_eq!(h.label(1, h.ancestor(a, 1)), "[15; 20[");
        assert_eq!(h.lca_level(first, a), 1);
        assert_eq!(h.lca_level(first, b), 2);
    }

    #[test]
    fn a_comma_separated_file_gets_a_hint_that_semicolons_are_expected() {
        for (bytes, name) in [
            (&b"a,X,*\nb,X,*\n"[..], "','"),
            (&b"a\tX\t*\nb\tX\t*\n"[..], "a tab"),
        ] {
            let e = parse_hierarchy_csv(bytes, "c").unwrap_err();
            assert_eq!(e.kind, ErrorKind::InvalidHierarchy);
            assert!(e.message.contains(name), "{}", e.message);
            assert!(e.message.contains("';'-separated"), "{}", e.message);
            assert_eq!(e.errors[0].field, Field::HierarchyLine("c".into(), 1));
        }
        // A one-level row without another delimiter gets no hint.
        let e = parse_hierarchy_csv(b"a\nb\n", "c").unwrap_err();
        assert!(!e.message.contains("separated"), "{}", e.message);
    }

    #[test]
    fn lf_and_crlf_give_the_same_hierarchy() {
        let lf = parse_hierarchy_csv(b"a;X;*\nb;X;*\nc;Y;*\n", "c").unwrap();
        let crlf = parse_hierarchy_csv(b"a;X;*\r\nb;X;*\r\nc;Y;*", "c").unwrap();
        assert_eq!(lf, crlf);
    }

    #[test]
    fn ragged_rows_name_column_line_and_value() {
        let err = parse_hierarchy_csv(b"a;X;*\nb;X;*\nlonely;*\n", "workclass").unwrap_err();
        assert_eq!(err.kind, ErrorKind::InvalidHierarchy);
        assert!(err.message.contains("'workclass'"), "{}", err.message);
        assert!(err.message.contains("line 3"), "{}", err.message);
        assert!(err.message.contains("'lonely'"), "{}", err.message);
        assert_eq!(
            err.errors[0].field,
            Field::HierarchyLine("workclass".into(), 3)
        );
        assert_eq!(err.detail("line"), Some(&crate::Detail::Int(3)));

        // CRLF and a blank line: the line is still the file's own.
        let err = parse_hierarchy_csv(b"a;X;*\r\n\r\nb;X;*\r\nc;*\r\n", "w").unwrap_err();
        assert!(err.message.contains("line 4"), "{}", err.message);
        assert!(err.message.contains("line 1 has 3"), "{}", err.message);
    }

    #[test]
    fn single_level_and_empty_labels_are_rejected() {
        let err = parse_hierarchy_csv(b"a\n", "sex").unwrap_err();
        assert_eq!(err.kind, ErrorKind::InvalidHierarchy);
        assert!(
            err.message.contains("'a'") && err.message.contains("line 1"),
            "{}",
            err.message
        );

        let err = parse_hierarchy_csv(b"a;X;*;\nb;X;*;\n", "sex").unwrap_err();
        assert!(
            err.message.contains("level 3") && err.message.contains("'a'"),
            "{}",
            err.message
        );

        let err = parse_hierarchy_csv(b"a;*\n;*\n", "sex").unwrap_err();
        assert!(
            err.message.contains("line 2") && err.message.contains("leaf"),
            "{}",
            err.message
        );
    }

    #[test]
    fn empty_file_is_rejected() {
        for bytes in [&b""[..], b"\n\n", b"\xef\xbb\xbf"] {
            let err = parse_hierarchy_csv(bytes, "race").unwrap_err();
            assert_eq!(err.kind, ErrorKind::InvalidHierarchy);
            assert!(err.message.contains("'race'") && err.message.contains("no rows"));
        }
    }

    #[test]
    fn invalid_utf8_names_the_line() {
        let err = parse_hierarchy_csv(b"a;*\nb\xff;*\n", "race").unwrap_err();
        assert_eq!(err.kind, ErrorKind::InvalidHierarchy);
        assert!(err.message.contains("line 2") && err.message.contains("UTF-8"));
    }

    #[test]
    fn tree_errors_are_prefixed_with_the_column() {
        let err = parse_hierarchy_csv(b"a;X;*\nb;X;*\nc;Y;ROOT2\n", "education").unwrap_err();
        assert_eq!(err.kind, ErrorKind::InvalidHierarchy);
        assert!(
            err.message.starts_with("hierarchy of column 'education'"),
            "{}",
            err.message
        );
        assert!(err.message.contains("'ROOT2'"), "{}", err.message);
        assert_eq!(err.errors[0].field, Field::Hierarchy("education".into()));

        let err = parse_hierarchy_csv(b"a;X;*\na;Y;*\n", "education").unwrap_err();
        assert!(err.message.contains("'a'") && err.message.contains("'education'"));
    }

    #[test]
    fn inline_paths_build_and_errors_name_column_and_path() {
        let p = |rows: &[&[&str]]| -> Vec<Vec<String>> {
            rows.iter()
                .map(|r| r.iter().map(|s| s.to_string()).collect())
                .collect()
        };
        let h = hierarchy_from_inline(p(&[&["Male", "*"], &["Female", "*"]]), "sex").unwrap();
        assert_eq!((h.leaf_count(), h.height()), (2, 1));

        let err =
            hierarchy_from_inline(p(&[&["Male", "*"], &["Female", "F", "*"]]), "sex").unwrap_err();
        assert_eq!(err.kind, ErrorKind::InvalidHierarchy);
        assert!(err.message.contains("'sex'") && err.message.contains("path 1"));
        assert!(err.message.contains("'Female'"), "{}", err.message);
        assert_eq!(err.errors[0].field, Field::HierarchyPath("sex".into(), 1));

        let err = hierarchy_from_inline(p(&[&["Male", "*"], &["Female", "X"]]), "sex").unwrap_err();
        assert!(
            err.message.starts_with("hierarchy of column 'sex'"),
            "{}",
            err.message
        );
        assert!(err.message.contains("two roots"), "{}", err.message);

        let err = hierarchy_from_inline(Vec::new(), "sex").unwrap_err();
        assert!(err.message.contains("'sex'") && err.message.contains("no paths"));
    }
}
