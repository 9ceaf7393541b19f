//! The jobs this process is running, by id: a cancel or a deletion heard
//! on its channel (`NOTIFY`) reaches the job's body at its next
//! checkpoint, where the heartbeat would carry it only at its next beat (up
//! to a heartbeat period later, plus the beat's round trip). The heartbeat
//! still carries both: a notification lost while the listener reconnects
//! costs only that delay.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use uuid::Uuid;

/// Why a running job is told to stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StopReason {
    /// The user asked to cancel: the job ends `cancelled`.
    UserCancel,
    /// The job is no longer this attempt's (deleted with its dataset, or
    /// its lease lost): nothing is written.
    Lost,
}

/// What a running job is told when it must stop.
pub(crate) trait Stop: Send + Sync {
    /// Stop at the next checkpoint, for `why`.
    fn stop(&self, why: StopReason);
}

/// Running jobs by id.
#[derive(Default)]
pub(crate) struct RunningJobs(Mutex<HashMap<Uuid, Arc<dyn Stop>>>);

impl RunningJobs {
    /// Registers `job` as running here until the returned guard drops.
    pub(crate) fn enter(self: &Arc<Self>, job: Uuid, stop: Arc<dyn Stop>) -> Entered {
        self.lock().insert(job, stop.clone());
        Entered {
            jobs: self.clone(),
            job,
            stop,
        }
    }

    /// Tells `job` to stop, for `why`, if it runs here; `false` when it
    /// does not (it runs elsewhere, or has ended).
    pub(crate) fn stop(&self, job: Uuid, why: StopReason) -> bool {
        // Cloned out so that the job's flags are set without the lock held.
        let stop = self.lock().get(&job).cloned();
        stop.map(|s| s.stop(why)).is_some()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Uuid, Arc<dyn Stop>>> {
        // The map stays consistent whatever panicked while holding it.
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// A job's registration; dropping it removes the job.
pub(crate) struct Entered {
    jobs: Arc<RunningJobs>,
    job: Uuid,
    stop: Arc<dyn Stop>,
}

impl Drop for Entered {
    fn drop(&mut self) {
        let mut jobs = self.jobs.lock();
        // Only its own entry: a later attempt of the same job, claimed here
        // again after this one lost its lease, may have replaced it.
        if jobs
            .get(&self.job)
            .is_some_and(|s| Arc::ptr_eq(s, &self.stop))
        {
            jobs.remove(&self.job);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Counts the stops it is told, and keeps the last reason.
    #[derive(Default)]
    struct Count(AtomicUsize, Mutex<Option<StopReason>>);

    impl Stop for Count {
        fn stop(&self, why: StopReason) {
            self.0.fetch_add(1, Ordering::Relaxed);
            *self.1.lock().unwrap() = Some(why);
        }
    }

    #[test]
    fn a_stop_reaches_only_the_named_job_while_it_runs() {
        let jobs = Arc::new(RunningJobs::default());
        let (a, b) = (Arc::new(Count::default()), Arc::new(Count::default()));
        let (ida, idb) = (Uuid::new_v4(), Uuid::new_v4());
        let entered_a = jobs.enter(ida, a.clone());
        let entered_b = jobs.enter(idb, b.clone());
        assert!(jobs.stop(ida, StopReason::UserCancel));
        assert_eq!(a.0.load(Ordering::Relaxed), 1);
        assert_eq!(*a.1.lock().unwrap(), Some(StopReason::UserCancel));
        assert_eq!(b.0.load(Ordering::Relaxed), 0);
        assert!(
            !jobs.stop(Uuid::new_v4(), StopReason::Lost),
            "a job not running here"
        );
        drop(entered_a);
        assert!(
            !jobs.stop(ida, StopReason::UserCancel),
            "an ended job is no longer reachable"
        );
        assert_eq!(a.0.load(Ordering::Relaxed), 1);
        assert!(jobs.stop(idb, StopReason::Lost));
        assert_eq!(*b.1.lock().unwrap(), Some(StopReason::Lost));
        drop(entered_b);
        assert!(jobs.0.lock().unwrap().is_empty());
    }

    #[test]
    fn an_old_attempt_ending_leaves_a_new_one_reachable() {
        let jobs = Arc::new(RunningJobs::default());
        let id = Uuid::new_v4();
        let (old, new) = (Arc::new(Count::default()), Arc::new(Count::default()));
        let entered_old = jobs.enter(id, old.clone());
        let entered_new = jobs.enter(id, new.clone());
        drop(entered_old);
        assert!(jobs.stop(id, StopReason::UserCancel));
        assert_eq!(new.0.load(Ordering::Relaxed), 1);
        assert_eq!(old.0.load(Ordering::Relaxed), 0);
        drop(entered_new);
        assert!(!jobs.stop(id, StopReason::UserCancel));
    }
}
