from typing import Literal

OnMissing = Literal["reject", "suppress"]

ON_MISSING_VALUES: set[OnMissing] = {
    "reject",
    "suppress",
}


def check_on_missing(value: str) -> OnMissing:
    if value in ON_MISSING_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ON_MISSING_VALUES!r}")
