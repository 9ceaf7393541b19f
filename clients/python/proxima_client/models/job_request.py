from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.algorithm import Algorithm, check_algorithm
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.absolute_metric import AbsoluteMetric
    from ..models.delta_presence_model import DeltaPresenceModel
    from ..models.dissimilarity_model import DissimilarityModel
    from ..models.epsilon_m_model import EpsilonMModel
    from ..models.equal_metric import EqualMetric
    from ..models.hierarchical_metric import HierarchicalMetric
    from ..models.k_anonymity_model import KAnonymityModel
    from ..models.k_map_model import KMapModel
    from ..models.l_diversity_model import LDiversityModel
    from ..models.lp_metric import LpMetric
    from ..models.relative_metric import RelativeMetric
    from ..models.t_closeness_model import TClosenessModel
    from ..models.variational_metric import VariationalMetric
    from ..models.x_color_options import XColorOptions


T = TypeVar("T", bound="JobRequest")


@_attrs_define
class JobRequest:
    """
    Attributes:
        dataset_id (UUID):
        model (DeltaPresenceModel | DissimilarityModel | EpsilonMModel | KAnonymityModel | KMapModel | LDiversityModel |
            TClosenessModel):
        algorithm (Algorithm | None | Unset):
        sensitive_metric (AbsoluteMetric | EqualMetric | HierarchicalMetric | LpMetric | None | RelativeMetric | Unset |
            VariationalMetric):
        suppression_limit (float | None | Unset): The share of rows the job may leave out of the release to satisfy
            the model in the attacker's view, in [0, 1) (default 0); counted in
            the summary's `suppressed_by_model`.
        xcolor (None | Unset | XColorOptions):
    """

    dataset_id: UUID
    model: (
        DeltaPresenceModel
        | DissimilarityModel
        | EpsilonMModel
        | KAnonymityModel
        | KMapModel
        | LDiversityModel
        | TClosenessModel
    )
    algorithm: Algorithm | None | Unset = UNSET
    sensitive_metric: (
        AbsoluteMetric | EqualMetric | HierarchicalMetric | LpMetric | None | RelativeMetric | Unset | VariationalMetric
    ) = UNSET
    suppression_limit: float | None | Unset = UNSET
    xcolor: None | Unset | XColorOptions = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.absolute_metric import AbsoluteMetric  # noqa: PLC0415
        from ..models.dissimilarity_model import DissimilarityModel  # noqa: PLC0415
        from ..models.epsilon_m_model import EpsilonMModel  # noqa: PLC0415
        from ..models.equal_metric import EqualMetric  # noqa: PLC0415
        from ..models.hierarchical_metric import HierarchicalMetric  # noqa: PLC0415
        from ..models.k_anonymity_model import KAnonymityModel  # noqa: PLC0415
        from ..models.k_map_model import KMapModel  # noqa: PLC0415
        from ..models.l_diversity_model import LDiversityModel  # noqa: PLC0415
        from ..models.lp_metric import LpMetric  # noqa: PLC0415
        from ..models.relative_metric import RelativeMetric  # noqa: PLC0415
        from ..models.t_closeness_model import TClosenessModel  # noqa: PLC0415
        from ..models.variational_metric import VariationalMetric  # noqa: PLC0415
        from ..models.x_color_options import XColorOptions  # noqa: PLC0415

        dataset_id = str(self.dataset_id)

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

        algorithm: None | str | Unset
        if isinstance(self.algorithm, Unset):
            algorithm = UNSET
        elif isinstance(self.algorithm, str):
            algorithm = self.algorithm
        else:
            algorithm = self.algorithm

        sensitive_metric: dict[str, Any] | None | Unset
        if isinstance(self.sensitive_metric, Unset):
            sensitive_metric = UNSET
        elif isinstance(self.sensitive_metric, AbsoluteMetric):
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

        suppression_limit: float | None | Unset
        if isinstance(self.suppression_limit, Unset):
            suppression_limit = UNSET
        else:
            suppression_limit = self.suppression_limit

        xcolor: dict[str, Any] | None | Unset
        if isinstance(self.xcolor, Unset):
            xcolor = UNSET
        elif isinstance(self.xcolor, XColorOptions):
            xcolor = self.xcolor.to_dict()
        else:
            xcolor = self.xcolor

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "dataset_id": dataset_id,
                "model": model,
            }
        )
        if algorithm is not UNSET:
            field_dict["algorithm"] = algorithm
        if sensitive_metric is not UNSET:
            field_dict["sensitive_metric"] = sensitive_metric
        if suppression_limit is not UNSET:
            field_dict["suppression_limit"] = suppression_limit
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
        from ..models.k_anonymity_model import KAnonymityModel  # noqa: PLC0415
        from ..models.k_map_model import KMapModel  # noqa: PLC0415
        from ..models.l_diversity_model import LDiversityModel  # noqa: PLC0415
        from ..models.lp_metric import LpMetric  # noqa: PLC0415
        from ..models.relative_metric import RelativeMetric  # noqa: PLC0415
        from ..models.t_closeness_model import TClosenessModel  # noqa: PLC0415
        from ..models.variational_metric import VariationalMetric  # noqa: PLC0415
        from ..models.x_color_options import XColorOptions  # noqa: PLC0415

        d = dict(src_dict)
        dataset_id = UUID(d.pop("dataset_id"))

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

        def _parse_algorithm(data: object) -> Algorithm | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                algorithm_type_0 = check_algorithm(data)

                return algorithm_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Algorithm | None | Unset, data)

        algorithm = _parse_algorithm(d.pop("algorithm", UNSET))

        def _parse_sensitive_metric(
            data: object,
        ) -> (
            AbsoluteMetric
            | EqualMetric
            | HierarchicalMetric
            | LpMetric
            | None
            | RelativeMetric
            | Unset
            | VariationalMetric
        ):
            if data is None:
                return data
            if isinstance(data, Unset):
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
                | Unset
                | VariationalMetric,
                data,
            )

        sensitive_metric = _parse_sensitive_metric(d.pop("sensitive_metric", UNSET))

        def _parse_suppression_limit(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        suppression_limit = _parse_suppression_limit(d.pop("suppression_limit", UNSET))

        def _parse_xcolor(data: object) -> None | Unset | XColorOptions:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                xcolor_type_0 = XColorOptions.from_dict(data)

                return xcolor_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | XColorOptions, data)

        xcolor = _parse_xcolor(d.pop("xcolor", UNSET))

        job_request = cls(
            dataset_id=dataset_id,
            model=model,
            algorithm=algorithm,
            sensitive_metric=sensitive_metric,
            suppression_limit=suppression_limit,
            xcolor=xcolor,
        )

        return job_request
