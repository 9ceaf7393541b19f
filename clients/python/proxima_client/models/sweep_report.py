from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.sweep import Sweep
    from ..models.sweep_map import SweepMap


T = TypeVar("T", bound="SweepReport")


@_attrs_define
class SweepReport:
    """The report as JSON: the sweep (its points with their figures, their
    job report links and the fronts) and the maps drawn from it.

        Attributes:
            maps (list[SweepMap]):
            sweep (Sweep): The `Sweep` resource.
    """

    maps: list[SweepMap]
    sweep: Sweep
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        maps = []
        for maps_item_data in self.maps:
            maps_item = maps_item_data.to_dict()
            maps.append(maps_item)

        sweep = self.sweep.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "maps": maps,
                "sweep": sweep,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.sweep import Sweep  # noqa: PLC0415
        from ..models.sweep_map import SweepMap  # noqa: PLC0415

        d = dict(src_dict)
        maps = []
        _maps = d.pop("maps")
        for maps_item_data in _maps:
            maps_item = SweepMap.from_dict(maps_item_data)

            maps.append(maps_item)

        sweep = Sweep.from_dict(d.pop("sweep"))

        sweep_report = cls(
            maps=maps,
            sweep=sweep,
        )

        sweep_report.additional_properties = d
        return sweep_report

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
