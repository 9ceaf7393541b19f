from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.absolute_metric_kind import AbsoluteMetricKind, check_absolute_metric_kind

T = TypeVar("T", bound="AbsoluteMetric")


@_attrs_define
class AbsoluteMetric:
    """
    Attributes:
        kind (AbsoluteMetricKind):
    """

    kind: AbsoluteMetricKind

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
        kind = check_absolute_metric_kind(d.pop("kind"))

        absolute_metric = cls(
            kind=kind,
        )

        return absolute_metric
