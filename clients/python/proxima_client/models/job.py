from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.algorithm import Algorithm, check_algorithm
from ..models.job_status import JobStatus, check_job_status
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.absolute_metric import AbsoluteMetric
    from ..models.delta_presence_model import DeltaPresenceModel
    from ..models.dissimilarity_model import DissimilarityModel
    from ..models.epsilon_m_model import EpsilonMModel
    from ..models.equal_metric import EqualMetric
    from ..models.hierarchical_metric import HierarchicalMetric
    from ..models.job_error import JobError
    from ..models.job_summary import JobSummary
    from ..models.job_warning import JobWarning
    from ..models.k_anonymity_model import KAnonymityModel
    from ..models.k_map_model import KMapModel
    from ..models.l_diversity_model import LDiversityModel
    from ..models.lp_metric import LpMetric
    from ..models.relative_metric import RelativeMetric
    from ..models.t_closeness_model import TClosenessModel
    from ..models.variational_metric import VariationalMetric
    from ..models.x_color_options import XColorOptions


T = TypeVar("T", bound="Job")


@_attrs_define
class Job:
    """The `Job` resource.

    Attributes:
        algorithm (Algorithm):
        attempts (int):
        created_at (datetime.datetime):
        dataset_id (UUID):
        error (JobError | None):
        finished_at (datetime.datetime | None):
        id (UUID):
        model (DeltaPresenceModel | DissimilarityModel | EpsilonMModel | KAnonymityModel | KMapModel | LDiversityModel |
            TClosenessModel):
        progress (float): From 0 to 1.
        sensitive_metric (AbsoluteMetric | EqualMetric | HierarchicalMetric | LpMetric | None | RelativeMetric |
            VariationalMetric):
        started_at (datetime.datetime | None):
        status (JobStatus):
        summary (JobSummary | None):
        suppression_limit (float): The share of rows the job may leave out of the release to satisfy
            the model in the attacker's view (the request's; 0 by default).
        sweep_id (UUID | Unset): API extension, present only on a sweep's point: its sweep.
        warnings (list[JobWarning] | Unset): API extension, only in the answer to `POST /v1/jobs` (not stored):
            what is known before queueing that may make the job fail — e.g. an
            m within Theorem 1's bound but above what the service delivers for
            sure on this table. Absent when there is nothing to say.
        xcolor (XColorOptions | Unset): API extension: XColor's initial colouring (docs/design.md §4). `qi_aware`
            (default) splits the QI space first; `degree_balanced` is the paper's
            Algorithm 1, kept for comparison.
    """

    algorithm: Algorithm
    attempts: int
    created_at: datetime.datetime
    dataset_id: UUID
    error: JobError | None
    finished_at: datetime.datetime | None
    id: UUID
    model: (
        DeltaPresenceModel
        | DissimilarityModel
        | EpsilonMModel
        | KAnonymityModel
        | KMapModel
        | LDiversityModel
        | TClosenessModel
    )
    progress: float
    sensitive_metric: (
        AbsoluteMetric | EqualMetric | HierarchicalMetric | LpMetric | None | RelativeMetric | VariationalMetric
    )
    started_at: datetime.datetime | None
    status: JobStatus
    summary: JobSummary | None
    suppression_limit: float
    sweep_id: UUID | Unset = UNSET
    warnings: list[JobWarning] | Unset = UNSET
    xcolor: XColorOptions | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.absolute_metric import AbsoluteMetric  # noqa: PLC0415
        from ..models.dissimilarity_model import DissimilarityModel  # noqa: PLC0415
        from ..models.epsilon_m_model import EpsilonMModel  # noqa: PLC0415
        from ..models.equal_metric import EqualMetric  # noqa: PLC0415
        from ..models.hierarchical_metric import HierarchicalMetric  # noqa: PLC0415
        from ..models.job_error import JobError  # noqa: PLC0415
        from ..models.job_summary import JobSummary  # noqa: PLC0415
        from ..models.k_anonymity_model import KAnonymityModel  # noqa: PLC0415
        from ..models.k_map_model import KMapModel  # noqa: PLC0415
        from ..models.l_diversity_model import LDiversityModel  # noqa: PLC0415
        from ..models.lp_metric import LpMetric  # noqa: PLC0415
        from ..models.relative_metric import RelativeMetric  # noqa: PLC0415
        from ..models.t_closeness_model import TClosenessModel  # noqa: PLC0415
        from ..models.variational_metric import VariationalMetric  # noqa: PLC0415

        algorithm: str = self.algorithm

        attempts = self.attempts

        created_at = self.created_at.isoformat()

        dataset_id = str(self.dataset_id)

        error: dict[str, Any] | None
        if isinstance(self.error, JobError):
            error = self.error.to_dict()
        else:
            error = self.error

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        id = str(self.id)

        model: dict[str, Any]
        if isinstance(self.model, EpsilonMModel):
            model = self.model.to_dict()
        elif isinstance(self.model, DissimilarityModel):
            model = self.model.to_dict()
        elif isinstance(self.model, KAnonymityModel):
            model = self.model.to_dict()
        elif isinstance(self.model, LDiversityModel):
            model = self.model.to_dict()
        elif isinstance(self.model, TClosenessModel):
            model = self.model.to_dict()
        elif isinstance(self.model, KMapModel):
            model = self.model.to_dict()
        else:
            model = self.model.to_dict()

        progress = self.progress

        sensitive_metric: dict[str, Any] | None
        if isinstance(self.sensitive_metric, AbsoluteMetric):
            sensitive_metric = self.sensitive_metric.to_dict()
        elif isinstance(self.sensitive_metric, RelativeMetric):
            sensitive_metric = self.sensitive_metric.to_dict()
        elif isinstance(self.sensitive_metric, EqualMetric):
            sensitive_metric = self.sensitive_metric.to_dict()
        elif isinstance(self.sensitive_metric, HierarchicalMetric):
            sensitive_metric = self.sensitive_metric.to_dict()
        elif isinstance(self.sensitive_metric, LpMetric):
            sensitive_metric = self.sensitive_metric.to_dict()
        elif isinstance(self.sensitive_metric, VariationalMetric):
            sensitive_metric = self.sensitive_metric.to_dict()
        else:
            sensitive_metric = self.sensitive_metric

        started_at: None | str
        if isinstance(self.started_at, datetime.datetime):
            started_at = self.started_at.isoformat()
        else:
            started_at = self.started_at

        status: str = self.status

        summary: dict[str, Any] | None
        if isinstance(self.summary, JobSummary):
            summary = self.summary.to_dict()
        else:
            summary = self.summary

        suppression_limit = self.suppression_limit

        sweep_id: str | Unset = UNSET
        if not isinstance(self.sweep_id, Unset):
            sweep_id = str(self.sweep_id)

        warnings: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.warnings, Unset):
            warnings = []
            for warnings_item_data in self.warnings:
                warnings_item = warnings_item_data.to_dict()
                warnings.append(warnings_item)

        xcolor: dict[str, Any] | Unset = UNSET
        if not isinstance(self.xcolor, Unset):
            xcolor = self.xcolor.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "algorithm": algorithm,
                "attempts": attempts,
                "created_at": created_at,
                "dataset_id": dataset_id,
                "error": error,
                "finished_at": finished_at,
                "id": id,
                "model": model,
                "progress": progress,
                "sensitive_metric": sensitive_metric,
                "started_at": started_at,
                "status": status,
                "summary": summary,
                "suppression_limit": suppression_limit,
            }
        )
        if sweep_id is not UNSET:
            field_dict["sweep_id"] = sweep_id
        if warnings is not UNSET:
            field_dict["warnings"] = warnings
        if xcolor is not UNSET:
            field_dict["xcolor"] = xcolor

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.absolute_metric import AbsoluteMetric  # noqa: PLC0415
        from ..models.delta_presence_model import DeltaPresenceModel  # noqa: PLC0415
        from ..models.dissimilarity_model import DissimilarityModel  # noqa: PLC0415
        from ..models.epsilon_m_model import EpsilonMModel  # noqa: PLC0415
        from ..models.equal_metric import EqualMetric  # noqa: PLC0415
        from ..models.hierarchical_metric import HierarchicalMetric  # noqa: PLC0415
        from ..models.job_error import JobError  # noqa: PLC0415
        from ..models.job_summary import JobSummary  # noqa: PLC0415
        from ..models.job_warning import JobWarning  # noqa: PLC0415
        from ..models.k_anonymity_model import KAnonymityModel  # noqa: PLC0415
        from ..models.k_map_model import KMapModel  # noqa: PLC0415
        from ..models.l_diversity_model import LDiversityModel  # noqa: PLC0415
        from ..models.lp_metric import LpMetric  # noqa: PLC0415
        from ..models.relative_metric import RelativeMetric  # noqa: PLC0415
        from ..models.t_closeness_model import TClosenessModel  # noqa: PLC0415
        from ..models.variational_metric import VariationalMetric  # noqa: PLC0415
        from ..models.x_color_options import XColorOptions  # noqa: PLC0415

        d = dict(src_dict)
        algorithm = check_algorithm(d.pop("algorithm"))

        attempts = d.pop("attempts")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        dataset_id = UUID(d.pop("dataset_id"))

        def _parse_error(data: object) -> JobError | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                error_type_0 = JobError.from_dict(data)

                return error_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(JobError | None, data)

        error = _parse_error(d.pop("error"))

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

        id = UUID(d.pop("id"))

        def _parse_model(
            data: object,
        ) -> (
            DeltaPresenceModel
            | DissimilarityModel
            | EpsilonMModel
            | KAnonymityModel
            | KMapModel
            | LDiversityModel
            | TClosenessModel
        ):
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_model_type_0 = EpsilonMModel.from_dict(data)

                return componentsschemas_model_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_model_type_1 = DissimilarityModel.from_dict(data)

                return componentsschemas_model_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_model_type_2 = KAnonymityModel.from_dict(data)

                return componentsschemas_model_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_model_type_3 = LDiversityModel.from_dict(data)

                return componentsschemas_model_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_model_type_4 = TClosenessModel.from_dict(data)

                return componentsschemas_model_type_4
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_model_type_5 = KMapModel.from_dict(data)

                return componentsschemas_model_type_5
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_model_type_6 = DeltaPresenceModel.from_dict(data)

            return componentsschemas_model_type_6

        model = _parse_model(d.pop("model"))

        progress = d.pop("progress")

        def _parse_sensitive_metric(
            data: object,
        ) -> AbsoluteMetric | EqualMetric | HierarchicalMetric | LpMetric | None | RelativeMetric | VariationalMetric:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_metric_type_0 = AbsoluteMetric.from_dict(data)

                return componentsschemas_metric_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_metric_type_1 = RelativeMetric.from_dict(data)

                return componentsschemas_metric_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_metric_type_2 = EqualMetric.from_dict(data)

                return componentsschemas_metric_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_metric_type_3 = HierarchicalMetric.from_dict(data)

                return componentsschemas_metric_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_metric_type_4 = LpMetric.from_dict(data)

                return componentsschemas_metric_type_4
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_metric_type_5 = VariationalMetric.from_dict(data)

                return componentsschemas_metric_type_5
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                AbsoluteMetric
                | EqualMetric
                | HierarchicalMetric
                | LpMetric
                | None
                | RelativeMetric
                | VariationalMetric,
                data,
            )

        sensitive_metric = _parse_sensitive_metric(d.pop("sensitive_metric"))

        def _parse_started_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                started_at_type_0 = datetime.datetime.fromisoformat(data)

                return started_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        started_at = _parse_started_at(d.pop("started_at"))

        status = check_job_status(d.pop("status"))

        def _parse_summary(data: object) -> JobSummary | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                summary_type_0 = JobSummary.from_dict(data)

                return summary_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(JobSummary | None, data)

        summary = _parse_summary(d.pop("summary"))

        suppression_limit = d.pop("suppression_limit")

        _sweep_id = d.pop("sweep_id", UNSET)
        sweep_id: UUID | Unset
        if isinstance(_sweep_id, Unset):
            sweep_id = UNSET
        else:
            sweep_id = UUID(_sweep_id)

        _warnings = d.pop("warnings", UNSET)
        warnings: list[JobWarning] | Unset = UNSET
        if _warnings is not UNSET:
            warnings = []
            for warnings_item_data in _warnings:
                warnings_item = JobWarning.from_dict(warnings_item_data)

                warnings.append(warnings_item)

        _xcolor = d.pop("xcolor", UNSET)
        xcolor: XColorOptions | Unset
        if isinstance(_xcolor, Unset):
            xcolor = UNSET
        else:
            xcolor = XColorOptions.from_dict(_xcolor)

        job = cls(
            algorithm=algorithm,
            attempts=attempts,
            created_at=created_at,
            dataset_id=dataset_id,
            error=error,
            finished_at=finished_at,
            id=id,
            model=model,
            progress=progress,
            sensitive_metric=sensitive_metric,
            started_at=started_at,
            status=status,
            summary=summary,
            suppression_limit=suppression_limit,
            sweep_id=sweep_id,
            warnings=warnings,
            xcolor=xcolor,
        )

        job.additional_properties = d
        return job

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
