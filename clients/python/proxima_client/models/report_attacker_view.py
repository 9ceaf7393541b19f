from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.check_report import CheckReport
    from ..models.report_check_verdict import ReportCheckVerdict


T = TypeVar("T", bound="ReportAttackerView")


@_attrs_define
class ReportAttackerView:
    """The attacker's-view figures of the job's model (its audit's first
    check), and the k-anonymity check beside it.

        Attributes:
            checks (list[ReportCheckVerdict]): Every check of the job's audit: kind and verdict.
            model_check (CheckReport):
    """

    checks: list[ReportCheckVerdict]
    model_check: CheckReport
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        checks = []
        for checks_item_data in self.checks:
            checks_item = checks_item_data.to_dict()
            checks.append(checks_item)

        model_check = self.model_check.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "checks": checks,
                "model_check": model_check,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.check_report import CheckReport  # noqa: PLC0415
        from ..models.report_check_verdict import ReportCheckVerdict  # noqa: PLC0415

        d = dict(src_dict)
        checks = []
        _checks = d.pop("checks")
        for checks_item_data in _checks:
            checks_item = ReportCheckVerdict.from_dict(checks_item_data)

            checks.append(checks_item)

        model_check = CheckReport.from_dict(d.pop("model_check"))

        report_attacker_view = cls(
            checks=checks,
            model_check=model_check,
        )

        report_attacker_view.additional_properties = d
        return report_attacker_view

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
