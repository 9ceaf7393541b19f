from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.feasibility_bound import FeasibilityBound, check_feasibility_bound

if TYPE_CHECKING:
    from ..models.deliverable_m import DeliverableM


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
    """

    bound: FeasibilityBound
    deliverable: DeliverableM
    max_m: int
    maxsize: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        bound: str = self.bound

        deliverable = self.deliverable.to_dict()

        max_m = self.max_m

        maxsize = self.maxsize

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

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.deliverable_m import DeliverableM  # noqa: PLC0415

        d = dict(src_dict)
        bound = check_feasibility_bound(d.pop("bound"))

        deliverable = DeliverableM.from_dict(d.pop("deliverable"))

        max_m = d.pop("max_m")

        maxsize = d.pop("maxsize")

        max_m_feasibility = cls(
            bound=bound,
            deliverable=deliverable,
            max_m=max_m,
            maxsize=maxsize,
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
