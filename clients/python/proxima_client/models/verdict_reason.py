from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.effect import Effect, check_effect
from ..models.verdict_reason_kind import VerdictReasonKind, check_verdict_reason_kind

T = TypeVar("T", bound="VerdictReason")


@_attrs_define
class VerdictReason:
    """One reason of the verdict.

    Attributes:
        anchor (str): The report section that supports it (an HTML anchor of the page,
            e.g. `#attacker-view`, `#warning-2`).
        effect (Effect): What a reason does to the decision.
        kind (VerdictReasonKind): What a reason is about.
        message (str): One sentence for a non-specialist.
        threshold (float | None): The policy's threshold it was held against, when there is one.
        value (float | None): The measured figure, when there is one.
    """

    anchor: str
    effect: Effect
    kind: VerdictReasonKind
    message: str
    threshold: float | None
    value: float | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        anchor = self.anchor

        effect: str = self.effect

        kind: str = self.kind

        message = self.message

        threshold: float | None
        threshold = self.threshold

        value: float | None
        value = self.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "anchor": anchor,
                "effect": effect,
                "kind": kind,
                "message": message,
                "threshold": threshold,
                "value": value,
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

        def _parse_threshold(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        threshold = _parse_threshold(d.pop("threshold"))

        def _parse_value(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        value = _parse_value(d.pop("value"))

        verdict_reason = cls(
            anchor=anchor,
            effect=effect,
            kind=kind,
            message=message,
            threshold=threshold,
            value=value,
        )

        verdict_reason.additional_properties = d
        return verdict_reason

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
