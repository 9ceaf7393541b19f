//! The lower bound on suppression (`epsilon_m::minimum_suppression`) on
//! the shared tables at the bench cases' parameters, beside Theorem 1's m
//! and the m delivered without suppression.
//!
//! ```text
//! cargo run --release -p proxima-core --example min_suppression
//! ```

use std::time::Instant;

use proxima_core::epsilon_m::{deliverable_max_m, max_m, minimum_suppression};
use proxima_core::ingest::shared::SharedTable;
use proxima_core::params::{Epsilon, Neighborhood, M};

fn main() {
    let abs = Neighborhood::Absolute;
    let rel = Neighborhood::Relative;
    let cases = [
        (
            "em-sal",
            SharedTable::SalSynthetic,
            4500.0,
            abs,
            vec![3, 5, 7, 8, 10, 15],
        ),
        (
            "em-sal-rel",
            SharedTable::SalSynthetic,
            0.125,
            rel,
            vec![5, 12, 13, 20],
        ),
        (
            "em-cup",
            SharedTable::Cup,
            5.0,
            abs,
            vec![8, 11, 12, 16, 24],
        ),
        (
            "em-credit",
            SharedTable::CreditCard,
            1000.0,
            abs,
            vec![4, 6, 7, 8, 12],
        ),
    ];
    for (name, source, e, nb, ms) in cases {
        let Some(table) = proxima_test_support::shared::load_shared(source) else {
            continue;
        };
        let table = table.expect("the shared table loads");
        let sa = table.single_numeric_sa().expect("one numeric SA");
        let epsilon = Epsilon::new(e, "/e").unwrap();
        let theorem_1 = max_m(sa, epsilon, nb).unwrap();
        let sure = deliverable_max_m(sa, epsilon, nb).unwrap();
        println!(
            "{name}: {} rows, ε = {e} {nb:?}: Theorem 1 m ≤ {} (maxsize {}), delivered without \
             suppression m ≤ {sure}",
            sa.len(),
            theorem_1.max_m,
            theorem_1.maxsize
        );
        for m in ms {
            let t = Instant::now();
            let b = minimum_suppression(sa, epsilon, M::new(m, "/m").unwrap(), nb).unwrap();
            println!(
                "  m = {m}: at least {} rows ({:.4} %) left out by any release; at most {} \
                 published ({:.1} ms)",
                b.suppressed_rows(),
                100.0 * b.share(),
                b.max_published,
                t.elapsed().as_secs_f64() * 1e3
            );
        }
    }
}
