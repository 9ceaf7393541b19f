from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.qi_loss import QiLoss
    from ..models.query_error import QueryError
    from ..models.suppressed_rows import SuppressedRows


T = TypeVar("T", bound="ReportUtility")


@_attrs_define
class ReportUtility:
    """
    Attributes:
        gcp (float): GCP: the normalized certainty penalty averaged over QIs and rows
            (rows suppressed by the model at loss 1), as the job summary's
            `information_loss`.
        per_qi (list[QiLoss]): Per QI, the same average (its mean over QIs is `gcp`).
        query_error (list[QueryError]): The count-query workload at selectivity 0.1 for q = 2 and 3, the
            true counts taken on the original table (rows the model left out
            included).
        suppressed (SuppressedRows): Rows left out of the release, by reason.
    """

    gcp: float
    per_qi: list[QiLoss]
    query_error: list[QueryError]
    suppressed: SuppressedRows
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        gcp = self.gcp

        per_qi = []
        for per_qi_item_data in self.per_qi:
            per_qi_item = per_qi_item_data.to_dict()
            per_qi.append(per_qi_item)

        query_error = []
        for query_error_item_data in self.query_error:
            query_error_item = query_error_item_data.to_dict()
            query_error.append(query_error_item)

        suppressed = self.suppressed.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "gcp": gcp,
                "per_qi": per_qi,
                "query_error": query_error,
                "suppressed": suppressed,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.qi_loss import QiLoss  # noqa: PLC0415
        from ..models.query_error import QueryError  # noqa: PLC0415
        from ..models.suppressed_rows import SuppressedRows  # noqa: PLC0415

        d = dict(src_dict)
        gcp = d.pop("gcp")

        per_qi = []
        _per_qi = d.pop("per_qi")
        for per_qi_item_data in _per_qi:
            per_qi_item = QiLoss.from_dict(per_qi_item_data)

            per_qi.append(per_qi_item)

        query_error = []
        _query_error = d.pop("query_error")
        for query_error_item_data in _query_error:
            query_error_item = QueryError.from_dict(query_error_item_data)

            query_error.append(query_error_item)

        suppressed = SuppressedRows.from_dict(d.pop("suppressed"))

        report_utility = cls(
            gcp=gcp,
            per_qi=per_qi,
            query_error=query_error,
            suppressed=suppressed,
        )

        report_utility.additional_properties = d
        return report_utility

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
