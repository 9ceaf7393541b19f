from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.spread import Spread


T = TypeVar("T", bound="AttackerView")


@_attrs_define
class AttackerView:
    """The job model's check in the attacker's view (docs/design.md §4).

    Attributes:
        candidate_groups (Spread):
        over_bound (int): Victims whose candidates breach the model (0 for a stored result).
        victims (int): Rows judged as victims (every published row).
        worst (float | None): The worst victim's figure: breach probability for (ε,m), risk for
            dissimilarity, the smallest candidate set for k, … (null when not
            finite).
    """

    candidate_groups: Spread
    over_bound: int
    victims: int
    worst: float | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        candidate_groups = self.candidate_groups.to_dict()

        over_bound = self.over_bound

        victims = self.victims

        worst: float | None
        worst = self.worst

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "candidate_groups": candidate_groups,
                "over_bound": over_bound,
                "victims": victims,
                "worst": worst,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.spread import Spread  # noqa: PLC0415

        d = dict(src_dict)
        candidate_groups = Spread.from_dict(d.pop("candidate_groups"))

        over_bound = d.pop("over_bound")

        victims = d.pop("victims")

        def _parse_worst(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        worst = _parse_worst(d.pop("worst"))

        attacker_view = cls(
            candidate_groups=candidate_groups,
            over_bound=over_bound,
            victims=victims,
            worst=worst,
        )

        attacker_view.additional_properties = d
        return attacker_view

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
