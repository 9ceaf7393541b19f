from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.job_error_details_type_0 import JobErrorDetailsType0


T = TypeVar("T", bound="JobError")


@_attrs_define
class JobError:
    """Why a job failed.

    Attributes:
        code (str):
        details (JobErrorDetailsType0 | None):
        message (str):
    """

    code: str
    details: JobErrorDetailsType0 | None
    message: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.job_error_details_type_0 import JobErrorDetailsType0  # noqa: PLC0415

        code = self.code

        details: dict[str, Any] | None
        if isinstance(self.details, JobErrorDetailsType0):
            details = self.details.to_dict()
        else:
            details = self.details

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
        from ..models.job_error_details_type_0 import JobErrorDetailsType0  # noqa: PLC0415

        d = dict(src_dict)
        code = d.pop("code")

        def _parse_details(data: object) -> JobErrorDetailsType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                details_type_0 = JobErrorDetailsType0.from_dict(data)

                return details_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(JobErrorDetailsType0 | None, data)

        details = _parse_details(d.pop("details"))

        message = d.pop("message")

        job_error = cls(
            code=code,
            details=details,
            message=message,
        )

        job_error.additional_properties = d
        return job_error

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
