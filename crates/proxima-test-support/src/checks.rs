//! The audit checks of the au-600k case (BENCHMARKS.md: "all audit
//! checks"): every check kind once, with fixed parameters. Shared by the
//! 600k timing test, the cancellation test and `examples/profile_case.rs`.

use proxima_core::audit::AuditCheck;
use proxima_core::params::*;

/// Every audit check kind, with `k` where a check takes one.
pub fn every_check(k: K) -> Vec<AuditCheck> {
    vec![
        AuditCheck::KAnonymity { k },
        AuditCheck::LDiversity {
            l: 2.0,
            variant: LDiversityVariant::Entropy,
        },
        AuditCheck::LDiversity {
            l: 2.0,
            variant: LDiversityVariant::Recursive { c: 3.0 },
        },
        AuditCheck::AlphaK {
            alpha: Fraction::new(0.5, "a", "/a").unwrap(),
            k,
        },
        AuditCheck::EpsilonM(
            EpsilonM::new(
                Epsilon::new(2.0, "/e").unwrap(),
                M::new(3, "/m").unwrap(),
                Neighborhood::Absolute,
                "/e",
            )
            .unwrap(),
        ),
        AuditCheck::EpsilonM(
            EpsilonM::new(
                Epsilon::new(0.1, "/e").unwrap(),
                M::new(3, "/m").unwrap(),
                Neighborhood::Relative,
                "/e",
            )
            .unwrap(),
        ),
        AuditCheck::Dissimilarity {
            params: Dissimilarity {
                epsilon: Epsilon::new(2.0, "/e").unwrap(),
                delta: Fraction::new(0.5, "d", "/d").unwrap(),
                k,
            },
            metric: None,
        },
        AuditCheck::DeltaLDiversity { delta: 1.0, l: 2 },
        AuditCheck::TCloseness {
            t: Fraction::new(0.2, "t", "/t").unwrap(),
            ground: GroundDistance::Ordered,
        },
        AuditCheck::TCloseness {
            t: Fraction::new(0.2, "t", "/t").unwrap(),
            ground: GroundDistance::Equal,
        },
    ]
}
