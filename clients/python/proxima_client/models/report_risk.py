from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.risk_figures import RiskFigures


T = TypeVar("T", bound="ReportRisk")


@_attrs_define
class ReportRisk:
    """Re-identification risk before (the uploaded table's QIs) and after (the
    release in the attacker's view).

        Attributes:
            after (None | RiskFigures):
            before (RiskFigures): The risk measures over one set of equivalence classes.
    """

    after: None | RiskFigures
    before: RiskFigures
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.risk_figures import RiskFigures  # noqa: PLC0415

        after: dict[str, Any] | None
        if isinstance(self.after, RiskFigures):
            after = self.after.to_dict()
        else:
            after = self.after

        before = self.before.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "after": after,
                "before": before,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.risk_figures import RiskFigures  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_after(data: object) -> None | RiskFigures:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                after_type_0 = RiskFigures.from_dict(data)

                return after_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RiskFigures, data)

        after = _parse_after(d.pop("after"))

        before = RiskFigures.from_dict(d.pop("before"))

        report_risk = cls(
            after=after,
            before=before,
        )

        report_risk.additional_properties = d
        return report_risk

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
