from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CsvOptions")


@_attrs_define
class CsvOptions:
    """
    Attributes:
        allow_line_breaks (bool | Unset): Accept line breaks inside quoted cells, in every column; default
            `false` (such a cell, in any column, is `malformed_csv`: it almost
            always means a stray quote merged rows — identifiers included —
            into one cell).
        delimiter (str | Unset): One ASCII character; default `,`.
        missing (list[str] | Unset): Cell values that mean "missing"; default `[""]`.
    """

    allow_line_breaks: bool | Unset = UNSET
    delimiter: str | Unset = UNSET
    missing: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        allow_line_breaks = self.allow_line_breaks

        delimiter = self.delimiter

        missing: list[str] | Unset = UNSET
        if not isinstance(self.missing, Unset):
            missing = self.missing

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if allow_line_breaks is not UNSET:
            field_dict["allow_line_breaks"] = allow_line_breaks
        if delimiter is not UNSET:
            field_dict["delimiter"] = delimiter
        if missing is not UNSET:
            field_dict["missing"] = missing

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        allow_line_breaks = d.pop("allow_line_breaks", UNSET)

        delimiter = d.pop("delimiter", UNSET)

        missing = cast(list[str], d.pop("missing", UNSET))

        csv_options = cls(
            allow_line_breaks=allow_line_breaks,
            delimiter=delimiter,
            missing=missing,
        )

        return csv_options
