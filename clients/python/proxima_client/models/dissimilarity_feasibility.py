from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.feasibility_bound import FeasibilityBound, check_feasibility_bound

if TYPE_CHECKING:
    from ..models.deliverable_pair import DeliverablePair
    from ..models.guaranteed_pair import GuaranteedPair


T = TypeVar("T", bound="DissimilarityFeasibility")


@_attrs_define
class DissimilarityFeasibility:
    """Inequality 4 of XColor: Θ and the (k, δ) pairs Theorem 3 guarantees
    per group, and the δ the service delivers for sure.

        Attributes:
            bound (FeasibilityBound): What the theorems' figures are.
            deliverable (list[DeliverablePair]): What the service delivers for sure on this table, in the
                attacker's view, without suppression.
            guaranteed (list[GuaranteedPair]): What the theorem guarantees for partitions judged group by
                group: an upper bound in the attacker's view.
            max_degree (int):
            rows (int):
    """

    bound: FeasibilityBound
    deliverable: list[DeliverablePair]
    guaranteed: list[GuaranteedPair]
    max_degree: int
    rows: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        bound: str = self.bound

        deliverable = []
        for deliverable_item_data in self.deliverable:
            deliverable_item = deliverable_item_data.to_dict()
            deliverable.append(deliverable_item)

        guaranteed = []
        for guaranteed_item_data in self.guaranteed:
            guaranteed_item = guaranteed_item_data.to_dict()
            guaranteed.append(guaranteed_item)

        max_degree = self.max_degree

        rows = self.rows

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "bound": bound,
                "deliverable": deliverable,
                "guaranteed": guaranteed,
                "max_degree": max_degree,
                "rows": rows,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.deliverable_pair import DeliverablePair  # noqa: PLC0415
        from ..models.guaranteed_pair import GuaranteedPair  # noqa: PLC0415

        d = dict(src_dict)
        bound = check_feasibility_bound(d.pop("bound"))

        deliverable = []
        _deliverable = d.pop("deliverable")
        for deliverable_item_data in _deliverable:
            deliverable_item = DeliverablePair.from_dict(deliverable_item_data)

            deliverable.append(deliverable_item)

        guaranteed = []
        _guaranteed = d.pop("guaranteed")
        for guaranteed_item_data in _guaranteed:
            guaranteed_item = GuaranteedPair.from_dict(guaranteed_item_data)

            guaranteed.append(guaranteed_item)

        max_degree = d.pop("max_degree")

        rows = d.pop("rows")

        dissimilarity_feasibility = cls(
            bound=bound,
            deliverable=deliverable,
            guaranteed=guaranteed,
            max_degree=max_degree,
            rows=rows,
        )

        dissimilarity_feasibility.additional_properties = d
        return dissimilarity_feasibility

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
