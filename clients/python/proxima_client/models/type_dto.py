from typing import Literal

TypeDto = Literal["categorical", "date", "numeric"]

TYPE_DTO_VALUES: set[TypeDto] = {
    "categorical",
    "date",
    "numeric",
}


def check_type_dto(value: str) -> TypeDto:
    if value in TYPE_DTO_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {TYPE_DTO_VALUES!r}")
