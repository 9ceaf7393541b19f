from typing import Literal

QuasiIdentifiersGroupsBy = Literal["quasi_identifiers"]

QUASI_IDENTIFIERS_GROUPS_BY_VALUES: set[QuasiIdentifiersGroupsBy] = {
    "quasi_identifiers",
}


def check_quasi_identifiers_groups_by(value: str) -> QuasiIdentifiersGroupsBy:
    if value in QUASI_IDENTIFIERS_GROUPS_BY_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {QUASI_IDENTIFIERS_GROUPS_BY_VALUES!r}")
