from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.result_format import ResultFormat
from ...models.result_purpose import ResultPurpose
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: UUID,
    *,
    format_: ResultFormat | Unset = UNSET,
    row_id: bool | Unset = UNSET,
    purpose: ResultPurpose | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_format_: str | Unset = UNSET
    if not isinstance(format_, Unset):
        json_format_ = format_

    params["format"] = json_format_

    params["row_id"] = row_id

    json_purpose: str | Unset = UNSET
    if not isinstance(purpose, Unset):
        json_purpose = purpose

    params["purpose"] = json_purpose

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/jobs/{id}/result".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | str | None:
    if response.status_code == 200:
        response_200 = response.text
        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())

        return response_422

    if response.status_code == 500:
        response_500 = Problem.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | str]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    format_: ResultFormat | Unset = UNSET,
    row_id: bool | Unset = UNSET,
    purpose: ResultPurpose | Unset = UNSET,
) -> Response[Problem | str]:
    """Download the release (streamed)

    Args:
        id (UUID):
        format_ (ResultFormat | Unset): `?format=` of a release download.
        row_id (bool | Unset):
        purpose (ResultPurpose | Unset): `?purpose=` of a release download.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
    """

    kwargs = _get_kwargs(
        id=id,
        format_=format_,
        row_id=row_id,
        purpose=purpose,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
    format_: ResultFormat | Unset = UNSET,
    row_id: bool | Unset = UNSET,
    purpose: ResultPurpose | Unset = UNSET,
) -> Problem | str | None:
    """Download the release (streamed)

    Args:
        id (UUID):
        format_ (ResultFormat | Unset): `?format=` of a release download.
        row_id (bool | Unset):
        purpose (ResultPurpose | Unset): `?purpose=` of a release download.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
    """

    return sync_detailed(
        id=id,
        client=client,
        format_=format_,
        row_id=row_id,
        purpose=purpose,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    format_: ResultFormat | Unset = UNSET,
    row_id: bool | Unset = UNSET,
    purpose: ResultPurpose | Unset = UNSET,
) -> Response[Problem | str]:
    """Download the release (streamed)

    Args:
        id (UUID):
        format_ (ResultFormat | Unset): `?format=` of a release download.
        row_id (bool | Unset):
        purpose (ResultPurpose | Unset): `?purpose=` of a release download.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
    """

    kwargs = _get_kwargs(
        id=id,
        format_=format_,
        row_id=row_id,
        purpose=purpose,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    format_: ResultFormat | Unset = UNSET,
    row_id: bool | Unset = UNSET,
    purpose: ResultPurpose | Unset = UNSET,
) -> Problem | str | None:
    """Download the release (streamed)

    Args:
        id (UUID):
        format_ (ResultFormat | Unset): `?format=` of a release download.
        row_id (bool | Unset):
        purpose (ResultPurpose | Unset): `?purpose=` of a release download.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            format_=format_,
            row_id=row_id,
            purpose=purpose,
        )
    ).parsed
