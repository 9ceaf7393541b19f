from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SizeBucket")


@_attrs_define
class SizeBucket:
    """
    Attributes:
        groups (int):
        max_size (int):
        min_size (int):
        rows (int):
    """

    groups: int
    max_size: int
    min_size: int
    rows: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        groups = self.groups

        max_size = self.max_size

        min_size = self.min_size

        rows = self.rows

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "groups": groups,
                "max_size": max_size,
                "min_size": min_size,
                "rows": rows,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        groups = d.pop("groups")

        max_size = d.pop("max_size")

        min_size = d.pop("min_size")

        rows = d.pop("rows")

        size_bucket = cls(
            groups=groups,
            max_size=max_size,
            min_size=min_size,
            rows=rows,
        )

        size_bucket.additional_properties = d
        return size_bucket

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
