from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DeliverablePair")


@_attrs_define
class DeliverablePair:
    """A (k, δ) pair the service delivers for sure on this table: a job with
    this k and any δ up to `max_delta` (no suppression) succeeds in the
    attacker's view — the whole table is a valid group.

        Attributes:
            k (int):
            max_delta (float):
    """

    k: int
    max_delta: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        k = self.k

        max_delta = self.max_delta

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "k": k,
                "max_delta": max_delta,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        k = d.pop("k")

        max_delta = d.pop("max_delta")

        deliverable_pair = cls(
            k=k,
            max_delta=max_delta,
        )

        deliverable_pair.additional_properties = d
        return deliverable_pair

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
