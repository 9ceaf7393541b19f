from typing import Literal

FeasibilityBound = Literal["per_group_upper_bound"]

FEASIBILITY_BOUND_VALUES: set[FeasibilityBound] = {
    "per_group_upper_bound",
}


def check_feasibility_bound(value: str) -> FeasibilityBound:
    if value in FEASIBILITY_BOUND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {FEASIBILITY_BOUND_VALUES!r}")
