//! A two-dimensional Newton–Raphson solver for the maximum-likelihood and
//! moment equations of the Pitman and SNB models.
//!
//! It behaves as the solver ARX configures (`ARXSolverConfiguration`,
//! linearbits' `NewtonRaphson2D`): accuracy 1e-6 on both equations, at most
//! 1000 iterations per try, first from the model's own start value and then
//! from the 16 deterministic start values {0, 0.33, 0.66, 0.99}²; a try is
//! abandoned when an iterate is NaN or leaves the model's domain. ARX also
//! stops after 1 s of wall time; we do not, so the result is deterministic
//! (the iteration bound already caps the work at 17 000 evaluations).

/// A point `(x, y)` or the value of the two equations at one.
pub type V2 = (f64, f64);
/// The Jacobian `[[∂f₁/∂x, ∂f₁/∂y], [∂f₂/∂x, ∂f₂/∂y]]`.
pub type J2 = [[f64; 2]; 2];

/// Both equations must be within this of 0.
pub const ACCURACY: f64 = 1e-6;
/// Newton steps per start value.
pub const ITERATIONS_PER_TRY: usize = 1000;

fn start_values() -> impl Iterator<Item = V2> {
    const GRID: [f64; 4] = [0.0, 0.33, 0.66, 0.99];
    GRID.into_iter()
        .flat_map(|a| GRID.into_iter().map(move |b| (a, b)))
}

/// A root of `f` (which returns the equations' values and their Jacobian),
/// or `None` when no try converges. `inside` says whether an iterate is in
/// the model's domain.
pub fn solve(f: impl FnMut(V2) -> (V2, J2), start: V2, inside: impl Fn(V2) -> bool) -> Option<V2> {
    solve_within(f, start, inside, usize::MAX)
}

/// [`solve`] with at most `evaluations` evaluations of `f` in all (a work
/// bound where one evaluation costs O(n), in place of ARX's time limit).
pub fn solve_within(
    mut f: impl FnMut(V2) -> (V2, J2),
    start: V2,
    inside: impl Fn(V2) -> bool,
    evaluations: usize,
) -> Option<V2> {
    let mut left = evaluations;
    for s in std::iter::once(start).chain(start_values()) {
        let mut x = s;
        for _ in 0..=ITERATIONS_PER_TRY {
            if left == 0 {
                return None;
            }
            left -= 1;
            let ((f1, f2), j) = f(x);
            if f1.abs() <= ACCURACY && f2.abs() <= ACCURACY {
                return Some(x);
            }
            let det = j[0][0] * j[1][1] - j[0][1] * j[1][0];
            let dx = (j[1][1] * f1 - j[0][1] * f2) / det;
            let dy = (j[0][0] * f2 - j[1][0] * f1) / det;
            x = (x.0 - dx, x.1 - dy);
            if x.0.is_nan() || x.1.is_nan() || !inside(x) {
                break;
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_a_root_of_a_nonlinear_system() {
        // x² + y² = 4, x·y = 1 → a root with x, y > 0.
        let root = solve(
            |(x, y)| {
                (
                    (x * x + y * y - 4.0, x * y - 1.0),
                    [[2.0 * x, 2.0 * y], [y, x]],
                )
            },
            (2.0, 0.5),
            |_| true,
        )
        .unwrap();
        assert!((root.0 * root.0 + root.1 * root.1 - 4.0).abs() <= ACCURACY);
        assert!((root.0 * root.1 - 1.0).abs() <= ACCURACY);
    }

    #[test]
    fn reports_no_root_when_there_is_none() {
        // x² + 1 = 0 has no real root.
        let none = solve(
            |(x, y)| ((x * x + 1.0, y), [[2.0 * x, 0.0], [0.0, 1.0]]),
            (1.0, 1.0),
            |_| true,
        );
        assert_eq!(none, None);
    }

    #[test]
    fn stops_at_the_evaluation_budget() {
        let mut calls = 0;
        let none = solve_within(
            |(x, y)| {
                calls += 1;
                ((x * x + 1.0, y), [[2.0 * x, 0.0], [0.0, 1.0]])
            },
            (1.0, 1.0),
            |_| true,
            50,
        );
        assert_eq!((none, calls), (None, 50));
    }

    #[test]
    fn abandons_tries_that_leave_the_domain() {
        // The only root x = −1 lies outside x ≥ 0.
        let none = solve(
            |(x, y)| ((x + 1.0, y), [[1.0, 0.0], [0.0, 1.0]]),
            (1.0, 1.0),
            |(x, _)| x >= 0.0,
        );
        assert_eq!(none, None);
    }
}
