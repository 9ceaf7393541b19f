//! What the handlers' `#[utoipa::path]` blocks name besides the `spec`
//! types: the problem responses several operations share, the parameters
//! several operations share (a list's paging, a resource's `{id}`), the
//! query-string enums, and the two bodies no handler parses or serializes
//! as a value (the upload form, a release as JSON).
//!
//! The OpenAPI document itself is built in `http::openapi`, which lists the
//! handlers; this module lists none, so a handler can name these without
//! depending on the document.
//!
//! A shared problem response is a type implementing `IntoResponses` with
//! its status, so a path block lists it by name beside its own tuples:
//! `responses((status = 200, …), Unauthorized, NoSuchJob, Internal)`. The
//! four that every operation shares are also components
//! (`#/components/responses/…`, registered by the document) and are
//! referenced; the others are written inline into each operation. A
//! problem response that only one operation has stays a tuple in its block
//! with `body = ProblemDto, content_type = PROBLEM_JSON`.

use std::collections::BTreeMap;

use utoipa::openapi::header::HeaderBuilder;
use utoipa::openapi::response::{Response, ResponseBuilder};
use utoipa::openapi::{Content, Ref, RefOr};
use utoipa::{IntoParams, IntoResponses, PartialSchema, ToResponse, ToSchema};

use super::error::PROBLEM_JSON;
use crate::api::{ProblemDto, SchemaDto};

/// A problem+json response: the body is a `Problem`.
pub fn problem_response(description: &str) -> RefOr<Response> {
    problem(description).into()
}

fn problem(description: &str) -> Response {
    ResponseBuilder::new()
        .description(description)
        .content(
            PROBLEM_JSON,
            Content::new(Some(Ref::from_schema_name(ProblemDto::name()))),
        )
        .build()
}

/// A shared problem response written inline: `$name` is the response
/// `$status` with `$description`.
macro_rules! inline_problem {
    ($($(#[$doc:meta])* $name:ident = $status:literal, $description:literal;)*) => {$(
        $(#[$doc])*
        pub struct $name;

        impl IntoResponses for $name {
            fn responses() -> BTreeMap<String, RefOr<Response>> {
                BTreeMap::from([($status.to_string(), problem_response($description))])
            }
        }
    )*};
}

/// A problem response that is a component (`#/components/responses/$name`):
/// `ToResponse` gives the component, `IntoResponses` the reference to it
/// under `$status`.
macro_rules! component_problem {
    ($($(#[$doc:meta])* $name:ident = $status:literal, $description:literal;)*) => {$(
        $(#[$doc])*
        pub struct $name;

        impl<'r> ToResponse<'r> for $name {
            fn response() -> (&'r str, RefOr<Response>) {
                (stringify!($name), problem_response($description))
            }
        }

        impl IntoResponses for $name {
            fn responses() -> BTreeMap<String, RefOr<Response>> {
                BTreeMap::from([(
                    $status.to_string(),
                    RefOr::Ref(Ref::from_response_name(stringify!($name))),
                )])
            }
        }
    )*};
}

component_problem! {
    /// Every `/v1` operation's 401.
    Unauthorized = 401,
        "Missing, malformed or unknown API key (`unauthorized`), with `WWW-Authenticate: Bearer`";
    /// The 404 of operations on one resource.
    NotFound = 404,
        "No such dataset or job for this key's tenant (`not_found`): unknown, not a UUID, \
         deleted, or another tenant's";
    /// A 500, without internals.
    Internal = 500, "Internal error (`internal`), logged, served without internals";
    /// The request timeout's 503 (`--request-timeout-secs`; not applied to
    /// result downloads, uploads have their own 408).
    RequestTimeout = 503,
        "The response did not start within the request timeout (`request_timeout`), or no \
         database connection was free in time (`database_busy`, with `Retry-After`)";
}

inline_problem! {
    NoSuchDataset = 404, "No such dataset (`not_found`)";
    NoSuchJob = 404, "No such job (`not_found`)";
    NoSuchSweep = 404, "No such sweep (`not_found`)";
    /// A JSON body's 400.
    MalformedJson = 400, "Unparseable JSON (`malformed_json`)";
    /// The 400 of submitting a job or a sweep.
    MalformedSubmission = 400,
        "Unparseable JSON (`malformed_json`), or more than one `Idempotency-Key` header \
         (`malformed_request`), or a dataset stored by an earlier version whose cells hold line \
         breaks without `csv.allow_line_breaks` (`malformed_csv`)";
    /// A query string's 400 (`http::list`).
    RepeatedQueryParameter = 400,
        "A query parameter given more than once (`malformed_request`)";
    /// The 400 of the operations that rebuild a release from its dataset.
    MalformedReleaseRequest = 400,
        "A query parameter given more than once (`malformed_request`), or a dataset stored by \
         an earlier version whose cells hold line breaks without `csv.allow_line_breaks` \
         (`malformed_csv`)";
    /// The 403 of the operations only admin keys may call.
    AdminOnly = 403, "The key is not an admin key (`role_forbidden`)";
    /// The 409 of the operations that read a job's release.
    ResultNotReady = 409, "The job has not succeeded (`result_not_ready`)";
    IdempotencyConflict = 409,
        "Idempotency-Key reused with another body (`idempotency_conflict`)";
    /// A JSON body's 413.
    PayloadTooLarge = 413, "Body over the configured limit (`payload_too_large`)";
    /// A JSON body's 415.
    NotJson = 415, "Not `application/json` (`unsupported_media_type`)";
    /// The 422 of a list without filters.
    BadPage = 422, "Bad `limit` or `cursor` (`invalid_parameters`)";
}

/// The 503 of the operations that compute under the request timeout, with
/// its `Retry-After`.
pub struct ComputationBusy;

impl IntoResponses for ComputationBusy {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        let mut response = problem(
            "The response did not start within the request timeout (`request_timeout`; the \
             computation is given up), or too many computations are running over the server or \
             for this tenant (`too_many_computations`, the cap in `details`; retry after \
             `Retry-After` seconds)",
        );
        response.headers.insert(
            "Retry-After".to_string(),
            HeaderBuilder::new()
                .schema(Some(u64::schema()))
                .description(Some(
                    "Seconds to wait before retrying (`too_many_computations`)",
                ))
                .build()
                .into(),
        );
        BTreeMap::from([("503".to_string(), response.into())])
    }
}

/// `?limit=` and `?cursor=` of a list (`http::list`).
#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
pub struct PageParams {
    /// Page size (default 50)
    #[param(minimum = 1, maximum = 500, nullable = false)]
    limit: Option<i64>,
    /// `next_cursor` of the previous page
    #[param(nullable = false)]
    cursor: Option<String>,
}

/// The `{id}` of a path under `/v1/datasets/`.
#[derive(IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(dead_code)]
pub struct DatasetIdParam {
    /// The dataset's id; an id of another tenant, or not a UUID, is a 404
    id: uuid::Uuid,
}

/// The `{id}` of a path under `/v1/jobs/`.
#[derive(IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(dead_code)]
pub struct JobIdParam {
    /// The job's id; an id of another tenant, or not a UUID, is a 404
    id: uuid::Uuid,
}

/// The `{id}` of a path under `/v1/sweeps/`.
#[derive(IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(dead_code)]
pub struct SweepIdParam {
    /// The sweep's id; an id of another tenant, or not a UUID, is a 404
    id: uuid::Uuid,
}

/// `?format=` of a release download.
#[derive(ToSchema)]
#[allow(non_camel_case_types)]
pub enum ResultFormat {
    csv,
    json,
}

/// `?purpose=` of a release download.
#[derive(ToSchema)]
#[allow(non_camel_case_types)]
pub enum ResultPurpose {
    owner_check,
    publication,
}

/// `?format=` of a release report.
#[derive(ToSchema)]
#[allow(non_camel_case_types)]
pub enum ReportFormat {
    html,
    json,
}

/// `?audience=` of a release report.
#[derive(ToSchema)]
#[allow(non_camel_case_types)]
pub enum ReportAudienceParam {
    internal,
    external,
}

/// The `multipart/form-data` body of `POST /v1/datasets`. Besides `schema`
/// and `data`, each categorical column may have its hierarchy in a part
/// named `hierarchy:<column>`: an ARX-format CSV (`leaf;level1;…;root`, no
/// header, delimiter `;`, quoted fields allowed). A column's hierarchy comes
/// inline in the schema or from its part, not both.
#[derive(ToSchema)]
pub struct UploadForm {
    /// The table's schema (JSON).
    pub schema: SchemaDto,
    /// The table: CSV with a header row.
    #[schema(value_type = String, format = Binary)]
    pub data: Vec<u8>,
}

/// A release as JSON: `group_id`, then the published columns (and `row_id`
/// last when asked for); every cell is a string.
#[derive(ToSchema)]
pub struct ReleaseJson {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<String>>,
}
