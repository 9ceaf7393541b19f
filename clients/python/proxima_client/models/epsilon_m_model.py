from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.epsilon_m_model_kind import EpsilonMModelKind, check_epsilon_m_model_kind
from ..models.neighborhood import Neighborhood, check_neighborhood
from ..types import UNSET, Unset

T = TypeVar("T", bound="EpsilonMModel")


@_attrs_define
class EpsilonMModel:
    """
    Attributes:
        epsilon (float):
        kind (EpsilonMModelKind):
        m (int):
        neighborhood (Neighborhood | Unset):
    """

    epsilon: float
    kind: EpsilonMModelKind
    m: int
    neighborhood: Neighborhood | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        epsilon = self.epsilon

        kind: str = self.kind

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
        epsilon = d.pop("epsilon")

        kind = check_epsilon_m_model_kind(d.pop("kind"))

        m = d.pop("m")

        _neighborhood = d.pop("neighborhood", UNSET)
        neighborhood: Neighborhood | Unset
        if isinstance(_neighborhood, Unset):
            neighborhood = UNSET
        else:
            neighborhood = check_neighborhood(_neighborhood)

        epsilon_m_model = cls(
            epsilon=epsilon,
            kind=kind,
            m=m,
            neighborhood=neighborhood,
        )

        return epsilon_m_model
