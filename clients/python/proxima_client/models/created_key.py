from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.key_role import KeyRole, check_key_role

T = TypeVar("T", bound="CreatedKey")


@_attrs_define
class CreatedKey:
    """A key just made.

    Attributes:
        id (UUID):
        key (str): The key itself: shown this once, never again.
        prefix (str): What names the key in logs and `proxima keys revoke`.
        role (KeyRole): The role an API key was created with.
        tenant (str):
    """

    id: UUID
    key: str
    prefix: str
    role: KeyRole
    tenant: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        key = self.key

        prefix = self.prefix

        role: str = self.role

        tenant = self.tenant

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "key": key,
                "prefix": prefix,
                "role": role,
                "tenant": tenant,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        key = d.pop("key")

        prefix = d.pop("prefix")

        role = check_key_role(d.pop("role"))

        tenant = d.pop("tenant")

        created_key = cls(
            id=id,
            key=key,
            prefix=prefix,
            role=role,
            tenant=tenant,
        )

        created_key.additional_properties = d
        return created_key

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
