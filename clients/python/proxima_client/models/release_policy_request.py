from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.policy_source import PolicySource, check_policy_source
from ..types import UNSET, Unset

T = TypeVar("T", bound="ReleasePolicyRequest")


@_attrs_define
class ReleasePolicyRequest:
    """The body of `PUT /v1/settings/release-policy`: every field optional (a
    field left out takes its default, not its previous value); `source`
    and `updated_at` may be sent back as served and are ignored. Parsed by
    [`parse_policy`]; this type documents it and checks it in tests.

        Attributes:
            four_eyes (bool | None | Unset):
            max_below_k_share (float | None | Unset):
            max_median_query_error (float | None | Unset):
            max_population_uniques_share (float | None | Unset):
            max_prosecutor_risk (float | None | Unset):
            max_suppressed_share (float | None | Unset):
            require_approval (bool | None | Unset):
            source (None | PolicySource | Unset):
            updated_at (datetime.datetime | None | Unset): Ignored (read-only).
    """

    four_eyes: bool | None | Unset = UNSET
    max_below_k_share: float | None | Unset = UNSET
    max_median_query_error: float | None | Unset = UNSET
    max_population_uniques_share: float | None | Unset = UNSET
    max_prosecutor_risk: float | None | Unset = UNSET
    max_suppressed_share: float | None | Unset = UNSET
    require_approval: bool | None | Unset = UNSET
    source: None | PolicySource | Unset = UNSET
    updated_at: datetime.datetime | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        four_eyes: bool | None | Unset
        if isinstance(self.four_eyes, Unset):
            four_eyes = UNSET
        else:
            four_eyes = self.four_eyes

        max_below_k_share: float | None | Unset
        if isinstance(self.max_below_k_share, Unset):
            max_below_k_share = UNSET
        else:
            max_below_k_share = self.max_below_k_share

        max_median_query_error: float | None | Unset
        if isinstance(self.max_median_query_error, Unset):
            max_median_query_error = UNSET
        else:
            max_median_query_error = self.max_median_query_error

        max_population_uniques_share: float | None | Unset
        if isinstance(self.max_population_uniques_share, Unset):
            max_population_uniques_share = UNSET
        else:
            max_population_uniques_share = self.max_population_uniques_share

        max_prosecutor_risk: float | None | Unset
        if isinstance(self.max_prosecutor_risk, Unset):
            max_prosecutor_risk = UNSET
        else:
            max_prosecutor_risk = self.max_prosecutor_risk

        max_suppressed_share: float | None | Unset
        if isinstance(self.max_suppressed_share, Unset):
            max_suppressed_share = UNSET
        else:
            max_suppressed_share = self.max_suppressed_share

        require_approval: bool | None | Unset
        if isinstance(self.require_approval, Unset):
            require_approval = UNSET
        else:
            require_approval = self.require_approval

        source: None | str | Unset
        if isinstance(self.source, Unset):
            source = UNSET
        elif isinstance(self.source, str):
            source = self.source
        else:
            source = self.source

        updated_at: None | str | Unset
        if isinstance(self.updated_at, Unset):
            updated_at = UNSET
        elif isinstance(self.updated_at, datetime.datetime):
            updated_at = self.updated_at.isoformat()
        else:
            updated_at = self.updated_at

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if four_eyes is not UNSET:
            field_dict["four_eyes"] = four_eyes
        if max_below_k_share is not UNSET:
            field_dict["max_below_k_share"] = max_below_k_share
        if max_median_query_error is not UNSET:
            field_dict["max_median_query_error"] = max_median_query_error
        if max_population_uniques_share is not UNSET:
            field_dict["max_population_uniques_share"] = max_population_uniques_share
        if max_prosecutor_risk is not UNSET:
            field_dict["max_prosecutor_risk"] = max_prosecutor_risk
        if max_suppressed_share is not UNSET:
            field_dict["max_suppressed_share"] = max_suppressed_share
        if require_approval is not UNSET:
            field_dict["require_approval"] = require_approval
        if source is not UNSET:
            field_dict["source"] = source
        if updated_at is not UNSET:
            field_dict["updated_at"] = updated_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_four_eyes(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        four_eyes = _parse_four_eyes(d.pop("four_eyes", UNSET))

        def _parse_max_below_k_share(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        max_below_k_share = _parse_max_below_k_share(d.pop("max_below_k_share", UNSET))

        def _parse_max_median_query_error(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        max_median_query_error = _parse_max_median_query_error(d.pop("max_median_query_error", UNSET))

        def _parse_max_population_uniques_share(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        max_population_uniques_share = _parse_max_population_uniques_share(d.pop("max_population_uniques_share", UNSET))

        def _parse_max_prosecutor_risk(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        max_prosecutor_risk = _parse_max_prosecutor_risk(d.pop("max_prosecutor_risk", UNSET))

        def _parse_max_suppressed_share(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        max_suppressed_share = _parse_max_suppressed_share(d.pop("max_suppressed_share", UNSET))

        def _parse_require_approval(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        require_approval = _parse_require_approval(d.pop("require_approval", UNSET))

        def _parse_source(data: object) -> None | PolicySource | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                source_type_0 = check_policy_source(data)

                return source_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PolicySource | Unset, data)

        source = _parse_source(d.pop("source", UNSET))

        def _parse_updated_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                updated_at_type_0 = datetime.datetime.fromisoformat(data)

                return updated_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        updated_at = _parse_updated_at(d.pop("updated_at", UNSET))

        release_policy_request = cls(
            four_eyes=four_eyes,
            max_below_k_share=max_below_k_share,
            max_median_query_error=max_median_query_error,
            max_population_uniques_share=max_population_uniques_share,
            max_prosecutor_risk=max_prosecutor_risk,
            max_suppressed_share=max_suppressed_share,
            require_approval=require_approval,
            source=source,
            updated_at=updated_at,
        )

        return release_policy_request
