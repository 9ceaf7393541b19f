from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.k_anonymity_check_kind import KAnonymityCheckKind, check_k_anonymity_check_kind

T = TypeVar("T", bound="KAnonymityCheck")


@_attrs_define
class KAnonymityCheck:
    """
    Attributes:
        k (int):
        kind (KAnonymityCheckKind):
    """

    k: int
    kind: KAnonymityCheckKind

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

        kind = check_k_anonymity_check_kind(d.pop("kind"))

        k_anonymity_check = cls(
            k=k,
            kind=kind,
        )

        return k_anonymity_check
