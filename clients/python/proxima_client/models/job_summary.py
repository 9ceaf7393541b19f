from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.attacker_view import AttackerView


T = TypeVar("T", bound="JobSummary")


@_attrs_define
class JobSummary:
    """`Job.summary` (docs/api.md §Jobs); the CLI prints it on stderr.

    Attributes:
        elapsed_ms (int):
        groups (int):
        information_loss (float): GCP in [0, 1]; rows suppressed by the model count at loss 1.
        min_group_size (int):
        published_rows (int):
        rows (int):
        suppressed_by_model (int): Rows left out to satisfy the model in the attacker's view (within
            the job's `suppression_limit`).
        suppressed_rows (int): Rows left out for missing values.
        attacker_view (AttackerView | None | Unset):
        query_error (float | Unset): API extension: the mean relative error of the standard count-query
            workload (q = 2 QIs and the SA, selectivity 0.1, 1,000 queries, the
            standard seed): estimates from the release against true counts on
            the original table, so rows the model left out count as lost. The
            same figure as the job's sweep point and the q = 2 row of its
            release report (a fraction here, a percentage on the pages). Absent
            when the table has fewer than two QIs or no query had a non-zero
            count, and on jobs that finished before it was measured for every
            job.
        query_error_median (float | Unset): API extension, beside `query_error`: the median relative error of
            the same queries (a few queries on rare values can dominate the
            mean). Present exactly when `query_error` is.
    """

    elapsed_ms: int
    groups: int
    information_loss: float
    min_group_size: int
    published_rows: int
    rows: int
    suppressed_by_model: int
    suppressed_rows: int
    attacker_view: AttackerView | None | Unset = UNSET
    query_error: float | Unset = UNSET
    query_error_median: float | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.attacker_view import AttackerView  # noqa: PLC0415

        elapsed_ms = self.elapsed_ms

        groups = self.groups

        information_loss = self.information_loss

        min_group_size = self.min_group_size

        published_rows = self.published_rows

        rows = self.rows

        suppressed_by_model = self.suppressed_by_model

        suppressed_rows = self.suppressed_rows

        attacker_view: dict[str, Any] | None | Unset
        if isinstance(self.attacker_view, Unset):
            attacker_view = UNSET
        elif isinstance(self.attacker_view, AttackerView):
            attacker_view = self.attacker_view.to_dict()
        else:
            attacker_view = self.attacker_view

        query_error = self.query_error

        query_error_median = self.query_error_median

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "elapsed_ms": elapsed_ms,
                "groups": groups,
                "information_loss": information_loss,
                "min_group_size": min_group_size,
                "published_rows": published_rows,
                "rows": rows,
                "suppressed_by_model": suppressed_by_model,
                "suppressed_rows": suppressed_rows,
            }
        )
        if attacker_view is not UNSET:
            field_dict["attacker_view"] = attacker_view
        if query_error is not UNSET:
            field_dict["query_error"] = query_error
        if query_error_median is not UNSET:
            field_dict["query_error_median"] = query_error_median

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.attacker_view import AttackerView  # noqa: PLC0415

        d = dict(src_dict)
        elapsed_ms = d.pop("elapsed_ms")

        groups = d.pop("groups")

        information_loss = d.pop("information_loss")

        min_group_size = d.pop("min_group_size")

        published_rows = d.pop("published_rows")

        rows = d.pop("rows")

        suppressed_by_model = d.pop("suppressed_by_model")

        suppressed_rows = d.pop("suppressed_rows")

        def _parse_attacker_view(data: object) -> AttackerView | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                attacker_view_type_0 = AttackerView.from_dict(data)

                return attacker_view_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AttackerView | None | Unset, data)

        attacker_view = _parse_attacker_view(d.pop("attacker_view", UNSET))

        query_error = d.pop("query_error", UNSET)

        query_error_median = d.pop("query_error_median", UNSET)

        job_summary = cls(
            elapsed_ms=elapsed_ms,
            groups=groups,
            information_loss=information_loss,
            min_group_size=min_group_size,
            published_rows=published_rows,
            rows=rows,
            suppressed_by_model=suppressed_by_model,
            suppressed_rows=suppressed_rows,
            attacker_view=attacker_view,
            query_error=query_error,
            query_error_median=query_error_median,
        )

        job_summary.additional_properties = d
        return job_summary

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
