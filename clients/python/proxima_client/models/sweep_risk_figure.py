from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SweepRiskFigure")


@_attrs_define
class SweepRiskFigure:
    """The figure on the map's risk axis: the job summary's
    `attacker_view.worst` for the sweep's model — the model's own check in
    the attacker's view — with its name and which way is safer.

        Attributes:
            name (str): `max_breach_probability` ((ε,m)), `max_risk` (dissimilarity),
                `min_candidates` (k-anonymity: the smallest candidate set),
                `min_l` (l-diversity), `max_emd` (t-closeness).
            safer (str): `lower` or `higher`: which values are safer.
            title (str): A label for the axis.
    """

    name: str
    safer: str
    title: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        safer = self.safer

        title = self.title

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "safer": safer,
                "title": title,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        safer = d.pop("safer")

        title = d.pop("title")

        sweep_risk_figure = cls(
            name=name,
            safer=safer,
            title=title,
        )

        sweep_risk_figure.additional_properties = d
        return sweep_risk_figure

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
