from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.column_contribution import ColumnContribution
    from ..models.record_at_risk import RecordAtRisk


T = TypeVar("T", bound="ReportCombinationScan")


@_attrs_define
class ReportCombinationScan:
    """One SUDA2 scan.

    Attributes:
        columns (str): `quasi_identifiers` or `published` (every published column).
        columns_involved (list[ColumnContribution]): The columns involved: each column in an MSU with its share of the
            total SUDA score in percent, largest first.
        columns_scanned (int):
        dis_suda (float): The highest DIS-SUDA score (the estimated probability that a match
            on the record is correct).
        dis_suda_mean (float):
        max_suda_score (float):
        msus_by_size (list[int]): Minimal sample uniques of each size, from 1.
        records (int):
        records_with_msu (int): Records with a minimal sample unique of at most `max_size` columns.
        sample_uniques (int): Records unique over every column scanned.
        table (str): `upload` (the table as uploaded) or `release` (as published).
        worst (list[RecordAtRisk] | None): The highest-scoring records with their smallest MSU's columns and
            values; null in the `external` report.
    """

    columns: str
    columns_involved: list[ColumnContribution]
    columns_scanned: int
    dis_suda: float
    dis_suda_mean: float
    max_suda_score: float
    msus_by_size: list[int]
    records: int
    records_with_msu: int
    sample_uniques: int
    table: str
    worst: list[RecordAtRisk] | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        columns = self.columns

        columns_involved = []
        for columns_involved_item_data in self.columns_involved:
            columns_involved_item = columns_involved_item_data.to_dict()
            columns_involved.append(columns_involved_item)

        columns_scanned = self.columns_scanned

        dis_suda = self.dis_suda

        dis_suda_mean = self.dis_suda_mean

        max_suda_score = self.max_suda_score

        msus_by_size = self.msus_by_size

        records = self.records

        records_with_msu = self.records_with_msu

        sample_uniques = self.sample_uniques

        table = self.table

        worst: list[dict[str, Any]] | None
        if isinstance(self.worst, list):
            worst = []
            for worst_type_0_item_data in self.worst:
                worst_type_0_item = worst_type_0_item_data.to_dict()
                worst.append(worst_type_0_item)

        else:
            worst = self.worst

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "columns": columns,
                "columns_involved": columns_involved,
                "columns_scanned": columns_scanned,
                "dis_suda": dis_suda,
                "dis_suda_mean": dis_suda_mean,
                "max_suda_score": max_suda_score,
                "msus_by_size": msus_by_size,
                "records": records,
                "records_with_msu": records_with_msu,
                "sample_uniques": sample_uniques,
                "table": table,
                "worst": worst,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.column_contribution import ColumnContribution  # noqa: PLC0415
        from ..models.record_at_risk import RecordAtRisk  # noqa: PLC0415

        d = dict(src_dict)
        columns = d.pop("columns")

        columns_involved = []
        _columns_involved = d.pop("columns_involved")
        for columns_involved_item_data in _columns_involved:
            columns_involved_item = ColumnContribution.from_dict(columns_involved_item_data)

            columns_involved.append(columns_involved_item)

        columns_scanned = d.pop("columns_scanned")

        dis_suda = d.pop("dis_suda")

        dis_suda_mean = d.pop("dis_suda_mean")

        max_suda_score = d.pop("max_suda_score")

        msus_by_size = cast(list[int], d.pop("msus_by_size"))

        records = d.pop("records")

        records_with_msu = d.pop("records_with_msu")

        sample_uniques = d.pop("sample_uniques")

        table = d.pop("table")

        def _parse_worst(data: object) -> list[RecordAtRisk] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                worst_type_0 = []
                _worst_type_0 = data
                for worst_type_0_item_data in _worst_type_0:
                    worst_type_0_item = RecordAtRisk.from_dict(worst_type_0_item_data)

                    worst_type_0.append(worst_type_0_item)

                return worst_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[RecordAtRisk] | None, data)

        worst = _parse_worst(d.pop("worst"))

        report_combination_scan = cls(
            columns=columns,
            columns_involved=columns_involved,
            columns_scanned=columns_scanned,
            dis_suda=dis_suda,
            dis_suda_mean=dis_suda_mean,
            max_suda_score=max_suda_score,
            msus_by_size=msus_by_size,
            records=records,
            records_with_msu=records_with_msu,
            sample_uniques=sample_uniques,
            table=table,
            worst=worst,
        )

        report_combination_scan.additional_properties = d
        return report_combination_scan

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
