from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.ground_distance import GroundDistance, check_ground_distance
from ..models.t_closeness_check_kind import TClosenessCheckKind, check_t_closeness_check_kind
from ..types import UNSET, Unset

T = TypeVar("T", bound="TClosenessCheck")


@_attrs_define
class TClosenessCheck:
    """
    Attributes:
        kind (TClosenessCheckKind):
        t (float):
        ground_distance (GroundDistance | None | Unset):
    """

    kind: TClosenessCheckKind
    t: float
    ground_distance: GroundDistance | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        kind: str = self.kind

        t = self.t

        ground_distance: None | str | Unset
        if isinstance(self.ground_distance, Unset):
            ground_distance = UNSET
        elif isinstance(self.ground_distance, str):
            ground_distance = self.ground_distance
        else:
            ground_distance = self.ground_distance

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
                "t": t,
            }
        )
        if ground_distance is not UNSET:
            field_dict["ground_distance"] = ground_distance

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kind = check_t_closeness_check_kind(d.pop("kind"))

        t = d.pop("t")

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

        t_closeness_check = cls(
            kind=kind,
            t=t,
            ground_distance=ground_distance,
        )

        return t_closeness_check
