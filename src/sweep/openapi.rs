//! The sweep request's OpenAPI schema type. A sweep's body is a job
//! request in which numeric model parameters and `suppression_limit` may
//! be lists; the request is parsed per point by the job's own parser
//! (`grid`), so its schema is the job's widened: `model` refers to
//! `SweepModel`, which the document derives from `Model`
//! (`http::openapi::sweep`), so the two cannot drift apart.

use serde::Deserialize;
use serde_json::Value;
use utoipa::openapi::schema::{ArrayBuilder, OneOfBuilder, Schema, Type};
use utoipa::openapi::{Ref, RefOr};
use utoipa::ToSchema;

use super::grid::MAX_POINTS;
use crate::api::{AlgorithmDto, MetricDto, XColorOptionsDto};

/// The body of `POST /v1/sweeps`: a job request (`JobRequest`) in which any
/// numeric parameter of `model`, and `suppression_limit`, may be a list.
/// The sweep runs the product of the lists (at most 64 points); each
/// point is validated as a job request.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
pub struct SweepRequest {
    #[schema(format = Uuid)]
    pub dataset_id: String,
    #[schema(schema_with = sweep_model)]
    pub model: Value,
    #[schema(nullable = false)]
    pub algorithm: Option<AlgorithmDto>,
    #[schema(nullable = false)]
    pub sensitive_metric: Option<MetricDto>,
    /// API extension: XColor options (only with the xcolor algorithm).
    #[schema(nullable = false)]
    pub xcolor: Option<XColorOptionsDto>,
    /// A share of rows in [0, 1), or a list of them.
    #[schema(schema_with = suppression_limits)]
    pub suppression_limit: Option<Value>,
}

/// The component name of the sweep's model.
pub const SWEEP_MODEL: &str = "SweepModel";

fn sweep_model() -> Ref {
    Ref::from_schema_name(SWEEP_MODEL)
}

/// `schema` or a list of 1 to [`MAX_POINTS`] of them.
pub fn value_or_list(schema: Schema) -> Schema {
    OneOfBuilder::new()
        .item(schema.clone())
        .item(
            ArrayBuilder::new()
                .items(RefOr::T(schema))
                .min_items(Some(1))
                .max_items(Some(MAX_POINTS)),
        )
        .build()
        .into()
}

fn suppression_limits() -> Schema {
    let limit = utoipa::openapi::schema::ObjectBuilder::new()
        .schema_type(Type::Number)
        .minimum(Some(0.0))
        .exclusive_maximum(Some(1.0))
        .build();
    value_or_list(limit.into())
}
