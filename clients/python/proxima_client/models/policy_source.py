from typing import Literal

PolicySource = Literal["default", "tenant"]

POLICY_SOURCE_VALUES: set[PolicySource] = {
    "default",
    "tenant",
}


def check_policy_source(value: str) -> PolicySource:
    if value in POLICY_SOURCE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {POLICY_SOURCE_VALUES!r}")
