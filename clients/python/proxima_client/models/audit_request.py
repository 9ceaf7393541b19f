from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.audit_view import AuditView, check_audit_view
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.alpha_k_check import AlphaKCheck
    from ..models.column_groups import ColumnGroups
    from ..models.delta_l_diversity_check import DeltaLDiversityCheck
    from ..models.delta_presence_check import DeltaPresenceCheck
    from ..models.dissimilarity_check import DissimilarityCheck
    from ..models.epsilon_m_check import EpsilonMCheck
    from ..models.k_anonymity_check import KAnonymityCheck
    from ..models.k_map_check import KMapCheck
    from ..models.l_diversity_check import LDiversityCheck
    from ..models.quasi_identifiers_groups import QuasiIdentifiersGroups
    from ..models.special_uniques_check import SpecialUniquesCheck
    from ..models.t_closeness_check import TClosenessCheck


T = TypeVar("T", bound="AuditRequest")


@_attrs_define
class AuditRequest:
    """
    Attributes:
        checks (list[AlphaKCheck | DeltaLDiversityCheck | DeltaPresenceCheck | DissimilarityCheck | EpsilonMCheck |
            KAnonymityCheck | KMapCheck | LDiversityCheck | SpecialUniquesCheck | TClosenessCheck]):
        dataset_id (None | Unset | UUID): The uploaded table to audit; give exactly one of `dataset_id` and
            `job_id`.
        groups (ColumnGroups | QuasiIdentifiersGroups | Unset):
        job_id (None | Unset | UUID): The succeeded job whose release to audit.
        view (AuditView | None | Unset):
    """

    checks: list[
        AlphaKCheck
        | DeltaLDiversityCheck
        | DeltaPresenceCheck
        | DissimilarityCheck
        | EpsilonMCheck
        | KAnonymityCheck
        | KMapCheck
        | LDiversityCheck
        | SpecialUniquesCheck
        | TClosenessCheck
    ]
    dataset_id: None | Unset | UUID = UNSET
    groups: ColumnGroups | QuasiIdentifiersGroups | Unset = UNSET
    job_id: None | Unset | UUID = UNSET
    view: AuditView | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.alpha_k_check import AlphaKCheck  # noqa: PLC0415
        from ..models.delta_l_diversity_check import DeltaLDiversityCheck  # noqa: PLC0415
        from ..models.delta_presence_check import DeltaPresenceCheck  # noqa: PLC0415
        from ..models.dissimilarity_check import DissimilarityCheck  # noqa: PLC0415
        from ..models.epsilon_m_check import EpsilonMCheck  # noqa: PLC0415
        from ..models.k_anonymity_check import KAnonymityCheck  # noqa: PLC0415
        from ..models.k_map_check import KMapCheck  # noqa: PLC0415
        from ..models.l_diversity_check import LDiversityCheck  # noqa: PLC0415
        from ..models.quasi_identifiers_groups import QuasiIdentifiersGroups  # noqa: PLC0415
        from ..models.t_closeness_check import TClosenessCheck  # noqa: PLC0415

        checks = []
        for checks_item_data in self.checks:
            checks_item: dict[str, Any]
            if isinstance(checks_item_data, KAnonymityCheck):
                checks_item = checks_item_data.to_dict()
            elif isinstance(checks_item_data, LDiversityCheck):
                checks_item = checks_item_data.to_dict()
            elif isinstance(checks_item_data, AlphaKCheck):
                checks_item = checks_item_data.to_dict()
            elif isinstance(checks_item_data, EpsilonMCheck):
                checks_item = checks_item_data.to_dict()
            elif isinstance(checks_item_data, DissimilarityCheck):
                checks_item = checks_item_data.to_dict()
            elif isinstance(checks_item_data, DeltaLDiversityCheck):
                checks_item = checks_item_data.to_dict()
            elif isinstance(checks_item_data, TClosenessCheck):
                checks_item = checks_item_data.to_dict()
            elif isinstance(checks_item_data, KMapCheck):
                checks_item = checks_item_data.to_dict()
            elif isinstance(checks_item_data, DeltaPresenceCheck):
                checks_item = checks_item_data.to_dict()
            else:
                checks_item = checks_item_data.to_dict()

            checks.append(checks_item)

        dataset_id: None | str | Unset
        if isinstance(self.dataset_id, Unset):
            dataset_id = UNSET
        elif isinstance(self.dataset_id, UUID):
            dataset_id = str(self.dataset_id)
        else:
            dataset_id = self.dataset_id

        groups: dict[str, Any] | Unset
        if isinstance(self.groups, Unset):
            groups = UNSET
        elif isinstance(self.groups, QuasiIdentifiersGroups):
            groups = self.groups.to_dict()
        else:
            groups = self.groups.to_dict()

        job_id: None | str | Unset
        if isinstance(self.job_id, Unset):
            job_id = UNSET
        elif isinstance(self.job_id, UUID):
            job_id = str(self.job_id)
        else:
            job_id = self.job_id

        view: None | str | Unset
        if isinstance(self.view, Unset):
            view = UNSET
        elif isinstance(self.view, str):
            view = self.view
        else:
            view = self.view

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "checks": checks,
            }
        )
        if dataset_id is not UNSET:
            field_dict["dataset_id"] = dataset_id
        if groups is not UNSET:
            field_dict["groups"] = groups
        if job_id is not UNSET:
            field_dict["job_id"] = job_id
        if view is not UNSET:
            field_dict["view"] = view

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.alpha_k_check import AlphaKCheck  # noqa: PLC0415
        from ..models.column_groups import ColumnGroups  # noqa: PLC0415
        from ..models.delta_l_diversity_check import DeltaLDiversityCheck  # noqa: PLC0415
        from ..models.delta_presence_check import DeltaPresenceCheck  # noqa: PLC0415
        from ..models.dissimilarity_check import DissimilarityCheck  # noqa: PLC0415
        from ..models.epsilon_m_check import EpsilonMCheck  # noqa: PLC0415
        from ..models.k_anonymity_check import KAnonymityCheck  # noqa: PLC0415
        from ..models.k_map_check import KMapCheck  # noqa: PLC0415
        from ..models.l_diversity_check import LDiversityCheck  # noqa: PLC0415
        from ..models.quasi_identifiers_groups import QuasiIdentifiersGroups  # noqa: PLC0415
        from ..models.special_uniques_check import SpecialUniquesCheck  # noqa: PLC0415
        from ..models.t_closeness_check import TClosenessCheck  # noqa: PLC0415

        d = dict(src_dict)
        checks = []
        _checks = d.pop("checks")
        for checks_item_data in _checks:

            def _parse_checks_item(
                data: object,
            ) -> (
                AlphaKCheck
                | DeltaLDiversityCheck
                | DeltaPresenceCheck
                | DissimilarityCheck
                | EpsilonMCheck
                | KAnonymityCheck
                | KMapCheck
                | LDiversityCheck
                | SpecialUniquesCheck
                | TClosenessCheck
            ):
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_check_type_0 = KAnonymityCheck.from_dict(data)

                    return componentsschemas_check_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_check_type_1 = LDiversityCheck.from_dict(data)

                    return componentsschemas_check_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_check_type_2 = AlphaKCheck.from_dict(data)

                    return componentsschemas_check_type_2
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_check_type_3 = EpsilonMCheck.from_dict(data)

                    return componentsschemas_check_type_3
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_check_type_4 = DissimilarityCheck.from_dict(data)

                    return componentsschemas_check_type_4
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_check_type_5 = DeltaLDiversityCheck.from_dict(data)

                    return componentsschemas_check_type_5
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_check_type_6 = TClosenessCheck.from_dict(data)

                    return componentsschemas_check_type_6
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_check_type_7 = KMapCheck.from_dict(data)

                    return componentsschemas_check_type_7
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_check_type_8 = DeltaPresenceCheck.from_dict(data)

                    return componentsschemas_check_type_8
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_check_type_9 = SpecialUniquesCheck.from_dict(data)

                return componentsschemas_check_type_9

            checks_item = _parse_checks_item(checks_item_data)

            checks.append(checks_item)

        def _parse_dataset_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                dataset_id_type_0 = UUID(data)

                return dataset_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        dataset_id = _parse_dataset_id(d.pop("dataset_id", UNSET))

        def _parse_groups(data: object) -> ColumnGroups | QuasiIdentifiersGroups | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_groups_type_0 = QuasiIdentifiersGroups.from_dict(data)

                return componentsschemas_groups_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_groups_type_1 = ColumnGroups.from_dict(data)

            return componentsschemas_groups_type_1

        groups = _parse_groups(d.pop("groups", UNSET))

        def _parse_job_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                job_id_type_0 = UUID(data)

                return job_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        job_id = _parse_job_id(d.pop("job_id", UNSET))

        def _parse_view(data: object) -> AuditView | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                view_type_0 = check_audit_view(data)

                return view_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AuditView | None | Unset, data)

        view = _parse_view(d.pop("view", UNSET))

        audit_request = cls(
            checks=checks,
            dataset_id=dataset_id,
            groups=groups,
            job_id=job_id,
            view=view,
        )

        return audit_request
