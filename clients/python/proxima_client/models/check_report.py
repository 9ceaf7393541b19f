from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.attacker_figures import AttackerFigures
    from ..models.check_report_params import CheckReportParams
    from ..models.check_report_value import CheckReportValue
    from ..models.column_contribution import ColumnContribution
    from ..models.per_group import PerGroup
    from ..models.worst_group import WorstGroup
    from ..models.worst_record import WorstRecord


T = TypeVar("T", bound="CheckReport")


@_attrs_define
class CheckReport:
    """
    Attributes:
        kind (str):
        params (CheckReportParams): The check's parameters as requested, by name (numbers, or strings for `variant`,
            `neighborhood`, `ground_distance` and `sensitive_metric`).
        passed (bool): In the report's view.
        value (CheckReportValue): The check's natural figures by name: `min_size` (k), `l`, `max_breach_probability` and
            `achieved_m` ((ε,m)), `max_risk` and `vulnerability` ((ε,δ)), `max_emd` (t), …; null when not finite.
        violating_groups (int): Groups holding a row that fails the check (attacker view: a victim
            over the bound).
        violating_rows (int):
        worst_groups (list[WorstGroup]):
        attacker (AttackerFigures | None | Unset):
        column_contributions (list[ColumnContribution] | None | Unset): `special_uniques` only: every column scanned
            with its share of the
            total SUDA score (sdcMicro's attribute contributions, in percent; an
            MSU counts for each of its columns, so the shares add up to more
            than 100).
        msus_by_size (list[int] | None | Unset): `special_uniques` only: minimal sample uniques found of each size,
            from 1 to the largest size searched.
        per_group (None | PerGroup | Unset):
        worst_records (list[WorstRecord] | None | Unset): `special_uniques` only: the records with the highest SUDA
            scores
            (at most 20), each with the columns of its smallest minimal sample
            unique — column names, never values.
    """

    kind: str
    params: CheckReportParams
    passed: bool
    value: CheckReportValue
    violating_groups: int
    violating_rows: int
    worst_groups: list[WorstGroup]
    attacker: AttackerFigures | None | Unset = UNSET
    column_contributions: list[ColumnContribution] | None | Unset = UNSET
    msus_by_size: list[int] | None | Unset = UNSET
    per_group: None | PerGroup | Unset = UNSET
    worst_records: list[WorstRecord] | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.attacker_figures import AttackerFigures  # noqa: PLC0415
        from ..models.per_group import PerGroup  # noqa: PLC0415

        kind = self.kind

        params = self.params.to_dict()

        passed = self.passed

        value = self.value.to_dict()

        violating_groups = self.violating_groups

        violating_rows = self.violating_rows

        worst_groups = []
        for worst_groups_item_data in self.worst_groups:
            worst_groups_item = worst_groups_item_data.to_dict()
            worst_groups.append(worst_groups_item)

        attacker: dict[str, Any] | None | Unset
        if isinstance(self.attacker, Unset):
            attacker = UNSET
        elif isinstance(self.attacker, AttackerFigures):
            attacker = self.attacker.to_dict()
        else:
            attacker = self.attacker

        column_contributions: list[dict[str, Any]] | None | Unset
        if isinstance(self.column_contributions, Unset):
            column_contributions = UNSET
        elif isinstance(self.column_contributions, list):
            column_contributions = []
            for column_contributions_type_0_item_data in self.column_contributions:
                column_contributions_type_0_item = column_contributions_type_0_item_data.to_dict()
                column_contributions.append(column_contributions_type_0_item)

        else:
            column_contributions = self.column_contributions

        msus_by_size: list[int] | None | Unset
        if isinstance(self.msus_by_size, Unset):
            msus_by_size = UNSET
        elif isinstance(self.msus_by_size, list):
            msus_by_size = self.msus_by_size

        else:
            msus_by_size = self.msus_by_size

        per_group: dict[str, Any] | None | Unset
        if isinstance(self.per_group, Unset):
            per_group = UNSET
        elif isinstance(self.per_group, PerGroup):
            per_group = self.per_group.to_dict()
        else:
            per_group = self.per_group

        worst_records: list[dict[str, Any]] | None | Unset
        if isinstance(self.worst_records, Unset):
            worst_records = UNSET
        elif isinstance(self.worst_records, list):
            worst_records = []
            for worst_records_type_0_item_data in self.worst_records:
                worst_records_type_0_item = worst_records_type_0_item_data.to_dict()
                worst_records.append(worst_records_type_0_item)

        else:
            worst_records = self.worst_records

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "kind": kind,
                "params": params,
                "passed": passed,
                "value": value,
                "violating_groups": violating_groups,
                "violating_rows": violating_rows,
                "worst_groups": worst_groups,
            }
        )
        if attacker is not UNSET:
            field_dict["attacker"] = attacker
        if column_contributions is not UNSET:
            field_dict["column_contributions"] = column_contributions
        if msus_by_size is not UNSET:
            field_dict["msus_by_size"] = msus_by_size
        if per_group is not UNSET:
            field_dict["per_group"] = per_group
        if worst_records is not UNSET:
            field_dict["worst_records"] = worst_records

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.attacker_figures import AttackerFigures  # noqa: PLC0415
        from ..models.check_report_params import CheckReportParams  # noqa: PLC0415
        from ..models.check_report_value import CheckReportValue  # noqa: PLC0415
        from ..models.column_contribution import ColumnContribution  # noqa: PLC0415
        from ..models.per_group import PerGroup  # noqa: PLC0415
        from ..models.worst_group import WorstGroup  # noqa: PLC0415
        from ..models.worst_record import WorstRecord  # noqa: PLC0415

        d = dict(src_dict)
        kind = d.pop("kind")

        params = CheckReportParams.from_dict(d.pop("params"))

        passed = d.pop("passed")

        value = CheckReportValue.from_dict(d.pop("value"))

        violating_groups = d.pop("violating_groups")

        violating_rows = d.pop("violating_rows")

        worst_groups = []
        _worst_groups = d.pop("worst_groups")
        for worst_groups_item_data in _worst_groups:
            worst_groups_item = WorstGroup.from_dict(worst_groups_item_data)

            worst_groups.append(worst_groups_item)

        def _parse_attacker(data: object) -> AttackerFigures | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                attacker_type_0 = AttackerFigures.from_dict(data)

                return attacker_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AttackerFigures | None | Unset, data)

        attacker = _parse_attacker(d.pop("attacker", UNSET))

        def _parse_column_contributions(data: object) -> list[ColumnContribution] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                column_contributions_type_0 = []
                _column_contributions_type_0 = data
                for column_contributions_type_0_item_data in _column_contributions_type_0:
                    column_contributions_type_0_item = ColumnContribution.from_dict(
                        column_contributions_type_0_item_data
                    )

                    column_contributions_type_0.append(column_contributions_type_0_item)

                return column_contributions_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[ColumnContribution] | None | Unset, data)

        column_contributions = _parse_column_contributions(d.pop("column_contributions", UNSET))

        def _parse_msus_by_size(data: object) -> list[int] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                msus_by_size_type_0 = cast(list[int], data)

                return msus_by_size_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[int] | None | Unset, data)

        msus_by_size = _parse_msus_by_size(d.pop("msus_by_size", UNSET))

        def _parse_per_group(data: object) -> None | PerGroup | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                per_group_type_0 = PerGroup.from_dict(data)

                return per_group_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PerGroup | Unset, data)

        per_group = _parse_per_group(d.pop("per_group", UNSET))

        def _parse_worst_records(data: object) -> list[WorstRecord] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                worst_records_type_0 = []
                _worst_records_type_0 = data
                for worst_records_type_0_item_data in _worst_records_type_0:
                    worst_records_type_0_item = WorstRecord.from_dict(worst_records_type_0_item_data)

                    worst_records_type_0.append(worst_records_type_0_item)

                return worst_records_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[WorstRecord] | None | Unset, data)

        worst_records = _parse_worst_records(d.pop("worst_records", UNSET))

        check_report = cls(
            kind=kind,
            params=params,
            passed=passed,
            value=value,
            violating_groups=violating_groups,
            violating_rows=violating_rows,
            worst_groups=worst_groups,
            attacker=attacker,
            column_contributions=column_contributions,
            msus_by_size=msus_by_size,
            per_group=per_group,
            worst_records=worst_records,
        )

        check_report.additional_properties = d
        return check_report

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
