from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.dissimilarity_model_kind import DissimilarityModelKind, check_dissimilarity_model_kind

T = TypeVar("T", bound="DissimilarityModel")


@_attrs_define
class DissimilarityModel:
    """
    Attributes:
        delta (float):
        epsilon (float):
        k (int):
        kind (DissimilarityModelKind):
    """

    delta: float
    epsilon: float
    k: int
    kind: DissimilarityModelKind

    def to_dict(self) -> dict[str, Any]:
        delta = self.delta

        epsilon = self.epsilon

        k = self.k

        kind: str = self.kind

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "delta": delta,
                "epsilon": epsilon,
                "k": k,
                "kind": kind,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        delta = d.pop("delta")

        epsilon = d.pop("epsilon")

        k = d.pop("k")

        kind = check_dissimilarity_model_kind(d.pop("kind"))

        dissimilarity_model = cls(
            delta=delta,
            epsilon=epsilon,
            k=k,
            kind=kind,
        )

        return dissimilarity_model
