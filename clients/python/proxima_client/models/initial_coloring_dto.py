from typing import Literal

InitialColoringDto = Literal["degree_balanced", "qi_aware"]

INITIAL_COLORING_DTO_VALUES: set[InitialColoringDto] = {
    "degree_balanced",
    "qi_aware",
}


def check_initial_coloring_dto(value: str) -> InitialColoringDto:
    if value in INITIAL_COLORING_DTO_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {INITIAL_COLORING_DTO_VALUES!r}")
