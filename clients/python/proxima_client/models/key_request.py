from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.key_role import KeyRole, check_key_role

T = TypeVar("T", bound="KeyRequest")


@_attrs_define
class KeyRequest:
    """The body of `POST /v1/keys`.

    Attributes:
        role (KeyRole): The role an API key was created with.
    """

    role: KeyRole

    def to_dict(self) -> dict[str, Any]:
        role: str = self.role

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "role": role,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        role = check_key_role(d.pop("role"))

        key_request = cls(
            role=role,
        )

        return key_request
