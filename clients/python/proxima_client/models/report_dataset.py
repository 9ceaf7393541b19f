from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.population_dataset import PopulationDataset
    from ..models.population_sampling_fraction import PopulationSamplingFraction
    from ..models.population_size import PopulationSize
    from ..models.report_column import ReportColumn


T = TypeVar("T", bound="ReportDataset")


@_attrs_define
class ReportDataset:
    """
    Attributes:
        columns (list[ReportColumn]):
        id (UUID):
        name (str):
        population (None | PopulationDataset | PopulationSamplingFraction | PopulationSize):
        rows (int): Data rows of the upload, suppressed ones included.
        sha256 (str): Hex SHA-256 of the uploaded CSV.
        suppressed_rows (int): Rows left out for missing values.
    """

    columns: list[ReportColumn]
    id: UUID
    name: str
    population: None | PopulationDataset | PopulationSamplingFraction | PopulationSize
    rows: int
    sha256: str
    suppressed_rows: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.population_dataset import PopulationDataset  # noqa: PLC0415
        from ..models.population_sampling_fraction import PopulationSamplingFraction  # noqa: PLC0415
        from ..models.population_size import PopulationSize  # noqa: PLC0415

        columns = []
        for columns_item_data in self.columns:
            columns_item = columns_item_data.to_dict()
            columns.append(columns_item)

        id = str(self.id)

        name = self.name

        population: dict[str, Any] | None
        if isinstance(self.population, PopulationSize):
            population = self.population.to_dict()
        elif isinstance(self.population, PopulationSamplingFraction):
            population = self.population.to_dict()
        elif isinstance(self.population, PopulationDataset):
            population = self.population.to_dict()
        else:
            population = self.population

        rows = self.rows

        sha256 = self.sha256

        suppressed_rows = self.suppressed_rows

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "columns": columns,
                "id": id,
                "name": name,
                "population": population,
                "rows": rows,
                "sha256": sha256,
                "suppressed_rows": suppressed_rows,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.population_dataset import PopulationDataset  # noqa: PLC0415
        from ..models.population_sampling_fraction import PopulationSamplingFraction  # noqa: PLC0415
        from ..models.population_size import PopulationSize  # noqa: PLC0415
        from ..models.report_column import ReportColumn  # noqa: PLC0415

        d = dict(src_dict)
        columns = []
        _columns = d.pop("columns")
        for columns_item_data in _columns:
            columns_item = ReportColumn.from_dict(columns_item_data)

            columns.append(columns_item)

        id = UUID(d.pop("id"))

        name = d.pop("name")

        def _parse_population(data: object) -> None | PopulationDataset | PopulationSamplingFraction | PopulationSize:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_population_type_0 = PopulationSize.from_dict(data)

                return componentsschemas_population_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_population_type_1 = PopulationSamplingFraction.from_dict(data)

                return componentsschemas_population_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_population_type_2 = PopulationDataset.from_dict(data)

                return componentsschemas_population_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PopulationDataset | PopulationSamplingFraction | PopulationSize, data)

        population = _parse_population(d.pop("population"))

        rows = d.pop("rows")

        sha256 = d.pop("sha256")

        suppressed_rows = d.pop("suppressed_rows")

        report_dataset = cls(
            columns=columns,
            id=id,
            name=name,
            population=population,
            rows=rows,
            sha256=sha256,
            suppressed_rows=suppressed_rows,
        )

        report_dataset.additional_properties = d
        return report_dataset

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
