from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.l_diversity_sweep_model_kind import LDiversitySweepModelKind, check_l_diversity_sweep_model_kind
from ..models.l_variant import LVariant, check_l_variant
from ..types import UNSET, Unset

T = TypeVar("T", bound="LDiversitySweepModel")


@_attrs_define
class LDiversitySweepModel:
    """`l_diversity` as in a job, any numeric parameter a value or a list of values

    Attributes:
        kind (LDiversitySweepModelKind):
        l (float | list[float]):
        c (float | list[float] | Unset):
        k (int | list[int] | Unset):
        variant (LVariant | Unset):
    """

    kind: LDiversitySweepModelKind
    l: float | list[float]
    c: float | list[float] | Unset = UNSET
    k: int | list[int] | Unset = UNSET
    variant: LVariant | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        kind: str = self.kind

        l: float | list[float]
        if isinstance(self.l, list):
            l = self.l

        else:
            l = self.l

        c: float | list[float] | Unset
        if isinstance(self.c, Unset):
            c = UNSET
        elif isinstance(self.c, list):
            c = self.c

        else:
            c = self.c

        k: int | list[int] | Unset
        if isinstance(self.k, Unset):
            k = UNSET
        elif isinstance(self.k, list):
            k = self.k

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
        kind = check_l_diversity_sweep_model_kind(d.pop("kind"))

        def _parse_l(data: object) -> float | list[float]:
            try:
                if not isinstance(data, list):
                    raise TypeError()
                l_type_1 = cast(list[float], data)

                return l_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(float | list[float], data)

        l = _parse_l(d.pop("l"))

        def _parse_c(data: object) -> float | list[float] | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                c_type_1 = cast(list[float], data)

                return c_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(float | list[float] | Unset, data)

        c = _parse_c(d.pop("c", UNSET))

        def _parse_k(data: object) -> int | list[int] | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                k_type_1 = cast(list[int], data)

                return k_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(int | list[int] | Unset, data)

        k = _parse_k(d.pop("k", UNSET))

        _variant = d.pop("variant", UNSET)
        variant: LVariant | Unset
        if isinstance(_variant, Unset):
            variant = UNSET
        else:
            variant = check_l_variant(_variant)

        l_diversity_sweep_model = cls(
            kind=kind,
            l=l,
            c=c,
            k=k,
            variant=variant,
        )

        return l_diversity_sweep_model
