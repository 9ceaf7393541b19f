from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.column_groups_by import ColumnGroupsBy, check_column_groups_by

T = TypeVar("T", bound="ColumnGroups")


@_attrs_define
class ColumnGroups:
    """A column holds the group id.

    Attributes:
        by (ColumnGroupsBy):
        column (str):
    """

    by: ColumnGroupsBy
    column: str

    def to_dict(self) -> dict[str, Any]:
        by: str = self.by

        column = self.column

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "by": by,
                "column": column,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        by = check_column_groups_by(d.pop("by"))

        column = d.pop("column")

        column_groups = cls(
            by=by,
            column=column,
        )

        return column_groups
