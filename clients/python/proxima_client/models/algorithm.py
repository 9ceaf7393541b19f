from typing import Literal

Algorithm = Literal["epsilon_m", "mondrian", "xcolor"]

ALGORITHM_VALUES: set[Algorithm] = {
    "epsilon_m",
    "mondrian",
    "xcolor",
}


def check_algorithm(value: str) -> Algorithm:
    if value in ALGORITHM_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ALGORITHM_VALUES!r}")
