from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.on_missing import OnMissing, check_on_missing
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.csv_options import CsvOptions
    from ..models.population_dataset import PopulationDataset
    from ..models.population_sampling_fraction import PopulationSamplingFraction
    from ..models.population_size import PopulationSize
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
        population (None | PopulationDataset | PopulationSamplingFraction | PopulationSize | Unset):
    """

    columns: list[SchemaColumn]
    name: str
    csv: CsvOptions | Unset = UNSET
    on_missing: OnMissing | Unset = UNSET
    population: None | PopulationDataset | PopulationSamplingFraction | PopulationSize | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.population_dataset import PopulationDataset  # noqa: PLC0415
        from ..models.population_sampling_fraction import PopulationSamplingFraction  # noqa: PLC0415
        from ..models.population_size import PopulationSize  # noqa: PLC0415

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

        population: dict[str, Any] | None | Unset
        if isinstance(self.population, Unset):
            population = UNSET
        elif isinstance(self.population, PopulationSize):
            population = self.population.to_dict()
        elif isinstance(self.population, PopulationSamplingFraction):
            population = self.population.to_dict()
        elif isinstance(self.population, PopulationDataset):
            population = self.population.to_dict()
        else:
            population = self.population

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
        if population is not UNSET:
            field_dict["population"] = population

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.csv_options import CsvOptions  # noqa: PLC0415
        from ..models.population_dataset import PopulationDataset  # noqa: PLC0415
        from ..models.population_sampling_fraction import PopulationSamplingFraction  # noqa: PLC0415
        from ..models.population_size import PopulationSize  # noqa: PLC0415
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

        def _parse_population(
            data: object,
        ) -> None | PopulationDataset | PopulationSamplingFraction | PopulationSize | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
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
            return cast(None | PopulationDataset | PopulationSamplingFraction | PopulationSize | Unset, data)

        population = _parse_population(d.pop("population", UNSET))

        dataset_schema = cls(
            columns=columns,
            name=name,
            csv=csv,
            on_missing=on_missing,
            population=population,
        )

        return dataset_schema
