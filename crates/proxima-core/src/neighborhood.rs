//! The one neighbourhood test every partitioner and audit uses.
//!
//! Neighbourhoods are closed: a value at distance exactly ε *is* a
//! neighbour. Fast paths (sorted sweeps, indexes) must decide membership
//! with these functions on the same arithmetic as
//! [`crate::metric::SensitiveSpace::distance`], never with a rearranged
//! formula (`|x−y| ≤ ε·r` and `|x−y|/r ≤ ε` disagree at the boundary).

/// `distance ≤ epsilon`.
#[inline]
pub fn within(distance: f64, epsilon: f64) -> bool {
    distance <= epsilon
}

/// `lo ≤ value ≤ hi`.
#[inline]
pub fn in_closed_interval(value: f64, lo: f64, hi: f64) -> bool {
    lo <= value && value <= hi
}

/// The relative ε-neighbourhood of x: [x(1−ε), x(1+ε)] ((ε,m) paper, Def. 6).
#[inline]
pub fn relative_interval(x: f64, epsilon: f64) -> (f64, f64) {
    (x * (1.0 - epsilon), x * (1.0 + epsilon))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boundaries_are_closed() {
        assert!(within(0.1, 0.1));
        assert!(!within(0.1000001, 0.1));
        assert!(in_closed_interval(900.0, 900.0, 1100.0));
        assert!(in_closed_interval(1100.0, 900.0, 1100.0));
        assert!(!in_closed_interval(1100.5, 900.0, 1100.0));
        assert_eq!(relative_interval(1000.0, 0.1), (900.0, 1100.0));
    }
}
