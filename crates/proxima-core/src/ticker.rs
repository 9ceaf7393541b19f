//! Cancellation checkpoints by work done rather than by loop iterations:
//! one victim may cost a binary search or a scan of a thousand candidates.

use crate::error::CoreResult;
use crate::progress::Progress;

/// Units of work (rows touched, comparisons) between two reports: a few
/// milliseconds of work, far below the 50 ms a cancellation may wait.
const REPORT_EVERY: u64 = 1 << 20;

pub(crate) struct Ticker<'a> {
    progress: Progress<'a>,
    done: u64,
    next: u64,
    /// The fraction reported: [`Ticker::phase`] moves it, work inside a
    /// phase does not (how much work a phase takes is not known ahead).
    fraction: f64,
}

impl<'a> Ticker<'a> {
    pub fn new(progress: Progress<'a>) -> Self {
        Ticker {
            progress,
            done: 0,
            next: REPORT_EVERY,
            fraction: 0.0,
        }
    }

    /// Counts `units` of work; reports (and may be cancelled) every
    /// [`REPORT_EVERY`] units.
    #[inline]
    pub fn tick(&mut self, units: usize) -> CoreResult<()> {
        self.done += units as u64;
        if self.done >= self.next {
            self.next = self.done + REPORT_EVERY;
            self.progress.report(self.fraction)?;
        }
        Ok(())
    }

    /// A ticker for another thread: the same progress and phase, its own
    /// count of work.
    pub fn fork(&self) -> Ticker<'a> {
        Ticker {
            progress: self.progress,
            done: 0,
            next: REPORT_EVERY,
            fraction: self.fraction,
        }
    }

    /// Starts a phase at `fraction` of the whole, and reports it.
    pub fn phase(&mut self, fraction: f64) -> CoreResult<()> {
        self.fraction = fraction;
        self.progress.report(fraction)
    }
}
