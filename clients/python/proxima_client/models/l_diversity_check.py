from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.l_diversity_check_kind import LDiversityCheckKind, check_l_diversity_check_kind
from ..models.l_variant import LVariant, check_l_variant
from ..types import UNSET, Unset

T = TypeVar("T", bound="LDiversityCheck")


@_attrs_define
class LDiversityCheck:
    """
    Attributes:
        kind (LDiversityCheckKind):
        l (float):
        c (float | None | Unset):
        variant (LVariant | Unset):
    """

    kind: LDiversityCheckKind
    l: float
    c: float | None | Unset = UNSET
    variant: LVariant | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        kind: str = self.kind

        l = self.l

        c: float | None | Unset
        if isinstance(self.c, Unset):
            c = UNSET
        else:
            c = self.c

        variant: str | Unset = UNSET
        if not isinstance(self.variant, Unset):
            variant = self.variant

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
                "l": l,
            }
        )
        if c is not UNSET:
            field_dict["c"] = c
        if variant is not UNSET:
            field_dict["variant"] = variant

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kind = check_l_diversity_check_kind(d.pop("kind"))

        l = d.pop("l")

        def _parse_c(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        c = _parse_c(d.pop("c", UNSET))

        _variant = d.pop("variant", UNSET)
        variant: LVariant | Unset
        if isinstance(_variant, Unset):
            variant = UNSET
        else:
            variant = check_l_variant(_variant)

        l_diversity_check = cls(
            kind=kind,
            l=l,
            c=c,
            variant=variant,
        )

        return l_diversity_check
