from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.minimum_suppression_bound import MinimumSuppressionBound, check_minimum_suppression_bound

T = TypeVar("T", bound="MinimumSuppression")


@_attrs_define
class MinimumSuppression:
    """A lower bound on the suppression any release satisfying (ε, m) needs
    (docs/api.md §Feasibility): in every group, an SA window whose ends are
    neighbours holds at most 1/m of the group's rows, hence at most 1/m of
    the published rows; no subset of the table larger than
    `max_published_rows` meets that. The suppression a job actually needs
    may be larger (the engine's, not the data's); never smaller.

        Attributes:
            bound (MinimumSuppressionBound): What `minimum_suppression` is.
            m (int):
            max_published_rows (int): No release at (ε, m) publishes more rows.
            rows (int): At least this many rows are left out.
            share (float): At least this share of the rows is left out by any release at
                (ε, m) (0 to 1).
    """

    bound: MinimumSuppressionBound
    m: int
    max_published_rows: int
    rows: int
    share: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        bound: str = self.bound

        m = self.m

        max_published_rows = self.max_published_rows

        rows = self.rows

        share = self.share

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "bound": bound,
                "m": m,
                "max_published_rows": max_published_rows,
                "rows": rows,
                "share": share,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        bound = check_minimum_suppression_bound(d.pop("bound"))

        m = d.pop("m")

        max_published_rows = d.pop("max_published_rows")

        rows = d.pop("rows")

        share = d.pop("share")

        minimum_suppression = cls(
            bound=bound,
            m=m,
            max_published_rows=max_published_rows,
            rows=rows,
            share=share,
        )

        minimum_suppression.additional_properties = d
        return minimum_suppression

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
