//! Frequency-based diversity measures of one group: distinct l-diversity,
//! entropy l-diversity, recursive (c,l)-diversity (Machanavajjhala et al.)
//! and the largest relative frequency of (α,k)-anonymity.

use super::GroupCounts;
use crate::params::LDiversityVariant;

/// Slack for `entropy ≥ ln l`: a group of exactly l equally frequent values
/// has entropy ln l mathematically, but the sum of l terms may round one ulp
/// below `l.ln()`. Far below any meaningful entropy difference.
const ENTROPY_SLACK: f64 = 1e-9;

/// Number of distinct SA values in the group.
pub fn distinct(g: &GroupCounts) -> usize {
    g.entries().len()
}

/// Shannon entropy of the group's SA distribution, natural log.
pub fn entropy(g: &GroupCounts) -> f64 {
    let n = g.total() as f64;
    if n == 0.0 {
        return 0.0;
    }
    -g.entries()
        .iter()
        .map(|&(_, c)| {
            let p = c as f64 / n;
            p * p.ln()
        })
        .sum::<f64>()
}

/// The entropy l a group achieves: exp(entropy) (1 for a single value).
pub fn entropy_l(g: &GroupCounts) -> f64 {
    entropy(g).exp()
}

/// Entropy l-diversity: entropy ≥ ln l (up to [`ENTROPY_SLACK`]).
pub fn satisfies_entropy(g: &GroupCounts, l: f64) -> bool {
    entropy(g) >= l.ln() - ENTROPY_SLACK
}

/// Counts in decreasing order (r₁ ≥ r₂ ≥ … ≥ r_m).
fn sorted_desc(g: &GroupCounts) -> Vec<u64> {
    let mut r: Vec<u64> = g.entries().iter().map(|&(_, c)| c).collect();
    r.sort_unstable_by(|a, b| b.cmp(a));
    r
}

/// Recursive (c,l)-diversity: r₁ < c·(r_l + … + r_m) with the counts sorted
/// decreasingly; false when the group has fewer than l distinct values.
pub fn recursive_cl(g: &GroupCounts, c: f64, l: usize) -> bool {
    let r = sorted_desc(g);
    if l == 0 {
        return true;
    }
    if r.len() < l {
        return false;
    }
    let tail: u64 = r[l - 1..].iter().sum();
    (r[0] as f64) < c * tail as f64
}

/// The largest l for which the group is recursive (c,l)-diverse (the tail
/// sum shrinks as l grows, so the satisfied l form a prefix 1..=l*); 0 when
/// not even l = 1 holds (c ≤ 1 with a single value, for instance).
pub fn max_recursive_l(g: &GroupCounts, c: f64) -> usize {
    let r = sorted_desc(g);
    let Some(&r1) = r.first() else { return 0 };
    let mut tail: u64 = r.iter().sum();
    let mut best = 0;
    for (i, &ri) in r.iter().enumerate() {
        // tail = r_{i+1} + … + r_m (1-based l = i + 1).
        if (r1 as f64) < c * tail as f64 {
            best = i + 1;
        } else {
            break;
        }
        tail -= ri;
    }
    best
}

/// Whether the group is l-diverse under the variant (distinct: ≥ l
/// distinct values; entropy: entropy ≥ ln l; recursive: (c,l) with l
/// taken as an integer, as [`crate::params::LDiversity`] validates).
pub fn is_l_diverse(g: &GroupCounts, l: f64, variant: LDiversityVariant) -> bool {
    match variant {
        LDiversityVariant::Distinct => distinct(g) as f64 >= l,
        LDiversityVariant::Entropy => satisfies_entropy(g, l),
        LDiversityVariant::Recursive { c } => recursive_cl(g, c, l as usize),
    }
}

/// The l a group achieves under the variant: its distinct count, its
/// entropy l (exp of the entropy), or the largest recursive (c,l).
pub fn achieved_l(g: &GroupCounts, variant: LDiversityVariant) -> f64 {
    match variant {
        LDiversityVariant::Distinct => distinct(g) as f64,
        LDiversityVariant::Entropy => entropy_l(g),
        LDiversityVariant::Recursive { c } => max_recursive_l(g, c) as f64,
    }
}

/// The largest relative frequency of one SA value in the group.
pub fn max_frequency(g: &GroupCounts) -> f64 {
    let n = g.total();
    if n == 0 {
        return 0.0;
    }
    g.entries().iter().map(|&(_, c)| c).max().unwrap_or(0) as f64 / n as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(codes: &[u32]) -> GroupCounts {
        GroupCounts::from_codes(codes.iter().copied())
    }

    #[test]
    fn distinct_entropy_and_frequency() {
        let x = g(&[0, 0, 1, 2]);
        assert_eq!(distinct(&x), 3);
        let h = -(0.5f64 * 0.5f64.ln() + 2.0 * 0.25 * 0.25f64.ln());
        assert!((entropy(&x) - h).abs() < 1e-12);
        assert_eq!(max_frequency(&x), 0.5);
        assert!(satisfies_entropy(&g(&[0, 1, 2]), 3.0));
        assert!(!satisfies_entropy(&g(&[0, 0, 1, 2]), 3.0));
        assert_eq!(entropy(&g(&[4, 4])), 0.0);
        assert!((entropy_l(&g(&[0, 1])) - 2.0).abs() < 1e-12);
    }

    #[test]
    fn recursive_cl_follows_the_definition() {
        // r = (3, 2, 1): (c=2, l=2): 3 < 2·(2+1) yes; (c=1, l=2): 3 < 3 no.
        let x = g(&[0, 0, 0, 1, 1, 2]);
        assert!(recursive_cl(&x, 2.0, 2));
        assert!(!recursive_cl(&x, 1.0, 2));
        // l=3: 3 < c·1 needs c > 3.
        assert!(!recursive_cl(&x, 3.0, 3));
        assert!(recursive_cl(&x, 3.5, 3));
        assert!(!recursive_cl(&x, 100.0, 4));
        assert_eq!(max_recursive_l(&x, 2.0), 2);
        assert_eq!(max_recursive_l(&x, 3.5), 3);
        assert_eq!(max_recursive_l(&g(&[1, 1]), 1.0), 0);
    }
}
