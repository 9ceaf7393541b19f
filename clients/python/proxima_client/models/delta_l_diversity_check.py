from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.delta_l_diversity_check_kind import DeltaLDiversityCheckKind, check_delta_l_diversity_check_kind

T = TypeVar("T", bound="DeltaLDiversityCheck")


@_attrs_define
class DeltaLDiversityCheck:
    """
    Attributes:
        delta (float):
        kind (DeltaLDiversityCheckKind):
        l (float):
    """

    delta: float
    kind: DeltaLDiversityCheckKind
    l: float

    def to_dict(self) -> dict[str, Any]:
        delta = self.delta

        kind: str = self.kind

        l = self.l

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "delta": delta,
                "kind": kind,
                "l": l,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        delta = d.pop("delta")

        kind = check_delta_l_diversity_check_kind(d.pop("kind"))

        l = d.pop("l")

        delta_l_diversity_check = cls(
            delta=delta,
            kind=kind,
            l=l,
        )

        return delta_l_diversity_check
