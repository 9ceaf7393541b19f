from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DeliverableEpsilon")


@_attrs_define
class DeliverableEpsilon:
    """The largest ε the service delivers for sure for this m, without
    suppression (to bisection precision, never above a working value).

        Attributes:
            max_epsilon (float | None): `null` when unbounded (m = 1).
            suppression_limit (float):
    """

    max_epsilon: float | None
    suppression_limit: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        max_epsilon: float | None
        max_epsilon = self.max_epsilon

        suppression_limit = self.suppression_limit

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "max_epsilon": max_epsilon,
                "suppression_limit": suppression_limit,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_max_epsilon(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        max_epsilon = _parse_max_epsilon(d.pop("max_epsilon"))

        suppression_limit = d.pop("suppression_limit")

        deliverable_epsilon = cls(
            max_epsilon=max_epsilon,
            suppression_limit=suppression_limit,
        )

        deliverable_epsilon.additional_properties = d
        return deliverable_epsilon

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
