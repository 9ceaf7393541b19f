from typing import Literal

EpsilonMFeasibilityRequestKind = Literal["epsilon_m"]

EPSILON_M_FEASIBILITY_REQUEST_KIND_VALUES: set[EpsilonMFeasibilityRequestKind] = {
    "epsilon_m",
}


def check_epsilon_m_feasibility_request_kind(value: str) -> EpsilonMFeasibilityRequestKind:
    if value in EPSILON_M_FEASIBILITY_REQUEST_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {EPSILON_M_FEASIBILITY_REQUEST_KIND_VALUES!r}")
