from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.decision import Decision, check_decision

if TYPE_CHECKING:
    from ..models.sweep_point_verdict_reason import SweepPointVerdictReason


T = TypeVar("T", bound="SweepPointVerdict")


@_attrs_define
class SweepPointVerdict:
    """The verdict the point's release report gives under the tenant's
    current release policy (`GET /v1/settings/release-policy`).

        Attributes:
            decision (Decision):
            reasons (list[SweepPointVerdictReason]): The report's blocking reasons, then its conditions (empty for a
                publishable point).
    """

    decision: Decision
    reasons: list[SweepPointVerdictReason]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        decision: str = self.decision

        reasons = []
        for reasons_item_data in self.reasons:
            reasons_item = reasons_item_data.to_dict()
            reasons.append(reasons_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "decision": decision,
                "reasons": reasons,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.sweep_point_verdict_reason import SweepPointVerdictReason  # noqa: PLC0415

        d = dict(src_dict)
        decision = check_decision(d.pop("decision"))

        reasons = []
        _reasons = d.pop("reasons")
        for reasons_item_data in _reasons:
            reasons_item = SweepPointVerdictReason.from_dict(reasons_item_data)

            reasons.append(reasons_item)

        sweep_point_verdict = cls(
            decision=decision,
            reasons=reasons,
        )

        sweep_point_verdict.additional_properties = d
        return sweep_point_verdict

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
