//! CoreError → the parts of an RFC 9457 problem (docs/api.md §Conventions). The
//! HTTP layer and the offline CLI both use it, so they report the same code
//! and message.
//!
//! Status: `malformed_*` → 400; `record_too_large` → 413; the semantic user errors → 422; `cancelled`
//! and `model_not_satisfied` → 422 as well (they only reach a synchronous
//! response from an audit or a CLI run, where the request could not be
//! served as asked; jobs report them in `Job.error` instead); `internal` →
//! 500 with a generic message and no internals.

use proxima_core::{CoreError, Detail, ErrorKind, Field, FieldError};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = FieldError)]
pub struct FieldErrorDto {
    pub pointer: String,
    pub message: String,
}

/// Where a core error is, as the JSON pointer the API and the CLI report:
/// into the request (`/model/epsilon`, `/checks/2/l`, `/columns/3/type`) or
/// into an uploaded file (`/data/line/17/age`, `/hierarchies/edu/line/4`).
/// Column names in the data and in hierarchies are escaped as pointer
/// segments (RFC 6901); a metric weight's name is written as given.
pub fn json_pointer(field: &Field) -> String {
    match field {
        Field::Model => "/model".to_string(),
        Field::ModelParam(name) => format!("/model/{name}"),
        Field::Algorithm => "/algorithm".to_string(),
        Field::SensitiveMetric => "/sensitive_metric".to_string(),
        Field::MetricWeights => "/sensitive_metric/weights".to_string(),
        Field::MetricWeight(name) => format!("/sensitive_metric/weights/{name}"),
        Field::Check(i) => format!("/checks/{i}"),
        Field::CheckParam(i, name) => format!("/checks/{i}/{name}"),
        Field::Within(outer, inner) => format!("{}{}", json_pointer(outer), json_pointer(inner)),
        Field::Dataset => "/dataset_id".to_string(),
        Field::PopulationDataset => "/population_dataset_id".to_string(),
        Field::Groups(name) => format!("/groups/{name}"),
        Field::Population(name) => format!("/population/{name}"),
        Field::Workload => "/workload".to_string(),
        Field::WorkloadParam(name) => format!("/workload/{name}"),
        Field::Columns => "/columns".to_string(),
        Field::ColumnParam(i, name) => format!("/columns/{i}/{name}"),
        Field::Csv(name) => format!("/csv/{name}"),
        Field::Hierarchy(column) => format!("/hierarchies/{}", segment(column)),
        Field::HierarchyLine(column, l) => format!("/hierarchies/{}/line/{l}", segment(column)),
        Field::HierarchyPath(column, i) => format!("/hierarchies/{}/{i}", segment(column)),
        Field::Data => "/data".to_string(),
        Field::DataHeader => "/data/header".to_string(),
        Field::HeaderCell(pos) => format!("/data/header/{pos}"),
        Field::DataLine(n) => format!("/data/line/{n}"),
        Field::DataCell(n, column) => format!("/data/line/{n}/{}", segment(column)),
        Field::Param(field, name) => format!("{}/{name}", json_pointer(field)),
        Field::Pointer(pointer) => pointer.clone(),
    }
}

/// A column name as one JSON-pointer segment (RFC 6901: `~` → `~0`,
/// `/` → `~1`).
fn segment(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

/// A field error's place as a JSON pointer ([`json_pointer`]).
pub trait FieldPointer {
    fn pointer(&self) -> String;
}

impl FieldPointer for FieldError {
    fn pointer(&self) -> String {
        json_pointer(&self.field)
    }
}

/// The generic detail of a 500: never the internal message.
pub const INTERNAL_DETAIL: &str = "an internal error occurred; it has been logged";

pub fn status_of(kind: ErrorKind) -> u16 {
    match kind {
        ErrorKind::MalformedJson | ErrorKind::MalformedCsv => 400,
        ErrorKind::RecordTooLarge => 413,
        ErrorKind::UnknownColumn
        | ErrorKind::UndescribedColumn
        | ErrorKind::InvalidSchema
        | ErrorKind::InvalidHierarchy
        | ErrorKind::MissingValues
        | ErrorKind::InvalidParameters
        | ErrorKind::InfeasibleParameters
        | ErrorKind::ModelNotSatisfied
        | ErrorKind::PopulationMismatch
        | ErrorKind::AttackerViewTooLarge
        | ErrorKind::Cancelled => 422,
        ErrorKind::Internal => 500,
    }
}

/// A short human title per code (the problem's `title`).
pub fn title_of(kind: ErrorKind) -> &'static str {
    match kind {
        ErrorKind::MalformedJson => "Malformed JSON",
        ErrorKind::MalformedCsv => "Malformed CSV",
        ErrorKind::RecordTooLarge => "Record too large",
        ErrorKind::UnknownColumn => "Unknown column",
        ErrorKind::UndescribedColumn => "Undescribed column",
        ErrorKind::InvalidSchema => "Invalid schema",
        ErrorKind::InvalidHierarchy => "Invalid hierarchy",
        ErrorKind::MissingValues => "Missing values",
        ErrorKind::InvalidParameters => "Invalid parameters",
        ErrorKind::InfeasibleParameters => "Infeasible parameters",
        ErrorKind::ModelNotSatisfied => "Model not satisfied",
        ErrorKind::PopulationMismatch => "Population mismatch",
        ErrorKind::AttackerViewTooLarge => "Attacker's view too large",
        ErrorKind::Cancelled => "Cancelled",
        ErrorKind::Internal => "Internal error",
    }
}

/// `(status, code, detail, errors, details)`; `details` is `null` when the
/// error has none.
pub fn problem_parts(err: &CoreError) -> (u16, &'static str, String, Vec<FieldErrorDto>, Value) {
    let kind = err.kind;
    if kind == ErrorKind::Internal {
        return (
            500,
            kind.code(),
            INTERNAL_DETAIL.to_string(),
            Vec::new(),
            Value::Null,
        );
    }
    let errors = err
        .errors
        .iter()
        .map(|f| FieldErrorDto {
            pointer: f.pointer(),
            message: f.message.clone(),
        })
        .collect();
    let details = if err.details.is_empty() {
        Value::Null
    } else {
        detail_map(&err.details)
    };
    (
        status_of(kind),
        kind.code(),
        err.message.clone(),
        errors,
        details,
    )
}

/// The problem document itself, for the CLI (and any caller that does not
/// need framework-specific wrapping).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = Problem)]
pub struct ProblemDto {
    #[serde(rename = "type")]
    pub type_: String,
    pub title: String,
    pub status: u16,
    pub detail: String,
    pub code: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<FieldErrorDto>,
    #[serde(default, skip_serializing_if = "Value::is_null")]
    #[schema(schema_with = super::doc_schemas::details, required = false)]
    pub details: Value,
}

impl ProblemDto {
    pub fn from_core(err: &CoreError) -> ProblemDto {
        let (status, code, detail, errors, details) = problem_parts(err);
        ProblemDto {
            type_: format!("/problems/{code}"),
            title: title_of(err.kind).to_string(),
            status,
            detail,
            code: code.to_string(),
            errors,
            details,
        }
    }
}

pub fn detail_value(d: &Detail) -> Value {
    match d {
        Detail::Int(v) => Value::from(*v),
        // JSON has no NaN or infinity: a non-finite figure becomes null.
        Detail::Num(v) => serde_json::Number::from_f64(*v).map_or(Value::Null, Value::Number),
        Detail::Str(s) => Value::from(s.as_str()),
        Detail::Bool(b) => Value::from(*b),
        Detail::List(items) => Value::Array(items.iter().map(detail_value).collect()),
        Detail::Map(entries) => detail_map(entries),
    }
}

fn detail_map(entries: &[(String, Detail)]) -> Value {
    Value::Object(
        entries
            .iter()
            .map(|(k, v)| (k.clone(), detail_value(v)))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn core_fields_are_written_as_the_requests_pointers() {
        let cases = [
            (Field::Model, "/model"),
            (Field::ModelParam("epsilon"), "/model/epsilon"),
            (Field::CheckParam(2, "l"), "/checks/2/l"),
            (
                Field::Within(
                    Box::new(Field::Check(1)),
                    Box::new(Field::MetricWeight("a/b".into())),
                ),
                "/checks/1/sensitive_metric/weights/a/b",
            ),
            (Field::ColumnParam(3, "type"), "/columns/3/type"),
            (
                Field::DataCell(17, "km/h~x".into()),
                "/data/line/17/km~1h~0x",
            ),
            (
                Field::HierarchyLine("a/b".into(), 4),
                "/hierarchies/a~1b/line/4",
            ),
            (Field::HierarchyPath("edu".into(), 0), "/hierarchies/edu/0"),
            (Field::HeaderCell(7), "/data/header/7"),
            (
                Field::Pointer("/checks/0".into()).param("delta_min"),
                "/checks/0/delta_min",
            ),
            (Field::Check(0).param("k"), "/checks/0/k"),
        ];
        for (field, pointer) in cases {
            assert_eq!(json_pointer(&field), pointer, "{field:?}");
        }
    }

    #[test]
    fn statuses_by_kind() {
        assert_eq!(status_of(ErrorKind::MalformedJson), 400);
        assert_eq!(status_of(ErrorKind::MalformedCsv), 400);
        assert_eq!(status_of(ErrorKind::RecordTooLarge), 413);
        for k in [
            ErrorKind::UnknownColumn,
            ErrorKind::UndescribedColumn,
            ErrorKind::InvalidSchema,
            ErrorKind::InvalidHierarchy,
            ErrorKind::MissingValues,
            ErrorKind::InvalidParameters,
            ErrorKind::InfeasibleParameters,
            ErrorKind::ModelNotSatisfied,
            ErrorKind::AttackerViewTooLarge,
            ErrorKind::Cancelled,
        ] {
            assert_eq!(status_of(k), 422, "{k:?}");
        }
        assert_eq!(status_of(ErrorKind::Internal), 500);
    }

    #[test]
    fn user_errors_keep_message_pointers_and_details() {
        let e = CoreError::new(ErrorKind::InfeasibleParameters, "m = 9 exceeds the bound 7")
            .with_error("/model/m", "at most 7")
            .with_detail("max_m", 7usize)
            .with_detail("epsilon", 4500.0)
            .with_detail(
                "guaranteed",
                Detail::List(vec![Detail::Map(vec![
                    ("k".into(), Detail::Int(10)),
                    ("max_delta".into(), Detail::Num(f64::NAN)),
                ])]),
            );
        let p = ProblemDto::from_core(&e);
        let v = serde_json::to_value(&p).unwrap();
        assert_eq!(
            v,
            json!({
                "type": "/problems/infeasible_parameters",
                "title": "Infeasible parameters",
                "status": 422,
                "detail": "m = 9 exceeds the bound 7",
                "code": "infeasible_parameters",
                "errors": [{"pointer": "/model/m", "message": "at most 7"}],
                "details": {"max_m": 7, "epsilon": 4500.0,
                            "guaranteed": [{"k": 10, "max_delta": null}]}
            })
        );
    }

    #[test]
    fn internal_errors_hide_their_message() {
        let e = CoreError::internal("row 17 in two groups").with_error("/x", "secret");
        let (status, code, detail, errors, details) = problem_parts(&e);
        assert_eq!((status, code), (500, "internal"));
        assert!(!detail.contains("row 17"));
        assert!(errors.is_empty());
        assert!(details.is_null());
        let v = serde_json::to_value(ProblemDto::from_core(&e)).unwrap();
        assert!(v.get("errors").is_none() && v.get("details").is_none());
    }
}
