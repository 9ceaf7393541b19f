from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="MaxMFeasibility")


@_attrs_define
class MaxMFeasibility:
    """Theorem 1: the largest m for ε, and maxsize(T).

    Attributes:
        max_m (int):
        maxsize (int):
    """

    max_m: int
    maxsize: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        max_m = self.max_m

        maxsize = self.maxsize

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "max_m": max_m,
                "maxsize": maxsize,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        max_m = d.pop("max_m")

        maxsize = d.pop("maxsize")

        max_m_feasibility = cls(
            max_m=max_m,
            maxsize=maxsize,
        )

        max_m_feasibility.additional_properties = d
        return max_m_feasibility

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
