//! Where a job's wall-clock time went, stage by stage.
//!
//! A [`Stopwatch`] is started once and told, at the end of each stage, the
//! stage's name ([`Stopwatch::lap`]); it keeps the laps in the order they
//! ran. The job runner fills one in for the partition, generalization and
//! the guard (`run::JobOutcome::stages`); the offline CLI adds reading and
//! writing around it and prints the whole with `--timings`, and the worker
//! logs it. The figures are for a person reading a profile (docs/performance.md),
//! never for a decision: nothing in a release depends on them.

use std::time::{Duration, Instant};

/// One stage of a job, named as the profile in docs/performance.md names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Reading the input and parsing it into columns (offline: the CSV;
    /// the worker: the stored table).
    Read,
    /// The partitioner, with any rows the model suppresses.
    Partition,
    /// The kept rows' table (only when rows were suppressed), each group's
    /// labels, and the publication order.
    Generalize,
    /// The release's boxes, the attacker's view, the per-group audit and
    /// the summary.
    Guard,
    /// Rendering the release and writing it out.
    Write,
}

impl Stage {
    pub fn name(self) -> &'static str {
        match self {
            Stage::Read => "read",
            Stage::Partition => "partition",
            Stage::Generalize => "generalize",
            Stage::Guard => "guard",
            Stage::Write => "write",
        }
    }
}

/// Laps of a job, in the order its stages ran.
#[derive(Debug, Clone)]
pub struct Stopwatch {
    last: Instant,
    laps: Vec<(Stage, Duration)>,
}

impl Default for Stopwatch {
    fn default() -> Self {
        Self::start()
    }
}

impl Stopwatch {
    /// A stopwatch whose first lap starts now.
    pub fn start() -> Stopwatch {
        Stopwatch {
            last: Instant::now(),
            laps: Vec::new(),
        }
    }

    /// Ends the current lap as `stage` (time since the previous lap ended,
    /// or since the start) and starts the next one.
    pub fn lap(&mut self, stage: Stage) {
        let now = Instant::now();
        self.laps.push((stage, now - self.last));
        self.last = now;
    }

    /// Restarts the current lap without recording it: time spent between
    /// stages that belongs to none of them.
    pub fn skip(&mut self) {
        self.last = Instant::now();
    }

    /// Appends another stopwatch's laps after this one's (a stage timed
    /// elsewhere, such as the job runner's inside the CLI's run); the
    /// current lap restarts.
    pub fn extend(&mut self, other: &Stopwatch) {
        self.laps.extend_from_slice(&other.laps);
        self.skip();
    }

    /// The laps, in the order they ran; a stage lapped twice appears twice.
    pub fn laps(&self) -> &[(Stage, Duration)] {
        &self.laps
    }

    /// The total of a stage's laps.
    pub fn total(&self, stage: Stage) -> Duration {
        self.laps
            .iter()
            .filter(|(s, _)| *s == stage)
            .map(|(_, d)| *d)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn laps_keep_their_order_and_add_up_per_stage() {
        let mut clock = Stopwatch::start();
        std::thread::sleep(Duration::from_millis(2));
        clock.lap(Stage::Partition);
        clock.lap(Stage::Generalize);
        std::thread::sleep(Duration::from_millis(2));
        clock.lap(Stage::Partition);
        let stages: Vec<Stage> = clock.laps().iter().map(|(s, _)| *s).collect();
        assert_eq!(
            stages,
            vec![Stage::Partition, Stage::Generalize, Stage::Partition]
        );
        assert!(clock.total(Stage::Partition) >= Duration::from_millis(4));
        assert!(clock.total(Stage::Partition) >= clock.total(Stage::Generalize));
        assert_eq!(clock.total(Stage::Write), Duration::ZERO);
    }

    #[test]
    fn a_skipped_stretch_counts_for_no_stage() {
        let mut clock = Stopwatch::start();
        std::thread::sleep(Duration::from_millis(50));
        clock.skip();
        clock.lap(Stage::Read);
        assert!(clock.total(Stage::Read) < Duration::from_millis(50));
        let mut outer = Stopwatch::start();
        outer.lap(Stage::Read);
        outer.extend(&clock);
        assert_eq!(outer.laps().len(), 2);
    }
}
