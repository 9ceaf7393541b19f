from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.decision import Decision, check_decision
from ..models.policy_source import PolicySource, check_policy_source

if TYPE_CHECKING:
    from ..models.release_policy import ReleasePolicy
    from ..models.verdict_reason import VerdictReason


T = TypeVar("T", bound="Verdict")


@_attrs_define
class Verdict:
    """The verdict, its reasons and the policy it applied.

    Attributes:
        decision (Decision):
        policy (ReleasePolicy): The thresholds and rules a tenant's releases are judged by.
        policy_source (PolicySource):
        reasons (list[VerdictReason]): Blocking reasons first, then conditions, then what passed.
    """

    decision: Decision
    policy: ReleasePolicy
    policy_source: PolicySource
    reasons: list[VerdictReason]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        decision: str = self.decision

        policy = self.policy.to_dict()

        policy_source: str = self.policy_source

        reasons = []
        for reasons_item_data in self.reasons:
            reasons_item = reasons_item_data.to_dict()
            reasons.append(reasons_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "decision": decision,
                "policy": policy,
                "policy_source": policy_source,
                "reasons": reasons,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.release_policy import ReleasePolicy  # noqa: PLC0415
        from ..models.verdict_reason import VerdictReason  # noqa: PLC0415

        d = dict(src_dict)
        decision = check_decision(d.pop("decision"))

        policy = ReleasePolicy.from_dict(d.pop("policy"))

        policy_source = check_policy_source(d.pop("policy_source"))

        reasons = []
        _reasons = d.pop("reasons")
        for reasons_item_data in _reasons:
            reasons_item = VerdictReason.from_dict(reasons_item_data)

            reasons.append(reasons_item)

        verdict = cls(
            decision=decision,
            policy=policy,
            policy_source=policy_source,
            reasons=reasons,
        )

        verdict.additional_properties = d
        return verdict

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
