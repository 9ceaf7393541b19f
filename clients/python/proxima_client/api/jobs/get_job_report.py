from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.report_audience_param import ReportAudienceParam
from ...models.report_format import ReportFormat
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: UUID,
    *,
    format_: ReportFormat | Unset = UNSET,
    audience: ReportAudienceParam | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_format_: str | Unset = UNSET
    if not isinstance(format_, Unset):
        json_format_ = format_

    params["format"] = json_format_

    json_audience: str | Unset = UNSET
    if not isinstance(audience, Unset):
        json_audience = audience

    params["audience"] = json_audience

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/jobs/{id}/report".format(
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
    format_: ReportFormat | Unset = UNSET,
    audience: ReportAudienceParam | Unset = UNSET,
) -> Response[Problem | str]:
    """The release report a release officer signs

     A self-contained HTML page (inline SVG charts, no script, no external load, printable) or, with
    `Accept: application/json` or `?format=json`, the same content as JSON. It opens with the verdict
    (`publishable`, `publishable_with_conditions` or `not_publishable`, each reason linked to its
    section, and the release policy applied) and ends with the approvals recorded; between them: the
    dataset and the replayable request, the SHA-256 of the CSV release as `GET …/result` serves it, re-
    identification risk before and after (with population uniqueness when the dataset has `population`),
    the attacker's-view figures of the model, group sizes, the SA distribution, utility and computed
    warnings. A failed job's report explains the failure. See docs/release-report.md.

    Args:
        id (UUID):
        format_ (ReportFormat | Unset): `?format=` of a release report.
        audience (ReportAudienceParam | Unset): `?audience=` of a release report.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
    """

    kwargs = _get_kwargs(
        id=id,
        format_=format_,
        audience=audience,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
    format_: ReportFormat | Unset = UNSET,
    audience: ReportAudienceParam | Unset = UNSET,
) -> Problem | str | None:
    """The release report a release officer signs

     A self-contained HTML page (inline SVG charts, no script, no external load, printable) or, with
    `Accept: application/json` or `?format=json`, the same content as JSON. It opens with the verdict
    (`publishable`, `publishable_with_conditions` or `not_publishable`, each reason linked to its
    section, and the release policy applied) and ends with the approvals recorded; between them: the
    dataset and the replayable request, the SHA-256 of the CSV release as `GET …/result` serves it, re-
    identification risk before and after (with population uniqueness when the dataset has `population`),
    the attacker's-view figures of the model, group sizes, the SA distribution, utility and computed
    warnings. A failed job's report explains the failure. See docs/release-report.md.

    Args:
        id (UUID):
        format_ (ReportFormat | Unset): `?format=` of a release report.
        audience (ReportAudienceParam | Unset): `?audience=` of a release report.

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
        audience=audience,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    format_: ReportFormat | Unset = UNSET,
    audience: ReportAudienceParam | Unset = UNSET,
) -> Response[Problem | str]:
    """The release report a release officer signs

     A self-contained HTML page (inline SVG charts, no script, no external load, printable) or, with
    `Accept: application/json` or `?format=json`, the same content as JSON. It opens with the verdict
    (`publishable`, `publishable_with_conditions` or `not_publishable`, each reason linked to its
    section, and the release policy applied) and ends with the approvals recorded; between them: the
    dataset and the replayable request, the SHA-256 of the CSV release as `GET …/result` serves it, re-
    identification risk before and after (with population uniqueness when the dataset has `population`),
    the attacker's-view figures of the model, group sizes, the SA distribution, utility and computed
    warnings. A failed job's report explains the failure. See docs/release-report.md.

    Args:
        id (UUID):
        format_ (ReportFormat | Unset): `?format=` of a release report.
        audience (ReportAudienceParam | Unset): `?audience=` of a release report.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
    """

    kwargs = _get_kwargs(
        id=id,
        format_=format_,
        audience=audience,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    format_: ReportFormat | Unset = UNSET,
    audience: ReportAudienceParam | Unset = UNSET,
) -> Problem | str | None:
    """The release report a release officer signs

     A self-contained HTML page (inline SVG charts, no script, no external load, printable) or, with
    `Accept: application/json` or `?format=json`, the same content as JSON. It opens with the verdict
    (`publishable`, `publishable_with_conditions` or `not_publishable`, each reason linked to its
    section, and the release policy applied) and ends with the approvals recorded; between them: the
    dataset and the replayable request, the SHA-256 of the CSV release as `GET …/result` serves it, re-
    identification risk before and after (with population uniqueness when the dataset has `population`),
    the attacker's-view figures of the model, group sizes, the SA distribution, utility and computed
    warnings. A failed job's report explains the failure. See docs/release-report.md.

    Args:
        id (UUID):
        format_ (ReportFormat | Unset): `?format=` of a release report.
        audience (ReportAudienceParam | Unset): `?audience=` of a release report.

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
            audience=audience,
        )
    ).parsed
