//! One attribute's domain in key space: how a query interval is drawn over
//! it and how much of a group's box an interval covers (the workload's
//! rules, see the module doc of `utility::workload`).

use rand::rngs::StdRng;
use rand::Rng;

/// `[lo, hi]` in key space. A discrete domain is the integers lo..=hi
/// (integer-valued numbers, days, hierarchy leaf ranks); a continuous one
/// is the real interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Domain {
    pub lo: f64,
    pub hi: f64,
    pub discrete: bool,
}

impl Domain {
    /// The domain spanned by `keys`: discrete when every key is an integer.
    pub fn of(keys: &[f64]) -> Domain {
        let (lo, hi) = keys
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
                (lo.min(x), hi.max(x))
            });
        Domain {
            lo,
            hi,
            discrete: keys.iter().all(|x| x.fract() == 0.0),
        }
    }

    /// The integers `0..n` (the leaf ranks of a hierarchy with n leaves).
    pub fn ranks(n: usize) -> Domain {
        Domain {
            lo: 0.0,
            hi: n as f64 - 1.0,
            discrete: true,
        }
    }

    /// A random closed interval covering a fraction `f` of the domain,
    /// uniformly placed among the positions where it fits. Discrete:
    /// ⌊|A|·f⌋ integers with |A| = hi − lo + 1 (the (ε,m) paper's "length
    /// (in the number of integers) ⌊|Ai|·s^(1/w)⌋"), at least one so that
    /// a tiny domain still gets a predicate. Continuous: length (hi − lo)·f.
    pub fn draw(&self, f: f64, rng: &mut StdRng) -> (f64, f64) {
        if self.discrete {
            let size = self.hi - self.lo + 1.0;
            let len = (size * f).floor().max(1.0);
            let start = self.lo + (rng.gen::<f64>() * (size - len + 1.0)).floor();
            (start, start + len - 1.0)
        } else {
            let len = (self.hi - self.lo) * f;
            let start = self.lo + rng.gen::<f64>() * (self.hi - self.lo - len);
            (start, start + len)
        }
    }

    /// The fraction of the box `[l, h]` (inside this domain) that `[a, b]`
    /// covers, values being uniform inside the box: over the box's integers
    /// when discrete (a box [1-2] is two values, not a length of one), over
    /// its length otherwise (a point box counts wholly when inside).
    #[inline]
    pub fn overlap(&self, (l, h): (f64, f64), (a, b): (f64, f64)) -> f64 {
        if self.discrete {
            let covered = (h.min(b) - l.max(a) + 1.0).max(0.0);
            covered / (h - l + 1.0)
        } else if h > l {
            (h.min(b) - l.max(a)).max(0.0) / (h - l)
        } else if a <= l && l <= b {
            1.0
        } else {
            0.0
        }
    }
}
