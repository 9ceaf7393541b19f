from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.audit_view import AuditView, check_audit_view

if TYPE_CHECKING:
    from ..models.check_report import CheckReport
    from ..models.risk import Risk
    from ..models.size_bucket import SizeBucket


T = TypeVar("T", bound="AuditReport")


@_attrs_define
class AuditReport:
    """
    Attributes:
        checks (list[CheckReport]):
        group_sizes (list[SizeBucket]):
        groups (int):
        passed (bool): Every check passed, in the report's view.
        risk (Risk):
        rows (int):
        view (AuditView): The view an audit judges its checks in.
    """

    checks: list[CheckReport]
    group_sizes: list[SizeBucket]
    groups: int
    passed: bool
    risk: Risk
    rows: int
    view: AuditView
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        checks = []
        for checks_item_data in self.checks:
            checks_item = checks_item_data.to_dict()
            checks.append(checks_item)

        group_sizes = []
        for group_sizes_item_data in self.group_sizes:
            group_sizes_item = group_sizes_item_data.to_dict()
            group_sizes.append(group_sizes_item)

        groups = self.groups

        passed = self.passed

        risk = self.risk.to_dict()

        rows = self.rows

        view: str = self.view

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "checks": checks,
                "group_sizes": group_sizes,
                "groups": groups,
                "passed": passed,
                "risk": risk,
                "rows": rows,
                "view": view,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.check_report import CheckReport  # noqa: PLC0415
        from ..models.risk import Risk  # noqa: PLC0415
        from ..models.size_bucket import SizeBucket  # noqa: PLC0415

        d = dict(src_dict)
        checks = []
        _checks = d.pop("checks")
        for checks_item_data in _checks:
            checks_item = CheckReport.from_dict(checks_item_data)

            checks.append(checks_item)

        group_sizes = []
        _group_sizes = d.pop("group_sizes")
        for group_sizes_item_data in _group_sizes:
            group_sizes_item = SizeBucket.from_dict(group_sizes_item_data)

            group_sizes.append(group_sizes_item)

        groups = d.pop("groups")

        passed = d.pop("passed")

        risk = Risk.from_dict(d.pop("risk"))

        rows = d.pop("rows")

        view = check_audit_view(d.pop("view"))

        audit_report = cls(
            checks=checks,
            group_sizes=group_sizes,
            groups=groups,
            passed=passed,
            risk=risk,
            rows=rows,
            view=view,
        )

        audit_report.additional_properties = d
        return audit_report

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
