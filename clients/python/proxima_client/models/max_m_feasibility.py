from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.feasibility_bound import FeasibilityBound, check_feasibility_bound
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.deliverable_m import DeliverableM
    from ..models.minimum_suppression import MinimumSuppression


T = TypeVar("T", bound="MaxMFeasibility")


@_attrs_define
class MaxMFeasibility:
    """Theorem 1: the largest m for ε, and maxsize(T) — a per-group upper
    bound — and the m the service delivers for sure.

        Attributes:
            bound (FeasibilityBound): What the theorems' figures are.
            deliverable (DeliverableM): The m the service delivers for sure on this table, without suppression:
                the whole table is a valid group in the attacker's view, so a job at
                any m up to this one succeeds.
            max_m (int):
            maxsize (int):
            minimum_suppression (MinimumSuppression | None | Unset):
    """

    bound: FeasibilityBound
    deliverable: DeliverableM
    max_m: int
    maxsize: int
    minimum_suppression: MinimumSuppression | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.minimum_suppression import MinimumSuppression  # noqa: PLC0415

        bound: str = self.bound

        deliverable = self.deliverable.to_dict()

        max_m = self.max_m

        maxsize = self.maxsize

        minimum_suppression: dict[str, Any] | None | Unset
        if isinstance(self.minimum_suppression, Unset):
            minimum_suppression = UNSET
        elif isinstance(self.minimum_suppression, MinimumSuppression):
            minimum_suppression = self.minimum_suppression.to_dict()
        else:
            minimum_suppression = self.minimum_suppression

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "bound": bound,
                "deliverable": deliverable,
                "max_m": max_m,
                "maxsize": maxsize,
            }
        )
        if minimum_suppression is not UNSET:
            field_dict["minimum_suppression"] = minimum_suppression

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.deliverable_m import DeliverableM  # noqa: PLC0415
        from ..models.minimum_suppression import MinimumSuppression  # noqa: PLC0415

        d = dict(src_dict)
        bound = check_feasibility_bound(d.pop("bound"))

        deliverable = DeliverableM.from_dict(d.pop("deliverable"))

        max_m = d.pop("max_m")

        maxsize = d.pop("maxsize")

        def _parse_minimum_suppression(data: object) -> MinimumSuppression | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                minimum_suppression_type_0 = MinimumSuppression.from_dict(data)

                return minimum_suppression_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MinimumSuppression | None | Unset, data)

        minimum_suppression = _parse_minimum_suppression(d.pop("minimum_suppression", UNSET))

        max_m_feasibility = cls(
            bound=bound,
            deliverable=deliverable,
            max_m=max_m,
            maxsize=maxsize,
            minimum_suppression=minimum_suppression,
        )

        max_m_feasibility.additional_properties = d
        return max_m_feasibility

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
