from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.algorithm import Algorithm, check_algorithm
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.absolute_metric import AbsoluteMetric
    from ..models.delta_presence_sweep_model import DeltaPresenceSweepModel
    from ..models.dissimilarity_sweep_model import DissimilaritySweepModel
    from ..models.epsilon_m_sweep_model import EpsilonMSweepModel
    from ..models.equal_metric import EqualMetric
    from ..models.hierarchical_metric import HierarchicalMetric
    from ..models.k_anonymity_sweep_model import KAnonymitySweepModel
    from ..models.k_map_sweep_model import KMapSweepModel
    from ..models.l_diversity_sweep_model import LDiversitySweepModel
    from ..models.lp_metric import LpMetric
    from ..models.relative_metric import RelativeMetric
    from ..models.t_closeness_sweep_model import TClosenessSweepModel
    from ..models.variational_metric import VariationalMetric
    from ..models.x_color_options import XColorOptions


T = TypeVar("T", bound="SweepRequest")


@_attrs_define
class SweepRequest:
    """The body of `POST /v1/sweeps`: a job request (`JobRequest`) in which any
    numeric parameter of `model`, and `suppression_limit`, may be a list.
    The sweep runs the product of the lists (at most 64 points); each
    point is validated as a job request.

        Attributes:
            dataset_id (UUID):
            model (DeltaPresenceSweepModel | DissimilaritySweepModel | EpsilonMSweepModel | KAnonymitySweepModel |
                KMapSweepModel | LDiversitySweepModel | TClosenessSweepModel): A job's model in which any numeric parameter may
                be a list (the sweep's axes).
            algorithm (Algorithm | Unset):
            sensitive_metric (AbsoluteMetric | EqualMetric | HierarchicalMetric | LpMetric | RelativeMetric | Unset |
                VariationalMetric):
            suppression_limit (float | list[float] | Unset):
            xcolor (XColorOptions | Unset): API extension: XColor's initial colouring (docs/design.md §4). `qi_aware`
                (default) splits the QI space first; `degree_balanced` is the paper's
                Algorithm 1, kept for comparison.
    """

    dataset_id: UUID
    model: (
        DeltaPresenceSweepModel
        | DissimilaritySweepModel
        | EpsilonMSweepModel
        | KAnonymitySweepModel
        | KMapSweepModel
        | LDiversitySweepModel
        | TClosenessSweepModel
    )
    algorithm: Algorithm | Unset = UNSET
    sensitive_metric: (
        AbsoluteMetric | EqualMetric | HierarchicalMetric | LpMetric | RelativeMetric | Unset | VariationalMetric
    ) = UNSET
    suppression_limit: float | list[float] | Unset = UNSET
    xcolor: XColorOptions | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.absolute_metric import AbsoluteMetric  # noqa: PLC0415
        from ..models.delta_presence_sweep_model import DeltaPresenceSweepModel  # noqa: PLC0415
        from ..models.dissimilarity_sweep_model import DissimilaritySweepModel  # noqa: PLC0415
        from ..models.epsilon_m_sweep_model import EpsilonMSweepModel  # noqa: PLC0415
        from ..models.equal_metric import EqualMetric  # noqa: PLC0415
        from ..models.hierarchical_metric import HierarchicalMetric  # noqa: PLC0415
        from ..models.k_anonymity_sweep_model import KAnonymitySweepModel  # noqa: PLC0415
        from ..models.k_map_sweep_model import KMapSweepModel  # noqa: PLC0415
        from ..models.l_diversity_sweep_model import LDiversitySweepModel  # noqa: PLC0415
        from ..models.lp_metric import LpMetric  # noqa: PLC0415
        from ..models.relative_metric import RelativeMetric  # noqa: PLC0415

        dataset_id = str(self.dataset_id)

        model: dict[str, Any]
        if isinstance(self.model, DeltaPresenceSweepModel):
            model = self.model.to_dict()
        elif isinstance(self.model, DissimilaritySweepModel):
            model = self.model.to_dict()
        elif isinstance(self.model, EpsilonMSweepModel):
            model = self.model.to_dict()
        elif isinstance(self.model, KAnonymitySweepModel):
            model = self.model.to_dict()
        elif isinstance(self.model, KMapSweepModel):
            model = self.model.to_dict()
        elif isinstance(self.model, LDiversitySweepModel):
            model = self.model.to_dict()
        else:
            model = self.model.to_dict()

        algorithm: str | Unset = UNSET
        if not isinstance(self.algorithm, Unset):
            algorithm = self.algorithm

        sensitive_metric: dict[str, Any] | Unset
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
        else:
            sensitive_metric = self.sensitive_metric.to_dict()

        suppression_limit: float | list[float] | Unset
        if isinstance(self.suppression_limit, Unset):
            suppression_limit = UNSET
        elif isinstance(self.suppression_limit, list):
            suppression_limit = self.suppression_limit

        else:
            suppression_limit = self.suppression_limit

        xcolor: dict[str, Any] | Unset = UNSET
        if not isinstance(self.xcolor, Unset):
            xcolor = self.xcolor.to_dict()

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
        from ..models.delta_presence_sweep_model import DeltaPresenceSweepModel  # noqa: PLC0415
        from ..models.dissimilarity_sweep_model import DissimilaritySweepModel  # noqa: PLC0415
        from ..models.epsilon_m_sweep_model import EpsilonMSweepModel  # noqa: PLC0415
        from ..models.equal_metric import EqualMetric  # noqa: PLC0415
        from ..models.hierarchical_metric import HierarchicalMetric  # noqa: PLC0415
        from ..models.k_anonymity_sweep_model import KAnonymitySweepModel  # noqa: PLC0415
        from ..models.k_map_sweep_model import KMapSweepModel  # noqa: PLC0415
        from ..models.l_diversity_sweep_model import LDiversitySweepModel  # noqa: PLC0415
        from ..models.lp_metric import LpMetric  # noqa: PLC0415
        from ..models.relative_metric import RelativeMetric  # noqa: PLC0415
        from ..models.t_closeness_sweep_model import TClosenessSweepModel  # noqa: PLC0415
        from ..models.variational_metric import VariationalMetric  # noqa: PLC0415
        from ..models.x_color_options import XColorOptions  # noqa: PLC0415

        d = dict(src_dict)
        dataset_id = UUID(d.pop("dataset_id"))

        def _parse_model(
            data: object,
        ) -> (
            DeltaPresenceSweepModel
            | DissimilaritySweepModel
            | EpsilonMSweepModel
            | KAnonymitySweepModel
            | KMapSweepModel
            | LDiversitySweepModel
            | TClosenessSweepModel
        ):
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_sweep_model_type_0 = DeltaPresenceSweepModel.from_dict(data)

                return componentsschemas_sweep_model_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_sweep_model_type_1 = DissimilaritySweepModel.from_dict(data)

                return componentsschemas_sweep_model_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_sweep_model_type_2 = EpsilonMSweepModel.from_dict(data)

                return componentsschemas_sweep_model_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_sweep_model_type_3 = KAnonymitySweepModel.from_dict(data)

                return componentsschemas_sweep_model_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_sweep_model_type_4 = KMapSweepModel.from_dict(data)

                return componentsschemas_sweep_model_type_4
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_sweep_model_type_5 = LDiversitySweepModel.from_dict(data)

                return componentsschemas_sweep_model_type_5
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_sweep_model_type_6 = TClosenessSweepModel.from_dict(data)

            return componentsschemas_sweep_model_type_6

        model = _parse_model(d.pop("model"))

        _algorithm = d.pop("algorithm", UNSET)
        algorithm: Algorithm | Unset
        if isinstance(_algorithm, Unset):
            algorithm = UNSET
        else:
            algorithm = check_algorithm(_algorithm)

        def _parse_sensitive_metric(
            data: object,
        ) -> AbsoluteMetric | EqualMetric | HierarchicalMetric | LpMetric | RelativeMetric | Unset | VariationalMetric:
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
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_metric_type_5 = VariationalMetric.from_dict(data)

            return componentsschemas_metric_type_5

        sensitive_metric = _parse_sensitive_metric(d.pop("sensitive_metric", UNSET))

        def _parse_suppression_limit(data: object) -> float | list[float] | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                suppression_limit_type_1 = cast(list[float], data)

                return suppression_limit_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(float | list[float] | Unset, data)

        suppression_limit = _parse_suppression_limit(d.pop("suppression_limit", UNSET))

        _xcolor = d.pop("xcolor", UNSET)
        xcolor: XColorOptions | Unset
        if isinstance(_xcolor, Unset):
            xcolor = UNSET
        else:
            xcolor = XColorOptions.from_dict(_xcolor)

        sweep_request = cls(
            dataset_id=dataset_id,
            model=model,
            algorithm=algorithm,
            sensitive_metric=sensitive_metric,
            suppression_limit=suppression_limit,
            xcolor=xcolor,
        )

        return sweep_request
