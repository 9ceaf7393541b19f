from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.feasibility_bound import FeasibilityBound, check_feasibility_bound

if TYPE_CHECKING:
    from ..models.deliverable_epsilon import DeliverableEpsilon


T = TypeVar("T", bound="MaxEpsilonFeasibility")


@_attrs_define
class MaxEpsilonFeasibility:
    """Theorem 2: every ε strictly below this reaches m (a per-group upper
    bound). `null` when ε is unbounded (m = 1 with absolute
    neighbourhoods).

        Attributes:
            bound (FeasibilityBound): What the theorems' figures are.
            deliverable (DeliverableEpsilon | None):
            max_epsilon_exclusive (float | None): Always present (null or a number), so the three shapes are told
                apart by their required fields.
    """

    bound: FeasibilityBound
    deliverable: DeliverableEpsilon | None
    max_epsilon_exclusive: float | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.deliverable_epsilon import DeliverableEpsilon  # noqa: PLC0415

        bound: str = self.bound

        deliverable: dict[str, Any] | None
        if isinstance(self.deliverable, DeliverableEpsilon):
            deliverable = self.deliverable.to_dict()
        else:
            deliverable = self.deliverable

        max_epsilon_exclusive: float | None
        max_epsilon_exclusive = self.max_epsilon_exclusive

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "bound": bound,
                "deliverable": deliverable,
                "max_epsilon_exclusive": max_epsilon_exclusive,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.deliverable_epsilon import DeliverableEpsilon  # noqa: PLC0415

        d = dict(src_dict)
        bound = check_feasibility_bound(d.pop("bound"))

        def _parse_deliverable(data: object) -> DeliverableEpsilon | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                deliverable_type_0 = DeliverableEpsilon.from_dict(data)

                return deliverable_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DeliverableEpsilon | None, data)

        deliverable = _parse_deliverable(d.pop("deliverable"))

        def _parse_max_epsilon_exclusive(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        max_epsilon_exclusive = _parse_max_epsilon_exclusive(d.pop("max_epsilon_exclusive"))

        max_epsilon_feasibility = cls(
            bound=bound,
            deliverable=deliverable,
            max_epsilon_exclusive=max_epsilon_exclusive,
        )

        max_epsilon_feasibility.additional_properties = d
        return max_epsilon_feasibility

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
