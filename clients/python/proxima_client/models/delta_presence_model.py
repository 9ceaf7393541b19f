from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.delta_presence_model_kind import DeltaPresenceModelKind, check_delta_presence_model_kind

T = TypeVar("T", bound="DeltaPresenceModel")


@_attrs_define
class DeltaPresenceModel:
    """ARX's δ-presence: every class's records / the population records
    its labels cover lies in [delta_min, delta_max]; the dataset must be
    a subset of its population table.

        Attributes:
            delta_max (float):
            delta_min (float):
            kind (DeltaPresenceModelKind):
    """

    delta_max: float
    delta_min: float
    kind: DeltaPresenceModelKind

    def to_dict(self) -> dict[str, Any]:
        delta_max = self.delta_max

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
        delta_max = d.pop("delta_max")

        delta_min = d.pop("delta_min")

        kind = check_delta_presence_model_kind(d.pop("kind"))

        delta_presence_model = cls(
            delta_max=delta_max,
            delta_min=delta_min,
            kind=kind,
        )

        return delta_presence_model
