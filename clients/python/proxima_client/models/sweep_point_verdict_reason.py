from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.effect import Effect, check_effect
from ..models.verdict_reason_kind import VerdictReasonKind, check_verdict_reason_kind

T = TypeVar("T", bound="SweepPointVerdictReason")


@_attrs_define
class SweepPointVerdictReason:
    """A reason of a point's verdict that weighs on its decision (a condition
    or a blocking reason; what passed is listed in the point's report).

        Attributes:
            anchor (str): The section of the point's report that supports it (`#risk`,
                `#warning-2`, …; append it to `report`).
            effect (Effect): What a reason does to the decision.
            kind (VerdictReasonKind): What a reason is about.
            message (str): The report's sentence.
    """

    anchor: str
    effect: Effect
    kind: VerdictReasonKind
    message: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        anchor = self.anchor

        effect: str = self.effect

        kind: str = self.kind

        message = self.message

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "anchor": anchor,
                "effect": effect,
                "kind": kind,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        anchor = d.pop("anchor")

        effect = check_effect(d.pop("effect"))

        kind = check_verdict_reason_kind(d.pop("kind"))

        message = d.pop("message")

        sweep_point_verdict_reason = cls(
            anchor=anchor,
            effect=effect,
            kind=kind,
            message=message,
        )

        sweep_point_verdict_reason.additional_properties = d
        return sweep_point_verdict_reason

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
