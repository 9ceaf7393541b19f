//! How the process gives freed memory back to the system.
//!
//! Loading a table builds it block by block (the CSV's pieces, the stored
//! table's frames) and frees every block once the columns are assembled.
//! glibc serves those blocks (up to 32 MiB each once its threshold has
//! grown) from its heap, and a freed block stays resident there: the
//! job's next stages allocate columns of the whole table's length, which
//! glibc maps anew beside it. So a loaded table costs its size twice in
//! the resident set until the process ends. [`release_free_memory`] hands
//! the heap's free pages back to the system; it is called where a load has
//! just freed its blocks and the job's working set is about to grow.
//!
//! A fixed low mmap threshold would return every large block as it is
//! freed, but it costs each stage fresh pages to fault in and zero (7–20 %
//! of the time of 600k-row jobs, measured); trimming at a few points costs
//! one pass over the heap each (docs/performance.md §Memory).

/// Tables from this many rows on return the heap's free pages after their
/// load. A smaller table's blocks are a few MiB; returning them only makes
/// its next stage fault the pages back in (e2e-adult, 30k rows, ran
/// 1.03–1.16× slower with a trim after every load). A 500k-row table
/// gains: e2e-sal's server peak went from 353–413 to 222–236 MiB at the
/// same time.
pub const RELEASE_FROM_ROWS: usize = 1 << 18;

/// [`release_free_memory`] after loading a table of `rows` rows, when it
/// is large enough to matter ([`RELEASE_FROM_ROWS`]).
pub fn release_after_load(rows: usize) {
    if rows >= RELEASE_FROM_ROWS {
        release_free_memory();
    }
}

/// Returns the heap's free pages to the system (glibc's `malloc_trim`); a
/// no-op on other C libraries. Pages freed again later are refaulted only
/// when they are used again.
pub fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: malloc_trim only returns free pages, under the
        // allocator's locks.
        unsafe { libc::malloc_trim(0) };
    }
}

#[cfg(all(test, target_os = "linux", target_env = "gnu"))]
mod tests {
    use super::*;

    /// The process's resident set, bytes.
    fn resident() -> usize {
        let status = std::fs::read_to_string("/proc/self/statm").unwrap();
        let pages: usize = status.split_whitespace().nth(1).unwrap().parse().unwrap();
        pages * 4096
    }

    /// Set in the child process that measures alone.
    const ALONE: &str = "PROXIMA_ALLOCATOR_TEST_ALONE";

    /// The resident set is the whole process's: beside the other tests of
    /// the binary (their threads allocating and freeing at the same time)
    /// the figures move by more than the trim returns, and the test failed
    /// now and then. So it re-runs itself, this test only, in a child
    /// process of its own, and passes when the child does.
    #[test]
    fn freed_heap_blocks_leave_the_resident_set() {
        if std::env::var_os(ALONE).is_none() {
            let name = "allocator::tests::freed_heap_blocks_leave_the_resident_set";
            let out = std::process::Command::new(std::env::current_exe().unwrap())
                .args([name, "--exact", "--nocapture", "--test-threads", "1"])
                .env(ALONE, "1")
                .output()
                .unwrap();
            let said = String::from_utf8_lossy(&out.stdout).into_owned()
                + &String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "the test alone failed:\n{said}");
            assert!(
                said.contains("1 passed"),
                "the test alone did not run:\n{said}"
            );
            return;
        }
        // Many blocks below glibc's mmap threshold (as a load's are),
        // touched, then freed: they stay resident until trimmed.
        let blocks: Vec<Vec<u8>> = (0..256)
            .map(|i| std::hint::black_box(vec![i as u8 | 1; 100 << 10]))
            .collect();
        let kept = std::hint::black_box(vec![1u8; 1 << 10]); // pins the heap's top
        drop(blocks);
        let before = resident();
        release_free_memory();
        let after = resident();
        assert!(
            after + (12 << 20) < before,
            "trimming returns the freed 25 MiB: {before} → {after}"
        );
        drop(kept);
    }
}
