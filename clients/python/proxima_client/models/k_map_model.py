from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.k_map_model_kind import KMapModelKind, check_k_map_model_kind

T = TypeVar("T", bound="KMapModel")


@_attrs_define
class KMapModel:
    """ARX's k-map: every class's labels cover at least k records of the
    dataset's population table (its schema's `population.dataset_id`).

        Attributes:
            k (int):
            kind (KMapModelKind):
    """

    k: int
    kind: KMapModelKind

    def to_dict(self) -> dict[str, Any]:
        k = self.k

        kind: str = self.kind

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "k": k,
                "kind": kind,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        k = d.pop("k")

        kind = check_k_map_model_kind(d.pop("kind"))

        k_map_model = cls(
            k=k,
            kind=kind,
        )

        return k_map_model
