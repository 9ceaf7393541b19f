from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.sweep_point_error_details_type_0 import SweepPointErrorDetailsType0


T = TypeVar("T", bound="SweepPointError")


@_attrs_define
class SweepPointError:
    """Why a point failed or was refused.

    Attributes:
        code (str): `infeasible_parameters` for a refused point; the job's error code
            (`model_not_satisfied`, …) for a failed one.
        details (None | SweepPointErrorDetailsType0):
        message (str):
    """

    code: str
    details: None | SweepPointErrorDetailsType0
    message: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.sweep_point_error_details_type_0 import SweepPointErrorDetailsType0  # noqa: PLC0415

        code = self.code

        details: dict[str, Any] | None
        if isinstance(self.details, SweepPointErrorDetailsType0):
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
        from ..models.sweep_point_error_details_type_0 import SweepPointErrorDetailsType0  # noqa: PLC0415

        d = dict(src_dict)
        code = d.pop("code")

        def _parse_details(data: object) -> None | SweepPointErrorDetailsType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                details_type_0 = SweepPointErrorDetailsType0.from_dict(data)

                return details_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SweepPointErrorDetailsType0, data)

        details = _parse_details(d.pop("details"))

        message = d.pop("message")

        sweep_point_error = cls(
            code=code,
            details=details,
            message=message,
        )

        sweep_point_error.additional_properties = d
        return sweep_point_error

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
