from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.variational_metric_kind import VariationalMetricKind, check_variational_metric_kind

T = TypeVar("T", bound="VariationalMetric")


@_attrs_define
class VariationalMetric:
    """
    Attributes:
        kind (VariationalMetricKind):
    """

    kind: VariationalMetricKind

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
        kind = check_variational_metric_kind(d.pop("kind"))

        variational_metric = cls(
            kind=kind,
        )

        return variational_metric
