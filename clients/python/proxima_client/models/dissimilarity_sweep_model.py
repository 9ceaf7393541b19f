from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.dissimilarity_sweep_model_kind import DissimilaritySweepModelKind, check_dissimilarity_sweep_model_kind

T = TypeVar("T", bound="DissimilaritySweepModel")


@_attrs_define
class DissimilaritySweepModel:
    """`dissimilarity` as in a job, any numeric parameter a value or a list of values

    Attributes:
        delta (float | list[float]):
        epsilon (float | list[float]):
        k (int | list[int]):
        kind (DissimilaritySweepModelKind):
    """

    delta: float | list[float]
    epsilon: float | list[float]
    k: int | list[int]
    kind: DissimilaritySweepModelKind

    def to_dict(self) -> dict[str, Any]:
        delta: float | list[float]
        if isinstance(self.delta, list):
            delta = self.delta

        else:
            delta = self.delta

        epsilon: float | list[float]
        if isinstance(self.epsilon, list):
            epsilon = self.epsilon

        else:
            epsilon = self.epsilon

        k: int | list[int]
        if isinstance(self.k, list):
            k = self.k

        else:
            k = self.k

        kind: str = self.kind

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "delta": delta,
                "epsilon": epsilon,
                "k": k,
                "kind": kind,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_delta(data: object) -> float | list[float]:
            try:
                if not isinstance(data, list):
                    raise TypeError()
                delta_type_1 = cast(list[float], data)

                return delta_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(float | list[float], data)

        delta = _parse_delta(d.pop("delta"))

        def _parse_epsilon(data: object) -> float | list[float]:
            try:
                if not isinstance(data, list):
                    raise TypeError()
                epsilon_type_1 = cast(list[float], data)

                return epsilon_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(float | list[float], data)

        epsilon = _parse_epsilon(d.pop("epsilon"))

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

        kind = check_dissimilarity_sweep_model_kind(d.pop("kind"))

        dissimilarity_sweep_model = cls(
            delta=delta,
            epsilon=epsilon,
            k=k,
            kind=kind,
        )

        return dissimilarity_sweep_model
