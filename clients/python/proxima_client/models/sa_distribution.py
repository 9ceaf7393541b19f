from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SaDistribution")


@_attrs_define
class SaDistribution:
    """One sensitive column's distribution: shares of rows per category.

    Attributes:
        categories (list[str]): Category labels: value ranges `[lo-hi]` for a numeric column (ten
            equal-width buckets), values for a categorical one (the most
            frequent, the rest as `other`).
        column (str):
        riskiest (list[float]): Shares of the riskiest groups' rows per category.
        riskiest_groups (int): The riskiest groups: the worst groups of the model's check in the
            attacker's view (at most 10).
        riskiest_rows (int):
        table (list[float]): Shares of the published table's rows per category (sum 1).
    """

    categories: list[str]
    column: str
    riskiest: list[float]
    riskiest_groups: int
    riskiest_rows: int
    table: list[float]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        categories = self.categories

        column = self.column

        riskiest = self.riskiest

        riskiest_groups = self.riskiest_groups

        riskiest_rows = self.riskiest_rows

        table = self.table

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "categories": categories,
                "column": column,
                "riskiest": riskiest,
                "riskiest_groups": riskiest_groups,
                "riskiest_rows": riskiest_rows,
                "table": table,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        categories = cast(list[str], d.pop("categories"))

        column = d.pop("column")

        riskiest = cast(list[float], d.pop("riskiest"))

        riskiest_groups = d.pop("riskiest_groups")

        riskiest_rows = d.pop("riskiest_rows")

        table = cast(list[float], d.pop("table"))

        sa_distribution = cls(
            categories=categories,
            column=column,
            riskiest=riskiest,
            riskiest_groups=riskiest_groups,
            riskiest_rows=riskiest_rows,
            table=table,
        )

        sa_distribution.additional_properties = d
        return sa_distribution

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
