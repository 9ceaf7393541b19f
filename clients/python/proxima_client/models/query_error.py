from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="QueryError")


@_attrs_define
class QueryError:
    """
    Attributes:
        mean (float | None): Mean relative error (the papers' figure); null when no query
            counted (or q exceeds the QIs).
        median (float | None): Median relative error of the same queries: a few queries on rare
            values can dominate the mean.
        q (int): QIs per query (the papers' query dimensionality; the SA predicates
            come on top).
        queries (int):
        queries_used (int): Queries with a non-zero true count (the others have no relative
            error).
        sa_predicates (int): SA predicates per query: 1, or 2 columns of a composite SA (XColor's
            qs = 2); 0 when the workload was not run.
        seed (int): The workload's seed (fixed, so the figure is reproducible).
        selectivity (float):
    """

    mean: float | None
    median: float | None
    q: int
    queries: int
    queries_used: int
    sa_predicates: int
    seed: int
    selectivity: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        mean: float | None
        mean = self.mean

        median: float | None
        median = self.median

        q = self.q

        queries = self.queries

        queries_used = self.queries_used

        sa_predicates = self.sa_predicates

        seed = self.seed

        selectivity = self.selectivity

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "mean": mean,
                "median": median,
                "q": q,
                "queries": queries,
                "queries_used": queries_used,
                "sa_predicates": sa_predicates,
                "seed": seed,
                "selectivity": selectivity,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_mean(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        mean = _parse_mean(d.pop("mean"))

        def _parse_median(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        median = _parse_median(d.pop("median"))

        q = d.pop("q")

        queries = d.pop("queries")

        queries_used = d.pop("queries_used")

        sa_predicates = d.pop("sa_predicates")

        seed = d.pop("seed")

        selectivity = d.pop("selectivity")

        query_error = cls(
            mean=mean,
            median=median,
            q=q,
            queries=queries,
            queries_used=queries_used,
            sa_predicates=sa_predicates,
            seed=seed,
            selectivity=selectivity,
        )

        query_error.additional_properties = d
        return query_error

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
