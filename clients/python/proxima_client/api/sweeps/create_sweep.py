from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.sweep import Sweep
from ...models.sweep_request import SweepRequest
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: SweepRequest,
    idempotency_key: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/sweeps",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | Sweep | None:
    if response.status_code == 200:
        response_200 = Sweep.from_dict(response.json())

        return response_200

    if response.status_code == 202:
        response_202 = Sweep.from_dict(response.json())

        return response_202

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())

        return response_415

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())

        return response_429

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | Sweep]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: SweepRequest,
    idempotency_key: None | str | Unset = UNSET,
) -> Response[Problem | Sweep]:
    """Run a grid of jobs (a risk–utility sweep)

     Any numeric parameter of `model`, and `suppression_limit`, may be a list; the sweep is their product
    (at most 64 points), each point an ordinary job on the queue. Every point is validated as a job
    request before anything is queued: a malformed value is a 422 naming the point and the list entry; a
    point the dataset cannot satisfy is recorded as `infeasible`, and the request is a 422 only when
    every point is.

    Args:
        idempotency_key (None | str | Unset):
        body (SweepRequest): The body of `POST /v1/sweeps`: a job request (`JobRequest`) in which
            any
            numeric parameter of `model`, and `suppression_limit`, may be a list.
            The sweep runs the product of the lists (at most 64 points); each
            point is validated as a job request.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Sweep]
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
    body: SweepRequest,
    idempotency_key: None | str | Unset = UNSET,
) -> Problem | Sweep | None:
    """Run a grid of jobs (a risk–utility sweep)

     Any numeric parameter of `model`, and `suppression_limit`, may be a list; the sweep is their product
    (at most 64 points), each point an ordinary job on the queue. Every point is validated as a job
    request before anything is queued: a malformed value is a 422 naming the point and the list entry; a
    point the dataset cannot satisfy is recorded as `infeasible`, and the request is a 422 only when
    every point is.

    Args:
        idempotency_key (None | str | Unset):
        body (SweepRequest): The body of `POST /v1/sweeps`: a job request (`JobRequest`) in which
            any
            numeric parameter of `model`, and `suppression_limit`, may be a list.
            The sweep runs the product of the lists (at most 64 points); each
            point is validated as a job request.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Sweep
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: SweepRequest,
    idempotency_key: None | str | Unset = UNSET,
) -> Response[Problem | Sweep]:
    """Run a grid of jobs (a risk–utility sweep)

     Any numeric parameter of `model`, and `suppression_limit`, may be a list; the sweep is their product
    (at most 64 points), each point an ordinary job on the queue. Every point is validated as a job
    request before anything is queued: a malformed value is a 422 naming the point and the list entry; a
    point the dataset cannot satisfy is recorded as `infeasible`, and the request is a 422 only when
    every point is.

    Args:
        idempotency_key (None | str | Unset):
        body (SweepRequest): The body of `POST /v1/sweeps`: a job request (`JobRequest`) in which
            any
            numeric parameter of `model`, and `suppression_limit`, may be a list.
            The sweep runs the product of the lists (at most 64 points); each
            point is validated as a job request.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Sweep]
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
    body: SweepRequest,
    idempotency_key: None | str | Unset = UNSET,
) -> Problem | Sweep | None:
    """Run a grid of jobs (a risk–utility sweep)

     Any numeric parameter of `model`, and `suppression_limit`, may be a list; the sweep is their product
    (at most 64 points), each point an ordinary job on the queue. Every point is validated as a job
    request before anything is queued: a malformed value is a 422 naming the point and the list entry; a
    point the dataset cannot satisfy is recorded as `infeasible`, and the request is a 422 only when
    every point is.

    Args:
        idempotency_key (None | str | Unset):
        body (SweepRequest): The body of `POST /v1/sweeps`: a job request (`JobRequest`) in which
            any
            numeric parameter of `model`, and `suppression_limit`, may be a list.
            The sweep runs the product of the lists (at most 64 points); each
            point is validated as a job request.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Sweep
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
