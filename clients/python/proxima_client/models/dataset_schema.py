from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.on_missing import OnMissing, check_on_missing
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.csv_options import CsvOptions
    from ..models.schema_column import SchemaColumn


T = TypeVar("T", bound="DatasetSchema")


@_attrs_define
class DatasetSchema:
    """
    Attributes:
        columns (list[SchemaColumn]):
        name (str):
        csv (CsvOptions | Unset):
        on_missing (OnMissing | Unset):
    """

    columns: list[SchemaColumn]
    name: str
    csv: CsvOptions | Unset = UNSET
    on_missing: OnMissing | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        columns = []
        for columns_item_data in self.columns:
            columns_item = columns_item_data.to_dict()
            columns.append(columns_item)

        name = self.name

        csv: dict[str, Any] | Unset = UNSET
        if not isinstance(self.csv, Unset):
            csv = self.csv.to_dict()

        on_missing: str | Unset = UNSET
        if not isinstance(self.on_missing, Unset):
            on_missing = self.on_missing

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "columns": columns,
                "name": name,
            }
        )
        if csv is not UNSET:
            field_dict["csv"] = csv
        if on_missing is not UNSET:
            field_dict["on_missing"] = on_missing

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.csv_options import CsvOptions  # noqa: PLC0415
        from ..models.schema_column import SchemaColumn  # noqa: PLC0415

        d = dict(src_dict)
        columns = []
        _columns = d.pop("columns")
        for columns_item_data in _columns:
            columns_item = SchemaColumn.from_dict(columns_item_data)

            columns.append(columns_item)

        name = d.pop("name")

        _csv = d.pop("csv", UNSET)
        csv: CsvOptions | Unset
        if isinstance(_csv, Unset):
            csv = UNSET
        else:
            csv = CsvOptions.from_dict(_csv)

        _on_missing = d.pop("on_missing", UNSET)
        on_missing: OnMissing | Unset
        if isinstance(_on_missing, Unset):
            on_missing = UNSET
        else:
            on_missing = check_on_missing(_on_missing)

        dataset_schema = cls(
            columns=columns,
            name=name,
            csv=csv,
            on_missing=on_missing,
        )

        return dataset_schema
