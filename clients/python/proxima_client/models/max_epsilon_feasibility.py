from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="MaxEpsilonFeasibility")


@_attrs_define
class MaxEpsilonFeasibility:
    """Theorem 2: every ε strictly below this reaches m. `null` when ε is
    unbounded (m = 1 with absolute neighbourhoods).

        Attributes:
            max_epsilon_exclusive (float | None): Always present (null or a number), so the three shapes are told
                apart by their required fields.
    """

    max_epsilon_exclusive: float | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        max_epsilon_exclusive: float | None
        max_epsilon_exclusive = self.max_epsilon_exclusive

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "max_epsilon_exclusive": max_epsilon_exclusive,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_max_epsilon_exclusive(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        max_epsilon_exclusive = _parse_max_epsilon_exclusive(d.pop("max_epsilon_exclusive"))

        max_epsilon_feasibility = cls(
            max_epsilon_exclusive=max_epsilon_exclusive,
        )

        max_epsilon_feasibility.additional_properties = d
        return max_epsilon_feasibility

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
