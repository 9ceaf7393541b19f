from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.k_anonymity_model_kind import KAnonymityModelKind, check_k_anonymity_model_kind

T = TypeVar("T", bound="KAnonymityModel")


@_attrs_define
class KAnonymityModel:
    """
    Attributes:
        k (int):
        kind (KAnonymityModelKind):
    """

    k: int
    kind: KAnonymityModelKind

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

        kind = check_k_anonymity_model_kind(d.pop("kind"))

        k_anonymity_model = cls(
            k=k,
            kind=kind,
        )

        return k_anonymity_model
