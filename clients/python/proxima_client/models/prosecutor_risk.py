from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ProsecutorRisk")


@_attrs_define
class ProsecutorRisk:
    """
    Attributes:
        average (float):
        max_ (float):
        records_at_max (int):
    """

    average: float
    max_: float
    records_at_max: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        average = self.average

        max_ = self.max_

        records_at_max = self.records_at_max

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "average": average,
                "max": max_,
                "records_at_max": records_at_max,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        average = d.pop("average")

        max_ = d.pop("max")

        records_at_max = d.pop("records_at_max")

        prosecutor_risk = cls(
            average=average,
            max_=max_,
            records_at_max=records_at_max,
        )

        prosecutor_risk.additional_properties = d
        return prosecutor_risk

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
