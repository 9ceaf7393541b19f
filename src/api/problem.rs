//! CoreError → the parts of an RFC 9457 problem (docs/api.md §Conventions). The
//! HTTP layer and the offline CLI both use it, so they report the same code
//! and message.
//!
//! Status: `malformed_*` → 400; `record_too_large` → 413; the semantic user errors → 422; `cancelled`
//! and `model_not_satisfied` → 422 as well (they only reach a synchronous
//! response from an audit or a CLI run, where the request could not be
//! served as asked; jobs report them in `Job.error` instead); `internal` →
//! 500 with a generic message and no internals.

use proxima_core::{CoreError, Detail, ErrorKind};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = FieldError)]
pub struct FieldErrorDto {
    pub pointer: String,
    pub message: String,
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
            pointer: f.pointer.clone(),
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
