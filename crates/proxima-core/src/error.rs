//! The core's error type. Every error carries a stable [`ErrorKind`] whose
//! `code()` is the problem code the HTTP API and the CLI report, a message a
//! user can act on, field-level errors (where: a [`Field`]) and structured
//! details (reachable parameter values, diagnostics).

use std::fmt;

/// What went wrong, as a stable machine-readable category.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// A JSON document (schema, parameters) is not valid JSON. Produced at
    /// the boundary (the core parses no JSON), listed here so every problem
    /// code lives in one enum.
    MalformedJson,
    /// The CSV could not be read (bad quoting, wrong field count, bad number…).
    MalformedCsv,
    /// One CSV cell or record is longer than the configured limit (a
    /// bound on what one row may make the reader hold).
    RecordTooLarge,
    /// A schema or parameter names a column the data does not have.
    UnknownColumn,
    /// The data has a column the schema does not describe.
    UndescribedColumn,
    /// The schema is inconsistent (duplicate names, missing type, …).
    InvalidSchema,
    /// A hierarchy is malformed or does not cover the column's values.
    InvalidHierarchy,
    /// Missing values in a QI or SA while the policy is `reject`.
    MissingValues,
    /// A parameter is out of its domain (k = 0, δ > 1, …).
    InvalidParameters,
    /// The parameters are valid but no release can satisfy them on this data.
    InfeasibleParameters,
    /// A population table does not fit the sample it is used with (a
    /// missing quasi-identifier, another type, a sample that is not a
    /// subset of it).
    PopulationMismatch,
    /// The partitioner could not produce a release that satisfies the model.
    ModelNotSatisfied,
    /// The attacker's view would need more memory than its budget (the
    /// groups' boxes overlap too much to enumerate the candidate sets).
    AttackerViewTooLarge,
    /// The caller's progress callback asked to stop.
    Cancelled,
    /// A bug: an invariant of the core was broken.
    Internal,
}

impl ErrorKind {
    /// The stable problem code (docs/api.md §Conventions).
    pub fn code(self) -> &'static str {
        match self {
            ErrorKind::MalformedJson => "malformed_json",
            ErrorKind::MalformedCsv => "malformed_csv",
            ErrorKind::RecordTooLarge => "record_too_large",
            ErrorKind::UnknownColumn => "unknown_column",
            ErrorKind::UndescribedColumn => "undescribed_column",
            ErrorKind::InvalidSchema => "invalid_schema",
            ErrorKind::InvalidHierarchy => "invalid_hierarchy",
            ErrorKind::MissingValues => "missing_values",
            ErrorKind::InvalidParameters => "invalid_parameters",
            ErrorKind::InfeasibleParameters => "infeasible_parameters",
            ErrorKind::PopulationMismatch => "population_mismatch",
            ErrorKind::ModelNotSatisfied => "model_not_satisfied",
            ErrorKind::AttackerViewTooLarge => "attacker_view_too_large",
            ErrorKind::Cancelled => "cancelled",
            ErrorKind::Internal => "internal",
        }
    }

    /// True when the error is the caller's (bad input or parameters), false
    /// for cancellation and internal errors.
    pub fn is_user_error(self) -> bool {
        !matches!(self, ErrorKind::Cancelled | ErrorKind::Internal)
    }
}

/// Where in the caller's input an error is: a field of the request (the
/// model, a check, the schema's columns) or a place in an uploaded file (a
/// data line's cell, a hierarchy's line). The core names places by what
/// they are; the service and the CLI write them as JSON pointers
/// (`src/spec/problem.rs`), so the core knows nothing of the request's JSON.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Field {
    /// The privacy model as a whole.
    Model,
    /// One of the model's parameters (`epsilon`, `m`, `k`, `l`, …).
    ModelParam(&'static str),
    /// The choice of partitioner.
    Algorithm,
    /// The sensitive metric as a whole.
    SensitiveMetric,
    /// The composite metric's weights as a whole.
    MetricWeights,
    /// The composite metric's weight for one sensitive column, by name.
    MetricWeight(String),
    /// The audit check at this index, as a whole.
    Check(usize),
    /// One of that check's parameters.
    CheckParam(usize, &'static str),
    /// A field named as in a job's request (the second) that another
    /// field (the first: an audit check) carries as its own, e.g. a
    /// check's own sensitive metric.
    Within(Box<Field>, Box<Field>),
    /// The dataset a job or an audit reads.
    Dataset,
    /// The population table a job or an audit reads.
    PopulationDataset,
    /// One of the audit's grouping settings (`column`).
    Groups(&'static str),
    /// One of the population settings of a risk measure (`size`,
    /// `sampling_fraction`).
    Population(&'static str),
    /// A query workload as a whole.
    Workload,
    /// One of the query workload's settings.
    WorkloadParam(&'static str),
    /// The schema's columns as a whole.
    Columns,
    /// One setting (`name`, `type`, `hierarchy`) of the schema's column at
    /// this index.
    ColumnParam(usize, &'static str),
    /// One of the schema's CSV settings (`delimiter`).
    Csv(&'static str),
    /// A column's hierarchy as a whole, by column name.
    Hierarchy(String),
    /// A line of a column's hierarchy file (1-based).
    HierarchyLine(String, u64),
    /// A path of a column's hierarchy given inline (0-based).
    HierarchyPath(String, usize),
    /// The uploaded data as a whole.
    Data,
    /// The data's header line.
    DataHeader,
    /// The header's name at this 0-based position.
    HeaderCell(usize),
    /// A data line (1-based, the header excluded).
    DataLine(u64),
    /// A data line's cell, by column name.
    DataCell(u64, String),
    /// A named part of another field (what [`Field::param`] makes of a
    /// field with no parameter variant of its own).
    Param(Box<Field>, &'static str),
    /// A place the caller names itself: the service's own validation of
    /// the request's JSON passes JSON pointers through the core's
    /// constructors. The core never makes one of its own.
    Pointer(String),
}

impl Field {
    /// The field `name` of this one: a model's or a check's parameter.
    pub fn param(&self, name: &'static str) -> Field {
        match self {
            Field::Model => Field::ModelParam(name),
            Field::Check(i) => Field::CheckParam(*i, name),
            Field::Within(outer, inner) => {
                Field::Within(outer.clone(), Box::new(inner.param(name)))
            }
            other => Field::Param(Box::new(other.clone()), name),
        }
    }
}

/// A place the caller names with its own JSON pointer.
impl From<&str> for Field {
    fn from(pointer: &str) -> Self {
        Field::Pointer(pointer.to_string())
    }
}

impl From<String> for Field {
    fn from(pointer: String) -> Self {
        Field::Pointer(pointer)
    }
}

impl From<&String> for Field {
    fn from(pointer: &String) -> Self {
        Field::Pointer(pointer.clone())
    }
}

impl From<&Field> for Field {
    fn from(field: &Field) -> Self {
        field.clone()
    }
}

/// One field-level error: where ([`Field`]) and what is wrong there.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldError {
    pub field: Field,
    pub message: String,
}

/// A small JSON-like value for structured error details, so the core needs
/// no serde_json. The service turns it into JSON verbatim.
#[derive(Debug, Clone, PartialEq)]
pub enum Detail {
    Int(i64),
    Num(f64),
    Str(String),
    Bool(bool),
    List(Vec<Detail>),
    Map(Vec<(String, Detail)>),
}

impl From<i64> for Detail {
    fn from(v: i64) -> Self {
        Detail::Int(v)
    }
}
impl From<usize> for Detail {
    fn from(v: usize) -> Self {
        Detail::Int(v as i64)
    }
}
impl From<u32> for Detail {
    fn from(v: u32) -> Self {
        Detail::Int(v as i64)
    }
}
impl From<f64> for Detail {
    fn from(v: f64) -> Self {
        Detail::Num(v)
    }
}
impl From<&str> for Detail {
    fn from(v: &str) -> Self {
        Detail::Str(v.to_string())
    }
}
impl From<String> for Detail {
    fn from(v: String) -> Self {
        Detail::Str(v)
    }
}
impl From<bool> for Detail {
    fn from(v: bool) -> Self {
        Detail::Bool(v)
    }
}

/// The core's error.
#[derive(Debug, Clone, PartialEq)]
pub struct CoreError {
    pub kind: ErrorKind,
    pub message: String,
    pub errors: Vec<FieldError>,
    /// Structured details, e.g. `("max_m", Int(6))` for an infeasible m.
    pub details: Vec<(String, Detail)>,
}

impl CoreError {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        CoreError {
            kind,
            message: message.into(),
            errors: Vec::new(),
            details: Vec::new(),
        }
    }

    /// Adds a field error.
    pub fn with_error(mut self, field: impl Into<Field>, message: impl Into<String>) -> Self {
        self.errors.push(FieldError {
            field: field.into(),
            message: message.into(),
        });
        self
    }

    /// Adds a structured detail.
    pub fn with_detail(mut self, key: impl Into<String>, value: impl Into<Detail>) -> Self {
        self.details.push((key.into(), value.into()));
        self
    }

    /// Looks up a detail by key (tests and mappers use it).
    pub fn detail(&self, key: &str) -> Option<&Detail> {
        self.details.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    pub fn invalid_parameters(field: impl Into<Field>, message: impl Into<String>) -> Self {
        let message = message.into();
        CoreError::new(ErrorKind::InvalidParameters, message.clone()).with_error(field, message)
    }

    pub fn invalid_schema(field: impl Into<Field>, message: impl Into<String>) -> Self {
        let message = message.into();
        CoreError::new(ErrorKind::InvalidSchema, message.clone()).with_error(field, message)
    }

    pub fn internal(message: impl Into<String>) -> Self {
        CoreError::new(ErrorKind::Internal, message)
    }

    pub fn cancelled() -> Self {
        CoreError::new(ErrorKind::Cancelled, "the job was cancelled")
    }
}

impl fmt::Display for CoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.code(), self.message)
    }
}

impl std::error::Error for CoreError {}

pub type CoreResult<T> = Result<T, CoreError>;
