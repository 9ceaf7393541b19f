from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.relative_metric_kind import RelativeMetricKind, check_relative_metric_kind

T = TypeVar("T", bound="RelativeMetric")


@_attrs_define
class RelativeMetric:
    """
    Attributes:
        kind (RelativeMetricKind):
    """

    kind: RelativeMetricKind

    def to_dict(self) -> dict[str, Any]:
        kind: str = self.kind

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kind = check_relative_metric_kind(d.pop("kind"))

        relative_metric = cls(
            kind=kind,
        )

        return relative_metric
