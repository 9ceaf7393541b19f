from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.population_table_risk import PopulationTableRisk
    from ..models.population_uniqueness import PopulationUniqueness


T = TypeVar("T", bound="RiskFigures")


@_attrs_define
class RiskFigures:
    """The risk measures over one set of equivalence classes.

    Attributes:
        classes (int): Equivalence classes (before: distinct QI combinations; after:
            distinct candidate-set sizes' classes, see docs).
        journalist_max (float): Journalist risk: the highest re-identification probability when the
            attacker's victim list is the population (1 / the smallest
            population class; the prosecutor figure without `population`;
            counted in the population table when the dataset names one).
        marketer (float): Marketer risk: the expected share of records re-identified when
            every record is attacked.
        min_class_size (int): The smallest class.
        population_uniqueness (None | PopulationUniqueness):
        prosecutor_average (float): Prosecutor risk averaged over records (= classes / records).
        prosecutor_max (float): Prosecutor risk: the highest re-identification probability of a
            record (1 / the smallest class).
        records (int): Records judged.
        records_at_max (int): Records at the highest prosecutor risk.
        sample_uniques (int): Records alone in their class.
        sample_uniques_share (float):
        population_table (None | PopulationTableRisk | Unset):
    """

    classes: int
    journalist_max: float
    marketer: float
    min_class_size: int
    population_uniqueness: None | PopulationUniqueness
    prosecutor_average: float
    prosecutor_max: float
    records: int
    records_at_max: int
    sample_uniques: int
    sample_uniques_share: float
    population_table: None | PopulationTableRisk | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.population_table_risk import PopulationTableRisk  # noqa: PLC0415
        from ..models.population_uniqueness import PopulationUniqueness  # noqa: PLC0415

        classes = self.classes

        journalist_max = self.journalist_max

        marketer = self.marketer

        min_class_size = self.min_class_size

        population_uniqueness: dict[str, Any] | None
        if isinstance(self.population_uniqueness, PopulationUniqueness):
            population_uniqueness = self.population_uniqueness.to_dict()
        else:
            population_uniqueness = self.population_uniqueness

        prosecutor_average = self.prosecutor_average

        prosecutor_max = self.prosecutor_max

        records = self.records

        records_at_max = self.records_at_max

        sample_uniques = self.sample_uniques

        sample_uniques_share = self.sample_uniques_share

        population_table: dict[str, Any] | None | Unset
        if isinstance(self.population_table, Unset):
            population_table = UNSET
        elif isinstance(self.population_table, PopulationTableRisk):
            population_table = self.population_table.to_dict()
        else:
            population_table = self.population_table

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "classes": classes,
                "journalist_max": journalist_max,
                "marketer": marketer,
                "min_class_size": min_class_size,
                "population_uniqueness": population_uniqueness,
                "prosecutor_average": prosecutor_average,
                "prosecutor_max": prosecutor_max,
                "records": records,
                "records_at_max": records_at_max,
                "sample_uniques": sample_uniques,
                "sample_uniques_share": sample_uniques_share,
            }
        )
        if population_table is not UNSET:
            field_dict["population_table"] = population_table

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.population_table_risk import PopulationTableRisk  # noqa: PLC0415
        from ..models.population_uniqueness import PopulationUniqueness  # noqa: PLC0415

        d = dict(src_dict)
        classes = d.pop("classes")

        journalist_max = d.pop("journalist_max")

        marketer = d.pop("marketer")

        min_class_size = d.pop("min_class_size")

        def _parse_population_uniqueness(data: object) -> None | PopulationUniqueness:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                population_uniqueness_type_0 = PopulationUniqueness.from_dict(data)

                return population_uniqueness_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PopulationUniqueness, data)

        population_uniqueness = _parse_population_uniqueness(d.pop("population_uniqueness"))

        prosecutor_average = d.pop("prosecutor_average")

        prosecutor_max = d.pop("prosecutor_max")

        records = d.pop("records")

        records_at_max = d.pop("records_at_max")

        sample_uniques = d.pop("sample_uniques")

        sample_uniques_share = d.pop("sample_uniques_share")

        def _parse_population_table(data: object) -> None | PopulationTableRisk | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                population_table_type_0 = PopulationTableRisk.from_dict(data)

                return population_table_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PopulationTableRisk | Unset, data)

        population_table = _parse_population_table(d.pop("population_table", UNSET))

        risk_figures = cls(
            classes=classes,
            journalist_max=journalist_max,
            marketer=marketer,
            min_class_size=min_class_size,
            population_uniqueness=population_uniqueness,
            prosecutor_average=prosecutor_average,
            prosecutor_max=prosecutor_max,
            records=records,
            records_at_max=records_at_max,
            sample_uniques=sample_uniques,
            sample_uniques_share=sample_uniques_share,
            population_table=population_table,
        )

        risk_figures.additional_properties = d
        return risk_figures

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
