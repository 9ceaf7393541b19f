//! The boundary types: serde DTOs that mirror docs/api.md (snake_case, unknown
//! fields rejected) and their conversions into the core's validated types.
//! Every conversion error is a `CoreError` whose field errors carry JSON
//! pointers into the request (`/model/m`, `/columns/3/type`), so the HTTP
//! service and the offline CLI report the same problems.

pub mod access;
pub mod approval;
pub mod audit;
pub mod audit_report;
pub mod dataset;
pub(crate) mod doc_schemas;
pub mod feasibility;
pub mod job;
pub mod job_error;
pub mod job_resource;
pub mod job_status;
pub mod json;
pub mod metric;
pub mod model;
mod number;
pub mod policy;
pub mod population;
pub mod problem;
pub mod schema;
#[cfg(test)]
pub(crate) mod test_fixtures;
pub mod unique_keys;

pub use audit::{
    audit_checks, checks_from_json, AuditRequestDto, AuditTarget, CheckDto, GroupsDto,
};
pub use audit_report::AuditReportDto;
pub use feasibility::{
    answer as answer_feasibility, DeliverablePairDto, FeasibilityRequestDto,
    FeasibilityResponseDto, GuaranteedPairDto,
};
pub use job::{JobParams, JobRequest, JobRequestDto, JobSummaryDto};
pub use job_resource::{JobDto, JobListDto, JobWarningDto};
pub use job_status::JobStatus;
pub use metric::MetricDto;
pub use model::{
    resolve_algorithm, resolve_ground_distance, AlgorithmDto, GroundDistanceDto,
    InitialColoringDto, LVariantDto, ModelDto, NeighborhoodDto, XColorOptionsDto,
};
pub use problem::{json_pointer, problem_parts, FieldErrorDto, FieldPointer, ProblemDto};
pub use proxima_core::run::JobSpec;
pub use schema::{
    ColumnDto, CsvDto, HierarchyFile, OnMissingDto, PopulationDto, RoleDto, SchemaDto, TypeDto,
};

#[cfg(test)]
mod schema_tests {
    //! The DTOs derive utoipa's `ToSchema` so the service's OpenAPI document
    //! describes exactly what serde accepts.
    use super::*;
    use utoipa::PartialSchema;

    fn schema_json<T: PartialSchema>() -> String {
        serde_json::to_string(&T::schema()).unwrap()
    }

    #[test]
    fn schemas_follow_the_serde_shape() {
        let model = schema_json::<ModelDto>();
        for name in [
            "epsilon_m",
            "dissimilarity",
            "k_anonymity",
            "l_diversity",
            "t_closeness",
            "\"kind\"",
            "neighborhood",
        ] {
            assert!(model.contains(name), "{name} missing from {model}");
        }
        let schema = schema_json::<ColumnDto>();
        assert!(schema.contains("\"type\""), "{schema}");
        assert!(!schema.contains("value_type"), "{schema}");
        let problem = schema_json::<ProblemDto>();
        assert!(
            problem.contains("\"type\"") && !problem.contains("type_"),
            "{problem}"
        );
        let metric = schema_json::<MetricDto>();
        for name in [
            "absolute",
            "relative",
            "equal",
            "hierarchical",
            "lp",
            "variational",
            "weights",
        ] {
            assert!(metric.contains(name), "{name} missing from {metric}");
        }
        let groups = schema_json::<GroupsDto>();
        assert!(
            groups.contains("quasi_identifiers") && groups.contains("\"by\""),
            "{groups}"
        );
    }
}
