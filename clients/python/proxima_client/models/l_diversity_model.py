from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.l_diversity_model_kind import LDiversityModelKind, check_l_diversity_model_kind
from ..models.l_variant import LVariant, check_l_variant
from ..types import UNSET, Unset

T = TypeVar("T", bound="LDiversityModel")


@_attrs_define
class LDiversityModel:
    """
    Attributes:
        kind (LDiversityModelKind):
        l (float):
        c (float | None | Unset):
        k (int | None | Unset):
        variant (LVariant | Unset):
    """

    kind: LDiversityModelKind
    l: float
    c: float | None | Unset = UNSET
    k: int | None | Unset = UNSET
    variant: LVariant | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        kind: str = self.kind

        l = self.l

        c: float | None | Unset
        if isinstance(self.c, Unset):
            c = UNSET
        else:
            c = self.c

        k: int | None | Unset
        if isinstance(self.k, Unset):
            k = UNSET
        else:
            k = self.k

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
        if k is not UNSET:
            field_dict["k"] = k
        if variant is not UNSET:
            field_dict["variant"] = variant

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kind = check_l_diversity_model_kind(d.pop("kind"))

        l = d.pop("l")

        def _parse_c(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        c = _parse_c(d.pop("c", UNSET))

        def _parse_k(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        k = _parse_k(d.pop("k", UNSET))

        _variant = d.pop("variant", UNSET)
        variant: LVariant | Unset
        if isinstance(_variant, Unset):
            variant = UNSET
        else:
            variant = check_l_variant(_variant)

        l_diversity_model = cls(
            kind=kind,
            l=l,
            c=c,
            k=k,
            variant=variant,
        )

        return l_diversity_model
