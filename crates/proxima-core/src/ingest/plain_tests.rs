//! The plain reader gives exactly what the general reader gives, or
//! declines (`None`); it never gives anything else, and it does not
//! decline a plain file the general reader accepts.

use proptest::prelude::*;

use super::load_plain;
use crate::ingest::block::{Block, BlockLimits, Loaded};
use crate::ingest::block_tests::{arb_csv, schema};
use crate::ingest::load_blocks;
use crate::progress::Progress;
use crate::schema::{MissingPolicy, Schema};

/// The general reader's blocks, as one.
fn general(schema: &Schema, csv: &[u8], limits: &BlockLimits) -> Option<(Vec<Block>, Loaded)> {
    let mut blocks = Vec::new();
    let loaded = load_blocks(schema, csv, limits, Progress::none(), |b| {
        blocks.push(b);
        Ok(())
    })
    .ok()?;
    Some((blocks, loaded))
}

/// `csv` cut after its header line, through the plain reader.
fn plain(schema: &Schema, csv: &[u8], limits: &BlockLimits) -> Option<(Block, Loaded)> {
    let end = csv
        .iter()
        .position(|&b| b == b'\n')
        .map_or(csv.len(), |i| i + 1);
    load_plain(schema, &csv[..end], &csv[end..], limits)
}

/// Asserts the plain reader's answer is the general reader's, and returns
/// whether it answered.
fn agrees(schema: &Schema, csv: &[u8], limits: &BlockLimits) -> Result<bool, TestCaseError> {
    let Some((block, loaded)) = plain(schema, csv, limits) else {
        return Ok(false);
    };
    let Some((blocks, expected)) = general(schema, csv, limits) else {
        return Err(TestCaseError::fail(format!(
            "the plain reader read a file the general reader refuses: {:?}",
            String::from_utf8_lossy(csv)
        )));
    };
    prop_assert_eq!(blocks.len(), 1);
    prop_assert_eq!(&block.columns, &blocks[0].columns);
    prop_assert_eq!(&block.source_lines, &blocks[0].source_lines);
    prop_assert_eq!(loaded, expected);
    Ok(true)
}

/// How a generated file is changed before it is read.
#[derive(Debug, Clone, Copy)]
enum Twist {
    None,
    /// Every line ends with CR LF.
    Crlf,
    /// A carriage return alone, in the middle of a line.
    StrayCr,
    /// The last line loses its line break.
    NoFinalBreak,
}

fn twisted(csv: &str, twist: Twist) -> Vec<u8> {
    match twist {
        Twist::None => csv.as_bytes().to_vec(),
        Twist::Crlf => csv.replace('\n', "\r\n").into_bytes(),
        Twist::StrayCr => csv.replacen(",", ",\r", 3).into_bytes(),
        Twist::NoFinalBreak => csv.trim_end_matches('\n').as_bytes().to_vec(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn the_plain_reader_agrees_with_the_general_one_or_declines(
        csv in arb_csv(),
        reject in any::<bool>(),
        qi_text in any::<bool>(),
        twist in prop_oneof![
            Just(Twist::None), Just(Twist::Crlf), Just(Twist::StrayCr), Just(Twist::NoFinalBreak)
        ],
    ) {
        let policy = if reject { MissingPolicy::Reject } else { MissingPolicy::Suppress };
        let schema = schema(policy);
        let limits = BlockLimits { qi_text, ..BlockLimits::whole() };
        let bytes = twisted(&csv, twist);
        let answered = agrees(&schema, &bytes, &limits)?;
        // A good file with no quote, no missing value and no stray CR is
        // plain: the plain reader must read it.
        let plain_file = !csv.contains('"')
            && !csv.contains('?')
            && !matches!(twist, Twist::StrayCr)
            && general(&schema, &bytes, &limits).is_some();
        prop_assert!(answered || !plain_file, "declined a plain file: {:?}", csv);
    }
}

const HEADER: &str = "id,age,grade,city,born,job,note\n";

fn limits() -> BlockLimits {
    BlockLimits::whole()
}

#[test]
fn a_plain_file_is_read_with_its_blank_lines_skipped_and_not_counted() {
    let schema = schema(MissingPolicy::Suppress);
    let csv = format!(
        "{HEADER}1,30,a,c1,1990-02-01,nurse,1\n\n2,31,b,c2,1990-02-02,é,2\r\n\r\n3,32,c,c1,1990-02-03,clerk,3"
    );
    assert!(agrees(&schema, csv.as_bytes(), &limits()).unwrap());
    let (block, loaded) = plain(&schema, csv.as_bytes(), &limits()).unwrap();
    assert_eq!(block.source_lines, [1, 2, 3]);
    assert_eq!(loaded.rows, 3);
}

#[test]
fn a_header_with_a_byte_order_mark_is_read_as_the_general_reader_reads_it() {
    let schema = schema(MissingPolicy::Suppress);
    let csv = format!("\u{feff}{HEADER}1,30,a,c1,1990-02-01,nurse,1\n");
    assert!(agrees(&schema, csv.as_bytes(), &limits()).unwrap());
}

#[test]
fn anything_not_plain_is_left_to_the_general_reader() {
    let schema = schema(MissingPolicy::Suppress);
    let row = "1,30,a,c1,1990-02-01,nurse,1";
    let declined = [
        // A quote anywhere.
        format!("{HEADER}{row}\n2,31,a,c1,1990-02-01,nurse,\"2\"\n"),
        format!("{HEADER}{row}\n2,31,a,c1,1990-02-01,nu\"rse,2\n"),
        // A carriage return that does not end a line.
        format!("{HEADER}{row}\r3\n"),
        // A missing value (suppressed, and counted, by the general reader).
        format!("{HEADER}{row}\n2,?,a,c1,1990-02-01,nurse,2\n"),
        // A wrong field count, a bad cell, a leaf outside the hierarchy.
        format!("{HEADER}{row}\n2,31,a,c1,1990-02-01,nurse\n"),
        format!("{HEADER}{row}\n2,old,a,c1,1990-02-01,nurse,2\n"),
        format!("{HEADER}{row}\n2,31,z,c1,1990-02-01,nurse,2\n"),
        // A control character in a published cell.
        format!("{HEADER}{row}\n2,31,a,c1,1990-02-01,nu\u{1}rse,2\n"),
        // No data rows.
        format!("{HEADER}\n\n"),
    ];
    for csv in &declined {
        assert!(
            plain(&schema, csv.as_bytes(), &limits()).is_none(),
            "{csv:?}"
        );
    }
    // Not UTF-8.
    let mut bytes = format!("{HEADER}{row}\n2,31,a,c1,1990-02-01,nurse,").into_bytes();
    bytes.extend_from_slice(b"\xff\n");
    assert!(plain(&schema, &bytes, &limits()).is_none());
}

#[test]
fn cells_and_records_over_their_limits_are_left_to_the_general_reader() {
    let schema = schema(MissingPolicy::Suppress);
    let csv = format!("{HEADER}1,30,a,c1,1990-02-01,nurse,12345\n");
    let cell = BlockLimits {
        max_cell: 4,
        ..limits()
    };
    assert!(plain(&schema, csv.as_bytes(), &cell).is_none());
    let record = BlockLimits {
        max_record: 20,
        ..limits()
    };
    assert!(plain(&schema, csv.as_bytes(), &record).is_none());
    // At the limits exactly, both readers read the row.
    let exact = BlockLimits {
        max_cell: 10,
        max_record: "1,30,a,c1,1990-02-01,nurse,12345".len(),
        ..limits()
    };
    assert!(agrees(&schema, csv.as_bytes(), &exact).unwrap());
}

#[test]
fn a_line_with_a_tab_has_its_cells_checked_one_by_one_and_is_read() {
    let schema = schema(MissingPolicy::Suppress);
    // A tab is no control character to refuse; the numeric cell's blanks
    // are trimmed as the general reader trims them.
    let csv = format!("{HEADER}1\t2,30,a,c1,1990-02-01,nurse,\t7\n2,31,b,c2,1990-02-02,clerk,3\n");
    assert!(agrees(&schema, csv.as_bytes(), &limits()).unwrap());
}

#[test]
fn separators_are_found_on_both_sides_of_every_block_of_lanes() {
    for len in [0, 1, 63, 64, 65, 127, 128, 200] {
        let body: Vec<u8> = (0..len)
            .map(|i| match i % 7 {
                0 => b',',
                3 => b'\n',
                _ => b'x',
            })
            .collect();
        let expected: Vec<u32> = (0..len as u32)
            .filter(|i| i % 7 == 0 || i % 7 == 3)
            .collect();
        assert_eq!(
            super::separators(&body, b','),
            Some(expected),
            "{len} bytes"
        );
    }
}

/// The record limit counts a line without its CR LF, in both readers.
#[test]
fn a_crlf_line_at_the_record_limit_is_judged_as_the_general_reader_judges_it() {
    let schema = schema(MissingPolicy::Suppress);
    let row = "1,30,a,c1,1990-02-01,nurse,12345";
    let csv = format!("{HEADER}{row}\r\n2,31,b,c2,1990-02-02,clerk,3\r\n")
        .replace(HEADER, &HEADER.replace('\n', "\r\n"));
    for max_record in [row.len() - 1, row.len(), row.len() + 1] {
        let limits = BlockLimits {
            max_record,
            ..limits()
        };
        let general = general(&schema, csv.as_bytes(), &limits).is_some();
        let read = agrees(&schema, csv.as_bytes(), &limits).unwrap();
        assert_eq!(read, max_record >= row.len(), "max_record {max_record}");
        assert_eq!(
            read, general,
            "max_record {max_record}: the plain reader declined a file the general one reads"
        );
    }
}
