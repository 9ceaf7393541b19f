//! The job request of `POST /v1/jobs` (docs/api.md §Jobs) and the job summary.

use proxima_core::error::CoreResult;
use proxima_core::params::{Algorithm, PrivacyModel, SuppressionLimit};
use proxima_core::run::JobSpec;
use proxima_core::run::Summary;
use proxima_core::xcolor::XColorOptions;
use proxima_core::{CoreError, ErrorKind, Schema};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::audit_report::SpreadDto;
use super::metric::MetricDto;
use super::model::{
    resolve_algorithm, AlgorithmDto, InitialColoringDto, ModelDto, XColorOptionsDto,
};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = JobRequest)]
#[serde(deny_unknown_fields)]
pub struct JobRequestDto {
    #[schema(format = Uuid)]
    pub dataset_id: String,
    pub model: ModelDto,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub algorithm: Option<AlgorithmDto>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sensitive_metric: Option<MetricDto>,
    /// API extension: XColor options (only with the xcolor algorithm).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub xcolor: Option<XColorOptionsDto>,
    /// The share of rows the job may leave out of the release to satisfy
    /// the model in the attacker's view, in [0, 1) (default 0); counted in
    /// the summary's `suppressed_by_model`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 0, exclusive_maximum = 1)]
    pub suppression_limit: Option<f64>,
}

impl JobRequestDto {
    pub fn from_json(bytes: &[u8]) -> CoreResult<JobRequestDto> {
        super::json::from_json(bytes, "the job", "", ErrorKind::InvalidParameters)
    }

    /// [`from_json`](Self::from_json) for a body the HTTP layer already
    /// holds as a JSON value (the same pointers and messages).
    pub fn from_value(body: &serde_json::Value) -> CoreResult<JobRequestDto> {
        super::json::from_value(body, "the job", "", ErrorKind::InvalidParameters)
    }

    /// The one parse of a job request at the edge: its shape (unknown
    /// fields and bad values → errors with pointers into the body) and
    /// every value that needs no table, typed. What needs the table is
    /// checked when the job is prepared (`app::jobs`).
    pub fn parse(body: &serde_json::Value) -> CoreResult<JobRequest> {
        JobRequestDto::from_value(body)?.into_request()
    }

    /// The typed request (the suppression limit is 0 when absent).
    pub fn into_request(self) -> CoreResult<JobRequest> {
        let suppression_limit =
            SuppressionLimit::new(self.suppression_limit.unwrap_or(0.0), "/suppression_limit")?;
        Ok(JobRequest {
            model: self.model,
            algorithm: self.algorithm,
            sensitive_metric: self.sensitive_metric,
            xcolor: self.xcolor,
            suppression_limit,
        })
    }
}

/// A job request parsed once at the edge (`POST /v1/jobs`, a sweep's
/// point, the offline CLI's flags): what was asked, typed. The algorithm
/// and the metric may still be open; checking the request against its
/// table resolves them into the [`JobParams`] the job is stored and run
/// with.
#[derive(Debug, Clone, PartialEq)]
pub struct JobRequest {
    pub model: ModelDto,
    pub algorithm: Option<AlgorithmDto>,
    pub sensitive_metric: Option<MetricDto>,
    pub xcolor: Option<XColorOptionsDto>,
    pub suppression_limit: SuppressionLimit,
}

impl JobRequest {
    /// The core's spec against the table's schema (pointers as in the
    /// request: `/model/…`).
    pub fn to_spec(&self, schema: &Schema) -> CoreResult<JobSpec> {
        job_spec(
            &self.model,
            self.algorithm,
            self.sensitive_metric.as_ref(),
            self.xcolor.as_ref(),
            self.suppression_limit,
            schema,
        )
    }

    /// The parameters the job runs with, once the request is checked
    /// against its table: `spec` is [`to_spec`](Self::to_spec)'s answer,
    /// whose algorithm (the model's default when none was named) and, for
    /// the dissimilarity model, metric (the SA's default when none was
    /// named: `resolved_metric`) are what the job shows and stores.
    pub fn resolved(self, spec: &JobSpec, resolved_metric: Option<MetricDto>) -> JobParams {
        JobParams {
            model: self.model,
            algorithm: spec.algorithm.into(),
            sensitive_metric: resolved_metric.or(self.sensitive_metric),
            xcolor: self.xcolor,
            suppression_limit: self.suppression_limit,
        }
    }
}

/// A job's parameters as stored in `jobs` and run by the worker: the
/// request's, typed, with the algorithm resolved. The worker reads them
/// back from the stored row (`TryFrom<&JobRow>`) and goes from here
/// straight to the core's [`JobSpec`], as the offline CLI does, without a
/// request document in between.
#[derive(Debug, Clone, PartialEq)]
pub struct JobParams {
    pub model: ModelDto,
    pub algorithm: AlgorithmDto,
    pub sensitive_metric: Option<MetricDto>,
    pub xcolor: Option<XColorOptionsDto>,
    pub suppression_limit: SuppressionLimit,
}

impl JobParams {
    /// The core's spec on the job's table: the schema binds the model's
    /// columns (these parameters were checked against the same schema when
    /// the job was queued).
    pub fn to_spec(&self, schema: &Schema) -> CoreResult<JobSpec> {
        job_spec(
            &self.model,
            Some(self.algorithm),
            self.sensitive_metric.as_ref(),
            self.xcolor.as_ref(),
            self.suppression_limit,
            schema,
        )
    }

    /// The body of `POST /v1/jobs` that replays this job on `dataset_id`.
    pub fn to_request(&self, dataset_id: String) -> JobRequestDto {
        let limit = self.suppression_limit.get();
        JobRequestDto {
            dataset_id,
            model: self.model.clone(),
            algorithm: Some(self.algorithm),
            sensitive_metric: self.sensitive_metric.clone(),
            xcolor: self.xcolor,
            suppression_limit: (limit != 0.0).then_some(limit),
        }
    }
}

/// Validates a job's parts against the schema (shared by the HTTP request
/// and the CLI flags, with the same pointers: `/model/…`, `/algorithm`,
/// `/sensitive_metric/…`, `/xcolor`). The metric stays `None` when the
/// request names none (its default depends on the table). Checks that need
/// the data (feasibility) are `proxima_core::run::validate`'s.
fn job_spec(
    model: &ModelDto,
    algorithm: Option<AlgorithmDto>,
    metric: Option<&MetricDto>,
    xcolor: Option<&XColorOptionsDto>,
    suppression_limit: SuppressionLimit,
    schema: &Schema,
) -> CoreResult<JobSpec> {
    let model = model.to_model(schema, "/model")?;
    let algorithm = resolve_algorithm(&model, algorithm)?;
    let metric = match metric {
        None => None,
        Some(m) => {
            // Only (ε,δ)^k-dissimilarity measures SA distance with a
            // metric; the other models have their own notion (ε,m's
            // neighborhood, t-closeness's ground distance). Accepting a
            // metric they ignore would hide a mistake.
            if !matches!(model, PrivacyModel::Dissimilarity(_)) {
                return Err(CoreError::invalid_parameters(
                    "/sensitive_metric",
                    format!(
                        "sensitive_metric applies only to the dissimilarity model, not to {}",
                        model.kind_name()
                    ),
                ));
            }
            Some(m.to_spec("/sensitive_metric")?)
        }
    };
    let initial = match (algorithm, xcolor) {
        (Algorithm::XColor, x) => x.copied().unwrap_or_default().initial,
        (_, None) => InitialColoringDto::default(),
        (other, Some(_)) => {
            return Err(CoreError::invalid_parameters(
                "/xcolor",
                format!(
                    "xcolor options apply only to the xcolor algorithm, not to {}",
                    other.name()
                ),
            ))
        }
    };
    Ok(JobSpec {
        model,
        algorithm,
        metric,
        xcolor: XColorOptions {
            initial: initial.into(),
        },
        suppression_limit,
    })
}

/// `Job.summary` (docs/api.md §Jobs); the CLI prints it on stderr.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = JobSummary)]
pub struct JobSummaryDto {
    pub rows: u64,
    pub published_rows: u64,
    /// Rows left out for missing values.
    pub suppressed_rows: u64,
    pub groups: u64,
    pub min_group_size: u64,
    /// GCP in [0, 1]; rows suppressed by the model count at loss 1.
    pub information_loss: f64,
    pub elapsed_ms: u64,
    /// Rows left out to satisfy the model in the attacker's view (within
    /// the job's `suppression_limit`).
    #[serde(default)]
    #[schema(required = true)]
    pub suppressed_by_model: u64,
    /// The model's own check in the attacker's view.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attacker_view: Option<AttackerViewDto>,
    /// API extension: the mean relative error of the standard count-query
    /// workload (q = 2 QIs and the SA, selectivity 0.1, 1,000 queries, the
    /// standard seed): estimates from the release against true counts on
    /// the original table, so rows the model left out count as lost. The
    /// same figure as the job's sweep point and the q = 2 row of its
    /// release report (a fraction here, a percentage on the pages). Absent
    /// when the table has fewer than two QIs or no query had a non-zero
    /// count, and on jobs that finished before it was measured for every
    /// job.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub query_error: Option<f64>,
    /// API extension, beside `query_error`: the median relative error of
    /// the same queries (a few queries on rare values can dominate the
    /// mean). Present exactly when `query_error` is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub query_error_median: Option<f64>,
}

/// The job model's check in the attacker's view (docs/design.md §4).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = AttackerView)]
pub struct AttackerViewDto {
    /// Rows judged as victims (every published row).
    pub victims: u64,
    /// Victims whose candidates breach the model (0 for a stored result).
    pub over_bound: u64,
    /// The worst victim's figure: breach probability for (ε,m), risk for
    /// dissimilarity, the smallest candidate set for k, … (null when not
    /// finite).
    #[schema(required = true)]
    pub worst: Option<f64>,
    /// Groups among a victim's candidates.
    pub candidate_groups: SpreadDto,
}

impl JobSummaryDto {
    pub fn from_summary(s: &Summary, elapsed_ms: u64) -> JobSummaryDto {
        JobSummaryDto {
            rows: s.rows as u64,
            published_rows: s.published_rows as u64,
            suppressed_rows: s.suppressed_rows as u64,
            groups: s.groups as u64,
            min_group_size: s.min_group_size as u64,
            information_loss: s.information_loss,
            elapsed_ms,
            suppressed_by_model: s.suppressed_by_model as u64,
            attacker_view: s.attacker_view.as_ref().map(|v| AttackerViewDto {
                victims: v.victims as u64,
                over_bound: v.over_bound as u64,
                worst: v.worst.is_finite().then_some(v.worst),
                candidate_groups: v.candidate_groups.into(),
            }),
            query_error: None,
            query_error_median: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::FieldPointer;
    use proxima_core::xcolor::InitialColoring;

    use crate::api::test_fixtures::schema;

    #[test]
    fn the_api_example_parses_and_defaults_apply() {
        let job = JobRequestDto::from_json(
            br#"{"dataset_id": "d", "model": {"kind": "dissimilarity", "epsilon": 0.1, "delta": 0.8, "k": 10},
                 "algorithm": "xcolor",
                 "sensitive_metric": {"kind": "lp", "p": 1, "weights": {"salary": 1}}}"#,
        )
        .unwrap();
        let spec = job.into_request().unwrap().to_spec(&schema()).unwrap();
        assert_eq!(spec.algorithm, Algorithm::XColor);
        assert_eq!(spec.xcolor.initial, InitialColoring::QiAware);
        assert!(matches!(
            spec.metric,
            Some(proxima_core::metric::MetricSpec::Lp { .. })
        ));

        let plain = JobRequestDto::from_json(
            br#"{"dataset_id": "d", "model": {"kind": "epsilon_m", "epsilon": 4500, "m": 5}}"#,
        )
        .unwrap();
        let spec = plain.into_request().unwrap().to_spec(&schema()).unwrap();
        assert_eq!(spec.algorithm, Algorithm::EpsilonM);
        assert_eq!(spec.metric, None);
    }

    #[test]
    fn misplaced_options_are_rejected() {
        let metric_on_k = JobRequestDto::from_json(
            br#"{"dataset_id": "d", "model": {"kind": "k_anonymity", "k": 2},
                 "sensitive_metric": {"kind": "absolute"}}"#,
        )
        .unwrap();
        let e = metric_on_k
            .into_request()
            .unwrap()
            .to_spec(&schema())
            .unwrap_err();
        assert_eq!(e.errors[0].pointer(), "/sensitive_metric");

        let xcolor_on_mondrian = JobRequestDto::from_json(
            br#"{"dataset_id": "d", "model": {"kind": "k_anonymity", "k": 2},
                 "xcolor": {"initial": "degree_balanced"}}"#,
        )
        .unwrap();
        let e = xcolor_on_mondrian
            .into_request()
            .unwrap()
            .to_spec(&schema())
            .unwrap_err();
        assert_eq!(e.errors[0].pointer(), "/xcolor");

        let degree = JobRequestDto::from_json(
            br#"{"dataset_id": "d", "model": {"kind": "dissimilarity", "epsilon": 1, "delta": 0.5, "k": 2},
                 "xcolor": {"initial": "degree_balanced"}}"#,
        )
        .unwrap();
        assert_eq!(
            degree
                .into_request()
                .unwrap()
                .to_spec(&schema())
                .unwrap()
                .xcolor
                .initial,
            InitialColoring::DegreeBalanced
        );
    }

    #[test]
    fn the_suppression_limit_is_typed_once_at_the_edge() {
        let body = |limit: f64| {
            serde_json::json!({"dataset_id": "d", "model": {"kind": "k_anonymity", "k": 2},
                               "suppression_limit": limit})
        };
        let e = JobRequestDto::parse(&body(1.0)).unwrap_err();
        assert_eq!(e.errors[0].pointer(), "/suppression_limit");
        let request = JobRequestDto::parse(&body(0.25)).unwrap();
        assert_eq!(request.suppression_limit.get(), 0.25);
        let spec = request.to_spec(&schema()).unwrap();
        assert_eq!(spec.suppression_limit.get(), 0.25);
        let params = request.resolved(&spec, None);
        assert_eq!(params.algorithm, AlgorithmDto::Mondrian);
        assert_eq!(
            params.to_spec(&schema()).unwrap().suppression_limit.get(),
            0.25
        );
        let absent = JobRequestDto::parse(&serde_json::json!(
            {"dataset_id": "d", "model": {"kind": "k_anonymity", "k": 2}}))
        .unwrap();
        assert_eq!(absent.suppression_limit.get(), 0.0);
    }

    #[test]
    fn request_shape_errors_point_into_the_body() {
        let e = JobRequestDto::from_json(
            br#"{"dataset_id": "d", "model": {"kind": "k_anonymity", "k": 2}, "algorithm": "greedy"}"#,
        )
        .unwrap_err();
        assert_eq!(e.errors[0].pointer(), "/algorithm");
        let e = JobRequestDto::from_json(
            br#"{"dataset_id": "d", "model": {"kind": "k_anonymity", "k": 2}, "algoritm": "mondrian"}"#,
        )
        .unwrap_err();
        assert_eq!(e.errors[0].pointer(), "/algoritm");
        let e = JobRequestDto::from_json(
            br#"{"dataset_id": "d", "model": {"kind": "k_anonymity", "k": 2},
                 "sensitive_metric": {"kind": "lp", "p": 1, "weigths": {}}}"#,
        )
        .unwrap_err();
        assert_eq!(e.errors[0].pointer(), "/sensitive_metric/weigths");
    }
}
