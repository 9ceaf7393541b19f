//! The boundary types: serde DTOs that mirror API.md (snake_case, unknown
//! fields rejected) and their conversions into the core's validated types.
//! Every conversion error is a `CoreError` whose field errors carry JSON
//! pointers into the request (`/model/m`, `/columns/3/type`), so the HTTP
//! service and the offline CLI report the same problems.

pub mod audit;
pub mod feasibility;
pub mod job;
pub mod json;
pub mod metric;
pub mod model;
mod number;
pub mod problem;
pub mod report;
pub mod schema;

pub use audit::{
    audit_checks, checks_from_json, AuditRequestDto, AuditTarget, CheckDto, GroupsDto,
};
pub use feasibility::{
    answer as answer_feasibility, FeasibilityRequestDto, FeasibilityResponseDto, GuaranteedPairDto,
};
pub use job::{job_spec, JobRequestDto, JobSummaryDto};
pub use metric::MetricDto;
pub use model::{
    resolve_algorithm, resolve_ground_distance, AlgorithmDto, GroundDistanceDto,
    InitialColoringDto, LVariantDto, ModelDto, NeighborhoodDto, XColorOptionsDto,
};
pub use problem::{problem_parts, FieldErrorDto, ProblemDto};
pub use proxima_core::run::JobSpec;
pub use report::AuditReportDto;
pub use schema::{ColumnDto, CsvDto, HierarchyFile, OnMissingDto, RoleDto, SchemaDto, TypeDto};
