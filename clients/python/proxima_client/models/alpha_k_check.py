from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.alpha_k_check_kind import AlphaKCheckKind, check_alpha_k_check_kind

T = TypeVar("T", bound="AlphaKCheck")


@_attrs_define
class AlphaKCheck:
    """
    Attributes:
        alpha (float):
        k (int):
        kind (AlphaKCheckKind):
    """

    alpha: float
    k: int
    kind: AlphaKCheckKind

    def to_dict(self) -> dict[str, Any]:
        alpha = self.alpha

        k = self.k

        kind: str = self.kind

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "alpha": alpha,
                "k": k,
                "kind": kind,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        alpha = d.pop("alpha")

        k = d.pop("k")

        kind = check_alpha_k_check_kind(d.pop("kind"))

        alpha_k_check = cls(
            alpha=alpha,
            k=k,
            kind=kind,
        )

        return alpha_k_check
