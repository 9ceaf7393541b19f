//! Hierarchies: ARX CSV files and inline JSON paths.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    proxima_fuzzing::hierarchy(data);
});
