from typing import Literal

InitialColoring = Literal["degree_balanced", "qi_aware"]

INITIAL_COLORING_VALUES: set[InitialColoring] = {
    "degree_balanced",
    "qi_aware",
}


def check_initial_coloring(value: str) -> InitialColoring:
    if value in INITIAL_COLORING_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {INITIAL_COLORING_VALUES!r}")
