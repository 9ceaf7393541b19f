from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.column_type import ColumnType, check_column_type
from ..models.role import Role, check_role

T = TypeVar("T", bound="DatasetColumn")


@_attrs_define
class DatasetColumn:
    """A column of an uploaded dataset with its statistics.

    Attributes:
        distinct (int): Distinct values (0 for identifiers).
        hierarchy_height (int | None): Levels of the column's hierarchy; null without one.
        max_ (float | None): The largest value, as `min`.
        min_ (float | None): The smallest value of a numeric or date column (a date as its day
            number since 1970-01-01); null for other columns.
        name (str):
        role (Role):
        type_ (ColumnType | None):
    """

    distinct: int
    hierarchy_height: int | None
    max_: float | None
    min_: float | None
    name: str
    role: Role
    type_: ColumnType | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        distinct = self.distinct

        hierarchy_height: int | None
        hierarchy_height = self.hierarchy_height

        max_: float | None
        max_ = self.max_

        min_: float | None
        min_ = self.min_

        name = self.name

        role: str = self.role

        type_: None | str
        if isinstance(self.type_, str):
            type_ = self.type_
        else:
            type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "distinct": distinct,
                "hierarchy_height": hierarchy_height,
                "max": max_,
                "min": min_,
                "name": name,
                "role": role,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        distinct = d.pop("distinct")

        def _parse_hierarchy_height(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        hierarchy_height = _parse_hierarchy_height(d.pop("hierarchy_height"))

        def _parse_max_(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        max_ = _parse_max_(d.pop("max"))

        def _parse_min_(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        min_ = _parse_min_(d.pop("min"))

        name = d.pop("name")

        role = check_role(d.pop("role"))

        def _parse_type_(data: object) -> ColumnType | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                type_type_0 = check_column_type(data)

                return type_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ColumnType | None, data)

        type_ = _parse_type_(d.pop("type"))

        dataset_column = cls(
            distinct=distinct,
            hierarchy_height=hierarchy_height,
            max_=max_,
            min_=min_,
            name=name,
            role=role,
            type_=type_,
        )

        dataset_column.additional_properties = d
        return dataset_column

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
