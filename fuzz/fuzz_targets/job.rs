//! `POST /v1/jobs`: the request parsed, turned into the core's job spec
//! against two small tables, validated and run.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    proxima_fuzzing::job(data);
});
