from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.approval_decision import ApprovalDecision, check_approval_decision
from ..types import UNSET, Unset

T = TypeVar("T", bound="ApprovalRequest")


@_attrs_define
class ApprovalRequest:
    """The body of `POST /v1/jobs/{id}/approvals`.

    Attributes:
        decision (ApprovalDecision): What the reviewer decided.
        name (str): The person signing (1 to 200 characters, not blank).
        role (str): The capacity they sign in, e.g. `release officer` (1 to 200
            characters, not blank). Their own words: the key's role is what the
            service checks.
        comment (None | str | Unset): Optional, at most 4,000 characters.
    """

    decision: ApprovalDecision
    name: str
    role: str
    comment: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        decision: str = self.decision

        name = self.name

        role = self.role

        comment: None | str | Unset
        if isinstance(self.comment, Unset):
            comment = UNSET
        else:
            comment = self.comment

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "decision": decision,
                "name": name,
                "role": role,
            }
        )
        if comment is not UNSET:
            field_dict["comment"] = comment

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        decision = check_approval_decision(d.pop("decision"))

        name = d.pop("name")

        role = d.pop("role")

        def _parse_comment(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        comment = _parse_comment(d.pop("comment", UNSET))

        approval_request = cls(
            decision=decision,
            name=name,
            role=role,
            comment=comment,
        )

        return approval_request
