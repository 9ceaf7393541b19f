from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.quasi_identifiers_groups_by import QuasiIdentifiersGroupsBy, check_quasi_identifiers_groups_by

T = TypeVar("T", bound="QuasiIdentifiersGroups")


@_attrs_define
class QuasiIdentifiersGroups:
    """Rows with identical published QI values form a group. (An empty
    struct variant so that stray fields are rejected.)

        Attributes:
            by (QuasiIdentifiersGroupsBy):
    """

    by: QuasiIdentifiersGroupsBy

    def to_dict(self) -> dict[str, Any]:
        by: str = self.by

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "by": by,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        by = check_quasi_identifiers_groups_by(d.pop("by"))

        quasi_identifiers_groups = cls(
            by=by,
        )

        return quasi_identifiers_groups
