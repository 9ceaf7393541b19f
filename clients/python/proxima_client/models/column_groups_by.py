from typing import Literal

ColumnGroupsBy = Literal["column"]

COLUMN_GROUPS_BY_VALUES: set[ColumnGroupsBy] = {
    "column",
}


def check_column_groups_by(value: str) -> ColumnGroupsBy:
    if value in COLUMN_GROUPS_BY_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {COLUMN_GROUPS_BY_VALUES!r}")
