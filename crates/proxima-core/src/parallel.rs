//! Threads inside one job.
//!
//! Every parallel step of the core is a fork-join (`rayon::join`) over
//! disjoint data: the two halves of a median cut, the groups of a release,
//! the candidate sets of the attacker's view. Each step computes exactly
//! what the sequential code computes and assembles the parts in the
//! sequential order, so a job's result does not depend on the number of
//! threads (`tests/threads.rs` holds every partitioner to it).
//!
//! The number of threads is a property of the run, not of the request:
//! [`with_threads`] runs a job inside a pool of that many threads, and every
//! fork inside it uses that pool. Outside any pool (unit tests, examples)
//! forks run on rayon's global pool. The core never asks the machine how
//! many cores it has; the CLI and the service decide (`--threads`,
//! `--job-threads`).

use std::num::NonZeroUsize;

use crate::error::{CoreError, CoreResult, Field};

/// The prefix of the pool threads' names: the service's panic hook treats
/// these threads as holding microdata (their panics are logged redacted).
pub const THREAD_NAME_PREFIX: &str = "proxima-job-";

/// Nodes smaller than this are split on the current thread: below it a
/// fork costs more than the work it hands over.
pub(crate) const FORK_MIN_ROWS: usize = 16 * 1024;

/// How many threads one job may use (at least one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Threads(NonZeroUsize);

impl Threads {
    pub const ONE: Threads = Threads(NonZeroUsize::MIN);

    /// `n` threads; `field` names the setting in the error for 0.
    pub fn new(n: usize, field: impl Into<Field>) -> CoreResult<Threads> {
        NonZeroUsize::new(n).map(Threads).ok_or_else(|| {
            CoreError::invalid_parameters(field, "the number of threads must be at least 1")
        })
    }

    pub fn get(self) -> usize {
        self.0.get()
    }
}

/// Runs `work` with `threads` threads for every fork inside it. The
/// calling thread waits; a panic in `work` (on any of the threads) is
/// resumed here, so the caller's panic handling still applies.
pub fn with_threads<R: Send>(threads: Threads, work: impl FnOnce() -> R + Send) -> R {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.get())
        .thread_name(|i| format!("{THREAD_NAME_PREFIX}{i}"))
        .build();
    match pool {
        Ok(pool) => pool.install(work),
        // The OS refused a thread: the same work on this thread alone
        // (forks then run on rayon's global pool, if it can start).
        Err(_) => work(),
    }
}

/// Whether a node of `rows` rows should be split by forking: large enough,
/// and a pool of more than one thread. On one thread the partitioners run
/// their plain sequential engines, which the forking ones must reproduce
/// exactly (`tests/threads.rs` compares them).
pub(crate) fn fork_worthwhile(rows: usize) -> bool {
    rows >= FORK_MIN_ROWS && rayon::current_num_threads() > 1
}

/// Sorts `v` by `order`, on the pool's threads when it is large. `order`
/// must be a total order on what it distinguishes (equal elements must be
/// interchangeable), so that every sort gives the same result.
pub(crate) fn sort_unstable_by<T, F>(v: &mut [T], order: F)
where
    T: Send,
    F: Fn(&T, &T) -> std::cmp::Ordering + Sync,
{
    if fork_worthwhile(v.len()) {
        use rayon::slice::ParallelSliceMut;
        v.par_sort_unstable_by(order);
    } else {
        v.sort_unstable_by(order);
    }
}

/// `(a(), b())`, concurrently when the pool has a free thread.
pub(crate) fn join<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    RA: Send,
    RB: Send,
{
    rayon::join(a, b)
}

/// How many parts to cut a pass over `rows` rows into: one per thread of
/// the current pool, or one when the table is too small to be worth it.
pub(crate) fn parts_for(rows: usize) -> usize {
    if rows < PARALLEL_MIN_ROWS {
        1
    } else {
        rayon::current_num_threads().max(1)
    }
}

/// Tables below this many rows run their per-group passes on one thread.
const PARALLEL_MIN_ROWS: usize = 50_000;

/// `0..len` cut into at most `parts` consecutive, non-empty ranges of about
/// equal total `work` (each range ends at the first index whose prefix
/// reaches its share).
pub(crate) fn balanced_ranges(
    len: usize,
    parts: usize,
    work: impl Fn(usize) -> usize,
) -> Vec<std::ops::Range<usize>> {
    let total: usize = (0..len).map(&work).sum();
    let parts = parts.max(1);
    let mut ranges = Vec::with_capacity(parts);
    let (mut start, mut acc) = (0, 0usize);
    for i in 0..len {
        acc += work(i);
        let share = ranges.len() + 1;
        if share < parts && acc.saturating_mul(parts) >= total.saturating_mul(share) {
            ranges.push(start..i + 1);
            start = i + 1;
        }
    }
    if start < len || ranges.is_empty() {
        ranges.push(start..len);
    }
    ranges
}

/// `f` over consecutive ranges of `0..len` (balanced by `work`, one per
/// thread of the pool; one range on one thread or below
/// [`PARALLEL_MIN_ROWS`] of total work), the results in the ranges' order:
/// what one pass over `0..len` would give, for an `f` whose results can be
/// joined in order (the first of several, a sum taken in order).
pub(crate) fn map_ranges<T: Send>(
    len: usize,
    work: impl Fn(usize) -> usize,
    f: impl Fn(std::ops::Range<usize>) -> T + Sync,
) -> Vec<T> {
    use rayon::iter::{IntoParallelIterator, ParallelIterator};
    let total: usize = (0..len).map(&work).sum();
    let parts = parts_for(total);
    if parts <= 1 {
        return vec![f(0..len)];
    }
    balanced_ranges(len, parts, work)
        .into_par_iter()
        .map(&f)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn balanced_ranges_cover_in_order() {
        let r = balanced_ranges(10, 3, |_| 1);
        assert_eq!(r, vec![0..4, 4..7, 7..10]);
        let r = balanced_ranges(4, 2, |i| if i == 0 { 100 } else { 1 });
        assert_eq!(r, vec![0..1, 1..4]);
        assert_eq!(balanced_ranges(0, 4, |_| 1), vec![0..0]);
        assert_eq!(balanced_ranges(3, 1, |_| 1), vec![0..3]);
        for parts in 1..6 {
            let r = balanced_ranges(7, parts, |i| i);
            assert!(r.len() <= parts);
            assert_eq!(r.first().unwrap().start, 0);
            assert_eq!(r.last().unwrap().end, 7);
            assert!(r
                .windows(2)
                .all(|w| w[0].end == w[1].start && !w[1].is_empty()));
        }
    }

    #[test]
    fn ranges_are_mapped_in_order_and_cover_once() {
        // Enough work for several parts on a pool of three threads, and a
        // group larger than the rest put together.
        let sizes: Vec<usize> = (0..500)
            .map(|i| if i == 7 { 60_000 } else { i % 13 })
            .collect();
        for n in [1, 3] {
            let threads = Threads::new(n, "/threads").unwrap();
            let parts = with_threads(threads, || {
                map_ranges(sizes.len(), |i| sizes[i], |r| r.collect::<Vec<_>>())
            });
            assert_eq!(parts.len() > 1, n > 1, "{n} threads: {} parts", parts.len());
            let flat: Vec<usize> = parts.into_iter().flatten().collect();
            assert_eq!(flat, (0..sizes.len()).collect::<Vec<_>>());
        }
        // Below the threshold, one part even on several threads.
        let small = with_threads(Threads::new(3, "/t").unwrap(), || {
            map_ranges(10, |_| 1, |r| r.len())
        });
        assert_eq!(small, vec![10]);
    }

    #[test]
    fn a_pool_has_the_threads_it_was_given() {
        for n in [1, 3] {
            let threads = Threads::new(n, "/threads").unwrap();
            let seen = with_threads(threads, rayon::current_num_threads);
            assert_eq!(seen, n);
            let name = with_threads(threads, || std::thread::current().name().map(String::from));
            assert!(name.unwrap().starts_with(THREAD_NAME_PREFIX));
        }
        assert!(Threads::new(0, "/threads").is_err());
    }

    #[test]
    fn a_panic_reaches_the_caller() {
        let caught = std::panic::catch_unwind(|| {
            with_threads(Threads::ONE, || -> () { panic!("inside the pool") })
        });
        assert!(caught.is_err());
    }
}
