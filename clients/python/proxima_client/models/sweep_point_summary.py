from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SweepPointSummary")


@_attrs_define
class SweepPointSummary:
    """A point's figures, from its job's summary.

    Attributes:
        elapsed_ms (int):
        groups (int):
        information_loss (float): GCP in [0, 1] (rows suppressed by the model count at loss 1).
        query_error (float | None): Mean relative error of the count-query workload (q = 2, s = 0.1):
            the release's estimates against the original table's counts (rows
            the model left out count as lost); null when not applicable (fewer
            than two QIs).
        query_error_median (float | None): Median relative error of the same queries; null exactly when
            `query_error` is.
        risk (float | None): The risk figure (`Sweep.risk`): the summary's `attacker_view.worst`;
            null when not finite.
        suppressed_by_model (int): Rows left out to satisfy the model (within the point's
            `suppression_limit`).
        suppressed_rows (int): Rows left out for missing values.
    """

    elapsed_ms: int
    groups: int
    information_loss: float
    query_error: float | None
    query_error_median: float | None
    risk: float | None
    suppressed_by_model: int
    suppressed_rows: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        elapsed_ms = self.elapsed_ms

        groups = self.groups

        information_loss = self.information_loss

        query_error: float | None
        query_error = self.query_error

        query_error_median: float | None
        query_error_median = self.query_error_median

        risk: float | None
        risk = self.risk

        suppressed_by_model = self.suppressed_by_model

        suppressed_rows = self.suppressed_rows

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "elapsed_ms": elapsed_ms,
                "groups": groups,
                "information_loss": information_loss,
                "query_error": query_error,
                "query_error_median": query_error_median,
                "risk": risk,
                "suppressed_by_model": suppressed_by_model,
                "suppressed_rows": suppressed_rows,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        elapsed_ms = d.pop("elapsed_ms")

        groups = d.pop("groups")

        information_loss = d.pop("information_loss")

        def _parse_query_error(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        query_error = _parse_query_error(d.pop("query_error"))

        def _parse_query_error_median(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        query_error_median = _parse_query_error_median(d.pop("query_error_median"))

        def _parse_risk(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        risk = _parse_risk(d.pop("risk"))

        suppressed_by_model = d.pop("suppressed_by_model")

        suppressed_rows = d.pop("suppressed_rows")

        sweep_point_summary = cls(
            elapsed_ms=elapsed_ms,
            groups=groups,
            information_loss=information_loss,
            query_error=query_error,
            query_error_median=query_error_median,
            risk=risk,
            suppressed_by_model=suppressed_by_model,
            suppressed_rows=suppressed_rows,
        )

        sweep_point_summary.additional_properties = d
        return sweep_point_summary

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
