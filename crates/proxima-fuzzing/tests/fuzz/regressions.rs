//! Fixed inputs: the hostile cases the fuzzers are built around, and every
//! input a fuzzer found to panic or hang (with what it was), kept as
//! regression tests.

use proxima_fuzzing as fuzzing;

use crate::guarded;

/// JSON nested far beyond serde_json's recursion limit is an error, not a
/// stack overflow, in every JSON entry point.
#[test]
fn very_deep_json_nesting_is_rejected() {
    for depth in [200, 100_000] {
        let doc = format!("{}{}", "[".repeat(depth), "]".repeat(depth)).into_bytes();
        let mut upload = doc.clone();
        upload.extend_from_slice(b"\0a\n1\n");
        assert!(guarded("upload", upload, |d| fuzzing::upload_bytes(d).is_err()));
        assert_eq!(guarded("hierarchy", doc.clone(), fuzzing::hierarchy), 0);
        assert_eq!(guarded("job", doc.clone(), fuzzing::job), 0);
        let job = format!(
            r#"{{"dataset_id": "d", "model": {{"kind": "k_anonymity", "k": {}2{}}}}}"#,
            "[".repeat(depth),
            "]".repeat(depth)
        );
        assert_eq!(guarded("job", job.into_bytes(), fuzzing::job), 0);
    }
}

/// Numbers beyond every integer and float range are errors.
#[test]
fn out_of_range_numbers_are_rejected() {
    for k in [
        "1e400",
        "18446744073709551616",
        "-1",
        "0",
        "1e20",
        "2.5",
        "\"NaN\"",
    ] {
        let job = format!(r#"{{"dataset_id": "d", "model": {{"kind": "k_anonymity", "k": {k}}}}}"#);
        assert_eq!(guarded("job", job.into_bytes(), fuzzing::job), 0, "k = {k}");
    }
    let (schema, _, _) = proxima_testdata::sample::people(1, false);
    let csv = b"id,age,zip,sex,salary,note\n1,1e400,1,M,NaN,x\n2,1e308,1,F,-inf,y\n";
    let data = fuzzing::join_upload(&schema, csv, &[]);
    assert!(guarded("upload", data, |d| fuzzing::upload_bytes(d).is_err()));
}

/// A quote opened in an insensitive cell and closed ten lines later: the
/// record keeps its field count, so only the line break tells. Refused,
/// and with it the same stray quote in an identifier cell.
#[test]
fn a_stray_quote_closed_lines_later_is_refused_in_any_column() {
    let (schema, csv, h) = proxima_testdata::sample::people(30, true);
    // The sample's notes unquoted (`n 4` for `"n 4, ok"`), so that the
    // stray quote is the only one.
    let lines: Vec<String> = String::from_utf8(csv)
        .unwrap()
        .lines()
        .map(|l| match l.split_once(",\"n ") {
            Some((head, note)) => format!("{head},n {}", note.trim_end_matches(", ok\"")),
            None => l.to_string(),
        })
        .collect();
    let with = |row5: String, row15: String| {
        let mut l = lines.clone();
        (l[5], l[15]) = (row5, row15);
        l.join("\n") + "\n"
    };
    assert!(fuzzing::upload(
        &schema,
        &h,
        with(lines[5].clone(), lines[15].clone()).as_bytes()
    )
    .is_ok());
    // Data line 5's note opens a quote; data line 15's note closes it.
    let csv = with(
        lines[5].replace(",n 4", ",\"opened"),
        lines[15].replace(",n 14", ",here\""),
    );
    let e = fuzzing::upload(&schema, &h, csv.as_bytes()).unwrap_err();
    assert_eq!(
        e.errors[0].field,
        proxima_core::Field::DataCell(5, "note".into()),
        "{}",
        e.message
    );
    // The same in the identifier column.
    let csv = with(format!("\"{}", lines[5]), lines[15].replacen(',', "\",", 1));
    let e = fuzzing::upload(&schema, &h, csv.as_bytes()).unwrap_err();
    assert_eq!(
        e.errors[0].field,
        proxima_core::Field::DataCell(5, "id".into()),
        "{}",
        e.message
    );
}
