from typing import Literal

ResultPurpose = Literal["owner_check", "publication"]

RESULT_PURPOSE_VALUES: set[ResultPurpose] = {
    "owner_check",
    "publication",
}


def check_result_purpose(value: str) -> ResultPurpose:
    if value in RESULT_PURPOSE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {RESULT_PURPOSE_VALUES!r}")
