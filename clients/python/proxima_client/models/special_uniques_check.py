from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.special_uniques_check_kind import SpecialUniquesCheckKind, check_special_uniques_check_kind
from ..models.suda_columns import SudaColumns, check_suda_columns
from ..types import UNSET, Unset

T = TypeVar("T", bound="SpecialUniquesCheck")


@_attrs_define
class SpecialUniquesCheck:
    """SUDA2's minimal sample uniques (sdcMicro's `suda2`): the smallest
    sets of column values that single a record out, the per-record SUDA
    and DIS-SUDA scores. Passes when no record has one.

        Attributes:
            kind (SpecialUniquesCheckKind):
            columns (None | SudaColumns | Unset):
            dis_fraction (float | None | Unset): DIS-SUDA's sampling fraction, in (0, 1] (default 0.01,
                sdcMicro's `DisFraction`).
            max_size (int | None | Unset): The largest MSU searched, 1 to 16 columns (default 4; capped at
                the number of columns scanned).
    """

    kind: SpecialUniquesCheckKind
    columns: None | SudaColumns | Unset = UNSET
    dis_fraction: float | None | Unset = UNSET
    max_size: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        kind: str = self.kind

        columns: None | str | Unset
        if isinstance(self.columns, Unset):
            columns = UNSET
        elif isinstance(self.columns, str):
            columns = self.columns
        else:
            columns = self.columns

        dis_fraction: float | None | Unset
        if isinstance(self.dis_fraction, Unset):
            dis_fraction = UNSET
        else:
            dis_fraction = self.dis_fraction

        max_size: int | None | Unset
        if isinstance(self.max_size, Unset):
            max_size = UNSET
        else:
            max_size = self.max_size

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
            }
        )
        if columns is not UNSET:
            field_dict["columns"] = columns
        if dis_fraction is not UNSET:
            field_dict["dis_fraction"] = dis_fraction
        if max_size is not UNSET:
            field_dict["max_size"] = max_size

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kind = check_special_uniques_check_kind(d.pop("kind"))

        def _parse_columns(data: object) -> None | SudaColumns | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                columns_type_0 = check_suda_columns(data)

                return columns_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SudaColumns | Unset, data)

        columns = _parse_columns(d.pop("columns", UNSET))

        def _parse_dis_fraction(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        dis_fraction = _parse_dis_fraction(d.pop("dis_fraction", UNSET))

        def _parse_max_size(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_size = _parse_max_size(d.pop("max_size", UNSET))

        special_uniques_check = cls(
            kind=kind,
            columns=columns,
            dis_fraction=dis_fraction,
            max_size=max_size,
        )

        return special_uniques_check
