//! How the process gives freed memory back to the system.
//!
//! A job's stages each build large per-row columns and free them when the
//! next stage starts (the CSV's blocks once the table is assembled, the
//! cut's scratch once the partition is done, the guard's sets once it has
//! judged). glibc serves an allocation from `mmap` only above a threshold
//! that it raises, after the first such block is freed, up to 32 MiB. From
//! then on every column below that size — a block of the upload, a
//! thread's scratch — comes from the heap, and once freed it stays
//! resident: the next stage's larger columns are mapped anew beside it.
//! A fixed threshold maps every allocation of [`MAP_FROM`] or more on its
//! own and unmaps it when it is freed, so the resident set follows what is
//! alive (docs/performance.md §Memory has the measurements).

/// Allocations from this size on are mapped on their own (and unmapped
/// when freed). Small enough for a 64k-row block's column (512 KiB of
/// `f64`), large enough that the many small allocations of parsing and
/// serving stay in the heap.
pub const MAP_FROM: usize = 256 * 1024;

/// Fixes glibc's mmap threshold at [`MAP_FROM`]. Call it first thing, so
/// that every large block is placed by the fixed rule; a no-op on other C
/// libraries.
pub fn map_large_blocks_on_their_own() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: mallopt only sets an allocator parameter, under the
        // allocator's lock. Should it refuse (it returns 0), the default
        // threshold stays: more memory, same results.
        unsafe { libc::mallopt(libc::M_MMAP_THRESHOLD, MAP_FROM as libc::c_int) };
    }
}

#[cfg(all(test, target_os = "linux", target_env = "gnu"))]
mod tests {
    use super::*;

    /// Bytes glibc holds in mapped blocks of their own.
    fn mapped() -> usize {
        // SAFETY: mallinfo2 only reads the allocator's counters.
        unsafe { libc::mallinfo2() }.hblkhd
    }

    #[test]
    fn a_freed_large_block_does_not_raise_the_threshold() {
        map_large_blocks_on_their_own();
        // glibc's own rule would raise its threshold to 8 MiB when this
        // mapped block is freed, and serve the next one from the heap.
        drop(std::hint::black_box(vec![1u8; 8 << 20]));
        let before = mapped();
        let block = std::hint::black_box(vec![1u8; 2 * MAP_FROM]);
        assert!(
            mapped() >= before + block.len(),
            "a {} KiB block is mapped on its own",
            block.len() >> 10
        );
    }
}
