from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.release_policy_request import ReleasePolicyRequest
from ...models.release_policy_resource import ReleasePolicyResource
from ...types import Response


def _get_kwargs(
    *,
    body: ReleasePolicyRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/v1/settings/release-policy",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | ReleasePolicyResource | None:
    if response.status_code == 200:
        response_200 = ReleasePolicyResource.from_dict(response.json())

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
) -> Response[Problem | ReleasePolicyResource]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: ReleasePolicyRequest,
) -> Response[Problem | ReleasePolicyResource]:
    """Set the tenant's release policy (admin keys)

     The whole policy: a field left out takes its documented default. Reports built after this apply it;
    approvals already given keep the verdict they bound.

    Args:
        body (ReleasePolicyRequest): The body of `PUT /v1/settings/release-policy`: every field
            optional (a
            field left out takes its default, not its previous value); `source`
            and `updated_at` may be sent back as served and are ignored. Parsed by
            [`parse_policy`]; this type documents it and checks it in tests.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | ReleasePolicyResource]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: ReleasePolicyRequest,
) -> Problem | ReleasePolicyResource | None:
    """Set the tenant's release policy (admin keys)

     The whole policy: a field left out takes its documented default. Reports built after this apply it;
    approvals already given keep the verdict they bound.

    Args:
        body (ReleasePolicyRequest): The body of `PUT /v1/settings/release-policy`: every field
            optional (a
            field left out takes its default, not its previous value); `source`
            and `updated_at` may be sent back as served and are ignored. Parsed by
            [`parse_policy`]; this type documents it and checks it in tests.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | ReleasePolicyResource
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: ReleasePolicyRequest,
) -> Response[Problem | ReleasePolicyResource]:
    """Set the tenant's release policy (admin keys)

     The whole policy: a field left out takes its documented default. Reports built after this apply it;
    approvals already given keep the verdict they bound.

    Args:
        body (ReleasePolicyRequest): The body of `PUT /v1/settings/release-policy`: every field
            optional (a
            field left out takes its default, not its previous value); `source`
            and `updated_at` may be sent back as served and are ignored. Parsed by
            [`parse_policy`]; this type documents it and checks it in tests.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | ReleasePolicyResource]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: ReleasePolicyRequest,
) -> Problem | ReleasePolicyResource | None:
    """Set the tenant's release policy (admin keys)

     The whole policy: a field left out takes its documented default. Reports built after this apply it;
    approvals already given keep the verdict they bound.

    Args:
        body (ReleasePolicyRequest): The body of `PUT /v1/settings/release-policy`: every field
            optional (a
            field left out takes its default, not its previous value); `source`
            and `updated_at` may be sent back as served and are ignored. Parsed by
            [`parse_policy`]; this type documents it and checks it in tests.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | ReleasePolicyResource
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
