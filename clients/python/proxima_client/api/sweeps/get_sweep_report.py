from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.sweep_report_format import SweepReportFormat
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: UUID,
    *,
    format_: SweepReportFormat | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_format_: str | Unset = UNSET
    if not isinstance(format_, Unset):
        json_format_ = format_

    params["format"] = json_format_

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/sweeps/{id}/report".format(
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
    format_: SweepReportFormat | Unset = UNSET,
) -> Response[Problem | str]:
    """The sweep's risk–utility report

     A self-contained HTML page (inline SVG, no scripts, no external loads): the R-U map of
    attacker's-view risk against information loss, and against the count-query error, one mark per
    finished point labelled with its parameters, the Pareto front joined by a line; a table of the
    points with links to each point's job report. With `Accept: application/json` or `?format=json`, the
    same content as JSON.

    Args:
        id (UUID):
        format_ (SweepReportFormat | Unset): `?format=` of the sweep report.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
    """

    kwargs = _get_kwargs(
        id=id,
        format_=format_,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
    format_: SweepReportFormat | Unset = UNSET,
) -> Problem | str | None:
    """The sweep's risk–utility report

     A self-contained HTML page (inline SVG, no scripts, no external loads): the R-U map of
    attacker's-view risk against information loss, and against the count-query error, one mark per
    finished point labelled with its parameters, the Pareto front joined by a line; a table of the
    points with links to each point's job report. With `Accept: application/json` or `?format=json`, the
    same content as JSON.

    Args:
        id (UUID):
        format_ (SweepReportFormat | Unset): `?format=` of the sweep report.

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
    ).parsed


async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    format_: SweepReportFormat | Unset = UNSET,
) -> Response[Problem | str]:
    """The sweep's risk–utility report

     A self-contained HTML page (inline SVG, no scripts, no external loads): the R-U map of
    attacker's-view risk against information loss, and against the count-query error, one mark per
    finished point labelled with its parameters, the Pareto front joined by a line; a table of the
    points with links to each point's job report. With `Accept: application/json` or `?format=json`, the
    same content as JSON.

    Args:
        id (UUID):
        format_ (SweepReportFormat | Unset): `?format=` of the sweep report.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
    """

    kwargs = _get_kwargs(
        id=id,
        format_=format_,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    format_: SweepReportFormat | Unset = UNSET,
) -> Problem | str | None:
    """The sweep's risk–utility report

     A self-contained HTML page (inline SVG, no scripts, no external loads): the R-U map of
    attacker's-view risk against information loss, and against the count-query error, one mark per
    finished point labelled with its parameters, the Pareto front joined by a line; a table of the
    points with links to each point's job report. With `Accept: application/json` or `?format=json`, the
    same content as JSON.

    Args:
        id (UUID):
        format_ (SweepReportFormat | Unset): `?format=` of the sweep report.

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
        )
    ).parsed
