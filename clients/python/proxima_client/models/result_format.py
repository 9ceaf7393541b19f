from typing import Literal

ResultFormat = Literal["csv", "json"]

RESULT_FORMAT_VALUES: set[ResultFormat] = {
    "csv",
    "json",
}


def check_result_format(value: str) -> ResultFormat:
    if value in RESULT_FORMAT_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {RESULT_FORMAT_VALUES!r}")
