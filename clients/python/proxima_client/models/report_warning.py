from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ReportWarning")


@_attrs_define
class ReportWarning:
    """A computed warning.

    Attributes:
        below_k_share (float | None): `fine_grained_column`: the share of published records the column
            leaves in groups of fewer than the model's k (null for the other
            kinds, and without a k). The release policy's `max_below_k_share`
            is held against it.
        column (str): The column it is about.
        kind (str): `sa_association`, `fine_grained_column`, `ungeneralized_qi` or
            `suppression_concentrated` (`docs/release-report.md`, Warnings).
        message (str):
        threshold (float): The threshold it crossed.
        value (float): The measured figure behind it (see `docs/release-report.md`).
    """

    below_k_share: float | None
    column: str
    kind: str
    message: str
    threshold: float
    value: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        below_k_share: float | None
        below_k_share = self.below_k_share

        column = self.column

        kind = self.kind

        message = self.message

        threshold = self.threshold

        value = self.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "below_k_share": below_k_share,
                "column": column,
                "kind": kind,
                "message": message,
                "threshold": threshold,
                "value": value,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_below_k_share(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        below_k_share = _parse_below_k_share(d.pop("below_k_share"))

        column = d.pop("column")

        kind = d.pop("kind")

        message = d.pop("message")

        threshold = d.pop("threshold")

        value = d.pop("value")

        report_warning = cls(
            below_k_share=below_k_share,
            column=column,
            kind=kind,
            message=message,
            threshold=threshold,
            value=value,
        )

        report_warning.additional_properties = d
        return report_warning

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
