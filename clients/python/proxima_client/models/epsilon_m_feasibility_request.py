from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.epsilon_m_feasibility_request_kind import (
    EpsilonMFeasibilityRequestKind,
    check_epsilon_m_feasibility_request_kind,
)
from ..models.neighborhood import Neighborhood, check_neighborhood
from ..types import UNSET, Unset

T = TypeVar("T", bound="EpsilonMFeasibilityRequest")


@_attrs_define
class EpsilonMFeasibilityRequest:
    """`epsilon` (→ max m, Theorem 1), `m` (→ sup ε, Theorem 2), or both
    (→ max m for ε, and the minimum suppression any release at (ε, m)
    needs).

        Attributes:
            kind (EpsilonMFeasibilityRequestKind):
            epsilon (float | None | Unset):
            m (int | None | Unset):
            neighborhood (Neighborhood | Unset):
    """

    kind: EpsilonMFeasibilityRequestKind
    epsilon: float | None | Unset = UNSET
    m: int | None | Unset = UNSET
    neighborhood: Neighborhood | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        kind: str = self.kind

        epsilon: float | None | Unset
        if isinstance(self.epsilon, Unset):
            epsilon = UNSET
        else:
            epsilon = self.epsilon

        m: int | None | Unset
        if isinstance(self.m, Unset):
            m = UNSET
        else:
            m = self.m

        neighborhood: str | Unset = UNSET
        if not isinstance(self.neighborhood, Unset):
            neighborhood = self.neighborhood

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
            }
        )
        if epsilon is not UNSET:
            field_dict["epsilon"] = epsilon
        if m is not UNSET:
            field_dict["m"] = m
        if neighborhood is not UNSET:
            field_dict["neighborhood"] = neighborhood

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kind = check_epsilon_m_feasibility_request_kind(d.pop("kind"))

        def _parse_epsilon(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        epsilon = _parse_epsilon(d.pop("epsilon", UNSET))

        def _parse_m(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        m = _parse_m(d.pop("m", UNSET))

        _neighborhood = d.pop("neighborhood", UNSET)
        neighborhood: Neighborhood | Unset
        if isinstance(_neighborhood, Unset):
            neighborhood = UNSET
        else:
            neighborhood = check_neighborhood(_neighborhood)

        epsilon_m_feasibility_request = cls(
            kind=kind,
            epsilon=epsilon,
            m=m,
            neighborhood=neighborhood,
        )

        return epsilon_m_feasibility_request
