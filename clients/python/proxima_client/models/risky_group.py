from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="RiskyGroup")


@_attrs_define
class RiskyGroup:
    """
    Attributes:
        candidates (int): The fewest candidates a row of this group has.
        group_id (str): As in the release's `group_id`.
        labels (list[str]):
        prosecutor (float): 1 / candidates.
        size (int):
    """

    candidates: int
    group_id: str
    labels: list[str]
    prosecutor: float
    size: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        candidates = self.candidates

        group_id = self.group_id

        labels = self.labels

        prosecutor = self.prosecutor

        size = self.size

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "candidates": candidates,
                "group_id": group_id,
                "labels": labels,
                "prosecutor": prosecutor,
                "size": size,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        candidates = d.pop("candidates")

        group_id = d.pop("group_id")

        labels = cast(list[str], d.pop("labels"))

        prosecutor = d.pop("prosecutor")

        size = d.pop("size")

        risky_group = cls(
            candidates=candidates,
            group_id=group_id,
            labels=labels,
            prosecutor=prosecutor,
            size=size,
        )

        risky_group.additional_properties = d
        return risky_group

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
