from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PopulationUniqueness")


@_attrs_define
class PopulationUniqueness:
    """Population uniqueness (`proxima_core::risk::population_uniqueness`):
    the three models' estimates and the one Dankar's rule chose.

        Attributes:
            explanation (str):
            model (None | str): The estimator Dankar's rule chose: `pitman`, `zayatz` or `snb`;
                null when there is no sample unique or the chosen model gave no
                valid estimate (then `share` is 0).
            pitman (float | None): Each model's estimate of the population uniques (null when it did
                not converge or is undefined here).
            population_size (float):
            rule (str): Why (`pitman_small_fraction`, `zayatz_below_snb`, …).
            sampling_fraction (float): The sampling fraction used (records / the population size).
            share (float): `uniques` / the population size.
            snb (float | None):
            uniques (float): Estimated records unique in the population.
            zayatz (float | None):
    """

    explanation: str
    model: None | str
    pitman: float | None
    population_size: float
    rule: str
    sampling_fraction: float
    share: float
    snb: float | None
    uniques: float
    zayatz: float | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        explanation = self.explanation

        model: None | str
        model = self.model

        pitman: float | None
        pitman = self.pitman

        population_size = self.population_size

        rule = self.rule

        sampling_fraction = self.sampling_fraction

        share = self.share

        snb: float | None
        snb = self.snb

        uniques = self.uniques

        zayatz: float | None
        zayatz = self.zayatz

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "explanation": explanation,
                "model": model,
                "pitman": pitman,
                "population_size": population_size,
                "rule": rule,
                "sampling_fraction": sampling_fraction,
                "share": share,
                "snb": snb,
                "uniques": uniques,
                "zayatz": zayatz,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        explanation = d.pop("explanation")

        def _parse_model(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        model = _parse_model(d.pop("model"))

        def _parse_pitman(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        pitman = _parse_pitman(d.pop("pitman"))

        population_size = d.pop("population_size")

        rule = d.pop("rule")

        sampling_fraction = d.pop("sampling_fraction")

        share = d.pop("share")

        def _parse_snb(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        snb = _parse_snb(d.pop("snb"))

        uniques = d.pop("uniques")

        def _parse_zayatz(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        zayatz = _parse_zayatz(d.pop("zayatz"))

        population_uniqueness = cls(
            explanation=explanation,
            model=model,
            pitman=pitman,
            population_size=population_size,
            rule=rule,
            sampling_fraction=sampling_fraction,
            share=share,
            snb=snb,
            uniques=uniques,
            zayatz=zayatz,
        )

        population_uniqueness.additional_properties = d
        return population_uniqueness

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
