from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.k_map_sweep_model_kind import KMapSweepModelKind, check_k_map_sweep_model_kind

T = TypeVar("T", bound="KMapSweepModel")


@_attrs_define
class KMapSweepModel:
    """`k_map` as in a job, any numeric parameter a value or a list of values

    Attributes:
        k (int | list[int]):
        kind (KMapSweepModelKind):
    """

    k: int | list[int]
    kind: KMapSweepModelKind

    def to_dict(self) -> dict[str, Any]:
        k: int | list[int]
        if isinstance(self.k, list):
            k = self.k

        else:
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

        def _parse_k(data: object) -> int | list[int]:
            try:
                if not isinstance(data, list):
                    raise TypeError()
                k_type_1 = cast(list[int], data)

                return k_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(int | list[int], data)

        k = _parse_k(d.pop("k"))

        kind = check_k_map_sweep_model_kind(d.pop("kind"))

        k_map_sweep_model = cls(
            k=k,
            kind=kind,
        )

        return k_map_sweep_model
