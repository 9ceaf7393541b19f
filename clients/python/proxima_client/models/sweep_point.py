from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.point_status import PointStatus, check_point_status

if TYPE_CHECKING:
    from ..models.sweep_point_error import SweepPointError
    from ..models.sweep_point_params import SweepPointParams
    from ..models.sweep_point_summary import SweepPointSummary
    from ..models.sweep_point_verdict import SweepPointVerdict


T = TypeVar("T", bound="SweepPoint")


@_attrs_define
class SweepPoint:
    """One point of the grid.

    Attributes:
        error (None | SweepPointError):
        index (int): The point's index (its place in the grid).
        job_id (None | UUID): The point's job; null for an infeasible point.
        label (str): The swept values as text, `epsilon=2000, m=3`.
        params (SweepPointParams): The swept parameters' values at this point, by name.
        report (None | str): The point's release report (`/v1/jobs/{id}/report`); null without a job.
        status (PointStatus): A point's status: its job's, or `infeasible` for a point refused before
            queueing (it has no job).
        summary (None | SweepPointSummary):
        verdict (None | SweepPointVerdict):
    """

    error: None | SweepPointError
    index: int
    job_id: None | UUID
    label: str
    params: SweepPointParams
    report: None | str
    status: PointStatus
    summary: None | SweepPointSummary
    verdict: None | SweepPointVerdict
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.sweep_point_error import SweepPointError  # noqa: PLC0415
        from ..models.sweep_point_summary import SweepPointSummary  # noqa: PLC0415
        from ..models.sweep_point_verdict import SweepPointVerdict  # noqa: PLC0415

        error: dict[str, Any] | None
        if isinstance(self.error, SweepPointError):
            error = self.error.to_dict()
        else:
            error = self.error

        index = self.index

        job_id: None | str
        if isinstance(self.job_id, UUID):
            job_id = str(self.job_id)
        else:
            job_id = self.job_id

        label = self.label

        params = self.params.to_dict()

        report: None | str
        report = self.report

        status: str = self.status

        summary: dict[str, Any] | None
        if isinstance(self.summary, SweepPointSummary):
            summary = self.summary.to_dict()
        else:
            summary = self.summary

        verdict: dict[str, Any] | None
        if isinstance(self.verdict, SweepPointVerdict):
            verdict = self.verdict.to_dict()
        else:
            verdict = self.verdict

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "error": error,
                "index": index,
                "job_id": job_id,
                "label": label,
                "params": params,
                "report": report,
                "status": status,
                "summary": summary,
                "verdict": verdict,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.sweep_point_error import SweepPointError  # noqa: PLC0415
        from ..models.sweep_point_params import SweepPointParams  # noqa: PLC0415
        from ..models.sweep_point_summary import SweepPointSummary  # noqa: PLC0415
        from ..models.sweep_point_verdict import SweepPointVerdict  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_error(data: object) -> None | SweepPointError:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                error_type_0 = SweepPointError.from_dict(data)

                return error_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SweepPointError, data)

        error = _parse_error(d.pop("error"))

        index = d.pop("index")

        def _parse_job_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                job_id_type_0 = UUID(data)

                return job_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        job_id = _parse_job_id(d.pop("job_id"))

        label = d.pop("label")

        params = SweepPointParams.from_dict(d.pop("params"))

        def _parse_report(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        report = _parse_report(d.pop("report"))

        status = check_point_status(d.pop("status"))

        def _parse_summary(data: object) -> None | SweepPointSummary:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                summary_type_0 = SweepPointSummary.from_dict(data)

                return summary_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SweepPointSummary, data)

        summary = _parse_summary(d.pop("summary"))

        def _parse_verdict(data: object) -> None | SweepPointVerdict:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                verdict_type_0 = SweepPointVerdict.from_dict(data)

                return verdict_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SweepPointVerdict, data)

        verdict = _parse_verdict(d.pop("verdict"))

        sweep_point = cls(
            error=error,
            index=index,
            job_id=job_id,
            label=label,
            params=params,
            report=report,
            status=status,
            summary=summary,
            verdict=verdict,
        )

        sweep_point.additional_properties = d
        return sweep_point

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
