from typing import Literal

EpsilonMModelKind = Literal["epsilon_m"]

EPSILON_M_MODEL_KIND_VALUES: set[EpsilonMModelKind] = {
    "epsilon_m",
}


def check_epsilon_m_model_kind(value: str) -> EpsilonMModelKind:
    if value in EPSILON_M_MODEL_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {EPSILON_M_MODEL_KIND_VALUES!r}")
