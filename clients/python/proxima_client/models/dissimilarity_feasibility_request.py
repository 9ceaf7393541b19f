from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.dissimilarity_feasibility_request_kind import (
    DissimilarityFeasibilityRequestKind,
    check_dissimilarity_feasibility_request_kind,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.absolute_metric import AbsoluteMetric
    from ..models.equal_metric import EqualMetric
    from ..models.hierarchical_metric import HierarchicalMetric
    from ..models.lp_metric import LpMetric
    from ..models.relative_metric import RelativeMetric
    from ..models.variational_metric import VariationalMetric


T = TypeVar("T", bound="DissimilarityFeasibilityRequest")


@_attrs_define
class DissimilarityFeasibilityRequest:
    """
    Attributes:
        epsilon (float):
        kind (DissimilarityFeasibilityRequestKind):
        sensitive_metric (AbsoluteMetric | EqualMetric | HierarchicalMetric | LpMetric | None | RelativeMetric | Unset |
            VariationalMetric):
    """

    epsilon: float
    kind: DissimilarityFeasibilityRequestKind
    sensitive_metric: (
        AbsoluteMetric | EqualMetric | HierarchicalMetric | LpMetric | None | RelativeMetric | Unset | VariationalMetric
    ) = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.absolute_metric import AbsoluteMetric  # noqa: PLC0415
        from ..models.equal_metric import EqualMetric  # noqa: PLC0415
        from ..models.hierarchical_metric import HierarchicalMetric  # noqa: PLC0415
        from ..models.lp_metric import LpMetric  # noqa: PLC0415
        from ..models.relative_metric import RelativeMetric  # noqa: PLC0415
        from ..models.variational_metric import VariationalMetric  # noqa: PLC0415

        epsilon = self.epsilon

        kind: str = self.kind

        sensitive_metric: dict[str, Any] | None | Unset
        if isinstance(self.sensitive_metric, Unset):
            sensitive_metric = UNSET
        elif isinstance(self.sensitive_metric, AbsoluteMetric):
            sensitive_metric = self.sensitive_metric.to_dict()
        elif isinstance(self.sensitive_metric, RelativeMetric):
            sensitive_metric = self.sensitive_metric.to_dict()
        elif isinstance(self.sensitive_metric, EqualMetric):
            sensitive_metric = self.sensitive_metric.to_dict()
        elif isinstance(self.sensitive_metric, HierarchicalMetric):
            sensitive_metric = self.sensitive_metric.to_dict()
        elif isinstance(self.sensitive_metric, LpMetric):
            sensitive_metric = self.sensitive_metric.to_dict()
        elif isinstance(self.sensitive_metric, VariationalMetric):
            sensitive_metric = self.sensitive_metric.to_dict()
        else:
            sensitive_metric = self.sensitive_metric

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "epsilon": epsilon,
                "kind": kind,
            }
        )
        if sensitive_metric is not UNSET:
            field_dict["sensitive_metric"] = sensitive_metric

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.absolute_metric import AbsoluteMetric  # noqa: PLC0415
        from ..models.equal_metric import EqualMetric  # noqa: PLC0415
        from ..models.hierarchical_metric import HierarchicalMetric  # noqa: PLC0415
        from ..models.lp_metric import LpMetric  # noqa: PLC0415
        from ..models.relative_metric import RelativeMetric  # noqa: PLC0415
        from ..models.variational_metric import VariationalMetric  # noqa: PLC0415

        d = dict(src_dict)
        epsilon = d.pop("epsilon")

        kind = check_dissimilarity_feasibility_request_kind(d.pop("kind"))

        def _parse_sensitive_metric(
            data: object,
        ) -> (
            AbsoluteMetric
            | EqualMetric
            | HierarchicalMetric
            | LpMetric
            | None
            | RelativeMetric
            | Unset
            | VariationalMetric
        ):
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_metric_type_0 = AbsoluteMetric.from_dict(data)

                return componentsschemas_metric_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_metric_type_1 = RelativeMetric.from_dict(data)

                return componentsschemas_metric_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_metric_type_2 = EqualMetric.from_dict(data)

                return componentsschemas_metric_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_metric_type_3 = HierarchicalMetric.from_dict(data)

                return componentsschemas_metric_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_metric_type_4 = LpMetric.from_dict(data)

                return componentsschemas_metric_type_4
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_metric_type_5 = VariationalMetric.from_dict(data)

                return componentsschemas_metric_type_5
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                AbsoluteMetric
                | EqualMetric
                | HierarchicalMetric
                | LpMetric
                | None
                | RelativeMetric
                | Unset
                | VariationalMetric,
                data,
            )

        sensitive_metric = _parse_sensitive_metric(d.pop("sensitive_metric", UNSET))

        dissimilarity_feasibility_request = cls(
            epsilon=epsilon,
            kind=kind,
            sensitive_metric=sensitive_metric,
        )

        return dissimilarity_feasibility_request
