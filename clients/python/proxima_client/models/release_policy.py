from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ReleasePolicy")


@_attrs_define
class ReleasePolicy:
    """The thresholds and rules a tenant's releases are judged by.

    Attributes:
        four_eyes (bool): An approval's key must differ from the key that submitted the job.
            Default true.
        max_below_k_share (float): The largest share of published records that an insensitive column
            (published as is, not listed as a QI) leaves in groups of fewer than
            the model's k when an attacker knows it. Default 0.05; above it the
            release is not publishable.
        max_median_query_error (float): The largest median relative count-query error (a fraction: 0.5 is
            50 %), over the report's workloads. Default 0.5; above it the release
            is publishable with conditions (counts from it are unreliable).
        max_population_uniques_share (float): The largest share of the population estimated unique after release
            (only judged when the dataset gives its `population`). Default 0.01;
            above it the release is not publishable.
        max_prosecutor_risk (float): The largest prosecutor risk of a record of the release in the
            attacker's view (1 / its fewest candidates). Default 0.1 (k = 10);
            above it the release is not publishable.
        max_suppressed_share (float): The largest share of rows the model may leave out. Default 0.05;
            above it the release is publishable with conditions (say so beside
            the data).
        require_approval (bool): `GET …/result?purpose=publication` needs an approval. Default true.
    """

    four_eyes: bool
    max_below_k_share: float
    max_median_query_error: float
    max_population_uniques_share: float
    max_prosecutor_risk: float
    max_suppressed_share: float
    require_approval: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        four_eyes = self.four_eyes

        max_below_k_share = self.max_below_k_share

        max_median_query_error = self.max_median_query_error

        max_population_uniques_share = self.max_population_uniques_share

        max_prosecutor_risk = self.max_prosecutor_risk

        max_suppressed_share = self.max_suppressed_share

        require_approval = self.require_approval

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "four_eyes": four_eyes,
                "max_below_k_share": max_below_k_share,
                "max_median_query_error": max_median_query_error,
                "max_population_uniques_share": max_population_uniques_share,
                "max_prosecutor_risk": max_prosecutor_risk,
                "max_suppressed_share": max_suppressed_share,
                "require_approval": require_approval,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        four_eyes = d.pop("four_eyes")

        max_below_k_share = d.pop("max_below_k_share")

        max_median_query_error = d.pop("max_median_query_error")

        max_population_uniques_share = d.pop("max_population_uniques_share")

        max_prosecutor_risk = d.pop("max_prosecutor_risk")

        max_suppressed_share = d.pop("max_suppressed_share")

        require_approval = d.pop("require_approval")

        release_policy = cls(
            four_eyes=four_eyes,
            max_below_k_share=max_below_k_share,
            max_median_query_error=max_median_query_error,
            max_population_uniques_share=max_population_uniques_share,
            max_prosecutor_risk=max_prosecutor_risk,
            max_suppressed_share=max_suppressed_share,
            require_approval=require_approval,
        )

        release_policy.additional_properties = d
        return release_policy

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
