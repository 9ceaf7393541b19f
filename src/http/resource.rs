//! Read, list and cancel, written once for the tenant's resources (jobs,
//! sweeps, datasets): a resource says how it is loaded, listed, served and
//! cancelled ([`Resource`], [`Cancel`]); [`get`], [`list`] and [`cancel`]
//! are the handlers' bodies. An id of another tenant is a 404 like an
//! unknown one; a list is newest first, `?limit=` items after `?cursor=`
//! ([`ListQuery`]), as `{"items": […], "next_cursor": …}`.

use std::future::Future;

use axum::Json;
use serde::Serialize;
use uuid::Uuid;

use super::auth::Tenant;
use super::error::ApiError;
use super::list::{ListPage, ListQuery};
use super::AppState;
use crate::store::Page;

/// A resource of the tenant's, by id.
pub trait Resource: Sized + Send + Sync {
    /// Its name in a 404 (`no such job`).
    const NAME: &'static str;
    /// The resource as served.
    type Dto: Serialize;

    fn load(
        state: &AppState,
        tenant: &str,
        id: Uuid,
    ) -> impl Future<Output = Result<Option<Self>, ApiError>> + Send;

    /// The page `q` asks for, newest first: `q.limit` items after
    /// `q.cursor`, filtered by `q`'s other parameters (a bad one is a 422
    /// naming it).
    fn page(
        state: &AppState,
        tenant: &str,
        q: &ListQuery,
    ) -> impl Future<Output = Result<Page<Self>, ApiError>> + Send;

    /// The resources as served, all at once (a sweep's verdicts are read
    /// with one query for the page).
    fn dtos(
        state: &AppState,
        items: &[Self],
    ) -> impl Future<Output = Result<Vec<Self::Dto>, ApiError>> + Send;
}

/// The outcome of a cancellation.
pub enum Cancelled<R> {
    /// Cancelled or asked to stop.
    Done(R),
    /// Nothing left to cancel.
    Finished(R),
    NotFound,
}

/// A resource that can be cancelled.
pub trait Cancel: Resource {
    fn cancel(
        state: &AppState,
        tenant: &str,
        id: Uuid,
    ) -> impl Future<Output = Result<Cancelled<Self>, ApiError>> + Send;

    /// The 409 of cancelling a resource with nothing left to cancel.
    fn finished(&self) -> ApiError;
}

/// `GET /v1/<resources>/{id}`.
pub async fn get<R: Resource>(
    state: &AppState,
    tenant: &Tenant,
    id: Uuid,
) -> Result<Json<R::Dto>, ApiError> {
    let item = R::load(state, &tenant.0, id)
        .await?
        .ok_or_else(|| ApiError::not_found(R::NAME))?;
    one::<R>(state, item).await
}

/// `GET /v1/<resources>`.
pub async fn list<R: Resource>(
    state: &AppState,
    tenant: &Tenant,
    q: &ListQuery,
) -> Result<Json<ListPage<R::Dto>>, ApiError> {
    let page = R::page(state, &tenant.0, q).await?;
    Ok(Json(ListPage {
        items: R::dtos(state, &page.items).await?,
        next_cursor: page.next_cursor.map(|c| c.encode()),
    }))
}

/// `POST /v1/<resources>/{id}/cancel`.
pub async fn cancel<R: Cancel>(
    state: &AppState,
    tenant: &Tenant,
    id: Uuid,
) -> Result<Json<R::Dto>, ApiError> {
    match R::cancel(state, &tenant.0, id).await? {
        Cancelled::Done(item) => one::<R>(state, item).await,
        Cancelled::Finished(item) => Err(item.finished()),
        Cancelled::NotFound => Err(ApiError::not_found(R::NAME)),
    }
}

async fn one<R: Resource>(state: &AppState, item: R) -> Result<Json<R::Dto>, ApiError> {
    let dto = R::dtos(state, std::slice::from_ref(&item))
        .await?
        .pop()
        .expect("one resource, one DTO");
    Ok(Json(dto))
}
