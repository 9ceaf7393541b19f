from typing import Literal

MinimumSuppressionBound = Literal["lower_bound"]

MINIMUM_SUPPRESSION_BOUND_VALUES: set[MinimumSuppressionBound] = {
    "lower_bound",
}


def check_minimum_suppression_bound(value: str) -> MinimumSuppressionBound:
    if value in MINIMUM_SUPPRESSION_BOUND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {MINIMUM_SUPPRESSION_BOUND_VALUES!r}")
