from typing import Literal

Neighborhood = Literal["absolute", "relative"]

NEIGHBORHOOD_VALUES: set[Neighborhood] = {
    "absolute",
    "relative",
}


def check_neighborhood(value: str) -> Neighborhood:
    if value in NEIGHBORHOOD_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {NEIGHBORHOOD_VALUES!r}")
