from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.dataset_column import DatasetColumn
    from ..models.population_dataset import PopulationDataset
    from ..models.population_sampling_fraction import PopulationSamplingFraction
    from ..models.population_size import PopulationSize


T = TypeVar("T", bound="Dataset")


@_attrs_define
class Dataset:
    """The `Dataset` resource.

    Attributes:
        columns (list[DatasetColumn]):
        created_at (datetime.datetime):
        id (UUID):
        name (str):
        population (None | PopulationDataset | PopulationSamplingFraction | PopulationSize):
        rows (int):
        sha256 (str): Hex SHA-256 of the uploaded CSV.
        size_bytes (int):
        suppressed_rows (int): Rows left out of every release (`on_missing: suppress`).
    """

    columns: list[DatasetColumn]
    created_at: datetime.datetime
    id: UUID
    name: str
    population: None | PopulationDataset | PopulationSamplingFraction | PopulationSize
    rows: int
    sha256: str
    size_bytes: int
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

        created_at = self.created_at.isoformat()

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

        size_bytes = self.size_bytes

        suppressed_rows = self.suppressed_rows

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "columns": columns,
                "created_at": created_at,
                "id": id,
                "name": name,
                "population": population,
                "rows": rows,
                "sha256": sha256,
                "size_bytes": size_bytes,
                "suppressed_rows": suppressed_rows,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.dataset_column import DatasetColumn  # noqa: PLC0415
        from ..models.population_dataset import PopulationDataset  # noqa: PLC0415
        from ..models.population_sampling_fraction import PopulationSamplingFraction  # noqa: PLC0415
        from ..models.population_size import PopulationSize  # noqa: PLC0415

        d = dict(src_dict)
        columns = []
        _columns = d.pop("columns")
        for columns_item_data in _columns:
            columns_item = DatasetColumn.from_dict(columns_item_data)

            columns.append(columns_item)

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

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

        size_bytes = d.pop("size_bytes")

        suppressed_rows = d.pop("suppressed_rows")

        dataset = cls(
            columns=columns,
            created_at=created_at,
            id=id,
            name=name,
            population=population,
            rows=rows,
            sha256=sha256,
            size_bytes=size_bytes,
            suppressed_rows=suppressed_rows,
        )

        dataset.additional_properties = d
        return dataset

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
