from typing import Literal

OnMissingDto = Literal["reject", "suppress"]

ON_MISSING_DTO_VALUES: set[OnMissingDto] = {
    "reject",
    "suppress",
}


def check_on_missing_dto(value: str) -> OnMissingDto:
    if value in ON_MISSING_DTO_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ON_MISSING_DTO_VALUES!r}")
