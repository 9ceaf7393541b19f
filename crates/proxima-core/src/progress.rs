//! Progress reporting and cooperative cancellation for long-running entry
//! points. The callback receives a fraction in [0, 1] and returns `false` to
//! ask the work to stop; the algorithm then returns `ErrorKind::Cancelled`.

use crate::error::{CoreError, CoreResult};

/// Rows a single pass over a whole table handles between two checkpoints
/// (a column's radix sort, the (ε,m) window thinning, the kept table of a
/// job that suppressed rows, the release's boxes, the SA's codes): well
/// under a millisecond of work per block, so even a 5M-row pass asks
/// whether to stop a hundred times or more.
pub const ROWS_PER_CHECKPOINT: usize = 1 << 16;

/// A cheap, copyable handle to an optional progress callback, possibly
/// mapped onto a sub-range of the overall progress.
#[derive(Clone, Copy)]
pub struct Progress<'a> {
    callback: Option<&'a (dyn Fn(f64) -> bool + Sync)>,
    start: f64,
    span: f64,
}

impl<'a> Progress<'a> {
    /// No reporting, never cancelled.
    pub fn none() -> Progress<'static> {
        Progress {
            callback: None,
            start: 0.0,
            span: 1.0,
        }
    }

    /// Reports to `callback`; the callback returns `false` to cancel.
    pub fn new(callback: &'a (dyn Fn(f64) -> bool + Sync)) -> Self {
        Progress {
            callback: Some(callback),
            start: 0.0,
            span: 1.0,
        }
    }

    /// A handle whose [0, 1] maps onto [from, to] of this one: lets a phase
    /// report its own progress without knowing where it sits in the whole.
    pub fn sub(&self, from: f64, to: f64) -> Progress<'a> {
        Progress {
            callback: self.callback,
            start: self.start + self.span * from,
            span: self.span * (to - from),
        }
    }

    /// Reports `fraction` of this phase; `Err(Cancelled)` when the callback
    /// asks to stop. Call it at checkpoints a few times a second at most.
    pub fn report(&self, fraction: f64) -> CoreResult<()> {
        if let Some(cb) = self.callback {
            let f = (self.start + self.span * fraction.clamp(0.0, 1.0)).clamp(0.0, 1.0);
            if !cb(f) {
                return Err(CoreError::cancelled());
            }
        }
        Ok(())
    }
}

/// A phase that runs as several concurrent branches, each reporting its
/// own fraction of the phase: the parent sees the largest fraction reported
/// so far, so its progress never goes back; any branch's stop is seen by
/// all at their next checkpoint.
pub(crate) struct Branches<'a> {
    parent: Progress<'a>,
    /// The largest fraction so far, as f64 bits (for non-negative floats
    /// the bits order as the values do).
    best: std::sync::atomic::AtomicU64,
}

impl<'a> Branches<'a> {
    pub(crate) fn new(parent: Progress<'a>) -> Self {
        Branches {
            parent,
            best: std::sync::atomic::AtomicU64::new(0f64.to_bits()),
        }
    }

    /// The callback a branch reports through (`Progress::new` of it).
    pub(crate) fn report(&self, fraction: f64) -> bool {
        use std::sync::atomic::Ordering;
        let f = fraction.clamp(0.0, 1.0);
        let best = self.best.fetch_max(f.to_bits(), Ordering::Relaxed);
        self.parent.report(f.max(f64::from_bits(best))).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn sub_ranges_map_and_cancel_propagates() {
        let seen = Mutex::new(Vec::new());
        let cb = |f: f64| {
            seen.lock().unwrap().push(f);
            f < 0.9
        };
        let p = Progress::new(&cb);
        let half = p.sub(0.5, 1.0);
        half.report(0.5).unwrap();
        assert!((seen.lock().unwrap()[0] - 0.75).abs() < 1e-12);
        assert_eq!(
            half.report(1.0).unwrap_err().kind,
            crate::ErrorKind::Cancelled
        );
        Progress::none().report(0.3).unwrap();
    }

    #[test]
    fn concurrent_branches_never_move_the_parent_back() {
        let seen = Mutex::new(Vec::new());
        let cb = |f: f64| {
            seen.lock().unwrap().push(f);
            true
        };
        let branches = Branches::new(Progress::new(&cb));
        for f in [0.2, 0.6, 0.1, 0.5, 0.9, 0.3] {
            assert!(branches.report(f));
        }
        let seen = seen.into_inner().unwrap();
        assert_eq!(seen, vec![0.2, 0.6, 0.6, 0.6, 0.9, 0.9]);
    }
}
