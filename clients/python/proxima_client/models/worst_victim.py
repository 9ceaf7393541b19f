from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="WorstVictim")


@_attrs_define
class WorstVictim:
    """
    Attributes:
        candidate_groups (int): Groups among its candidates.
        candidates (int): Rows among its candidates.
        group_id (str): The victim's own group (1-based, as in the release).
        value (float | None): `null` when the figure is not finite.
    """

    candidate_groups: int
    candidates: int
    group_id: str
    value: float | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        candidate_groups = self.candidate_groups

        candidates = self.candidates

        group_id = self.group_id

        value: float | None
        value = self.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "candidate_groups": candidate_groups,
                "candidates": candidates,
                "group_id": group_id,
                "value": value,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        candidate_groups = d.pop("candidate_groups")

        candidates = d.pop("candidates")

        group_id = d.pop("group_id")

        def _parse_value(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        value = _parse_value(d.pop("value"))

        worst_victim = cls(
            candidate_groups=candidate_groups,
            candidates=candidates,
            group_id=group_id,
            value=value,
        )

        worst_victim.additional_properties = d
        return worst_victim

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
