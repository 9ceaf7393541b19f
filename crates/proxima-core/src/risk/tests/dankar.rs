use crate::risk::uniqueness::dankar;
use crate::risk::{Choice, Estimate, UniquenessModel};

const NC: Estimate = Estimate::NotConverged;

fn u(x: f64) -> Estimate {
    Estimate::Uniques(x)
}

#[test]
fn every_branch_of_the_rule() {
    // No sample uniques: nothing is consulted.
    assert_eq!(
        dankar(0, 0.01, u(5.0), u(6.0), u(7.0)),
        Choice::NoSampleUniques
    );
    // π ≤ 0.1 (0.1 itself included): Pitman when valid…
    assert_eq!(
        dankar(3, 0.1, u(5.0), u(1.0), u(1.0)),
        Choice::PitmanSmallFraction
    );
    // …else Zayatz: not converged, undefined, NaN and 0 are all invalid.
    for bad in [NC, Estimate::Undefined, u(f64::NAN), u(0.0)] {
        assert_eq!(
            dankar(3, 0.05, bad, u(9.0), u(1.0)),
            Choice::ZayatzPitmanFailed
        );
    }
    // π > 0.1: the smaller of Zayatz and SNB; SNB on a tie.
    assert_eq!(
        dankar(3, 0.2, u(1.0), u(4.0), u(5.0)),
        Choice::ZayatzBelowSnb
    );
    assert_eq!(
        dankar(3, 0.2, u(1.0), u(5.0), u(4.0)),
        Choice::SnbNotAboveZayatz
    );
    assert_eq!(
        dankar(3, 0.2, u(1.0), u(5.0), u(5.0)),
        Choice::SnbNotAboveZayatz
    );
    // SNB invalid: Zayatz.
    assert_eq!(dankar(3, 0.5, u(1.0), u(5.0), NC), Choice::ZayatzSnbFailed);
    // The chosen model invalid too: reported as 0 with the model named.
    assert_eq!(
        dankar(3, 0.05, NC, Estimate::Undefined, u(1.0)),
        Choice::NoValidEstimate(UniquenessModel::Zayatz)
    );
    // ARX compares raw values: a Zayatz of 0 is "smaller" than SNB, then
    // invalid.
    assert_eq!(
        dankar(3, 0.5, u(1.0), u(0.0), u(4.0)),
        Choice::NoValidEstimate(UniquenessModel::Zayatz)
    );
}

#[test]
fn choices_name_their_model() {
    assert_eq!(
        Choice::PitmanSmallFraction.model(),
        Some(UniquenessModel::Pitman)
    );
    assert_eq!(
        Choice::SnbNotAboveZayatz.model(),
        Some(UniquenessModel::Snb)
    );
    assert_eq!(
        Choice::ZayatzSnbFailed.model(),
        Some(UniquenessModel::Zayatz)
    );
    assert_eq!(Choice::NoSampleUniques.model(), None);
    assert!(Choice::ZayatzPitmanFailed
        .explanation()
        .contains("did not converge"));
}
