from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="JobSummary")


@_attrs_define
class JobSummary:
    """`Job.summary` (API.md §Jobs); the CLI prints it on stderr.

    Attributes:
        elapsed_ms (int):
        groups (int):
        information_loss (float):
        min_group_size (int):
        published_rows (int):
        rows (int):
        suppressed_rows (int):
    """

    elapsed_ms: int
    groups: int
    information_loss: float
    min_group_size: int
    published_rows: int
    rows: int
    suppressed_rows: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        elapsed_ms = self.elapsed_ms

        groups = self.groups

        information_loss = self.information_loss

        min_group_size = self.min_group_size

        published_rows = self.published_rows

        rows = self.rows

        suppressed_rows = self.suppressed_rows

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "elapsed_ms": elapsed_ms,
                "groups": groups,
                "information_loss": information_loss,
                "min_group_size": min_group_size,
                "published_rows": published_rows,
                "rows": rows,
                "suppressed_rows": suppressed_rows,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        elapsed_ms = d.pop("elapsed_ms")

        groups = d.pop("groups")

        information_loss = d.pop("information_loss")

        min_group_size = d.pop("min_group_size")

        published_rows = d.pop("published_rows")

        rows = d.pop("rows")

        suppressed_rows = d.pop("suppressed_rows")

        job_summary = cls(
            elapsed_ms=elapsed_ms,
            groups=groups,
            information_loss=information_loss,
            min_group_size=min_group_size,
            published_rows=published_rows,
            rows=rows,
            suppressed_rows=suppressed_rows,
        )

        job_summary.additional_properties = d
        return job_summary

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
