from typing import Literal

NeighborhoodDto = Literal["absolute", "relative"]

NEIGHBORHOOD_DTO_VALUES: set[NeighborhoodDto] = {
    "absolute",
    "relative",
}


def check_neighborhood_dto(value: str) -> NeighborhoodDto:
    if value in NEIGHBORHOOD_DTO_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {NEIGHBORHOOD_DTO_VALUES!r}")
