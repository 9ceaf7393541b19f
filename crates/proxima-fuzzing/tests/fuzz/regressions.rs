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
