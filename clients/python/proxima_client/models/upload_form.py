from __future__ import annotations

import json
from collections.abc import Mapping
from io import BytesIO
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..types import File

if TYPE_CHECKING:
    from ..models.dataset_schema import DatasetSchema


T = TypeVar("T", bound="UploadForm")


@_attrs_define
class UploadForm:
    """The `multipart/form-data` body of `POST /v1/datasets`. Besides `schema`
    and `data`, each categorical column may have its hierarchy in a part
    named `hierarchy:<column>`: an ARX-format CSV (`leaf;level1;…;root`, no
    header, delimiter `;`, quoted fields allowed). A column's hierarchy comes
    inline in the schema or from its part, not both.

        Attributes:
            data (File): The table: CSV with a header row.
            schema (DatasetSchema):
    """

    data: File
    schema: DatasetSchema
    additional_properties: dict[str, File] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = self.data.to_tuple()

        schema = self.schema.to_dict()

        field_dict: dict[str, Any] = {}
        for prop_name, prop in self.additional_properties.items():
            field_dict[prop_name] = prop.to_tuple()

        field_dict.update(
            {
                "data": data,
                "schema": schema,
            }
        )

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("data", self.data.to_tuple()))

        files.append(("schema", (None, json.dumps(self.schema.to_dict()).encode(), "application/json")))

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, prop.to_tuple()))

        return files

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.dataset_schema import DatasetSchema  # noqa: PLC0415

        d = dict(src_dict)
        data = File(payload=BytesIO(d.pop("data")))

        schema = DatasetSchema.from_dict(d.pop("schema"))

        upload_form = cls(
            data=data,
            schema=schema,
        )

        additional_properties = {}
        for prop_name, prop_dict in d.items():
            additional_property = File(payload=BytesIO(prop_dict))

            additional_properties[prop_name] = additional_property

        upload_form.additional_properties = additional_properties
        return upload_form

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> File:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: File) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
