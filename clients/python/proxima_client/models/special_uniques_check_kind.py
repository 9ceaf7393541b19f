from typing import Literal

SpecialUniquesCheckKind = Literal["special_uniques"]

SPECIAL_UNIQUES_CHECK_KIND_VALUES: set[SpecialUniquesCheckKind] = {
    "special_uniques",
}


def check_special_uniques_check_kind(value: str) -> SpecialUniquesCheckKind:
    if value in SPECIAL_UNIQUES_CHECK_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {SPECIAL_UNIQUES_CHECK_KIND_VALUES!r}")
