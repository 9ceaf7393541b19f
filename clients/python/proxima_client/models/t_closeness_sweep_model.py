from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.ground_distance import GroundDistance, check_ground_distance
from ..models.t_closeness_sweep_model_kind import TClosenessSweepModelKind, check_t_closeness_sweep_model_kind
from ..types import UNSET, Unset

T = TypeVar("T", bound="TClosenessSweepModel")


@_attrs_define
class TClosenessSweepModel:
    """`t_closeness` as in a job, any numeric parameter a value or a list of values

    Attributes:
        kind (TClosenessSweepModelKind):
        t (float | list[float]):
        ground_distance (GroundDistance | None | Unset):
        k (int | list[int] | Unset):
    """

    kind: TClosenessSweepModelKind
    t: float | list[float]
    ground_distance: GroundDistance | None | Unset = UNSET
    k: int | list[int] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        kind: str = self.kind

        t: float | list[float]
        if isinstance(self.t, list):
            t = self.t

        else:
            t = self.t

        ground_distance: None | str | Unset
        if isinstance(self.ground_distance, Unset):
            ground_distance = UNSET
        elif isinstance(self.ground_distance, str):
            ground_distance = self.ground_distance
        else:
            ground_distance = self.ground_distance

        k: int | list[int] | Unset
        if isinstance(self.k, Unset):
            k = UNSET
        elif isinstance(self.k, list):
            k = self.k

        else:
            k = self.k

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
                "t": t,
            }
        )
        if ground_distance is not UNSET:
            field_dict["ground_distance"] = ground_distance
        if k is not UNSET:
            field_dict["k"] = k

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kind = check_t_closeness_sweep_model_kind(d.pop("kind"))

        def _parse_t(data: object) -> float | list[float]:
            try:
                if not isinstance(data, list):
                    raise TypeError()
                t_type_1 = cast(list[float], data)

                return t_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(float | list[float], data)

        t = _parse_t(d.pop("t"))

        def _parse_ground_distance(data: object) -> GroundDistance | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                ground_distance_type_0 = check_ground_distance(data)

                return ground_distance_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(GroundDistance | None | Unset, data)

        ground_distance = _parse_ground_distance(d.pop("ground_distance", UNSET))

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

        t_closeness_sweep_model = cls(
            kind=kind,
            t=t,
            ground_distance=ground_distance,
            k=k,
        )

        return t_closeness_sweep_model
