from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PopulationSamplingFraction")


@_attrs_define
class PopulationSamplingFraction:
    """The table's rows / the population's size, in (0, 1].

    Attributes:
        sampling_fraction (float): The table's rows / the population's size, in (0, 1].
    """

    sampling_fraction: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        sampling_fraction = self.sampling_fraction

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "sampling_fraction": sampling_fraction,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        sampling_fraction = d.pop("sampling_fraction")

        population_sampling_fraction = cls(
            sampling_fraction=sampling_fraction,
        )

        population_sampling_fraction.additional_properties = d
        return population_sampling_fraction

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
