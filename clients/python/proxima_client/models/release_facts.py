from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ReleaseFacts")


@_attrs_define
class ReleaseFacts:
    """The release as `GET /v1/jobs/{id}/result` serves it in CSV.

    Attributes:
        bytes_ (int):
        columns (list[str]): The published columns, in order (`group_id` first).
        groups (int):
        rows (int):
        sha256 (str): Hex SHA-256 of the CSV body of `GET …/result` (no `row_id`).
    """

    bytes_: int
    columns: list[str]
    groups: int
    rows: int
    sha256: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        bytes_ = self.bytes_

        columns = self.columns

        groups = self.groups

        rows = self.rows

        sha256 = self.sha256

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "bytes": bytes_,
                "columns": columns,
                "groups": groups,
                "rows": rows,
                "sha256": sha256,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        bytes_ = d.pop("bytes")

        columns = cast(list[str], d.pop("columns"))

        groups = d.pop("groups")

        rows = d.pop("rows")

        sha256 = d.pop("sha256")

        release_facts = cls(
            bytes_=bytes_,
            columns=columns,
            groups=groups,
            rows=rows,
            sha256=sha256,
        )

        release_facts.additional_properties = d
        return release_facts

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
