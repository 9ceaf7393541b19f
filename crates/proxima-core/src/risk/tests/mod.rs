//! Tests of the risk measures: hand-computed values on small frequency
//! tables (the computation is in each test's comments), edge cases, and
//! properties the papers state.

mod arx;
mod dankar;
mod pitman;
mod properties;
mod sample;
mod snb;
mod zayatz;

use super::ClassSizes;

/// A table from `(class size, number of classes)` pairs.
fn table(pairs: &[(usize, usize)]) -> ClassSizes {
    ClassSizes::from_frequencies(pairs.iter().copied())
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + b.abs())
}
