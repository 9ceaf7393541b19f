//! A cache prefetch hint, for loops that visit rows in an order the
//! hardware cannot guess (a release's groups, scattered over the table):
//! asking for the lines of rows a little ahead lets their fetches overlap
//! instead of each load waiting for memory in turn. A hint only: it reads
//! nothing the program sees and never faults, so results cannot change.

/// Asks the CPU to bring the cache line holding `p` closer (no effect off
/// x86-64).
#[inline(always)]
pub(crate) fn line(p: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults and has no visible effect; SSE is
    // part of every x86-64 CPU.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}
