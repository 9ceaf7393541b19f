//! The release is rendered in batches on the pool while this thread writes
//! the previous batch out: the bytes must be those of a plain row-by-row
//! render on one thread, for any stretch size and number of threads, and a
//! writer that fails must stop the release with its error.

use std::io::{self, Write};

use proxima_core::generalize::{for_each_release_row_of, Release};
use proxima_core::parallel::{with_threads, Threads};
use proxima_core::Table;

use super::tests_jobs::{loaded, run_model};
use super::{write_release_in, Format, RowWriter};

const SCHEMA: &str = r#"{"name": "pipelined", "columns": [
  {"name": "age", "role": "quasi_identifier", "type": "numeric"},
  {"name": "town", "role": "quasi_identifier", "type": "categorical"},
  {"name": "notes", "role": "insensitive"},
  {"name": "income", "role": "sensitive", "type": "numeric"}]}"#;

fn csv() -> String {
    let mut csv = "age,town,notes,income\n".to_string();
    for i in 0..1500u32 {
        csv += &format!(
            "{},{},\"note {i}, \"\"quoted\"\"\",{}\n",
            18 + (i * 7) % 61,
            ["Ash", "Birch", "=Cedar", "Elm", "Oak"][(i % 5) as usize],
            1000 + (i * 37) % 5000,
        );
    }
    csv
}

/// The table and its k = 5 release (a few hundred groups).
fn released() -> (Table, Release) {
    let (schema, table) = loaded(SCHEMA, &csv());
    let outcome = run_model(&schema, &table, r#"{"kind": "k_anonymity", "k": 5}"#, 0.0);
    assert!(outcome.anonymized.kept.is_none(), "nothing was left out");
    (table, outcome.anonymized.release)
}

/// Row by row on this thread, the writer's own way: what every batched
/// render must reproduce.
fn reference(format: Format, table: &Table, release: &Release) -> Vec<u8> {
    let header = proxima_core::generalize::release_header(table, true);
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    let mut w = RowWriter::new(format, Vec::new(), &header).unwrap();
    let groups = release.partition().groups.len();
    for_each_release_row_of(table, release, true, 0..groups, |cells| w.write_row(cells)).unwrap();
    w.finish().unwrap()
}

#[test]
fn batches_rendered_ahead_are_written_in_release_order() {
    let (table, release) = released();
    assert!(release.partition().groups.len() > 100);
    for format in [Format::Csv, Format::Json] {
        let expected = reference(format, &table, &release);
        for threads in [1, 3] {
            // 7 rows a stretch: about 200 stretches, dozens of batches.
            for stretch_rows in [7, 64, 100_000] {
                let got = with_threads(Threads::new(threads, "threads").unwrap(), || {
                    write_release_in(format, Vec::new(), &table, &release, true, stretch_rows)
                })
                .unwrap();
                assert!(
                    got == expected,
                    "{format:?}, {threads} threads, stretches of {stretch_rows}: \
                     the bytes differ from a row-by-row render"
                );
            }
        }
    }
}

/// Accepts `room` bytes, then fails every write.
struct Failing {
    room: usize,
    taken: usize,
}

impl Write for Failing {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.taken + buf.len() > self.room {
            return Err(io::Error::other("the disk is full"));
        }
        self.taken += buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_failing_writer_stops_the_release_with_its_error() {
    let (table, release) = released();
    let whole = reference(Format::Csv, &table, &release).len();
    for threads in [1, 3] {
        for room in [10, whole / 2, whole - 1] {
            let out = Failing { room, taken: 0 };
            let e = with_threads(Threads::new(threads, "threads").unwrap(), || {
                write_release_in(Format::Csv, out, &table, &release, true, 7)
            })
            .err()
            .unwrap_or_else(|| panic!("{threads} threads, room {room}: the release succeeded"));
            assert_eq!(e.to_string(), "the disk is full");
        }
    }
}
