from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.equal_metric_kind import EqualMetricKind, check_equal_metric_kind

T = TypeVar("T", bound="EqualMetric")


@_attrs_define
class EqualMetric:
    """
    Attributes:
        kind (EqualMetricKind):
    """

    kind: EqualMetricKind

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
        kind = check_equal_metric_kind(d.pop("kind"))

        equal_metric = cls(
            kind=kind,
        )

        return equal_metric
