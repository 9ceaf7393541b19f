from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.report_combination_scan import ReportCombinationScan


T = TypeVar("T", bound="ReportCombinations")


@_attrs_define
class ReportCombinations:
    """Records at risk through combinations of columns (SUDA2, as the
    `special_uniques` audit check measures them).

        Attributes:
            dis_fraction (float): DIS-SUDA's sampling fraction: the dataset's rows over its declared
                population, else 0.01.
            max_size (int): The largest minimal sample unique searched (capped per scan at the
                number of columns scanned).
            scans (list[ReportCombinationScan]): The upload's QIs, then (with a release) the release's QIs through
                their labels and every column the release publishes.
            skipped (None | str): Why nothing was scanned (a table over the report's row limit), or
                null.
    """

    dis_fraction: float
    max_size: int
    scans: list[ReportCombinationScan]
    skipped: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        dis_fraction = self.dis_fraction

        max_size = self.max_size

        scans = []
        for scans_item_data in self.scans:
            scans_item = scans_item_data.to_dict()
            scans.append(scans_item)

        skipped: None | str
        skipped = self.skipped

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "dis_fraction": dis_fraction,
                "max_size": max_size,
                "scans": scans,
                "skipped": skipped,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.report_combination_scan import ReportCombinationScan  # noqa: PLC0415

        d = dict(src_dict)
        dis_fraction = d.pop("dis_fraction")

        max_size = d.pop("max_size")

        scans = []
        _scans = d.pop("scans")
        for scans_item_data in _scans:
            scans_item = ReportCombinationScan.from_dict(scans_item_data)

            scans.append(scans_item)

        def _parse_skipped(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        skipped = _parse_skipped(d.pop("skipped"))

        report_combinations = cls(
            dis_fraction=dis_fraction,
            max_size=max_size,
            scans=scans,
            skipped=skipped,
        )

        report_combinations.additional_properties = d
        return report_combinations

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
