from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.risky_combination import RiskyCombination
    from ..models.risky_group import RiskyGroup


T = TypeVar("T", bound="ReportRiskiest")


@_attrs_define
class ReportRiskiest:
    """Internal report only: the records most at risk, with their QI values.

    Attributes:
        after (list[RiskyGroup]): The groups of the release whose rows have the fewest candidates in
            the attacker's view, with their published labels.
        before (list[RiskyCombination]): The smallest equivalence classes of the uploaded table's QIs.
        columns (list[str]): The QI columns, the order of every `values` list.
    """

    after: list[RiskyGroup]
    before: list[RiskyCombination]
    columns: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        after = []
        for after_item_data in self.after:
            after_item = after_item_data.to_dict()
            after.append(after_item)

        before = []
        for before_item_data in self.before:
            before_item = before_item_data.to_dict()
            before.append(before_item)

        columns = self.columns

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "after": after,
                "before": before,
                "columns": columns,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.risky_combination import RiskyCombination  # noqa: PLC0415
        from ..models.risky_group import RiskyGroup  # noqa: PLC0415

        d = dict(src_dict)
        after = []
        _after = d.pop("after")
        for after_item_data in _after:
            after_item = RiskyGroup.from_dict(after_item_data)

            after.append(after_item)

        before = []
        _before = d.pop("before")
        for before_item_data in _before:
            before_item = RiskyCombination.from_dict(before_item_data)

            before.append(before_item)

        columns = cast(list[str], d.pop("columns"))

        report_riskiest = cls(
            after=after,
            before=before,
            columns=columns,
        )

        report_riskiest.additional_properties = d
        return report_riskiest

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
