//! The stored form gives back the table the loader built, for every kind of
//! column and every cut into blocks, and refuses damaged, truncated,
//! missing or extra frames without panicking.

use std::sync::Arc;

use proptest::prelude::*;

use super::{decode, Encoder};
use crate::error::CoreResult;
use crate::ingest::block_tests::{arb_csv, schema as block_schema};
use crate::ingest::{load_blocks, load_table, parse_hierarchy_csv, BlockLimits};
use crate::progress::Progress;
use crate::schema::{ColumnSpec, CsvOptions, MissingPolicy, Role, Schema, ValueType};
use crate::table::Table;

fn col(name: &str, role: Role, t: Option<ValueType>) -> ColumnSpec {
    ColumnSpec {
        name: name.into(),
        role,
        value_type: t,
        hierarchy: None,
    }
}

fn with_hierarchy(c: ColumnSpec, csv: &[u8]) -> ColumnSpec {
    let h = parse_hierarchy_csv(csv, &c.name).unwrap();
    ColumnSpec {
        hierarchy: Some(Arc::new(h)),
        ..c
    }
}

/// Every kind of column: an identifier, numeric / categorical with and
/// without a hierarchy / date QIs, a numeric and two categorical SAs (one
/// with a hierarchy, one flat) and an insensitive note; missing values
/// suppress rows.
fn schema() -> Arc<Schema> {
    Arc::new(
        Schema::new(
            "t".into(),
            CsvOptions {
                delimiter: b',',
                missing: vec!["?".into()],
                allow_line_breaks: false,
            },
            MissingPolicy::Suppress,
            vec![
                col("id", Role::Identifier, None),
                col("age", Role::QuasiIdentifier, Some(ValueType::Numeric)),
                with_hierarchy(
                    col("edu", Role::QuasiIdentifier, Some(ValueType::Categorical)),
                    b"BSc;Higher;*\nMSc;Higher;*\nHS;Secondary;*\n",
                ),
                col("city", Role::QuasiIdentifier, Some(ValueType::Categorical)),
                col("born", Role::QuasiIdentifier, Some(ValueType::Date)),
                col("salary", Role::Sensitive, Some(ValueType::Numeric)),
                with_hierarchy(
                    col("disease", Role::Sensitive, Some(ValueType::Categorical)),
                    b"flu;respiratory;*\ncold;respiratory;*\nulcer;digestive;*\n",
                ),
                col("job", Role::Sensitive, Some(ValueType::Categorical)),
                col("note", Role::Insensitive, None),
            ],
        )
        .unwrap(),
    )
}

const CSV: &str = "id,age,edu,city,born,salary,disease,job,note
1,34,BSc,Zürich,1990-01-02,5200.5,flu,nurse,première
2,45,MSc,Genève,1979-12-31,7100,cold,doctor,
3,?,HS,Bern,2001-06-30,3000,ulcer,clerk,missing age
4,29,HS,Zürich,1995-03-04,-12.25,flu,nurse,\"a, quoted note\"
5,61,MSc,Basel,1963-07-08,9000,ulcer,judge,✓
";

fn loaded() -> Table {
    load_table(schema(), CSV.as_bytes()).unwrap()
}

/// The stored frames of `csv` cut every `rows` rows: blocks, footer.
fn frames_of(schema: &Arc<Schema>, csv: &str, rows: usize) -> (Vec<Vec<u8>>, Vec<u8>) {
    let limits = BlockLimits {
        rows,
        ..BlockLimits::default()
    };
    let mut encoder = Encoder::new(schema);
    let mut blocks = Vec::new();
    let loaded = load_blocks(schema, csv.as_bytes(), &limits, Progress::none(), |b| {
        let mut frame = Vec::new();
        encoder.block(&b, &mut frame)?;
        blocks.push(frame);
        Ok(())
    })
    .unwrap();
    let mut footer = Vec::new();
    encoder.footer(&loaded, &mut footer).unwrap();
    (blocks, footer)
}

fn frames(rows: usize) -> (Vec<Vec<u8>>, Vec<u8>) {
    frames_of(&schema(), CSV, rows)
}

fn decoded(schema: Arc<Schema>, blocks: &[Vec<u8>], footer: &[u8]) -> CoreResult<Table> {
    decode(schema, blocks.iter().map(Vec::as_slice), footer)
}

#[test]
fn every_column_kind_round_trips_however_it_is_cut() {
    let t = loaded();
    assert_eq!(t.suppressed_rows(), 1, "the row with a missing age");
    for rows in [1, 2, 3, 4, 100] {
        let (blocks, footer) = frames(rows);
        assert_eq!(blocks.len(), 4_usize.div_ceil(rows));
        let back = decoded(schema(), &blocks, &footer).unwrap();
        assert_eq!(back, t, "blocks of {rows}");
        // Spot checks that equality covers what a release prints.
        assert_eq!(back.text(8, 3), Some("✓"));
        assert_eq!(back.source_lines(), &[1, 2, 4, 5]);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_tables_round_trip(csv in arb_csv(), rows in 1usize..9) {
        let schema = block_schema(MissingPolicy::Suppress);
        let Ok(table) = load_table(schema.clone(), csv.as_bytes()) else {
            return Ok(());
        };
        let (blocks, footer) = frames_of(&schema, &csv, rows);
        prop_assert_eq!(decoded(schema, &blocks, &footer).unwrap(), table);
    }
}

#[test]
fn every_truncation_is_refused() {
    let (blocks, footer) = frames(2);
    for len in 0..footer.len() {
        let e = decoded(schema(), &blocks, &footer[..len]).unwrap_err();
        assert!(e.message.contains("corrupt"), "footer {len}: {}", e.message);
    }
    for b in 0..blocks.len() {
        for len in 0..blocks[b].len() {
            let mut cut = blocks.clone();
            cut[b].truncate(len);
            let e = decoded(schema(), &cut, &footer).unwrap_err();
            assert!(
                e.message.contains("corrupt"),
                "block {b} {len}: {}",
                e.message
            );
        }
        let mut longer = blocks.clone();
        longer[b].push(0);
        assert!(decoded(schema(), &longer, &footer).is_err());
    }
    let mut longer = footer.clone();
    longer.push(0);
    assert!(decoded(schema(), &blocks, &longer).is_err());
}

#[test]
fn missing_repeated_or_reordered_blocks_are_refused() {
    let (blocks, footer) = frames(1);
    assert!(decoded(schema(), &blocks[1..], &footer).is_err());
    assert!(decoded(schema(), &blocks[..3], &footer).is_err());
    let mut twice = blocks.clone();
    twice.push(blocks[3].clone());
    assert!(decoded(schema(), &twice, &footer).is_err());
    // Swapped blocks decode (each is well formed) but give other rows:
    // never a panic, never the table.
    let mut swapped = blocks.clone();
    swapped.swap(0, 1);
    if let Ok(t) = decoded(schema(), &swapped, &footer) {
        assert_ne!(t, loaded());
    }
    // A block's bytes where the footer is expected.
    assert!(decoded(schema(), &blocks[..3], &blocks[3]).is_err());
}

#[test]
fn damaged_bytes_never_panic() {
    let (blocks, footer) = frames(2);
    for v in [0u8, 1, 3, 0x7f, 0x80, 0xff] {
        for i in 0..footer.len() {
            let mut f = footer.clone();
            f[i] = v;
            // Either refused or a table the schema accepts; never a panic.
            if let Ok(t) = decoded(schema(), &blocks, &f) {
                assert_eq!(t.rows(), 4);
            }
        }
        for b in 0..blocks.len() {
            for i in 0..blocks[b].len() {
                let mut d = blocks.clone();
                d[b][i] = v;
                if let Ok(t) = decoded(schema(), &d, &footer) {
                    assert_eq!(t.rows(), 4);
                }
            }
        }
    }
}

#[test]
fn a_footer_cannot_announce_more_than_the_blocks_hold() {
    let (blocks, mut footer) = frames(2);
    // The row count sits 20 bytes before the end of the flat leaves...
    // rather than locate it, claim a huge count everywhere a u64 could be:
    // the decoder must refuse before allocating for it.
    for i in 0..footer.len().saturating_sub(8) {
        let saved = footer[i..i + 8].to_vec();
        footer[i..i + 8].copy_from_slice(&(u64::MAX / 2).to_le_bytes());
        let _ = decoded(schema(), &blocks, &footer);
        footer[i..i + 8].copy_from_slice(&saved);
    }
}

#[test]
fn another_schema_is_refused() {
    let (blocks, footer) = frames(2);
    let mut columns = schema().columns().to_vec();
    columns.pop();
    let fewer = Schema::new(
        "t".into(),
        CsvOptions::default(),
        MissingPolicy::Suppress,
        columns,
    )
    .unwrap();
    assert!(decoded(Arc::new(fewer), &blocks, &footer).is_err());
    // Same columns, but a QI that is now insensitive: its kind no longer
    // matches.
    let mut columns = schema().columns().to_vec();
    columns[1] = col("age", Role::Insensitive, None);
    let moved = Schema::new(
        "t".into(),
        CsvOptions::default(),
        MissingPolicy::Suppress,
        columns,
    )
    .unwrap();
    assert!(decoded(Arc::new(moved), &blocks, &footer).is_err());
}

#[test]
fn integral_columns_are_varints_and_fractional_ones_exact() {
    // Integers (and large ones up to 2^53) as varints, their text written
    // back when every cell is canonical and stored when one is not; a
    // fraction, -0 or a huge value keeps the block's column in f64,
    // exactly.
    for (values, encoding) in [
        ("0,1,-1,9007199254740992,-9007199254740992", 2),
        ("007,1,2", 1),
        ("+5,1,2", 1),
        (" 4,1,2", 1),
        ("1.0,1,2", 1),
        ("-3,10,100", 2),
        ("0.5,1,2", 0),
        ("-0,1,2", 0),
        ("1e300,1,2", 0),
    ] {
        let schema = Arc::new(
            Schema::new(
                "n".into(),
                CsvOptions::default(),
                MissingPolicy::Reject,
                vec![
                    col("x", Role::QuasiIdentifier, Some(ValueType::Numeric)),
                    col("s", Role::Sensitive, Some(ValueType::Numeric)),
                ],
            )
            .unwrap(),
        );
        let csv: String = std::iter::once("x,s".to_string())
            .chain(values.split(',').map(|v| format!("{v},{v}")))
            .map(|l| l + "\n")
            .collect();
        let t = load_table(schema.clone(), csv.as_bytes()).unwrap();
        let (blocks, footer) = frames_of(&schema, &csv, 100);
        // rows varint, then the first column's encoding byte.
        assert_eq!(blocks[0][1], encoding, "{values}");
        let back = decoded(schema, &blocks, &footer).unwrap();
        assert_eq!(back, t);
        let crate::table::QiValues::Numeric(got) = &back.qis()[0].values else {
            panic!("numeric");
        };
        let crate::table::QiValues::Numeric(want) = &t.qis()[0].values else {
            panic!("numeric");
        };
        // Bit for bit, so -0 stays -0.
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(got), bits(want));
    }
}
