from typing import Literal

SudaColumns = Literal["published", "quasi_identifiers"]

SUDA_COLUMNS_VALUES: set[SudaColumns] = {
    "published",
    "quasi_identifiers",
}


def check_suda_columns(value: str) -> SudaColumns:
    if value in SUDA_COLUMNS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {SUDA_COLUMNS_VALUES!r}")
