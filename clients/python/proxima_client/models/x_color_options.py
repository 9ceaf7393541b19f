from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.initial_coloring import InitialColoring, check_initial_coloring
from ..types import UNSET, Unset

T = TypeVar("T", bound="XColorOptions")


@_attrs_define
class XColorOptions:
    """API extension: XColor's initial colouring (docs/design.md §4). `qi_aware`
    (default) splits the QI space first; `degree_balanced` is the paper's
    Algorithm 1, kept for comparison.

        Attributes:
            initial (InitialColoring | Unset):
    """

    initial: InitialColoring | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        initial: str | Unset = UNSET
        if not isinstance(self.initial, Unset):
            initial = self.initial

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if initial is not UNSET:
            field_dict["initial"] = initial

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _initial = d.pop("initial", UNSET)
        initial: InitialColoring | Unset
        if isinstance(_initial, Unset):
            initial = UNSET
        else:
            initial = check_initial_coloring(_initial)

        x_color_options = cls(
            initial=initial,
        )

        return x_color_options
