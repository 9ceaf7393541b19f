//! How often a 500's backtrace is logged: with `RUST_BACKTRACE=1` every
//! internal error would otherwise log hundreds of lines, and a burst of
//! 500s (a database outage) would bury everything else in the log.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// Seconds between two logged backtraces.
const BACKTRACE_EVERY_SECS: u64 = 60;

/// Unix second of the last logged backtrace (0: never).
static LAST: AtomicU64 = AtomicU64::new(0);

/// True when this 500 may log its backtrace (then not again for a minute).
pub(crate) fn backtrace_due() -> bool {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    due_at(&LAST, now)
}

fn due_at(last: &AtomicU64, now: u64) -> bool {
    let prev = last.load(Ordering::Relaxed);
    if prev != 0 && now < prev + BACKTRACE_EVERY_SECS {
        return false;
    }
    last.compare_exchange(prev, now.max(1), Ordering::Relaxed, Ordering::Relaxed)
        .is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_backtrace_a_minute() {
        let last = AtomicU64::new(0);
        assert!(due_at(&last, 1_000));
        assert!(!due_at(&last, 1_000));
        assert!(!due_at(&last, 1_059));
        assert!(due_at(&last, 1_060));
    }
}
