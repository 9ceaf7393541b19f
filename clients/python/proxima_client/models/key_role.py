from typing import Literal

KeyRole = Literal["admin", "reviewer", "submitter"]

KEY_ROLE_VALUES: set[KeyRole] = {
    "admin",
    "reviewer",
    "submitter",
}


def check_key_role(value: str) -> KeyRole:
    if value in KEY_ROLE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {KEY_ROLE_VALUES!r}")
