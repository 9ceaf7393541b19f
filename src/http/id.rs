//! The id in a resource's path, parsed once by an extractor: a handler
//! takes `JobId(id): JobId` and gets a `Uuid`. Not a UUID is a 404 like an
//! unknown id (docs/api.md §Conventions: an answer never tells a malformed
//! id from another tenant's or a deleted one).

use axum::extract::{FromRequestParts, Path};
use axum::http::request::Parts;
use uuid::Uuid;

use super::error::ApiError;

/// An id given in a request body or query (`dataset_id`, `job_id`): the
/// same rule as the path extractors.
pub fn parse_id(id: &str, what: &str) -> Result<Uuid, ApiError> {
    id.parse().map_err(|_| ApiError::not_found(what))
}

async fn path_uuid<S: Send + Sync>(
    parts: &mut Parts,
    state: &S,
    what: &str,
) -> Result<Uuid, ApiError> {
    let Path(raw) = Path::<String>::from_request_parts(parts, state)
        .await
        .map_err(|_| ApiError::not_found(what))?;
    parse_id(&raw, what)
}

macro_rules! path_id {
    ($(#[$doc:meta])* $name:ident, $what:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub struct $name(pub Uuid);

        impl<S: Send + Sync> FromRequestParts<S> for $name {
            type Rejection = ApiError;

            async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
                path_uuid(parts, state, $what).await.map($name)
            }
        }
    };
}

path_id!(
    /// `{id}` of `/v1/datasets/{id}…`.
    DatasetId,
    "dataset"
);
path_id!(
    /// `{id}` of `/v1/jobs/{id}…`.
    JobId,
    "job"
);
path_id!(
    /// `{id}` of `/v1/sweeps/{id}…`.
    SweepId,
    "sweep"
);
