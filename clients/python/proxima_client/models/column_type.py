from typing import Literal

ColumnType = Literal["categorical", "date", "numeric"]

COLUMN_TYPE_VALUES: set[ColumnType] = {
    "categorical",
    "date",
    "numeric",
}


def check_column_type(value: str) -> ColumnType:
    if value in COLUMN_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {COLUMN_TYPE_VALUES!r}")
