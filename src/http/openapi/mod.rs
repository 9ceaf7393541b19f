//! The OpenAPI document of the HTTP API (`GET /openapi.json`) and Swagger UI
//! (`GET /docs`), both without auth. Swagger UI's assets are compiled into
//! the binary (utoipa-swagger-ui's `vendored` feature): no CDN, no download.
//!
//! The document is built here and only here: from the handlers'
//! `#[utoipa::path]` blocks (listed in `paths(...)`), then reshaped by the
//! modifiers below — the bearer scheme, the upload form's hierarchy parts,
//! the role refusals ([`RoleRefusals`]), the tagged unions ([`unions`]) and
//! the sweep's model ([`sweep`]).
//!
//! Requests and responses are described by the `spec` types the handlers
//! parse and serialize (`JobRequestDto`, `JobDto`, …). What else the path
//! blocks name — the shared problem responses, the query-string enums, the
//! upload form and a release as JSON — is in `http::path_docs`, which the
//! handlers import and which does not import them; the `schema_with`
//! schemas of `spec` fields are in `api::doc_schemas`, and the sweep
//! request's schema type in `sweep::openapi`, beside the types that name
//! them.
//!
//! `openapi/openapi.json` is this document, pretty-printed; regenerate it
//! with `cargo run -- openapi > openapi/openapi.json` (the drift test in
//! tests/api/openapi.rs fails until it is).

mod sweep;
mod unions;

use axum::Router;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::RefOr;
use utoipa::{Modify, OpenApi};
use utoipa_swagger_ui::SwaggerUi;

use super::path_docs::{
    problem_response, Internal, NotFound, ReportAudienceParam, ReportFormat, RequestTimeout,
    ResultFormat, ResultPurpose, Unauthorized,
};
use sweep::SweepModels;
use unions::Unions;

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
        super::release_report::report,
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
