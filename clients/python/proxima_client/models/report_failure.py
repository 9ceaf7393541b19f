from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.dissimilarity_feasibility import DissimilarityFeasibility
    from ..models.max_epsilon_feasibility import MaxEpsilonFeasibility
    from ..models.max_m_feasibility import MaxMFeasibility
    from ..models.report_failure_details_type_0 import ReportFailureDetailsType0


T = TypeVar("T", bound="ReportFailure")


@_attrs_define
class ReportFailure:
    """What a failed job says about itself.

    Attributes:
        code (str): The job's error code (`model_not_satisfied`, …).
        deliverable (DissimilarityFeasibility | MaxEpsilonFeasibility | MaxMFeasibility | None):
        details (None | ReportFailureDetailsType0):
        message (str):
    """

    code: str
    deliverable: DissimilarityFeasibility | MaxEpsilonFeasibility | MaxMFeasibility | None
    details: None | ReportFailureDetailsType0
    message: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.dissimilarity_feasibility import DissimilarityFeasibility  # noqa: PLC0415
        from ..models.max_epsilon_feasibility import MaxEpsilonFeasibility  # noqa: PLC0415
        from ..models.max_m_feasibility import MaxMFeasibility  # noqa: PLC0415
        from ..models.report_failure_details_type_0 import ReportFailureDetailsType0  # noqa: PLC0415

        code = self.code

        deliverable: dict[str, Any] | None
        if isinstance(self.deliverable, MaxMFeasibility):
            deliverable = self.deliverable.to_dict()
        elif isinstance(self.deliverable, MaxEpsilonFeasibility):
            deliverable = self.deliverable.to_dict()
        elif isinstance(self.deliverable, DissimilarityFeasibility):
            deliverable = self.deliverable.to_dict()
        else:
            deliverable = self.deliverable

        details: dict[str, Any] | None
        if isinstance(self.details, ReportFailureDetailsType0):
            details = self.details.to_dict()
        else:
            details = self.details

        message = self.message

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "code": code,
                "deliverable": deliverable,
                "details": details,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.dissimilarity_feasibility import DissimilarityFeasibility  # noqa: PLC0415
        from ..models.max_epsilon_feasibility import MaxEpsilonFeasibility  # noqa: PLC0415
        from ..models.max_m_feasibility import MaxMFeasibility  # noqa: PLC0415
        from ..models.report_failure_details_type_0 import ReportFailureDetailsType0  # noqa: PLC0415

        d = dict(src_dict)
        code = d.pop("code")

        def _parse_deliverable(
            data: object,
        ) -> DissimilarityFeasibility | MaxEpsilonFeasibility | MaxMFeasibility | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_feasibility_answer_type_0 = MaxMFeasibility.from_dict(data)

                return componentsschemas_feasibility_answer_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_feasibility_answer_type_1 = MaxEpsilonFeasibility.from_dict(data)

                return componentsschemas_feasibility_answer_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_feasibility_answer_type_2 = DissimilarityFeasibility.from_dict(data)

                return componentsschemas_feasibility_answer_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DissimilarityFeasibility | MaxEpsilonFeasibility | MaxMFeasibility | None, data)

        deliverable = _parse_deliverable(d.pop("deliverable"))

        def _parse_details(data: object) -> None | ReportFailureDetailsType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                details_type_0 = ReportFailureDetailsType0.from_dict(data)

                return details_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ReportFailureDetailsType0, data)

        details = _parse_details(d.pop("details"))

        message = d.pop("message")

        report_failure = cls(
            code=code,
            deliverable=deliverable,
            details=details,
            message=message,
        )

        report_failure.additional_properties = d
        return report_failure

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
