from typing import Literal

GroundDistance = Literal["equal", "hierarchical", "ordered"]

GROUND_DISTANCE_VALUES: set[GroundDistance] = {
    "equal",
    "hierarchical",
    "ordered",
}


def check_ground_distance(value: str) -> GroundDistance:
    if value in GROUND_DISTANCE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {GROUND_DISTANCE_VALUES!r}")
