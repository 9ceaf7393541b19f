from typing import Literal

GroundDistanceDto = Literal["equal", "hierarchical", "ordered"]

GROUND_DISTANCE_DTO_VALUES: set[GroundDistanceDto] = {
    "equal",
    "hierarchical",
    "ordered",
}


def check_ground_distance_dto(value: str) -> GroundDistanceDto:
    if value in GROUND_DISTANCE_DTO_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {GROUND_DISTANCE_DTO_VALUES!r}")
