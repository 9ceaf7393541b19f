from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.job import Job
from ...models.job_request_dto import JobRequestDto
from ...models.problem_dto import ProblemDto
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: JobRequestDto,
    idempotency_key: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/jobs",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Job | ProblemDto | None:
    if response.status_code == 200:
        response_200 = Job.from_dict(response.json())

        return response_200

    if response.status_code == 202:
        response_202 = Job.from_dict(response.json())

        return response_202

    if response.status_code == 400:
        response_400 = ProblemDto.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ProblemDto.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = ProblemDto.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = ProblemDto.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = ProblemDto.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = ProblemDto.from_dict(response.json())

        return response_415

    if response.status_code == 422:
        response_422 = ProblemDto.from_dict(response.json())

        return response_422

    if response.status_code == 500:
        response_500 = ProblemDto.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = ProblemDto.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Job | ProblemDto]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: JobRequestDto,
    idempotency_key: None | str | Unset = UNSET,
) -> Response[Job | ProblemDto]:
    """Queue an anonymization job

    Args:
        idempotency_key (None | str | Unset):
        body (JobRequestDto):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Job | ProblemDto]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: JobRequestDto,
    idempotency_key: None | str | Unset = UNSET,
) -> Job | ProblemDto | None:
    """Queue an anonymization job

    Args:
        idempotency_key (None | str | Unset):
        body (JobRequestDto):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Job | ProblemDto
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: JobRequestDto,
    idempotency_key: None | str | Unset = UNSET,
) -> Response[Job | ProblemDto]:
    """Queue an anonymization job

    Args:
        idempotency_key (None | str | Unset):
        body (JobRequestDto):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Job | ProblemDto]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: JobRequestDto,
    idempotency_key: None | str | Unset = UNSET,
) -> Job | ProblemDto | None:
    """Queue an anonymization job

    Args:
        idempotency_key (None | str | Unset):
        body (JobRequestDto):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Job | ProblemDto
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
