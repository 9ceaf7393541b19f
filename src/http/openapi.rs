//! The OpenAPI document of the HTTP API (`GET /openapi.json`) and Swagger UI
//! (`GET /docs`), both without auth. Swagger UI's assets are compiled into
//! the binary (utoipa-swagger-ui's `vendored` feature): no CDN, no download.
//!
//! Requests and responses are described by the `spec` types the handlers
//! parse and serialize (`JobRequestDto`, `JobDto`, …). One response shape
//! is written by other means and mirrored here by a documentation type: a
//! release as JSON (`ReleaseJson`), which `render::json` streams row by row
//! instead of building it as a value. The query-string enums (`?format=`,
//! `?audience=`) are documented here beside their hand parsers.
//!
//! `openapi/openapi.json` is this document, pretty-printed; regenerate it
//! with `cargo run -- openapi > openapi/openapi.json` (the drift test in
//! tests/api/openapi.rs fails until it is).

use axum::Router;
use utoipa::openapi::response::{Response, ResponseBuilder};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{Content, Ref, RefOr};
use utoipa::{Modify, OpenApi, ToResponse, ToSchema};
use utoipa_swagger_ui::SwaggerUi;

use super::openapi_unions::Unions;
use crate::spec::{ProblemDto, SchemaDto};
use crate::sweep::openapi::SweepModels;

/// The routes `GET /openapi.json` and `GET /docs` (which redirects to
/// `/docs/`, Swagger UI's page).
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    SwaggerUi::new("/docs")
        .url("/openapi.json", ApiDoc::openapi())
        .into()
}

/// The document as committed in `openapi/openapi.json` (with a final
/// newline, as editors and `>` redirections leave it).
pub fn pretty_json() -> String {
    let mut doc = ApiDoc::openapi()
        .to_pretty_json()
        .expect("the OpenAPI document serializes");
    doc.push('\n');
    doc
}

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Proxima",
        description = "Anonymization of microdata without proximity breaches: upload a table, \
                       run an anonymization job, download the release and its audit. Errors are \
                       `application/problem+json` (RFC 9457) with a stable `code`."
    ),
    paths(
        super::health::healthz,
        super::health::readyz,
        super::datasets::list,
        super::upload::upload,
        super::datasets::get,
        super::datasets::delete,
        super::feasibility::feasibility,
        super::jobs::create,
        super::jobs::list,
        super::jobs::get,
        super::jobs::cancel,
        super::results::result,
        super::results::audit,
        super::report::report,
        super::audits::audit,
        super::metrics::metrics,
        super::sweeps::create,
        super::sweeps::list,
        super::sweeps::get,
        super::sweeps::cancel,
        super::sweeps::report,
        super::approvals::create,
        super::approvals::list,
        super::settings::get,
        super::settings::put,
        super::keys::create,
    ),
    components(
        schemas(ResultFormat, ResultPurpose, ReportFormat, ReportAudienceParam, super::sweeps::SweepReportFormat),
        responses(Unauthorized, NotFound, Internal, RequestTimeout)
    ),
    modifiers(&BearerAuth, &HierarchyParts, &Unions, &SweepModels, &RoleRefusals),
    tags(
        (name = "operations", description = "Liveness, readiness and metrics (no auth)"),
        (name = "datasets", description = "Uploaded tables and parameter guidance"),
        (name = "jobs", description = "Anonymization jobs, their releases and audits"),
        (name = "audits", description = "Synchronous audits before publication"),
        (name = "sweeps", description = "Risk–utility sweeps: a grid of jobs and its R-U map"),
        (name = "settings", description = "The tenant's release policy (admin keys set it)"),
    )
)]
pub struct ApiDoc;

/// Declares the `bearer` scheme every `/v1` operation requires.
struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("API key")
                    .description(Some(
                        "`Authorization: Bearer <key>`; the key's tenant scopes every request.",
                    ))
                    .build(),
            ),
        );
    }
}

/// The upload form's `hierarchy:<column>` parts: further properties of
/// `UploadForm`, each a file (utoipa derives no `additionalProperties` but
/// `false`).
struct HierarchyParts;

impl Modify for HierarchyParts {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::schema::{AdditionalProperties, ObjectBuilder, Schema, Type};
        let components = openapi.components.get_or_insert_with(Default::default);
        let Some(RefOr::T(Schema::Object(form))) = components.schemas.get_mut("UploadForm") else {
            panic!("UploadForm is not an object schema");
        };
        let file = ObjectBuilder::new()
            .schema_type(Type::String)
            .format(Some(utoipa::openapi::SchemaFormat::KnownFormat(
                utoipa::openapi::KnownFormat::Binary,
            )))
            .description(Some(
                "A part named `hierarchy:<column>`: the column's hierarchy as an ARX-format CSV",
            ))
            .build();
        form.additional_properties = Some(Box::new(AdditionalProperties::RefOr(RefOr::T(
            Schema::Object(file),
        ))));
        form.property_names = Some(Box::new(Schema::Object(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .pattern(Some("^(schema|data|hierarchy:.+)$"))
                .build(),
        )));
    }
}

/// Adds the 403 `role_forbidden` to every `/v1` operation that not every
/// key role may call, naming the roles that may (from `http::roles`, the
/// table the middleware reads), unless the operation documents its own 403.
struct RoleRefusals;

impl Modify for RoleRefusals {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use axum::http::Method;
        for (path, item) in openapi.paths.paths.iter_mut() {
            let Some(template) = path.strip_prefix("/v1") else {
                continue;
            };
            for (method, op) in [
                (Method::GET, &mut item.get),
                (Method::POST, &mut item.post),
                (Method::PUT, &mut item.put),
                (Method::PATCH, &mut item.patch),
                (Method::DELETE, &mut item.delete),
            ] {
                let Some(op) = op.as_mut() else {
                    continue;
                };
                let need = super::roles::allowed(&method, template);
                if need == super::roles::Allowed::Everyone {
                    continue;
                }
                op.responses
                    .responses
                    .entry("403".to_string())
                    .or_insert_with(|| {
                        problem_response(&format!(
                            "This key's role may not call this operation (`role_forbidden`): it \
                             needs a key with the role {}",
                            need.roles().join(" or ")
                        ))
                    });
            }
        }
    }
}

/// A problem+json response (the body is a `Problem`), for the responses
/// every operation shares.
fn problem_response(description: &str) -> RefOr<Response> {
    ResponseBuilder::new()
        .description(description)
        .content(
            "application/problem+json",
            Content::new(Some(Ref::from_schema_name(ProblemDto::name()))),
        )
        .build()
        .into()
}

/// `components.responses.Unauthorized`: every `/v1` operation's 401.
pub struct Unauthorized;

impl<'r> ToResponse<'r> for Unauthorized {
    fn response() -> (&'r str, RefOr<Response>) {
        (
            "Unauthorized",
            problem_response(
                "Missing, malformed or unknown API key (`unauthorized`), with \
                 `WWW-Authenticate: Bearer`",
            ),
        )
    }
}

/// `components.responses.NotFound`: the 404 of operations on one resource.
pub struct NotFound;

impl<'r> ToResponse<'r> for NotFound {
    fn response() -> (&'r str, RefOr<Response>) {
        (
            "NotFound",
            problem_response(
                "No such dataset or job for this key's tenant (`not_found`): unknown, \
                 not a UUID, deleted, or another tenant's",
            ),
        )
    }
}

/// `components.responses.Internal`: a 500, without internals.
pub struct Internal;

impl<'r> ToResponse<'r> for Internal {
    fn response() -> (&'r str, RefOr<Response>) {
        (
            "Internal",
            problem_response("Internal error (`internal`), logged, served without internals"),
        )
    }
}

/// `components.responses.RequestTimeout`: the request timeout's 503
/// (`--request-timeout-secs`; not applied to result downloads, uploads have
/// their own 408).
pub struct RequestTimeout;

impl<'r> ToResponse<'r> for RequestTimeout {
    fn response() -> (&'r str, RefOr<Response>) {
        (
            "RequestTimeout",
            problem_response(
                "The response did not start within the request timeout (`request_timeout`), or no database connection was free in time (`database_busy`, with `Retry-After`)",
            ),
        )
    }
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
