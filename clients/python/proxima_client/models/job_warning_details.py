from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="JobWarningDetails")


@_attrs_define
class JobWarningDetails:
    """The figures behind a `beyond_deliverable` warning.

    Attributes:
        deliverable_max_m (int): The largest m the service delivers for sure on this table without
            leaving rows out (the feasibility answer's `deliverable.max_m`).
        m (int): The job's m.
        suppression_limit (float): The job's suppression limit.
    """

    deliverable_max_m: int
    m: int
    suppression_limit: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        deliverable_max_m = self.deliverable_max_m

        m = self.m

        suppression_limit = self.suppression_limit

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "deliverable_max_m": deliverable_max_m,
                "m": m,
                "suppression_limit": suppression_limit,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        deliverable_max_m = d.pop("deliverable_max_m")

        m = d.pop("m")

        suppression_limit = d.pop("suppression_limit")

        job_warning_details = cls(
            deliverable_max_m=deliverable_max_m,
            m=m,
            suppression_limit=suppression_limit,
        )

        job_warning_details.additional_properties = d
        return job_warning_details

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
