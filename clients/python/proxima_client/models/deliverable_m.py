from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DeliverableM")


@_attrs_define
class DeliverableM:
    """The m the service delivers for sure on this table, without suppression:
    the whole table is a valid group in the attacker's view, so a job at
    any m up to this one succeeds.

        Attributes:
            max_m (int):
            suppression_limit (float): The suppression this figure assumes: 0.
    """

    max_m: int
    suppression_limit: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        max_m = self.max_m

        suppression_limit = self.suppression_limit

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "max_m": max_m,
                "suppression_limit": suppression_limit,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        max_m = d.pop("max_m")

        suppression_limit = d.pop("suppression_limit")

        deliverable_m = cls(
            max_m=max_m,
            suppression_limit=suppression_limit,
        )

        deliverable_m.additional_properties = d
        return deliverable_m

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
