from typing import Literal

AlgorithmDto = Literal["epsilon_m", "mondrian", "xcolor"]

ALGORITHM_DTO_VALUES: set[AlgorithmDto] = {
    "epsilon_m",
    "mondrian",
    "xcolor",
}


def check_algorithm_dto(value: str) -> AlgorithmDto:
    if value in ALGORITHM_DTO_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ALGORITHM_DTO_VALUES!r}")
