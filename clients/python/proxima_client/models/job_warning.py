from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.job_warning_details import JobWarningDetails


T = TypeVar("T", bound="JobWarning")


@_attrs_define
class JobWarning:
    """A warning given when a job is accepted.

    Attributes:
        code (str): `beyond_deliverable`: the parameters are within the theorem's
            bound (so the job is accepted) but above what the service delivers
            for sure; the job may fail with `model_not_satisfied`.
        details (JobWarningDetails): The figures behind a `beyond_deliverable` warning.
        message (str):
    """

    code: str
    details: JobWarningDetails
    message: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        code = self.code

        details = self.details.to_dict()

        message = self.message

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "code": code,
                "details": details,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.job_warning_details import JobWarningDetails  # noqa: PLC0415

        d = dict(src_dict)
        code = d.pop("code")

        details = JobWarningDetails.from_dict(d.pop("details"))

        message = d.pop("message")

        job_warning = cls(
            code=code,
            details=details,
            message=message,
        )

        job_warning.additional_properties = d
        return job_warning

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
