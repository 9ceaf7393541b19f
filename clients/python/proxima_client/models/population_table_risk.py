from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PopulationTableRisk")


@_attrs_define
class PopulationTableRisk:
    """Journalist risk against a population table
    (`proxima_core::population::journalist_risk`): a record of a class whose
    labels cover c population records is re-identified with probability
    1/c (before: the raw QI values as labels).

        Attributes:
            journalist_average (float): Journalist risk averaged over records.
            journalist_max (float): The highest journalist risk: 1 / `min_population_count` (1 for a
                class covering no population record).
            min_population_count (int): The fewest population records a class covers (k-map's k).
            population_rows (int): Records in the population table.
            population_uniques (int): Records whose class covers exactly one population record (unique
                in the population, counted rather than estimated).
            records_at_max (int): Records at the highest journalist risk.
    """

    journalist_average: float
    journalist_max: float
    min_population_count: int
    population_rows: int
    population_uniques: int
    records_at_max: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        journalist_average = self.journalist_average

        journalist_max = self.journalist_max

        min_population_count = self.min_population_count

        population_rows = self.population_rows

        population_uniques = self.population_uniques

        records_at_max = self.records_at_max

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "journalist_average": journalist_average,
                "journalist_max": journalist_max,
                "min_population_count": min_population_count,
                "population_rows": population_rows,
                "population_uniques": population_uniques,
                "records_at_max": records_at_max,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        journalist_average = d.pop("journalist_average")

        journalist_max = d.pop("journalist_max")

        min_population_count = d.pop("min_population_count")

        population_rows = d.pop("population_rows")

        population_uniques = d.pop("population_uniques")

        records_at_max = d.pop("records_at_max")

        population_table_risk = cls(
            journalist_average=journalist_average,
            journalist_max=journalist_max,
            min_population_count=min_population_count,
            population_rows=population_rows,
            population_uniques=population_uniques,
            records_at_max=records_at_max,
        )

        population_table_risk.additional_properties = d
        return population_table_risk

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
