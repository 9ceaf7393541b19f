//! OpenAPI schemas for fields whose Rust type is wider than the JSON they
//! carry (a `serde_json::Value` kept as sent, a map of facts), used with
//! utoipa's `#[schema(schema_with = …)]`. Without them utoipa can only say
//! `{"type": "object"}` or nothing, and client generators then produce
//! types no portal can use (`p` of the Lp metric).

use utoipa::openapi::schema::{
    AdditionalProperties, ArrayBuilder, Object, ObjectBuilder, OneOfBuilder, Schema, SchemaType,
    Type,
};
use utoipa::openapi::RefOr;

fn typed(t: Type) -> ObjectBuilder {
    ObjectBuilder::new().schema_type(t)
}

/// A map from names to values of `value`'s schema.
fn map_of(value: impl Into<Schema>, description: &str) -> Object {
    typed(Type::Object)
        .additional_properties(Some(AdditionalProperties::RefOr(RefOr::T(value.into()))))
        .description(Some(description))
        .build()
}

/// The Lp metric's `p`: the integer 1 or 2, or the string `"inf"`
/// (`metric::lp_norm` accepts exactly these).
pub fn lp_p() -> Schema {
    OneOfBuilder::new()
        .item(typed(Type::Integer).enum_values(Some([1, 2])))
        .item(typed(Type::String).enum_values(Some(["inf"])))
        .description(Some("1, 2 or `\"inf\"`; default 1."))
        .build()
        .into()
}

/// A number or a string: a check's parameter as requested (`k`, `epsilon`,
/// `variant`, `neighborhood`, `ground_distance`, the metric's kind).
fn number_or_string() -> Schema {
    OneOfBuilder::new()
        .item(typed(Type::Number))
        .item(typed(Type::String))
        .build()
        .into()
}

/// `CheckReport.params`: the check's parameters by name.
pub fn check_params() -> Object {
    map_of(
        number_or_string(),
        "The check's parameters as requested, by name (numbers, or strings for \
         `variant`, `neighborhood`, `ground_distance` and `sensitive_metric`).",
    )
}

/// `CheckReport.value`: the check's figures by name; a figure that is not
/// finite is null.
pub fn check_value() -> Object {
    map_of(
        ObjectBuilder::new().schema_type(SchemaType::from_iter([Type::Number, Type::Null])),
        "The check's natural figures by name: `min_size` (k), `l`, \
         `max_breach_probability` and `achieved_m` ((ε,m)), `max_risk` and \
         `vulnerability` ((ε,δ)), `max_emd` (t), …; null when not finite.",
    )
}

/// Structured facts about an error, by name: numbers, strings, booleans,
/// lists and objects of them (`proxima_core::Detail`).
pub fn details() -> Object {
    typed(Type::Object)
        .additional_properties(Some(AdditionalProperties::FreeForm(true)))
        .description(Some(
            "Structured facts about the error by name (e.g. the reachable `max_m`): \
             numbers, strings, booleans, and lists and objects of them.",
        ))
        .build()
}

/// `details` of a failed job: facts by name, or null.
pub fn job_error_details() -> Schema {
    OneOfBuilder::new()
        .item(details())
        .item(typed(Type::Null))
        .build()
        .into()
}

/// A distribution as `[upper edge, count]` pairs (serde's tuples; utoipa's
/// `prefixItems` with `items: false` is beyond the client generators).
pub fn distribution() -> Schema {
    ArrayBuilder::new()
        .items(
            ArrayBuilder::new()
                .items(typed(Type::Number))
                .min_items(Some(2))
                .max_items(Some(2)),
        )
        .description(Some(
            "`[upper edge, victims]` pairs, one per figure bucket.",
        ))
        .build()
        .into()
}
