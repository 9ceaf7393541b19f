from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.per_group_value import PerGroupValue
    from ..models.worst_group import WorstGroup


T = TypeVar("T", bound="PerGroup")


@_attrs_define
class PerGroup:
    """A check judged group by group.

    Attributes:
        passed (bool):
        value (PerGroupValue): The check's natural figures by name: `min_size` (k), `l`, `max_breach_probability` and
            `achieved_m` ((ε,m)), `max_risk` and `vulnerability` ((ε,δ)), `max_emd` (t), …; null when not finite.
        violating_groups (int):
        violating_rows (int):
        worst_groups (list[WorstGroup]):
    """

    passed: bool
    value: PerGroupValue
    violating_groups: int
    violating_rows: int
    worst_groups: list[WorstGroup]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        passed = self.passed

        value = self.value.to_dict()

        violating_groups = self.violating_groups

        violating_rows = self.violating_rows

        worst_groups = []
        for worst_groups_item_data in self.worst_groups:
            worst_groups_item = worst_groups_item_data.to_dict()
            worst_groups.append(worst_groups_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "passed": passed,
                "value": value,
                "violating_groups": violating_groups,
                "violating_rows": violating_rows,
                "worst_groups": worst_groups,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.per_group_value import PerGroupValue  # noqa: PLC0415
        from ..models.worst_group import WorstGroup  # noqa: PLC0415

        d = dict(src_dict)
        passed = d.pop("passed")

        value = PerGroupValue.from_dict(d.pop("value"))

        violating_groups = d.pop("violating_groups")

        violating_rows = d.pop("violating_rows")

        worst_groups = []
        _worst_groups = d.pop("worst_groups")
        for worst_groups_item_data in _worst_groups:
            worst_groups_item = WorstGroup.from_dict(worst_groups_item_data)

            worst_groups.append(worst_groups_item)

        per_group = cls(
            passed=passed,
            value=value,
            violating_groups=violating_groups,
            violating_rows=violating_rows,
            worst_groups=worst_groups,
        )

        per_group.additional_properties = d
        return per_group

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
