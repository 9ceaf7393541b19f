//! The attacker's view's memory budget: an uploaded table of 6,000 rows
//! (117 KB of CSV) whose 600 groups publish heavily overlapping boxes used
//! to take gigabytes while its candidate sets were enumerated. With a
//! budget the view stops with `attacker_view_too_large` before allocating
//! past it; the process's peak memory stays within the budget and a
//! margin.

use proxima_core::attacker::{self, GroupBoxes, Victims};
use proxima_core::audit::AuditCheck;
use proxima_core::params::K;
use proxima_core::table::{QiValues, SaValues};
use proxima_core::{ErrorKind, Partition, Progress, Table};

/// 6,000 rows dealt into 600 groups of 10 random points on two numeric
/// QIs: every group's bounding box covers most of the plane.
fn overlapping_upload() -> (Table, Partition) {
    let n = 6000;
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % 1000) as f64
    };
    let a: Vec<f64> = (0..n).map(|_| next()).collect();
    let b: Vec<f64> = (0..n).map(|_| next()).collect();
    let s: Vec<f64> = (0..n).map(|i| (i % 97) as f64).collect();
    let t = Table::from_columns(
        vec![
            ("a".into(), QiValues::Numeric(a)),
            ("b".into(), QiValues::Numeric(b)),
        ],
        vec![("s".into(), SaValues::Numeric(s))],
    );
    let mut groups = vec![Vec::new(); 600];
    for i in 0..n {
        groups[i % 600].push(i as u32);
    }
    (t, Partition::new(groups))
}

/// The process's peak resident memory so far (Linux `VmHWM`), in bytes.
fn peak_rss() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

#[test]
fn overlapping_boxes_are_refused_within_the_budget() {
    let (t, partition) = overlapping_upload();
    let boxes = GroupBoxes::from_labels(&t, &partition).unwrap();
    let before = peak_rss();
    let budget = 64 << 20;
    let err = attacker::evaluate_within(
        &t,
        &partition,
        &boxes,
        Victims::AnyPointOfItsBox,
        &[AuditCheck::KAnonymity {
            k: K::new(2, "/k").unwrap(),
        }],
        None,
        budget,
        None,
        Progress::none(),
    )
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::AttackerViewTooLarge, "{err}");
    assert!(err.message.contains("memory budget"), "{err}");
    if let (Some(before), Some(after)) = (before, peak_rss()) {
        let grown = after.saturating_sub(before);
        println!("peak RSS grew by {} MiB (budget 64 MiB)", grown >> 20);
        // The budget counts the structures that grow with the overlap;
        // allocator slack and the hash sets' spare capacity come on top.
        assert!(
            grown <= 3 * budget,
            "peak RSS grew by {grown} bytes with a budget of {budget}"
        );
    }
}

#[test]
fn a_release_within_the_budget_is_judged_as_before() {
    // The same table grouped into 6 groups of disjoint vertical strips:
    // no overlap, nothing to refuse, with a budget far below the default.
    let (t, _) = overlapping_upload();
    let mut groups = vec![Vec::new(); 6];
    for r in 0..t.rows() as u32 {
        let a = match &t.qis()[0].values {
            QiValues::Numeric(v) => v[r as usize],
            _ => unreachable!(),
        };
        groups[((a as usize) * 6 / 1000).min(5)].push(r);
    }
    let partition = Partition::new(groups);
    let boxes = GroupBoxes::from_labels(&t, &partition).unwrap();
    let view = attacker::evaluate_within(
        &t,
        &partition,
        &boxes,
        Victims::AnyPointOfItsBox,
        &[AuditCheck::KAnonymity {
            k: K::new(2, "/k").unwrap(),
        }],
        None,
        1 << 20,
        None,
        Progress::none(),
    )
    .unwrap();
    assert!(view[0].passed);
}
