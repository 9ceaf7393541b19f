from typing import Literal

EpsilonMSweepModelKind = Literal["epsilon_m"]

EPSILON_M_SWEEP_MODEL_KIND_VALUES: set[EpsilonMSweepModelKind] = {
    "epsilon_m",
}


def check_epsilon_m_sweep_model_kind(value: str) -> EpsilonMSweepModelKind:
    if value in EPSILON_M_SWEEP_MODEL_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {EPSILON_M_SWEEP_MODEL_KIND_VALUES!r}")
