from typing import Literal

Role = Literal["identifier", "insensitive", "quasi_identifier", "sensitive"]

ROLE_VALUES: set[Role] = {
    "identifier",
    "insensitive",
    "quasi_identifier",
    "sensitive",
}


def check_role(value: str) -> Role:
    if value in ROLE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ROLE_VALUES!r}")
