from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.approval_decision import ApprovalDecision, check_approval_decision

T = TypeVar("T", bound="Approval")


@_attrs_define
class Approval:
    """An approval or rejection as recorded (never edited or deleted).

    Attributes:
        comment (None | str):
        created_at (datetime.datetime):
        dataset_id (UUID):
        decision (ApprovalDecision): What the reviewer decided.
        id (UUID):
        job_id (UUID):
        key_id (UUID): The id of the API key that signed (not the key itself).
        name (str):
        release_sha256 (str): Hex SHA-256 of the CSV release (`GET …/result`) the approval binds.
        role (str):
        tenant (str):
        verdict (str): The report's verdict when the approval was given:
            `publishable`, `publishable_with_conditions` or `not_publishable`.
    """

    comment: None | str
    created_at: datetime.datetime
    dataset_id: UUID
    decision: ApprovalDecision
    id: UUID
    job_id: UUID
    key_id: UUID
    name: str
    release_sha256: str
    role: str
    tenant: str
    verdict: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        comment: None | str
        comment = self.comment

        created_at = self.created_at.isoformat()

        dataset_id = str(self.dataset_id)

        decision: str = self.decision

        id = str(self.id)

        job_id = str(self.job_id)

        key_id = str(self.key_id)

        name = self.name

        release_sha256 = self.release_sha256

        role = self.role

        tenant = self.tenant

        verdict = self.verdict

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "comment": comment,
                "created_at": created_at,
                "dataset_id": dataset_id,
                "decision": decision,
                "id": id,
                "job_id": job_id,
                "key_id": key_id,
                "name": name,
                "release_sha256": release_sha256,
                "role": role,
                "tenant": tenant,
                "verdict": verdict,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_comment(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        comment = _parse_comment(d.pop("comment"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        dataset_id = UUID(d.pop("dataset_id"))

        decision = check_approval_decision(d.pop("decision"))

        id = UUID(d.pop("id"))

        job_id = UUID(d.pop("job_id"))

        key_id = UUID(d.pop("key_id"))

        name = d.pop("name")

        release_sha256 = d.pop("release_sha256")

        role = d.pop("role")

        tenant = d.pop("tenant")

        verdict = d.pop("verdict")

        approval = cls(
            comment=comment,
            created_at=created_at,
            dataset_id=dataset_id,
            decision=decision,
            id=id,
            job_id=job_id,
            key_id=key_id,
            name=name,
            release_sha256=release_sha256,
            role=role,
            tenant=tenant,
            verdict=verdict,
        )

        approval.additional_properties = d
        return approval

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
