from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.sweep_status import SweepStatus, check_sweep_status

if TYPE_CHECKING:
    from ..models.sweep_axis import SweepAxis
    from ..models.sweep_counts import SweepCounts
    from ..models.sweep_point import SweepPoint
    from ..models.sweep_request import SweepRequest
    from ..models.sweep_risk_figure import SweepRiskFigure


T = TypeVar("T", bound="Sweep")


@_attrs_define
class Sweep:
    """The `Sweep` resource.

    Attributes:
        axes (list[SweepAxis]): The request's lists, in grid order (the last varies fastest).
        counts (SweepCounts): Points per status.
        created_at (datetime.datetime):
        dataset_id (UUID):
        finished_at (datetime.datetime | None): When the last point finished; null while any is queued or running.
        frontier (list[int]): Indexes of the points on the Pareto front of risk against
            information loss, safest first: succeeded points that no other
            succeeded point dominates (at least as safe and at most as lossy,
            and better in one of the two). Equal points are all on the front;
            unfinished, failed and infeasible points, and succeeded points
            without a risk figure, never are.
        id (UUID):
        points (list[SweepPoint]):
        progress (float): Finished points (succeeded, failed, cancelled or infeasible) over
            all points.
        query_error_frontier (list[int]): The same front with the count-query error in place of the
            information loss (points without a query error are left out).
        request (SweepRequest): The body of `POST /v1/sweeps`: a job request (`JobRequest`) in which any
            numeric parameter of `model`, and `suppression_limit`, may be a list.
            The sweep runs the product of the lists (at most 64 points); each
            point is validated as a job request.
        risk (SweepRiskFigure): The figure on the map's risk axis: the job summary's
            `attacker_view.worst` for the sweep's model — the model's own check in
            the attacker's view — with its name and which way is safer.
        status (SweepStatus): Where a sweep stands: `queued` (no point has started), `running`,
            `succeeded` (every point finished and at least one succeeded — a failed
            point does not fail the sweep), `failed` (every point finished and none
            succeeded), `cancelled` (cancelled, and no point still running).
    """

    axes: list[SweepAxis]
    counts: SweepCounts
    created_at: datetime.datetime
    dataset_id: UUID
    finished_at: datetime.datetime | None
    frontier: list[int]
    id: UUID
    points: list[SweepPoint]
    progress: float
    query_error_frontier: list[int]
    request: SweepRequest
    risk: SweepRiskFigure
    status: SweepStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        axes = []
        for axes_item_data in self.axes:
            axes_item = axes_item_data.to_dict()
            axes.append(axes_item)

        counts = self.counts.to_dict()

        created_at = self.created_at.isoformat()

        dataset_id = str(self.dataset_id)

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        frontier = self.frontier

        id = str(self.id)

        points = []
        for points_item_data in self.points:
            points_item = points_item_data.to_dict()
            points.append(points_item)

        progress = self.progress

        query_error_frontier = self.query_error_frontier

        request = self.request.to_dict()

        risk = self.risk.to_dict()

        status: str = self.status

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "axes": axes,
                "counts": counts,
                "created_at": created_at,
                "dataset_id": dataset_id,
                "finished_at": finished_at,
                "frontier": frontier,
                "id": id,
                "points": points,
                "progress": progress,
                "query_error_frontier": query_error_frontier,
                "request": request,
                "risk": risk,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.sweep_axis import SweepAxis  # noqa: PLC0415
        from ..models.sweep_counts import SweepCounts  # noqa: PLC0415
        from ..models.sweep_point import SweepPoint  # noqa: PLC0415
        from ..models.sweep_request import SweepRequest  # noqa: PLC0415
        from ..models.sweep_risk_figure import SweepRiskFigure  # noqa: PLC0415

        d = dict(src_dict)
        axes = []
        _axes = d.pop("axes")
        for axes_item_data in _axes:
            axes_item = SweepAxis.from_dict(axes_item_data)

            axes.append(axes_item)

        counts = SweepCounts.from_dict(d.pop("counts"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        dataset_id = UUID(d.pop("dataset_id"))

        def _parse_finished_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        finished_at = _parse_finished_at(d.pop("finished_at"))

        frontier = cast(list[int], d.pop("frontier"))

        id = UUID(d.pop("id"))

        points = []
        _points = d.pop("points")
        for points_item_data in _points:
            points_item = SweepPoint.from_dict(points_item_data)

            points.append(points_item)

        progress = d.pop("progress")

        query_error_frontier = cast(list[int], d.pop("query_error_frontier"))

        request = SweepRequest.from_dict(d.pop("request"))

        risk = SweepRiskFigure.from_dict(d.pop("risk"))

        status = check_sweep_status(d.pop("status"))

        sweep = cls(
            axes=axes,
            counts=counts,
            created_at=created_at,
            dataset_id=dataset_id,
            finished_at=finished_at,
            frontier=frontier,
            id=id,
            points=points,
            progress=progress,
            query_error_frontier=query_error_frontier,
            request=request,
            risk=risk,
            status=status,
        )

        sweep.additional_properties = d
        return sweep

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
