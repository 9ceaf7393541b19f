from typing import Literal

RoleDto = Literal["identifier", "insensitive", "quasi_identifier", "sensitive"]

ROLE_DTO_VALUES: set[RoleDto] = {
    "identifier",
    "insensitive",
    "quasi_identifier",
    "sensitive",
}


def check_role_dto(value: str) -> RoleDto:
    if value in ROLE_DTO_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ROLE_DTO_VALUES!r}")
