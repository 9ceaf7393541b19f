from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.decision import Decision, check_decision

T = TypeVar("T", bound="SweepMapMark")


@_attrs_define
class SweepMapMark:
    """One mark of a map: a point with both figures.

    Attributes:
        decision (Decision | None):
        label (str): The point's parameters, as text.
        on_frontier (bool):
        point (int): The point's index in `sweep.points`.
        x (float):
        y (float):
    """

    decision: Decision | None
    label: str
    on_frontier: bool
    point: int
    x: float
    y: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        decision: None | str
        if isinstance(self.decision, str):
            decision = self.decision
        else:
            decision = self.decision

        label = self.label

        on_frontier = self.on_frontier

        point = self.point

        x = self.x

        y = self.y

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "decision": decision,
                "label": label,
                "on_frontier": on_frontier,
                "point": point,
                "x": x,
                "y": y,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_decision(data: object) -> Decision | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                decision_type_0 = check_decision(data)

                return decision_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Decision | None, data)

        decision = _parse_decision(d.pop("decision"))

        label = d.pop("label")

        on_frontier = d.pop("on_frontier")

        point = d.pop("point")

        x = d.pop("x")

        y = d.pop("y")

        sweep_map_mark = cls(
            decision=decision,
            label=label,
            on_frontier=on_frontier,
            point=point,
            x=x,
            y=y,
        )

        sweep_map_mark.additional_properties = d
        return sweep_map_mark

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
