//! The block loader gives the table `load_table` gives, however the file is
//! cut: the same values, flat-hierarchy codes, source lines, suppressed
//! count and statistics, and the same error (message, pointer, line) when
//! the file is refused. Random small CSVs put block boundaries next to new
//! dictionary values, missing values and bad cells.

use std::sync::Arc;

use proptest::prelude::*;

use super::{
    column_stats, load_blocks, load_table, load_table_with_limits, parse_hierarchy_csv, Assembler,
    Block, BlockLimits, BlockTally, StatsBuilder,
};
use crate::error::CoreResult;
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

/// Every kind of column: identifier, numeric QI, categorical QI with a
/// hierarchy, flat categorical QI, date QI, flat categorical SA, numeric
/// insensitive note (statistics parse it).
pub(crate) fn schema(policy: MissingPolicy) -> Arc<Schema> {
    let h = parse_hierarchy_csv(b"a;ab;*\nb;ab;*\nc;c;*\n", "grade").unwrap();
    Arc::new(
        Schema::new(
            "t".into(),
            CsvOptions {
                delimiter: b',',
                missing: vec!["?".into()],
                allow_line_breaks: false,
            },
            policy,
            vec![
                col("id", Role::Identifier, None),
                col("age", Role::QuasiIdentifier, Some(ValueType::Numeric)),
                ColumnSpec {
                    hierarchy: Some(Arc::new(h)),
                    ..col("grade", Role::QuasiIdentifier, Some(ValueType::Categorical))
                },
                col("city", Role::QuasiIdentifier, Some(ValueType::Categorical)),
                col("born", Role::QuasiIdentifier, Some(ValueType::Date)),
                col("job", Role::Sensitive, Some(ValueType::Categorical)),
                col("note", Role::Insensitive, Some(ValueType::Numeric)),
            ],
        )
        .unwrap(),
    )
}

/// One random row of valid cells, some missing (`?`).
fn arb_row() -> impl Strategy<Value = String> {
    let age = prop_oneof![
        8 => (0i32..90).prop_map(|a| a.to_string()),
        2 => (0i32..900).prop_map(|a| format!("{}.5", a)),
        1 => Just("?".to_string()),
    ];
    let grade = prop_oneof![
        10 => prop::sample::select(vec!["a", "b", "c"]).prop_map(str::to_string),
        1 => Just("?".to_string()),
    ];
    let city = prop_oneof![
        10 => (0u8..12).prop_map(|c| format!("c{c}")),
        1 => Just("?".to_string()),
    ];
    let born = (1u32..28).prop_map(|d| format!("1990-02-{d:02}"));
    let job = prop_oneof![
        10 => prop::sample::select(vec!["nurse", "clerk", "judge", "é"]).prop_map(str::to_string),
        1 => Just("?".to_string()),
    ];
    let note = prop_oneof![
        5 => (0u32..50).prop_map(|n| n.to_string()),
        1 => Just("?".to_string()),
        1 => Just("\"quoted, note\"".to_string()),
    ];
    (0u32..1000, age, grade, city, born, job, note)
        .prop_map(|(id, a, g, c, b, j, n)| format!("{id},{a},{g},{c},{b},{j},{n}"))
}

/// A row with one bad cell: a word in the numeric column, a leaf outside
/// the hierarchy, a day that does not exist, a wrong field count.
const BAD_ROWS: [&str; 4] = [
    "1,old,a,c1,1990-02-01,nurse,1",
    "1,30,z,c1,1990-02-01,nurse,1",
    "1,30,a,c1,1990-02-30,nurse,1",
    "1,30,a,c1,1990-02-01,nurse",
];

/// A header and up to 40 rows, blank lines among them sometimes, and in
/// one table of three a bad row somewhere.
pub(crate) fn arb_csv() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(arb_row(), 0..40),
        any::<bool>(),
        prop::option::weighted(0.3, (any::<prop::sample::Index>(), 0..BAD_ROWS.len())),
    )
        .prop_map(|(mut rows, blank, bad)| {
            if let (Some((at, which)), false) = (bad, rows.is_empty()) {
                let i = at.index(rows.len());
                rows[i] = BAD_ROWS[which].to_string();
            }
            let mut csv = String::from("id,age,grade,city,born,job,note\n");
            for (i, r) in rows.iter().enumerate() {
                csv.push_str(r);
                csv.push('\n');
                if blank && i % 7 == 3 {
                    csv.push('\n'); // blank lines are skipped, not counted
                }
            }
            csv
        })
}

/// The blocks of `csv` cut every `rows` rows, with the end-of-file facts.
pub(crate) fn blocks_of(
    schema: &Schema,
    csv: &str,
    rows: usize,
) -> CoreResult<(Vec<Block>, super::Loaded)> {
    let limits = BlockLimits {
        rows,
        ..BlockLimits::default()
    };
    let mut blocks = Vec::new();
    let loaded = load_blocks(schema, csv.as_bytes(), &limits, Progress::none(), |b| {
        blocks.push(b);
        Ok(())
    })?;
    Ok((blocks, loaded))
}

fn assembled(schema: &Arc<Schema>, csv: &str, rows: usize) -> CoreResult<Table> {
    let (blocks, loaded) = blocks_of(schema, csv, rows)?;
    assert!(blocks.iter().all(|b| b.rows() <= rows && b.rows() > 0));
    let mut a = Assembler::new(schema.clone());
    for b in blocks {
        a.push(b)?;
    }
    a.finish(loaded)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn any_cut_gives_the_table_or_the_error_of_load_table(
        csv in arb_csv(),
        reject in any::<bool>(),
    ) {
        let policy = if reject { MissingPolicy::Reject } else { MissingPolicy::Suppress };
        let schema = schema(policy);
        let whole = load_table(schema.clone(), csv.as_bytes());
        for rows in [1, 2, 3, 5, 7, 64] {
            let cut = assembled(&schema, &csv, rows);
            prop_assert_eq!(&cut, &whole, "cut every {} rows", rows);
        }
    }

    #[test]
    fn a_load_without_the_qis_text_gives_load_tables_table_without_it(
        csv in arb_csv(),
        reject in any::<bool>(),
        qi_cell in prop::option::of(prop::sample::select(vec!["c\u{1}", "\u{85}", "x\u{7f}"])),
    ) {
        let policy = if reject { MissingPolicy::Reject } else { MissingPolicy::Suppress };
        let schema = schema(policy);
        // Sometimes a flat QI cell holds a control character: refused the
        // same way whether its text is kept or not.
        let csv = match qi_cell {
            Some(cell) => csv.replacen(",c1,", &format!(",{cell},"), 1),
            None => csv,
        };
        let whole = load_table(schema.clone(), csv.as_bytes()).map(Table::without_qi_text);
        let limits = BlockLimits { qi_text: false, ..BlockLimits::whole() };
        let lean = load_table_with_limits(schema.clone(), csv.as_bytes(), &limits, Progress::none());
        // Equal tables: no QI's text is held (`without_qi_text` holds
        // none), every other column's is.
        prop_assert_eq!(lean, whole);
    }

    #[test]
    fn statistics_gathered_block_by_block_are_the_tables(csv in arb_csv()) {
        let schema = schema(MissingPolicy::Suppress);
        let Ok(table) = load_table(schema.clone(), csv.as_bytes()) else {
            return Ok(());
        };
        for rows in [1, 3, 64] {
            let (blocks, _) = blocks_of(&schema, &csv, rows).unwrap();
            let mut stats = StatsBuilder::new(&schema);
            blocks.iter().for_each(|b| stats.add(b));
            prop_assert_eq!(stats.finish(&schema), column_stats(&table));
        }
    }
}

#[test]
fn flat_codes_keep_their_meaning_across_blocks() {
    let schema = schema(MissingPolicy::Suppress);
    let csv = "id,age,grade,city,born,job,note\n\
               1,30,a,Lyon,1990-02-01,nurse,1\n\
               2,31,b,Nice,1990-02-01,clerk,1\n\
               3,32,a,Lyon,1990-02-01,nurse,1\n\
               4,33,c,Rome,1990-02-01,judge,1\n";
    let (blocks, loaded) = blocks_of(&schema, csv, 1).unwrap();
    assert_eq!(blocks.len(), 4);
    let city = |b: &Block| match &b.columns[3].values {
        super::BlockValues::Codes(c) => c.clone(),
        other => panic!("{other:?}"),
    };
    let codes: Vec<Vec<u32>> = blocks.iter().map(city).collect();
    assert_eq!(codes, [vec![0], vec![1], vec![0], vec![2]]);
    assert_eq!(
        loaded.flat_leaves[3].as_deref(),
        Some(&["Lyon".to_string(), "Nice".into(), "Rome".into()][..])
    );
    assert_eq!(
        loaded.flat_leaves[2], None,
        "grade has the schema's hierarchy"
    );
    assert_eq!(
        blocks
            .iter()
            .map(|b| b.source_lines.clone())
            .collect::<Vec<_>>(),
        [vec![1], vec![2], vec![3], vec![4]]
    );
}

#[test]
fn an_error_after_some_blocks_names_the_line_load_table_names() {
    let schema = schema(MissingPolicy::Suppress);
    let mut csv = String::from("id,age,grade,city,born,job,note\n");
    for i in 0..10 {
        csv.push_str(&format!("{i},30,a,Lyon,1990-02-01,nurse,1\n"));
    }
    csv.push_str("10,thirty,a,Lyon,1990-02-01,nurse,1\n");
    let whole = load_table(schema.clone(), csv.as_bytes()).unwrap_err();
    let mut seen = 0;
    let cut = load_blocks(
        &schema,
        csv.as_bytes(),
        &BlockLimits {
            rows: 3,
            ..BlockLimits::default()
        },
        Progress::none(),
        |_| {
            seen += 1;
            Ok(())
        },
    )
    .unwrap_err();
    assert_eq!(seen, 3, "three full blocks went out before the bad line");
    assert_eq!(cut, whole);
    assert!(
        cut.message.contains("data line 11 (file line 12)"),
        "{}",
        cut.message
    );
}

#[test]
fn a_sink_that_drops_each_block_holds_one_at_a_time() {
    let schema = schema(MissingPolicy::Suppress);
    let mut csv = String::from("id,age,grade,city,born,job,note\n");
    for i in 0..1000 {
        csv.push_str(&format!(
            "{i},{},a,c{},1990-02-01,nurse,1\n",
            i % 90,
            i % 13
        ));
    }
    let tally = BlockTally::new();
    let limits = BlockLimits {
        rows: 64,
        bytes: usize::MAX,
        tally: Some(tally.clone()),
        ..BlockLimits::default()
    };
    let mut rows = 0;
    let loaded = load_blocks(&schema, csv.as_bytes(), &limits, Progress::none(), |b| {
        rows += b.rows();
        Ok(())
    })
    .unwrap();
    assert_eq!((rows, loaded.rows), (1000, 1000));
    assert_eq!(tally.made(), 16, "1000 rows in blocks of 64");
    assert_eq!(tally.peak(), 1);
    assert_eq!(tally.live(), 0);

    // A sink that keeps them is seen keeping them.
    let tally = BlockTally::new();
    let limits = BlockLimits {
        tally: Some(tally.clone()),
        ..limits
    };
    let mut kept = Vec::new();
    load_blocks(&schema, csv.as_bytes(), &limits, Progress::none(), |b| {
        kept.push(b);
        Ok(())
    })
    .unwrap();
    assert_eq!(tally.peak(), 16);
}

#[test]
fn wide_records_cut_a_block_before_its_row_limit() {
    let schema = schema(MissingPolicy::Suppress);
    let mut csv = String::from("id,age,grade,city,born,job,note\n");
    for i in 0..100 {
        csv.push_str(&format!(
            "{i},30,a,{},1990-02-01,nurse,1\n",
            "x".repeat(1000)
        ));
    }
    let limits = BlockLimits {
        rows: 64,
        bytes: 10_000,
        tally: None,
        ..BlockLimits::default()
    };
    let mut sizes = Vec::new();
    load_blocks(&schema, csv.as_bytes(), &limits, Progress::none(), |b| {
        sizes.push(b.rows());
        Ok(())
    })
    .unwrap();
    assert_eq!(sizes.iter().sum::<usize>(), 100);
    assert!(
        sizes[..sizes.len() - 1].iter().all(|&n| n == 10),
        "{sizes:?}"
    );
}
