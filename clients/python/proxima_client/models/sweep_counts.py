from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SweepCounts")


@_attrs_define
class SweepCounts:
    """Points per status.

    Attributes:
        cancelled (int):
        failed (int):
        infeasible (int):
        queued (int):
        running (int):
        succeeded (int):
    """

    cancelled: int
    failed: int
    infeasible: int
    queued: int
    running: int
    succeeded: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        cancelled = self.cancelled

        failed = self.failed

        infeasible = self.infeasible

        queued = self.queued

        running = self.running

        succeeded = self.succeeded

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "cancelled": cancelled,
                "failed": failed,
                "infeasible": infeasible,
                "queued": queued,
                "running": running,
                "succeeded": succeeded,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        cancelled = d.pop("cancelled")

        failed = d.pop("failed")

        infeasible = d.pop("infeasible")

        queued = d.pop("queued")

        running = d.pop("running")

        succeeded = d.pop("succeeded")

        sweep_counts = cls(
            cancelled=cancelled,
            failed=failed,
            infeasible=infeasible,
            queued=queued,
            running=running,
            succeeded=succeeded,
        )

        sweep_counts.additional_properties = d
        return sweep_counts

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
