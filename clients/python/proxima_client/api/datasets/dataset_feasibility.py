from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.dissimilarity_feasibility import DissimilarityFeasibility
from ...models.dissimilarity_feasibility_request import DissimilarityFeasibilityRequest
from ...models.epsilon_m_feasibility_request import EpsilonMFeasibilityRequest
from ...models.max_epsilon_feasibility import MaxEpsilonFeasibility
from ...models.max_m_feasibility import MaxMFeasibility
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    id: UUID,
    *,
    body: DissimilarityFeasibilityRequest | EpsilonMFeasibilityRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/datasets/{id}/feasibility".format(
            id=quote(str(id), safe=""),
        ),
    }

    if isinstance(body, EpsilonMFeasibilityRequest):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DissimilarityFeasibility | MaxEpsilonFeasibility | MaxMFeasibility | Problem | None:
    if response.status_code == 200:

        def _parse_response_200(data: object) -> DissimilarityFeasibility | MaxEpsilonFeasibility | MaxMFeasibility:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_feasibility_answer_type_0 = MaxMFeasibility.from_dict(data)

                return componentsschemas_feasibility_answer_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_feasibility_answer_type_1 = MaxEpsilonFeasibility.from_dict(data)

                return componentsschemas_feasibility_answer_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_feasibility_answer_type_2 = DissimilarityFeasibility.from_dict(data)

            return componentsschemas_feasibility_answer_type_2

        response_200 = _parse_response_200(response.json())

        return response_200

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

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())

        return response_415

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


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[DissimilarityFeasibility | MaxEpsilonFeasibility | MaxMFeasibility | Problem]:
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
    body: DissimilarityFeasibilityRequest | EpsilonMFeasibilityRequest,
) -> Response[DissimilarityFeasibility | MaxEpsilonFeasibility | MaxMFeasibility | Problem]:
    """Parameter guidance before a job

    Args:
        id (UUID):
        body (DissimilarityFeasibilityRequest | EpsilonMFeasibilityRequest): `POST
            /v1/datasets/{id}/feasibility` (docs/api.md §Feasibility).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DissimilarityFeasibility | MaxEpsilonFeasibility | MaxMFeasibility | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: DissimilarityFeasibilityRequest | EpsilonMFeasibilityRequest,
) -> DissimilarityFeasibility | MaxEpsilonFeasibility | MaxMFeasibility | Problem | None:
    """Parameter guidance before a job

    Args:
        id (UUID):
        body (DissimilarityFeasibilityRequest | EpsilonMFeasibilityRequest): `POST
            /v1/datasets/{id}/feasibility` (docs/api.md §Feasibility).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DissimilarityFeasibility | MaxEpsilonFeasibility | MaxMFeasibility | Problem
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: DissimilarityFeasibilityRequest | EpsilonMFeasibilityRequest,
) -> Response[DissimilarityFeasibility | MaxEpsilonFeasibility | MaxMFeasibility | Problem]:
    """Parameter guidance before a job

    Args:
        id (UUID):
        body (DissimilarityFeasibilityRequest | EpsilonMFeasibilityRequest): `POST
            /v1/datasets/{id}/feasibility` (docs/api.md §Feasibility).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DissimilarityFeasibility | MaxEpsilonFeasibility | MaxMFeasibility | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    body: DissimilarityFeasibilityRequest | EpsilonMFeasibilityRequest,
) -> DissimilarityFeasibility | MaxEpsilonFeasibility | MaxMFeasibility | Problem | None:
    """Parameter guidance before a job

    Args:
        id (UUID):
        body (DissimilarityFeasibilityRequest | EpsilonMFeasibilityRequest): `POST
            /v1/datasets/{id}/feasibility` (docs/api.md §Feasibility).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DissimilarityFeasibility | MaxEpsilonFeasibility | MaxMFeasibility | Problem
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
        )
    ).parsed
