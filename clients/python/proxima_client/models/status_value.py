from typing import Literal

StatusValue = Literal["ok", "ready"]

STATUS_VALUE_VALUES: set[StatusValue] = {
    "ok",
    "ready",
}


def check_status_value(value: str) -> StatusValue:
    if value in STATUS_VALUE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {STATUS_VALUE_VALUES!r}")
