from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SuppressedRows")


@_attrs_define
class SuppressedRows:
    """Rows left out of the release, by reason.

    Attributes:
        missing_values (int): Missing QI or SA values (`on_missing: suppress`).
        model (int): Left out to satisfy the model in the attacker's view
            (`suppression_limit`).
        model_minimum_share (float | None): (ε,m) jobs: a **lower bound** on the share of rows that any release
            at the job's (ε, m) leaves out (the feasibility answer's
            `minimum_suppression`): `model_share` above it is the engine's
            price, not the data's. Null for other models.
        model_share (float): `model` as a share of the rows the job ran on: every count taken
            from the release misses these rows (a count over the whole table
            comes out this much short), and the query errors are measured
            against the original table, that loss included.
    """

    missing_values: int
    model: int
    model_minimum_share: float | None
    model_share: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        missing_values = self.missing_values

        model = self.model

        model_minimum_share: float | None
        model_minimum_share = self.model_minimum_share

        model_share = self.model_share

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "missing_values": missing_values,
                "model": model,
                "model_minimum_share": model_minimum_share,
                "model_share": model_share,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        missing_values = d.pop("missing_values")

        model = d.pop("model")

        def _parse_model_minimum_share(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        model_minimum_share = _parse_model_minimum_share(d.pop("model_minimum_share"))

        model_share = d.pop("model_share")

        suppressed_rows = cls(
            missing_values=missing_values,
            model=model,
            model_minimum_share=model_minimum_share,
            model_share=model_share,
        )

        suppressed_rows.additional_properties = d
        return suppressed_rows

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
