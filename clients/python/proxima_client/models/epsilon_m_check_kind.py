from typing import Literal

EpsilonMCheckKind = Literal["epsilon_m"]

EPSILON_M_CHECK_KIND_VALUES: set[EpsilonMCheckKind] = {
    "epsilon_m",
}


def check_epsilon_m_check_kind(value: str) -> EpsilonMCheckKind:
    if value in EPSILON_M_CHECK_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {EPSILON_M_CHECK_KIND_VALUES!r}")
