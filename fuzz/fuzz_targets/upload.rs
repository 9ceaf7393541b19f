//! `POST /v1/datasets`: schema JSON, CSV and hierarchy files, separated by
//! NUL bytes (see `proxima_fuzzing::upload_bytes`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = proxima_fuzzing::upload_bytes(data);
});
