from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..models.k_map_check_kind import KMapCheckKind, check_k_map_check_kind

T = TypeVar("T", bound="KMapCheck")


@_attrs_define
class KMapCheck:
    """ARX's k-map: every class's labels cover at least k records of the
    population table (`value.min_population_count`).

        Attributes:
            k (int):
            kind (KMapCheckKind):
            population_dataset_id (UUID): A dataset of the same tenant holding the audited table's
                quasi-identifiers.
    """

    k: int
    kind: KMapCheckKind
    population_dataset_id: UUID

    def to_dict(self) -> dict[str, Any]:
        k = self.k

        kind: str = self.kind

        population_dataset_id = str(self.population_dataset_id)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "k": k,
                "kind": kind,
                "population_dataset_id": population_dataset_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        k = d.pop("k")

        kind = check_k_map_check_kind(d.pop("kind"))

        population_dataset_id = UUID(d.pop("population_dataset_id"))

        k_map_check = cls(
            k=k,
            kind=kind,
            population_dataset_id=population_dataset_id,
        )

        return k_map_check
