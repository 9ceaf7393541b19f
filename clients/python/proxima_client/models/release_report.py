from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.report_audience import ReportAudience, check_report_audience

if TYPE_CHECKING:
    from ..models.approval import Approval
    from ..models.release_facts import ReleaseFacts
    from ..models.report_attacker_view import ReportAttackerView
    from ..models.report_combinations import ReportCombinations
    from ..models.report_dataset import ReportDataset
    from ..models.report_failure import ReportFailure
    from ..models.report_job import ReportJob
    from ..models.report_risk import ReportRisk
    from ..models.report_riskiest import ReportRiskiest
    from ..models.report_utility import ReportUtility
    from ..models.report_warning import ReportWarning
    from ..models.sa_distribution import SaDistribution
    from ..models.size_bucket import SizeBucket
    from ..models.verdict import Verdict


T = TypeVar("T", bound="ReleaseReport")


@_attrs_define
class ReleaseReport:
    """The release report.

    Attributes:
        approvals (list[Approval]): The approvals and rejections recorded for this job, oldest first,
            each with the release hash it binds.
        attacker_view (None | ReportAttackerView):
        audience (ReportAudience): Who the report is for.
        combinations (ReportCombinations): Records at risk through combinations of columns (SUDA2, as the
            `special_uniques` audit check measures them).
        dataset (ReportDataset):
        failure (None | ReportFailure):
        group_sizes (list[SizeBucket]): Groups of the release by size, in Google DLP's bucket shape (the
            job audit's `group_sizes`); empty without a release.
        job (ReportJob):
        release (None | ReleaseFacts):
        risk (ReportRisk): Re-identification risk before (the uploaded table's QIs) and after (the
            release in the attacker's view).
        riskiest (None | ReportRiskiest):
        sensitive (list[SaDistribution]): Per sensitive column: its distribution over the published table
            beside that of the riskiest groups; empty without a release.
        utility (None | ReportUtility):
        verdict (Verdict): The verdict, its reasons and the policy it applied.
        warnings (list[ReportWarning]):
    """

    approvals: list[Approval]
    attacker_view: None | ReportAttackerView
    audience: ReportAudience
    combinations: ReportCombinations
    dataset: ReportDataset
    failure: None | ReportFailure
    group_sizes: list[SizeBucket]
    job: ReportJob
    release: None | ReleaseFacts
    risk: ReportRisk
    riskiest: None | ReportRiskiest
    sensitive: list[SaDistribution]
    utility: None | ReportUtility
    verdict: Verdict
    warnings: list[ReportWarning]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.release_facts import ReleaseFacts  # noqa: PLC0415
        from ..models.report_attacker_view import ReportAttackerView  # noqa: PLC0415
        from ..models.report_failure import ReportFailure  # noqa: PLC0415
        from ..models.report_riskiest import ReportRiskiest  # noqa: PLC0415
        from ..models.report_utility import ReportUtility  # noqa: PLC0415

        approvals = []
        for approvals_item_data in self.approvals:
            approvals_item = approvals_item_data.to_dict()
            approvals.append(approvals_item)

        attacker_view: dict[str, Any] | None
        if isinstance(self.attacker_view, ReportAttackerView):
            attacker_view = self.attacker_view.to_dict()
        else:
            attacker_view = self.attacker_view

        audience: str = self.audience

        combinations = self.combinations.to_dict()

        dataset = self.dataset.to_dict()

        failure: dict[str, Any] | None
        if isinstance(self.failure, ReportFailure):
            failure = self.failure.to_dict()
        else:
            failure = self.failure

        group_sizes = []
        for group_sizes_item_data in self.group_sizes:
            group_sizes_item = group_sizes_item_data.to_dict()
            group_sizes.append(group_sizes_item)

        job = self.job.to_dict()

        release: dict[str, Any] | None
        if isinstance(self.release, ReleaseFacts):
            release = self.release.to_dict()
        else:
            release = self.release

        risk = self.risk.to_dict()

        riskiest: dict[str, Any] | None
        if isinstance(self.riskiest, ReportRiskiest):
            riskiest = self.riskiest.to_dict()
        else:
            riskiest = self.riskiest

        sensitive = []
        for sensitive_item_data in self.sensitive:
            sensitive_item = sensitive_item_data.to_dict()
            sensitive.append(sensitive_item)

        utility: dict[str, Any] | None
        if isinstance(self.utility, ReportUtility):
            utility = self.utility.to_dict()
        else:
            utility = self.utility

        verdict = self.verdict.to_dict()

        warnings = []
        for warnings_item_data in self.warnings:
            warnings_item = warnings_item_data.to_dict()
            warnings.append(warnings_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "approvals": approvals,
                "attacker_view": attacker_view,
                "audience": audience,
                "combinations": combinations,
                "dataset": dataset,
                "failure": failure,
                "group_sizes": group_sizes,
                "job": job,
                "release": release,
                "risk": risk,
                "riskiest": riskiest,
                "sensitive": sensitive,
                "utility": utility,
                "verdict": verdict,
                "warnings": warnings,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.approval import Approval  # noqa: PLC0415
        from ..models.release_facts import ReleaseFacts  # noqa: PLC0415
        from ..models.report_attacker_view import ReportAttackerView  # noqa: PLC0415
        from ..models.report_combinations import ReportCombinations  # noqa: PLC0415
        from ..models.report_dataset import ReportDataset  # noqa: PLC0415
        from ..models.report_failure import ReportFailure  # noqa: PLC0415
        from ..models.report_job import ReportJob  # noqa: PLC0415
        from ..models.report_risk import ReportRisk  # noqa: PLC0415
        from ..models.report_riskiest import ReportRiskiest  # noqa: PLC0415
        from ..models.report_utility import ReportUtility  # noqa: PLC0415
        from ..models.report_warning import ReportWarning  # noqa: PLC0415
        from ..models.sa_distribution import SaDistribution  # noqa: PLC0415
        from ..models.size_bucket import SizeBucket  # noqa: PLC0415
        from ..models.verdict import Verdict  # noqa: PLC0415

        d = dict(src_dict)
        approvals = []
        _approvals = d.pop("approvals")
        for approvals_item_data in _approvals:
            approvals_item = Approval.from_dict(approvals_item_data)

            approvals.append(approvals_item)

        def _parse_attacker_view(data: object) -> None | ReportAttackerView:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                attacker_view_type_0 = ReportAttackerView.from_dict(data)

                return attacker_view_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ReportAttackerView, data)

        attacker_view = _parse_attacker_view(d.pop("attacker_view"))

        audience = check_report_audience(d.pop("audience"))

        combinations = ReportCombinations.from_dict(d.pop("combinations"))

        dataset = ReportDataset.from_dict(d.pop("dataset"))

        def _parse_failure(data: object) -> None | ReportFailure:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                failure_type_0 = ReportFailure.from_dict(data)

                return failure_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ReportFailure, data)

        failure = _parse_failure(d.pop("failure"))

        group_sizes = []
        _group_sizes = d.pop("group_sizes")
        for group_sizes_item_data in _group_sizes:
            group_sizes_item = SizeBucket.from_dict(group_sizes_item_data)

            group_sizes.append(group_sizes_item)

        job = ReportJob.from_dict(d.pop("job"))

        def _parse_release(data: object) -> None | ReleaseFacts:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                release_type_0 = ReleaseFacts.from_dict(data)

                return release_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ReleaseFacts, data)

        release = _parse_release(d.pop("release"))

        risk = ReportRisk.from_dict(d.pop("risk"))

        def _parse_riskiest(data: object) -> None | ReportRiskiest:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                riskiest_type_0 = ReportRiskiest.from_dict(data)

                return riskiest_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ReportRiskiest, data)

        riskiest = _parse_riskiest(d.pop("riskiest"))

        sensitive = []
        _sensitive = d.pop("sensitive")
        for sensitive_item_data in _sensitive:
            sensitive_item = SaDistribution.from_dict(sensitive_item_data)

            sensitive.append(sensitive_item)

        def _parse_utility(data: object) -> None | ReportUtility:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                utility_type_0 = ReportUtility.from_dict(data)

                return utility_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ReportUtility, data)

        utility = _parse_utility(d.pop("utility"))

        verdict = Verdict.from_dict(d.pop("verdict"))

        warnings = []
        _warnings = d.pop("warnings")
        for warnings_item_data in _warnings:
            warnings_item = ReportWarning.from_dict(warnings_item_data)

            warnings.append(warnings_item)

        release_report = cls(
            approvals=approvals,
            attacker_view=attacker_view,
            audience=audience,
            combinations=combinations,
            dataset=dataset,
            failure=failure,
            group_sizes=group_sizes,
            job=job,
            release=release,
            risk=risk,
            riskiest=riskiest,
            sensitive=sensitive,
            utility=utility,
            verdict=verdict,
            warnings=warnings,
        )

        release_report.additional_properties = d
        return release_report

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
