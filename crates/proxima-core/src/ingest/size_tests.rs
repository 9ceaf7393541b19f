//! The cell and record size limits: a huge cell or record is refused with
//! the line (and column) it is on, while the bytes stream in — the reader
//! never gathers more of one record than the limit, however long it is.

use std::io::Read;
use std::sync::Arc;

use super::{load_blocks, load_table, BlockLimits};
use crate::error::{CoreError, Detail, ErrorKind, Field};
use crate::progress::Progress;
use crate::schema::{ColumnSpec, CsvOptions, MissingPolicy, Role, Schema, ValueType};

fn schema() -> Arc<Schema> {
    let col = |name: &str, role, value_type| ColumnSpec {
        name: name.into(),
        role,
        value_type,
        hierarchy: None,
    };
    Arc::new(
        Schema::new(
            "t".into(),
            CsvOptions::default(),
            MissingPolicy::Reject,
            vec![
                col("id", Role::Identifier, None),
                col("age", Role::QuasiIdentifier, Some(ValueType::Numeric)),
                col("note", Role::Insensitive, None),
            ],
        )
        .unwrap(),
    )
}

fn limits(max_cell: usize, max_record: usize) -> BlockLimits {
    BlockLimits {
        rows: 2,
        max_cell,
        max_record,
        ..BlockLimits::default()
    }
}

fn load(csv: impl Read, limits: &BlockLimits) -> Result<usize, CoreError> {
    let mut rows = 0;
    load_blocks(&schema(), csv, limits, Progress::none(), |b| {
        rows += b.rows();
        Ok(())
    })
    .map(|_| rows)
}

#[test]
fn a_record_over_the_limit_is_refused_naming_its_line() {
    let long = "x".repeat(200);
    for end in ["\n", "\r\n"] {
        let csv = format!("id,age,note{end}a,1,n{end}b,2,n{end}{end}c,3,{long}{end}d,4,n{end}")
            .into_bytes();
        let e = load(csv.as_slice(), &limits(1000, 100)).unwrap_err();
        assert_eq!(e.kind, ErrorKind::RecordTooLarge, "{}", e.message);
        assert_eq!(e.kind.code(), "record_too_large");
        assert_eq!(e.errors[0].field, Field::DataLine(3), "{end:?}");
        assert_eq!(e.detail("line"), Some(&Detail::Int(3)));
        assert_eq!(e.detail("file_line"), Some(&Detail::Int(5)), "{end:?}");
        assert_eq!(e.detail("max_record_bytes"), Some(&Detail::Int(100)));
        assert!(e.message.contains("max_record_bytes"), "{}", e.message);
        // Read one byte at a time, the same answer.
        let e = load(OneByte(csv.as_slice()), &limits(1000, 100)).unwrap_err();
        assert_eq!(e.errors[0].field, Field::DataLine(3), "{end:?}");
        assert_eq!(e.detail("file_line"), Some(&Detail::Int(5)), "{end:?}");
    }
    // Line breaks inside quotes do not end a record.
    let quoted = format!("id,age,note\na,1,n\n\"{}\",2,n\n", "y\n".repeat(60));
    let e = load(quoted.as_bytes(), &limits(1000, 100)).unwrap_err();
    assert_eq!(e.errors[0].field, Field::DataLine(2));
    assert_eq!(e.detail("file_line"), Some(&Detail::Int(3)));
    // The header is a record too.
    let header = format!("id,age,note{}\na,1,n\n", " ".repeat(200));
    let e = load(header.as_bytes(), &limits(1000, 100)).unwrap_err();
    assert_eq!(e.errors[0].field, Field::DataHeader);
}

#[test]
fn records_and_cells_at_the_limits_are_read() {
    // "c,3," is 4 bytes: the record is exactly 100 bytes, its cell 96.
    let csv = format!("id,age,note\na,1,n\nc,3,{}\n", "x".repeat(96));
    assert_eq!(load(csv.as_bytes(), &limits(96, 100)).unwrap(), 2);
    assert_eq!(load(OneByte(csv.as_bytes()), &limits(96, 100)).unwrap(), 2);
    let e = load(csv.as_bytes(), &limits(95, 100)).unwrap_err();
    assert_eq!(e.kind, ErrorKind::RecordTooLarge);
    let e = load(csv.as_bytes(), &limits(96, 99)).unwrap_err();
    assert_eq!(e.kind, ErrorKind::RecordTooLarge);
}

#[test]
fn a_cell_over_the_limit_is_refused_naming_its_column() {
    // Identifier cells count too: the reader holds them all the same.
    for (csv, column) in [
        ("id,age,note\na,1,n\nb,2,0123456789abc\n", "note"),
        ("id,age,note\na,1,n\n\"012345678\nabc\",2,n\n", "id"),
    ] {
        let e = load(csv.as_bytes(), &limits(10, 1000)).unwrap_err();
        assert_eq!(e.kind, ErrorKind::RecordTooLarge, "{}", e.message);
        assert_eq!(e.errors[0].field, Field::DataCell(2, column.into()));
        assert_eq!(e.detail("column"), Some(&Detail::Str(column.into())));
        assert_eq!(e.detail("max_cell_bytes"), Some(&Detail::Int(10)));
        assert_eq!(e.detail("cell_bytes"), Some(&Detail::Int(13)));
        assert!(e.message.contains("max_cell_bytes"), "{}", e.message);
        // No value is echoed.
        assert_eq!(e.detail("value"), None);
    }
}

/// An endless cell: the load stops at the record limit instead of reading
/// (and holding) the stream to its end. `load_table` has the default
/// limits.
#[test]
fn an_endless_cell_is_refused_at_the_record_limit() {
    let endless = || b"id,age,note\na,1,".chain(std::io::repeat(b'x'));
    let e = load_table(schema(), endless()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::RecordTooLarge, "{}", e.message);
    assert_eq!(e.errors[0].field, Field::DataLine(1));
    assert_eq!(
        e.detail("max_record_bytes"),
        Some(&Detail::Int(super::MAX_RECORD_BYTES as i64))
    );
    let e = load(endless(), &limits(1 << 10, 1 << 12)).unwrap_err();
    assert_eq!(e.kind, ErrorKind::RecordTooLarge);
}

/// A reader that hands out one byte per read.
struct OneByte<'a>(&'a [u8]);

impl Read for OneByte<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.0.len().min(buf.len()).min(1);
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}
