from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.approval import Approval


T = TypeVar("T", bound="ApprovalList")


@_attrs_define
class ApprovalList:
    """`GET /v1/jobs/{id}/approvals`: newest first, and whether the release
    was deleted since (its approvals stay).

        Attributes:
            items (list[Approval]):
            next_cursor (None | str):
            release_deleted_at (datetime.datetime | None): When the job (with its release and dataset) was deleted; null
                while
                it exists.
    """

    items: list[Approval]
    next_cursor: None | str
    release_deleted_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)

        next_cursor: None | str
        next_cursor = self.next_cursor

        release_deleted_at: None | str
        if isinstance(self.release_deleted_at, datetime.datetime):
            release_deleted_at = self.release_deleted_at.isoformat()
        else:
            release_deleted_at = self.release_deleted_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "items": items,
                "next_cursor": next_cursor,
                "release_deleted_at": release_deleted_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.approval import Approval  # noqa: PLC0415

        d = dict(src_dict)
        items = []
        _items = d.pop("items")
        for items_item_data in _items:
            items_item = Approval.from_dict(items_item_data)

            items.append(items_item)

        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("next_cursor"))

        def _parse_release_deleted_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                release_deleted_at_type_0 = datetime.datetime.fromisoformat(data)

                return release_deleted_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        release_deleted_at = _parse_release_deleted_at(d.pop("release_deleted_at"))

        approval_list = cls(
            items=items,
            next_cursor=next_cursor,
            release_deleted_at=release_deleted_at,
        )

        approval_list.additional_properties = d
        return approval_list

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
