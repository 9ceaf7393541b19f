from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="WorstRecord")


@_attrs_define
class WorstRecord:
    """A record with special uniques (`special_uniques`).

    Attributes:
        columns (list[str]): The columns of its smallest minimal sample unique.
        dis_suda (float): Its DIS-SUDA score: the estimated probability that a match on it is
            correct.
        msus (int): How many minimal sample uniques it has.
        record (int): The record's 1-based data line in the upload (`row_id` in a
            release's download).
        score (float): Its SUDA score: the sum of its MSUs' scores.
    """

    columns: list[str]
    dis_suda: float
    msus: int
    record: int
    score: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        columns = self.columns

        dis_suda = self.dis_suda

        msus = self.msus

        record = self.record

        score = self.score

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "columns": columns,
                "dis_suda": dis_suda,
                "msus": msus,
                "record": record,
                "score": score,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        columns = cast(list[str], d.pop("columns"))

        dis_suda = d.pop("dis_suda")

        msus = d.pop("msus")

        record = d.pop("record")

        score = d.pop("score")

        worst_record = cls(
            columns=columns,
            dis_suda=dis_suda,
            msus=msus,
            record=record,
            score=score,
        )

        worst_record.additional_properties = d
        return worst_record

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
