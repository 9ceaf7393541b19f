from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.sweep_map_mark import SweepMapMark


T = TypeVar("T", bound="SweepMap")


@_attrs_define
class SweepMap:
    """A risk–utility map.

    Attributes:
        frontier (list[int]): The point indexes on this map's Pareto front, safest first.
        frontier_labels (list[str]): The same points by their parameters (`label`), in the same order,
            so that a reader need not look indexes up.
        marks (list[SweepMapMark]): One per point that has both figures (succeeded points).
        title (str):
        x_label (str): The risk figure (`sweep.risk`).
        y_label (str): The utility figure: information loss (GCP) or count-query error.
    """

    frontier: list[int]
    frontier_labels: list[str]
    marks: list[SweepMapMark]
    title: str
    x_label: str
    y_label: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        frontier = self.frontier

        frontier_labels = self.frontier_labels

        marks = []
        for marks_item_data in self.marks:
            marks_item = marks_item_data.to_dict()
            marks.append(marks_item)

        title = self.title

        x_label = self.x_label

        y_label = self.y_label

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "frontier": frontier,
                "frontier_labels": frontier_labels,
                "marks": marks,
                "title": title,
                "x_label": x_label,
                "y_label": y_label,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.sweep_map_mark import SweepMapMark  # noqa: PLC0415

        d = dict(src_dict)
        frontier = cast(list[int], d.pop("frontier"))

        frontier_labels = cast(list[str], d.pop("frontier_labels"))

        marks = []
        _marks = d.pop("marks")
        for marks_item_data in _marks:
            marks_item = SweepMapMark.from_dict(marks_item_data)

            marks.append(marks_item)

        title = d.pop("title")

        x_label = d.pop("x_label")

        y_label = d.pop("y_label")

        sweep_map = cls(
            frontier=frontier,
            frontier_labels=frontier_labels,
            marks=marks,
            title=title,
            x_label=x_label,
            y_label=y_label,
        )

        sweep_map.additional_properties = d
        return sweep_map

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
