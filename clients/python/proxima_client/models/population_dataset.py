from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PopulationDataset")


@_attrs_define
class PopulationDataset:
    """The id of the population table (a dataset of the same tenant with
    the sample's quasi-identifiers, of the same types and hierarchies,
    and at least as many rows). A dataset named so cannot be deleted
    while the sample exists (409 `population_in_use`).

        Attributes:
            dataset_id (UUID): The id of the population table (a dataset of the same tenant with
                the sample's quasi-identifiers, of the same types and hierarchies,
                and at least as many rows). A dataset named so cannot be deleted
                while the sample exists (409 `population_in_use`).
    """

    dataset_id: UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        dataset_id = str(self.dataset_id)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "dataset_id": dataset_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        dataset_id = UUID(d.pop("dataset_id"))

        population_dataset = cls(
            dataset_id=dataset_id,
        )

        population_dataset.additional_properties = d
        return population_dataset

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
