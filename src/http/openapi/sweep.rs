//! The sweep's model in the document: `SweepModel` and its variants
//! (`EpsilonMSweepModel`, …), copied from the job's `Model` with every
//! numeric parameter widened to "a value or a list of 1 to 64 values".
//! Derived, not written out, so the two cannot drift apart; the request
//! that refers to it is `sweep::openapi::SweepRequest`.

use utoipa::openapi::schema::{Discriminator, OneOfBuilder, Schema, SchemaType, Type};
use utoipa::openapi::{Components, Ref, RefOr};
use utoipa::{Modify, ToSchema};

use crate::api::ModelDto;
use crate::sweep::openapi::{value_or_list, SWEEP_MODEL};

fn is_numeric(t: &SchemaType) -> bool {
    match t {
        SchemaType::Type(t) => matches!(t, Type::Number | Type::Integer),
        SchemaType::Array(ts) => ts.iter().any(|t| matches!(t, Type::Number | Type::Integer)),
        SchemaType::AnyValue => false,
    }
}

/// A numeric property without its `null` (a list holds values only).
fn non_null(mut object: utoipa::openapi::schema::Object) -> Schema {
    if let SchemaType::Array(ts) = &object.schema_type {
        let kept: Vec<Type> = ts.iter().filter(|t| **t != Type::Null).cloned().collect();
        if let [one] = kept.as_slice() {
            object.schema_type = SchemaType::Type(one.clone());
        }
    }
    Schema::Object(object)
}

/// Adds `SweepModel` and its variants (`EpsilonMSweepModel`, …), copied
/// from `Model`'s (run after the unions are reshaped).
pub struct SweepModels;

impl Modify for SweepModels {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        add_sweep_model(components);
    }
}

fn add_sweep_model(components: &mut Components) {
    let model = ModelDto::name();
    let Some(RefOr::T(Schema::OneOf(one_of))) = components.schemas.get(model.as_ref()) else {
        panic!("Model is not a oneOf in the document");
    };
    let mapping = one_of
        .discriminator
        .as_ref()
        .expect("Model has a discriminator")
        .mapping
        .clone();
    let mut union = OneOfBuilder::new();
    let mut discriminator = Discriminator::new("kind");
    let mut added = Vec::new();
    for (tag, reference) in mapping {
        let variant = reference.trim_start_matches("#/components/schemas/");
        let Some(RefOr::T(Schema::Object(object))) = components.schemas.get(variant) else {
            panic!("{variant} is not an object schema");
        };
        let mut object = object.clone();
        for (name, property) in object.properties.iter_mut() {
            if name == "kind" {
                continue;
            }
            if let RefOr::T(Schema::Object(p)) = property {
                if is_numeric(&p.schema_type) {
                    *property = RefOr::T(value_or_list(non_null(p.clone())));
                }
            }
        }
        object.description = Some(format!(
            "`{tag}` as in a job, any numeric parameter a value or a list of values"
        ));
        let name = variant.replace("Model", "SweepModel");
        union = union.item(Ref::from_schema_name(&name));
        discriminator
            .mapping
            .insert(tag, format!("#/components/schemas/{name}"));
        added.push((name, Schema::Object(object)));
    }
    for (name, schema) in added {
        components.schemas.insert(name, RefOr::T(schema));
    }
    let union = union
        .discriminator(Some(discriminator))
        .description(Some(
            "A job's model in which any numeric parameter may be a list (the sweep's axes).",
        ))
        .build();
    components
        .schemas
        .insert(SWEEP_MODEL.to_string(), RefOr::T(union.into()));
}
