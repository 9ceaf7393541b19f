from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..models.delta_presence_check_kind import DeltaPresenceCheckKind, check_delta_presence_check_kind

T = TypeVar("T", bound="DeltaPresenceCheck")


@_attrs_define
class DeltaPresenceCheck:
    """ARX's δ-presence: every class's records / the population records
    its labels cover lies in [delta_min, delta_max] (`value.min_delta`,
    `value.max_delta`); the audited table must be a subset of the
    population table.

        Attributes:
            delta_max (float):
            delta_min (float):
            kind (DeltaPresenceCheckKind):
            population_dataset_id (UUID):
    """

    delta_max: float
    delta_min: float
    kind: DeltaPresenceCheckKind
    population_dataset_id: UUID

    def to_dict(self) -> dict[str, Any]:
        delta_max = self.delta_max

        delta_min = self.delta_min

        kind: str = self.kind

        population_dataset_id = str(self.population_dataset_id)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "delta_max": delta_max,
                "delta_min": delta_min,
                "kind": kind,
                "population_dataset_id": population_dataset_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        delta_max = d.pop("delta_max")

        delta_min = d.pop("delta_min")

        kind = check_delta_presence_check_kind(d.pop("kind"))

        population_dataset_id = UUID(d.pop("population_dataset_id"))

        delta_presence_check = cls(
            delta_max=delta_max,
            delta_min=delta_min,
            kind=kind,
            population_dataset_id=population_dataset_id,
        )

        return delta_presence_check
