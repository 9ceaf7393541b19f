from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="RecordAtRisk")


@_attrs_define
class RecordAtRisk:
    """A record at risk through a combination of columns (internal report).

    Attributes:
        columns (list[str]): The columns of its smallest minimal sample unique.
        dis_suda (float):
        record (int): Its 1-based data line in the upload (a release's `row_id`).
        score (float):
        values (list[str]): The values it publishes there, in `columns` order.
    """

    columns: list[str]
    dis_suda: float
    record: int
    score: float
    values: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        columns = self.columns

        dis_suda = self.dis_suda

        record = self.record

        score = self.score

        values = self.values

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "columns": columns,
                "dis_suda": dis_suda,
                "record": record,
                "score": score,
                "values": values,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        columns = cast(list[str], d.pop("columns"))

        dis_suda = d.pop("dis_suda")

        record = d.pop("record")

        score = d.pop("score")

        values = cast(list[str], d.pop("values"))

        record_at_risk = cls(
            columns=columns,
            dis_suda=dis_suda,
            record=record,
            score=score,
            values=values,
        )

        record_at_risk.additional_properties = d
        return record_at_risk

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
