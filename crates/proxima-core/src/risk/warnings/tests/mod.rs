//! Tests of the report's warnings: hand-computed figures on small tables,
//! and the worked case on creditcard (skipped, with the reason printed,
//! when ../shared/data is absent).

mod association;
mod fine_grained;
mod suppression;
mod ungeneralized;

use crate::table::TextColumn;

fn text(cells: &[&str]) -> TextColumn {
    let mut t = TextColumn::new();
    for c in cells {
        t.push(c).unwrap();
    }
    t
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * (1.0 + b.abs())
}

#[test]
fn only_firing_measurements_become_warnings() {
    use crate::partition::Partition;
    use crate::risk::warnings::{fine_grained_column, suppression_concentration, Warning};
    let p = Partition::new(vec![vec![0, 1], vec![2, 3]]);
    let fires = fine_grained_column("id", &text(&["1", "2", "3", "4"]), &p, None);
    let quiet = fine_grained_column("flag", &text(&["a", "a", "b", "b"]), &p, None);
    let supp = suppression_concentration("q", [("x", true); 3]).unwrap();
    assert!(fires.fires() && !quiet.fires() && !supp.fires());
    let w = Warning::collect(&[], &[fires.clone(), quiet], &[], &[supp]);
    assert_eq!(w, vec![Warning::FineGrainedColumn(fires)]);
    assert_eq!(w[0].kind(), "fine_grained_column");
    assert!(w[0]
        .message()
        .starts_with("'id' is published as is with 4 distinct values"));
}
