from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.lp_metric_kind import LpMetricKind, check_lp_metric_kind
from ..models.lp_metric_p_type_0 import LpMetricPType0, check_lp_metric_p_type_0
from ..models.lp_metric_p_type_1 import LpMetricPType1, check_lp_metric_p_type_1
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.lp_metric_weights import LpMetricWeights


T = TypeVar("T", bound="LpMetric")


@_attrs_define
class LpMetric:
    """
    Attributes:
        kind (LpMetricKind):
        p (LpMetricPType0 | LpMetricPType1 | Unset): 1, 2 or `"inf"`; default 1.
        weights (LpMetricWeights | Unset): Weight per sensitive column; default equal weights.
    """

    kind: LpMetricKind
    p: LpMetricPType0 | LpMetricPType1 | Unset = UNSET
    weights: LpMetricWeights | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        kind: str = self.kind

        p: int | str | Unset
        if isinstance(self.p, Unset):
            p = UNSET
        elif isinstance(self.p, int):
            p = self.p
        else:
            p = self.p

        weights: dict[str, Any] | Unset = UNSET
        if not isinstance(self.weights, Unset):
            weights = self.weights.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
            }
        )
        if p is not UNSET:
            field_dict["p"] = p
        if weights is not UNSET:
            field_dict["weights"] = weights

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.lp_metric_weights import LpMetricWeights  # noqa: PLC0415

        d = dict(src_dict)
        kind = check_lp_metric_kind(d.pop("kind"))

        def _parse_p(data: object) -> LpMetricPType0 | LpMetricPType1 | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, int):
                    raise TypeError()
                p_type_0 = check_lp_metric_p_type_0(data)

                return p_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, str):
                raise TypeError()
            p_type_1 = check_lp_metric_p_type_1(data)

            return p_type_1

        p = _parse_p(d.pop("p", UNSET))

        _weights = d.pop("weights", UNSET)
        weights: LpMetricWeights | Unset
        if isinstance(_weights, Unset):
            weights = UNSET
        else:
            weights = LpMetricWeights.from_dict(_weights)

        lp_metric = cls(
            kind=kind,
            p=p,
            weights=weights,
        )

        return lp_metric
