//! Agreement with ARX on real tables: the figures below were produced by
//! ARX's own `RiskModelPopulationUniqueness` (arx-deidentifier/arx at
//! aacd487f, 2025-09-12, default `ARXSolverConfiguration`, population from
//! `ARXPopulationModel.create(n, π)`) on the frequency table of each
//! shared table's raw published QI values. Pitman and Zayatz must agree
//! to the solver's accuracy. SNB is left out: ARX's SNB has two
//! transcription errors (see snb.rs) and converges on none of these
//! tables, where the model's equations do on adult at π = 0.5.

use super::close;
use crate::audit::group_by_published_qis;
use crate::ingest::shared::{load_shared, SharedTable};
use crate::risk::{population_uniqueness, Choice, ClassSizes, Estimate, Population};

/// (π, ARX's Pitman, ARX's Zayatz); a Pitman of `None` is ARX's 0 (no
/// valid estimate).
type Expected = [(f64, Option<f64>, f64); 3];

fn check(table: SharedTable, expected: Expected) {
    let Some(t) = load_shared(table) else { return };
    let t = t.unwrap();
    let (groups, _) = group_by_published_qis(&t);
    let classes = ClassSizes::from_partition(&groups);
    for (fraction, pitman, zayatz) in expected {
        let p = population_uniqueness(&classes, Population::SamplingFraction(fraction));
        match pitman {
            Some(v) => {
                let got = p.pitman.uniques().unwrap();
                assert!(
                    close(got, v, 1e-7),
                    "{table:?} π={fraction}: Pitman {got} vs ARX {v}"
                );
            }
            None => assert!(
                !p.pitman.is_valid(),
                "{table:?} π={fraction}: {:?}",
                p.pitman
            ),
        }
        let got = p.zayatz.uniques().unwrap();
        assert!(
            close(got, zayatz, 1e-12),
            "{table:?} π={fraction}: Zayatz {got} vs ARX {zayatz}"
        );
        // Below π = 0.1 the rule does not consult SNB: same choice as ARX.
        if fraction <= 0.1 {
            let arx_choice = if pitman.is_some() {
                Choice::PitmanSmallFraction
            } else {
                Choice::ZayatzPitmanFailed
            };
            assert_eq!(p.choice, arx_choice);
        }
    }
}

#[test]
fn adult_matches_arx() {
    check(
        SharedTable::Adult,
        [
            (0.01, Some(361_577.919_022_22), 674_264.164_167_662_7),
            (0.1, Some(72_139.034_675_608_43), 82_637.151_663_379_95),
            (0.5, Some(23_381.332_284_320_46), 23_198.999_762_168_965),
        ],
    );
}

#[test]
fn creditcard_matches_arx() {
    check(
        SharedTable::CreditCard,
        [
            (0.01, Some(374.515_679_250_751_25), 561.292_868_469_980_9),
            (0.1, Some(296.248_182_503_666), 421.813_000_052_180_54),
            (0.5, Some(251.472_527_084_451_03), 276.870_487_428_506_4),
        ],
    );
}

#[test]
fn fars_matches_arx() {
    // Pitman does not converge on fars in ARX either: Zayatz decides.
    check(
        SharedTable::Fars,
        [
            (0.01, None, 2_099_002.676_327_340_3),
            (0.1, None, 309_208.150_546_257_15),
            (0.5, None, 81_380.759_723_722_02),
        ],
    );
}

#[test]
fn estimates_are_not_converged_rather_than_zero() {
    // Where ARX reports 0 for a model that failed, the estimate says why.
    let c = ClassSizes::from_sizes([1, 1, 2]);
    let p = population_uniqueness(&c, Population::Size(8));
    assert!(matches!(
        p.snb,
        Estimate::NotConverged | Estimate::Undefined
    ));
}
