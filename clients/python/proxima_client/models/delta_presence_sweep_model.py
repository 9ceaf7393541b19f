from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.delta_presence_sweep_model_kind import DeltaPresenceSweepModelKind, check_delta_presence_sweep_model_kind

T = TypeVar("T", bound="DeltaPresenceSweepModel")


@_attrs_define
class DeltaPresenceSweepModel:
    """`delta_presence` as in a job, any numeric parameter a value or a list of values

    Attributes:
        delta_max (float | list[float]):
        delta_min (float | list[float]):
        kind (DeltaPresenceSweepModelKind):
    """

    delta_max: float | list[float]
    delta_min: float | list[float]
    kind: DeltaPresenceSweepModelKind

    def to_dict(self) -> dict[str, Any]:
        delta_max: float | list[float]
        if isinstance(self.delta_max, list):
            delta_max = self.delta_max

        else:
            delta_max = self.delta_max

        delta_min: float | list[float]
        if isinstance(self.delta_min, list):
            delta_min = self.delta_min

        else:
            delta_min = self.delta_min

        kind: str = self.kind

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "delta_max": delta_max,
                "delta_min": delta_min,
                "kind": kind,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_delta_max(data: object) -> float | list[float]:
            try:
                if not isinstance(data, list):
                    raise TypeError()
                delta_max_type_1 = cast(list[float], data)

                return delta_max_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(float | list[float], data)

        delta_max = _parse_delta_max(d.pop("delta_max"))

        def _parse_delta_min(data: object) -> float | list[float]:
            try:
                if not isinstance(data, list):
                    raise TypeError()
                delta_min_type_1 = cast(list[float], data)

                return delta_min_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(float | list[float], data)

        delta_min = _parse_delta_min(d.pop("delta_min"))

        kind = check_delta_presence_sweep_model_kind(d.pop("kind"))

        delta_presence_sweep_model = cls(
            delta_max=delta_max,
            delta_min=delta_min,
            kind=kind,
        )

        return delta_presence_sweep_model
