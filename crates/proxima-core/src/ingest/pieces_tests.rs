//! The pieces loader gives the table `load_table` gives, or hands the file
//! back to it (`None`); it never gives another table. Random small files
//! are cut into pieces down to one byte, so pieces start next to new
//! dictionary values, missing values, quoted cells and bad rows.

use std::sync::Arc;

use proptest::prelude::*;

use super::try_load_pieces;
use crate::ingest::block_tests::{arb_csv, schema};
use crate::ingest::{load_table, BlockLimits};
use crate::parallel::{with_threads, Threads};
use crate::progress::Progress;
use crate::schema::{MissingPolicy, Schema};
use crate::table::Table;

fn pieces(schema: &Arc<Schema>, csv: &str, piece_bytes: usize) -> Option<Table> {
    pieces_with(schema, csv, piece_bytes, &BlockLimits::whole())
}

fn pieces_with(
    schema: &Arc<Schema>,
    csv: &str,
    piece_bytes: usize,
    limits: &BlockLimits,
) -> Option<Table> {
    let threads = Threads::new(3, crate::error::Field::Data).unwrap();
    with_threads(threads, || {
        try_load_pieces(
            schema.clone(),
            csv.as_bytes(),
            limits,
            piece_bytes,
            Progress::none(),
        )
        .unwrap()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn pieces_give_the_table_of_load_table_or_hand_the_file_back(
        csv in arb_csv(),
        reject in any::<bool>(),
        qi_text in any::<bool>(),
    ) {
        let policy = if reject { MissingPolicy::Reject } else { MissingPolicy::Suppress };
        let schema = schema(policy);
        // Loaded without the QIs' text: load_table's table without it.
        let whole = load_table(schema.clone(), csv.as_bytes())
            .map(|t| if qi_text { t } else { t.without_qi_text() });
        let limits = BlockLimits { qi_text, ..BlockLimits::whole() };
        // Without missing values and blank lines, every piece of a good
        // file holds rows and parses cleanly: the pieces must not give up.
        let plain = !csv.contains('?') && !csv.contains("\n\n");
        for piece_bytes in [1, 7, 40, 200, 1 << 20] {
            let got = pieces_with(&schema, &csv, piece_bytes, &limits);
            match (&got, &whole) {
                (Some(table), Ok(expected)) => {
                    prop_assert_eq!(table, expected, "pieces of {} bytes", piece_bytes)
                }
                (Some(_), Err(e)) => {
                    prop_assert!(false, "pieces of {} bytes loaded a file load_table refuses: {}", piece_bytes, e)
                }
                (None, Ok(_)) => prop_assert!(
                    !plain && piece_bytes < 1 << 20,
                    "pieces of {} bytes gave up on a plain good file", piece_bytes
                ),
                (None, Err(_)) => {}
            }
        }
    }
}

#[test]
fn codes_numbered_by_first_appearance_stay_so_across_pieces() {
    let schema = schema(MissingPolicy::Suppress);
    let mut csv = String::from("id,age,grade,city,born,job,note\n");
    // Each piece of ~64 bytes meets its cities in another order than the
    // file does; the file's order must win.
    for i in 0..60u32 {
        let city = ["c9", "c3", "c7", "c1"][(i as usize * 7 / 5) % 4];
        let job = ["judge", "nurse", "clerk"][(i as usize / 3) % 3];
        csv.push_str(&format!(
            "{i},{},a,{city},1990-02-01,{job},{i}\n",
            20 + i % 50
        ));
    }
    let expected = load_table(schema.clone(), csv.as_bytes()).unwrap();
    for piece_bytes in [30, 64, 100, 1000] {
        let got = pieces(&schema, &csv, piece_bytes).expect("a plain file loads in pieces");
        assert_eq!(got, expected, "pieces of {piece_bytes} bytes");
    }
}

#[test]
fn a_quoted_line_break_cut_by_a_piece_hands_the_file_back() {
    let mut s = (*schema(MissingPolicy::Suppress)).clone();
    s = Schema::new(
        s.name().to_string(),
        crate::schema::CsvOptions {
            allow_line_breaks: true,
            ..s.csv().clone()
        },
        s.on_missing(),
        s.columns().to_vec(),
    )
    .unwrap();
    let schema = Arc::new(s);
    let csv = "id,age,grade,city,born,job,note\n\
               1,30,a,c1,1990-02-01,nurse,\"two\nlines\"\n\
               2,31,b,c2,1990-02-02,clerk,3\n";
    let expected = load_table(schema.clone(), csv.as_bytes()).unwrap();
    // One piece holds the whole record: loaded in pieces.
    assert_eq!(pieces(&schema, csv, 1 << 20), Some(expected.clone()));
    // A piece ends inside the quoted cell: the file goes back to the
    // one-thread loader, whatever the cut.
    let mut handed_back = 0;
    for piece_bytes in 1..csv.len() {
        match pieces(&schema, csv, piece_bytes) {
            Some(got) => assert_eq!(got, expected, "pieces of {piece_bytes} bytes"),
            None => handed_back += 1,
        }
    }
    // The first record's line break inside quotes is 31 bytes into the
    // data: a piece of 32 to 38 bytes ends there.
    assert_eq!(pieces(&schema, csv, 35), None);
    assert!(handed_back >= 7);
}

#[test]
fn a_header_with_a_quote_or_no_line_break_is_left_to_the_one_thread_loader() {
    let schema = schema(MissingPolicy::Suppress);
    let quoted = "\"id\",age,grade,city,born,job,note\n1,30,a,c1,1990-02-01,nurse,1\n";
    assert!(load_table(schema.clone(), quoted.as_bytes()).is_ok());
    assert_eq!(pieces(&schema, quoted, 1 << 20), None);
    assert_eq!(
        pieces(&schema, "id,age,grade,city,born,job,note", 1 << 20),
        None
    );
}
