from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.spread import Spread
    from ..models.worst_victim import WorstVictim


T = TypeVar("T", bound="AttackerFigures")


@_attrs_define
class AttackerFigures:
    """A check's victims in the attacker's view.

    Attributes:
        candidate_groups (Spread):
        distribution (list[list[float]]): `[upper edge, victims]` pairs, one per figure bucket.
        over_bound (int): Victims whose candidates breach the check.
        victims (int): Rows judged as victims.
        worst (float | None): The worst victim's figure (see `value`); null when not finite.
        worst_victims (list[WorstVictim]): The worst victims (at most 20): their group, figure and candidates.
    """

    candidate_groups: Spread
    distribution: list[list[float]]
    over_bound: int
    victims: int
    worst: float | None
    worst_victims: list[WorstVictim]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        candidate_groups = self.candidate_groups.to_dict()

        distribution = []
        for distribution_item_data in self.distribution:
            distribution_item = distribution_item_data

            distribution.append(distribution_item)

        over_bound = self.over_bound

        victims = self.victims

        worst: float | None
        worst = self.worst

        worst_victims = []
        for worst_victims_item_data in self.worst_victims:
            worst_victims_item = worst_victims_item_data.to_dict()
            worst_victims.append(worst_victims_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "candidate_groups": candidate_groups,
                "distribution": distribution,
                "over_bound": over_bound,
                "victims": victims,
                "worst": worst,
                "worst_victims": worst_victims,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.spread import Spread  # noqa: PLC0415
        from ..models.worst_victim import WorstVictim  # noqa: PLC0415

        d = dict(src_dict)
        candidate_groups = Spread.from_dict(d.pop("candidate_groups"))

        distribution = []
        _distribution = d.pop("distribution")
        for distribution_item_data in _distribution:
            distribution_item = cast(list[float], distribution_item_data)

            distribution.append(distribution_item)

        over_bound = d.pop("over_bound")

        victims = d.pop("victims")

        def _parse_worst(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        worst = _parse_worst(d.pop("worst"))

        worst_victims = []
        _worst_victims = d.pop("worst_victims")
        for worst_victims_item_data in _worst_victims:
            worst_victims_item = WorstVictim.from_dict(worst_victims_item_data)

            worst_victims.append(worst_victims_item)

        attacker_figures = cls(
            candidate_groups=candidate_groups,
            distribution=distribution,
            over_bound=over_bound,
            victims=victims,
            worst=worst,
            worst_victims=worst_victims,
        )

        attacker_figures.additional_properties = d
        return attacker_figures

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
