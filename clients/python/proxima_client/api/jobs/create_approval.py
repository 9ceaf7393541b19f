from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.approval import Approval
from ...models.approval_request import ApprovalRequest
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    id: UUID,
    *,
    body: ApprovalRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/jobs/{id}/approvals".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Approval | Problem | None:
    if response.status_code == 201:
        response_201 = Approval.from_dict(response.json())

        return response_201

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Approval | Problem]:
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
    body: ApprovalRequest,
) -> Response[Approval | Problem]:
    """Approve or reject a job's release (reviewer and admin keys)

     Records the decision with the report's verdict and the release's SHA-256 at this moment, the calling
    key's id and tenant and the time. Never edited or deleted. Under a policy with `four_eyes`, the
    approving key must differ from the key that submitted the job.

    Args:
        id (UUID):
        body (ApprovalRequest): The body of `POST /v1/jobs/{id}/approvals`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Approval | Problem]
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
    body: ApprovalRequest,
) -> Approval | Problem | None:
    """Approve or reject a job's release (reviewer and admin keys)

     Records the decision with the report's verdict and the release's SHA-256 at this moment, the calling
    key's id and tenant and the time. Never edited or deleted. Under a policy with `four_eyes`, the
    approving key must differ from the key that submitted the job.

    Args:
        id (UUID):
        body (ApprovalRequest): The body of `POST /v1/jobs/{id}/approvals`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Approval | Problem
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
    body: ApprovalRequest,
) -> Response[Approval | Problem]:
    """Approve or reject a job's release (reviewer and admin keys)

     Records the decision with the report's verdict and the release's SHA-256 at this moment, the calling
    key's id and tenant and the time. Never edited or deleted. Under a policy with `four_eyes`, the
    approving key must differ from the key that submitted the job.

    Args:
        id (UUID):
        body (ApprovalRequest): The body of `POST /v1/jobs/{id}/approvals`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Approval | Problem]
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
    body: ApprovalRequest,
) -> Approval | Problem | None:
    """Approve or reject a job's release (reviewer and admin keys)

     Records the decision with the report's verdict and the release's SHA-256 at this moment, the calling
    key's id and tenant and the time. Never edited or deleted. Under a policy with `four_eyes`, the
    approving key must differ from the key that submitted the job.

    Args:
        id (UUID):
        body (ApprovalRequest): The body of `POST /v1/jobs/{id}/approvals`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Approval | Problem
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
        )
    ).parsed
