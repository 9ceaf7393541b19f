from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.column_type import ColumnType, check_column_type
from ..models.role import Role, check_role
from ..types import UNSET, Unset

T = TypeVar("T", bound="SchemaColumn")


@_attrs_define
class SchemaColumn:
    """
    Attributes:
        name (str):
        role (Role):
        hierarchy (list[list[str]] | None | Unset): Inline hierarchy: one path per leaf, `[leaf, level1, …, root]`.
        type_ (ColumnType | None | Unset):
    """

    name: str
    role: Role
    hierarchy: list[list[str]] | None | Unset = UNSET
    type_: ColumnType | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        role: str = self.role

        hierarchy: list[list[str]] | None | Unset
        if isinstance(self.hierarchy, Unset):
            hierarchy = UNSET
        elif isinstance(self.hierarchy, list):
            hierarchy = []
            for hierarchy_type_0_item_data in self.hierarchy:
                hierarchy_type_0_item = hierarchy_type_0_item_data

                hierarchy.append(hierarchy_type_0_item)

        else:
            hierarchy = self.hierarchy

        type_: None | str | Unset
        if isinstance(self.type_, Unset):
            type_ = UNSET
        elif isinstance(self.type_, str):
            type_ = self.type_
        else:
            type_ = self.type_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "role": role,
            }
        )
        if hierarchy is not UNSET:
            field_dict["hierarchy"] = hierarchy
        if type_ is not UNSET:
            field_dict["type"] = type_

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        role = check_role(d.pop("role"))

        def _parse_hierarchy(data: object) -> list[list[str]] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                hierarchy_type_0 = []
                _hierarchy_type_0 = data
                for hierarchy_type_0_item_data in _hierarchy_type_0:
                    hierarchy_type_0_item = cast(list[str], hierarchy_type_0_item_data)

                    hierarchy_type_0.append(hierarchy_type_0_item)

                return hierarchy_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[list[str]] | None | Unset, data)

        hierarchy = _parse_hierarchy(d.pop("hierarchy", UNSET))

        def _parse_type_(data: object) -> ColumnType | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                type_type_0 = check_column_type(data)

                return type_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ColumnType | None | Unset, data)

        type_ = _parse_type_(d.pop("type", UNSET))

        schema_column = cls(
            name=name,
            role=role,
            hierarchy=hierarchy,
            type_=type_,
        )

        return schema_column
