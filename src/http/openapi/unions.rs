//! The unions of the OpenAPI document in the shape client generators handle:
//! every variant a named component schema, and the `kind`- (or
//! `by`-) tagged unions with a `discriminator` mapping each tag to its
//! variant.
//!
//! utoipa derives a `#[serde(tag = "kind")]` enum with struct variants as a
//! `oneOf` of inline objects without a discriminator (it supports one only
//! for untagged enums of referenced types), and does not carry the enum's
//! `deny_unknown_fields` to the variants. Rewriting the DTOs into untagged
//! enums of structs would cost serde's precise errors (`/model/kind`,
//! `/sensitive_metric/wieghts`), so the derived document is reshaped here,
//! from the schemas utoipa derived: the variants' fields stay the DTOs'.

use utoipa::openapi::schema::{AdditionalProperties, Discriminator, Object, Schema};
use utoipa::openapi::{Components, Ref, RefOr};
use utoipa::{Modify, ToSchema};

use crate::api::{CheckDto, FeasibilityRequestDto, GroupsDto, MetricDto, ModelDto};

/// The tagged unions and their tag property. Each is a serde enum with
/// `tag = …` and `deny_unknown_fields`, so each variant is a closed object
/// (`additionalProperties: false`) told apart by its tag.
fn tagged_unions() -> [(String, &'static str); 5] {
    [
        (ModelDto::name().into_owned(), "kind"),
        (MetricDto::name().into_owned(), "kind"),
        (CheckDto::name().into_owned(), "kind"),
        (FeasibilityRequestDto::name().into_owned(), "kind"),
        (GroupsDto::name().into_owned(), "by"),
    ]
}

pub struct Unions;

impl Modify for Unions {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        for (union, tag) in tagged_unions() {
            discriminate(components, &union, tag);
        }
        name_titled_variants(components);
    }
}

/// `EpsilonM` from `epsilon_m`.
fn camel(tag: &str) -> String {
    tag.split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// The single value of a variant's tag property (`{"enum": ["lp"]}`).
fn tag_value(object: &Object, tag: &str, union: &str) -> String {
    let value = match object.properties.get(tag) {
        Some(RefOr::T(Schema::Object(p))) => p.enum_values.as_deref().and_then(|v| match v {
            [serde_json::Value::String(s)] => Some(s.clone()),
            _ => None,
        }),
        _ => None,
    };
    value.unwrap_or_else(|| panic!("a variant of {union} has no single-valued `{tag}`"))
}

/// Moves each variant of `union` to a component named after its tag value
/// and the union (`EpsilonMModel`, `LpMetric`, `ColumnGroups`), closes it,
/// and maps the tag values to them in a discriminator.
fn discriminate(components: &mut Components, union: &str, tag: &str) {
    let base = union.to_string();
    let mut hoisted = Vec::new();
    let Some(RefOr::T(Schema::OneOf(one_of))) = components.schemas.get_mut(union) else {
        panic!("{union} is not a oneOf in the derived document");
    };
    let mut discriminator = Discriminator::new(tag);
    for item in &mut one_of.items {
        let RefOr::T(Schema::Object(object)) = item else {
            panic!("a variant of {union} is not an inline object");
        };
        let value = tag_value(object, tag, union);
        object.additional_properties = Some(Box::new(AdditionalProperties::FreeForm(false)));
        let name = format!("{}{base}", camel(&value));
        discriminator
            .mapping
            .insert(value, format!("#/components/schemas/{name}"));
        let schema = std::mem::replace(item, Ref::from_schema_name(&name).into());
        hoisted.push((name, schema));
    }
    one_of.discriminator = Some(discriminator);
    insert_new(components, hoisted);
}

/// Moves the inline object variants with a `title` of every other `oneOf`
/// component (the untagged feasibility answers) to components named by
/// their title, so generated clients get named types.
fn name_titled_variants(components: &mut Components) {
    let mut hoisted = Vec::new();
    for schema in components.schemas.values_mut() {
        let RefOr::T(Schema::OneOf(one_of)) = schema else {
            continue;
        };
        for item in &mut one_of.items {
            let title = match item {
                RefOr::T(Schema::Object(Object {
                    title: Some(title), ..
                })) => title.clone(),
                _ => continue,
            };
            let schema = std::mem::replace(item, Ref::from_schema_name(&title).into());
            hoisted.push((title, schema));
        }
    }
    insert_new(components, hoisted);
}

fn insert_new(components: &mut Components, schemas: Vec<(String, RefOr<Schema>)>) {
    for (name, schema) in schemas {
        let clash = components.schemas.insert(name.clone(), schema);
        assert!(clash.is_none(), "two component schemas are named {name}");
    }
}

#[cfg(test)]
mod tests {
    use super::camel;

    #[test]
    fn tag_values_become_type_names() {
        assert_eq!(camel("epsilon_m"), "EpsilonM");
        assert_eq!(camel("quasi_identifiers"), "QuasiIdentifiers");
        assert_eq!(camel("lp"), "Lp");
    }
}
