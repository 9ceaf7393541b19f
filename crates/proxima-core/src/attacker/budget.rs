//! The attacker's view's memory, bounded in bytes and checked before
//! allocating: the candidate sets of an uploaded table whose group boxes
//! overlap grow with the arrangement of the boxes (quadratic in the groups
//! per QI, and more over several QIs), so a 6,000-row table could take
//! gigabytes. Each structure that grows with the overlap — the cells of a
//! group's box being enumerated, the interned sets, the (set, victim)
//! pairs and their per-set lists — charges its bytes here first; past the
//! budget the view stops with `attacker_view_too_large` before the memory
//! is taken.

use crate::error::{CoreError, CoreResult, ErrorKind};

/// The default budget: 512 MiB.
pub const DEFAULT_VIEW_BUDGET_BYTES: usize = 512 << 20;

/// Bytes of one stored set of `len` group ids, with its bookkeeping (a
/// vector's header and a hash-set slot).
pub(crate) fn set_bytes(len: usize) -> usize {
    len * 4 + 48
}

/// The bytes in use against a limit.
#[derive(Debug, Clone)]
pub(crate) struct Budget {
    limit: usize,
    used: usize,
}

impl Budget {
    pub fn new(limit: usize) -> Self {
        Budget { limit, used: 0 }
    }

    /// Takes `bytes`, or refuses when they would pass the limit.
    pub fn charge(&mut self, bytes: usize) -> CoreResult<()> {
        let total = self.used.saturating_add(bytes);
        if total > self.limit {
            return Err(over_budget(self.limit, total));
        }
        self.used = total;
        Ok(())
    }

    /// The bytes charged and not released.
    pub fn used(&self) -> usize {
        self.used
    }

    /// Gives back `bytes` charged earlier (transient structures freed).
    pub fn release(&mut self, bytes: usize) {
        self.used = self.used.saturating_sub(bytes);
    }

    /// A budget for one of `parts` concurrent runs: an equal share of
    /// what is left.
    pub fn share(&self, parts: usize) -> Budget {
        Budget::new((self.limit - self.used) / parts.max(1))
    }
}

/// The refusal: a clear 422 naming the budget.
pub(crate) fn over_budget(limit: usize, needed: usize) -> CoreError {
    CoreError::new(
        ErrorKind::AttackerViewTooLarge,
        format!(
            "judging this table in the attacker's view needs more than its memory budget of {limit} bytes: \
             its groups publish boxes that overlap so much that a victim's candidate sets are too many to \
             enumerate; audit it per group (\"view\": \"groups\"), or generalize it into fewer, less \
             overlapping groups"
        ),
    )
    .with_detail("budget_bytes", limit)
    .with_detail("needed_bytes_at_least", needed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charges_are_refused_past_the_limit_and_released() {
        let mut b = Budget::new(100);
        b.charge(60).unwrap();
        let e = b.charge(41).unwrap_err();
        assert_eq!(e.kind, ErrorKind::AttackerViewTooLarge);
        b.release(60);
        b.charge(100).unwrap();
        assert_eq!(b.share(2).limit, 0);
    }
}
