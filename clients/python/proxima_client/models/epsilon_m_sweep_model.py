from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.epsilon_m_sweep_model_kind import EpsilonMSweepModelKind, check_epsilon_m_sweep_model_kind
from ..models.neighborhood import Neighborhood, check_neighborhood
from ..types import UNSET, Unset

T = TypeVar("T", bound="EpsilonMSweepModel")


@_attrs_define
class EpsilonMSweepModel:
    """`epsilon_m` as in a job, any numeric parameter a value or a list of values

    Attributes:
        epsilon (float | list[float]):
        kind (EpsilonMSweepModelKind):
        m (int | list[int]):
        neighborhood (Neighborhood | Unset):
    """

    epsilon: float | list[float]
    kind: EpsilonMSweepModelKind
    m: int | list[int]
    neighborhood: Neighborhood | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        epsilon: float | list[float]
        if isinstance(self.epsilon, list):
            epsilon = self.epsilon

        else:
            epsilon = self.epsilon

        kind: str = self.kind

        m: int | list[int]
        if isinstance(self.m, list):
            m = self.m

        else:
            m = self.m

        neighborhood: str | Unset = UNSET
        if not isinstance(self.neighborhood, Unset):
            neighborhood = self.neighborhood

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "epsilon": epsilon,
                "kind": kind,
                "m": m,
            }
        )
        if neighborhood is not UNSET:
            field_dict["neighborhood"] = neighborhood

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

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

        kind = check_epsilon_m_sweep_model_kind(d.pop("kind"))

        def _parse_m(data: object) -> int | list[int]:
            try:
                if not isinstance(data, list):
                    raise TypeError()
                m_type_1 = cast(list[int], data)

                return m_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(int | list[int], data)

        m = _parse_m(d.pop("m"))

        _neighborhood = d.pop("neighborhood", UNSET)
        neighborhood: Neighborhood | Unset
        if isinstance(_neighborhood, Unset):
            neighborhood = UNSET
        else:
            neighborhood = check_neighborhood(_neighborhood)

        epsilon_m_sweep_model = cls(
            epsilon=epsilon,
            kind=kind,
            m=m,
            neighborhood=neighborhood,
        )

        return epsilon_m_sweep_model
