from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.hierarchical_metric_kind import HierarchicalMetricKind, check_hierarchical_metric_kind

T = TypeVar("T", bound="HierarchicalMetric")


@_attrs_define
class HierarchicalMetric:
    """
    Attributes:
        kind (HierarchicalMetricKind):
    """

    kind: HierarchicalMetricKind

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
        kind = check_hierarchical_metric_kind(d.pop("kind"))

        hierarchical_metric = cls(
            kind=kind,
        )

        return hierarchical_metric
