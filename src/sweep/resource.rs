//! The `Sweep` resource: a stored sweep and its points' jobs → the figures
//! of each point, the sweep's status and progress, and its fronts.

use crate::api::JobStatus;
use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;
use uuid::Uuid;

use super::frontier::{frontier, Figures, Safer};
use super::grid::{expand, label};
use crate::api::policy::{PolicySource, ReleasePolicy};
use crate::api::JobSummaryDto;
use crate::release_report::verdict::{self, Decision, Effect, Facts, ReasonKind, Verdict};
use crate::store::jobs::JobRow;
use crate::store::sweeps::StoredSweep;
use std::collections::HashMap;

/// Where a sweep stands: `queued` (no point has started), `running`,
/// `succeeded` (every point finished and at least one succeeded — a failed
/// point does not fail the sweep), `failed` (every point finished and none
/// succeeded), `cancelled` (cancelled, and no point still running).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SweepStatus {
    Queued,
    Running,
    Succeeded,
    Failed,
    Cancelled,
}

/// A point's status: its job's, or `infeasible` for a point refused before
/// queueing (it has no job).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PointStatus {
    Queued,
    Running,
    Succeeded,
    Failed,
    Cancelled,
    Infeasible,
}

impl PointStatus {
    fn of_job(status: JobStatus) -> PointStatus {
        match status {
            JobStatus::Queued => PointStatus::Queued,
            JobStatus::Running => PointStatus::Running,
            JobStatus::Succeeded => PointStatus::Succeeded,
            JobStatus::Cancelled => PointStatus::Cancelled,
            JobStatus::Failed => PointStatus::Failed,
        }
    }

    fn finished(self) -> bool {
        !matches!(self, PointStatus::Queued | PointStatus::Running)
    }
}

/// The figure on the map's risk axis: the job summary's
/// `attacker_view.worst` for the sweep's model — the model's own check in
/// the attacker's view — with its name and which way is safer.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[schema(as = SweepRiskFigure)]
pub struct RiskFigureDto {
    /// `max_breach_probability` ((ε,m)), `max_risk` (dissimilarity),
    /// `min_candidates` (k-anonymity: the smallest candidate set),
    /// `min_l` (l-diversity), `max_emd` (t-closeness).
    pub name: String,
    /// A label for the axis.
    pub title: String,
    /// `lower` or `higher`: which values are safer.
    pub safer: String,
}

/// The risk figure of a model kind (`None` for an unknown kind).
pub fn risk_figure(kind: &str) -> Option<(RiskFigureDto, Safer)> {
    let (name, title, safer) = match kind {
        "epsilon_m" => (
            "max_breach_probability",
            "worst breach probability (attacker's view)",
            Safer::Lower,
        ),
        "dissimilarity" => ("max_risk", "worst risk (attacker's view)", Safer::Lower),
        "k_anonymity" => (
            "min_candidates",
            "smallest candidate set (attacker's view; higher is safer)",
            Safer::Higher,
        ),
        "l_diversity" => (
            "min_l",
            "smallest l over candidate sets (attacker's view; higher is safer)",
            Safer::Higher,
        ),
        "t_closeness" => ("max_emd", "worst EMD (attacker's view)", Safer::Lower),
        _ => return None,
    };
    Some((
        RiskFigureDto {
            name: name.into(),
            title: title.into(),
            safer: match safer {
                Safer::Lower => "lower",
                Safer::Higher => "higher",
            }
            .into(),
        },
        safer,
    ))
}

/// A point's figures, from its job's summary.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[schema(as = SweepPointSummary)]
pub struct PointSummaryDto {
    /// The risk figure (`Sweep.risk`): the summary's `attacker_view.worst`;
    /// null when not finite.
    #[schema(required = true)]
    pub risk: Option<f64>,
    /// GCP in [0, 1] (rows suppressed by the model count at loss 1).
    pub information_loss: f64,
    /// Mean relative error of the count-query workload (q = 2, s = 0.1):
    /// the release's estimates against the original table's counts (rows
    /// the model left out count as lost); null when not applicable (fewer
    /// than two QIs).
    #[schema(required = true)]
    pub query_error: Option<f64>,
    /// Median relative error of the same queries; null exactly when
    /// `query_error` is.
    #[schema(required = true)]
    pub query_error_median: Option<f64>,
    pub groups: u64,
    /// Rows left out for missing values.
    pub suppressed_rows: u64,
    /// Rows left out to satisfy the model (within the point's
    /// `suppression_limit`).
    pub suppressed_by_model: u64,
    pub elapsed_ms: u64,
}

impl PointSummaryDto {
    fn of(s: &JobSummaryDto) -> PointSummaryDto {
        PointSummaryDto {
            risk: s
                .attacker_view
                .as_ref()
                .and_then(|v| v.worst)
                .filter(|w| w.is_finite()),
            information_loss: s.information_loss,
            query_error: s.query_error,
            query_error_median: s.query_error_median,
            groups: s.groups,
            suppressed_rows: s.suppressed_rows,
            suppressed_by_model: s.suppressed_by_model,
            elapsed_ms: s.elapsed_ms,
        }
    }
}

/// Why a point failed or was refused.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[schema(as = SweepPointError)]
pub struct PointErrorDto {
    /// `infeasible_parameters` for a refused point; the job's error code
    /// (`model_not_satisfied`, …) for a failed one.
    pub code: String,
    pub message: String,
    /// Structured facts (e.g. the reachable `max_m`), or null.
    #[schema(schema_with = crate::api::doc_schemas::job_error_details)]
    pub details: Value,
}

/// A reason of a point's verdict that weighs on its decision (a condition
/// or a blocking reason; what passed is listed in the point's report).
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[schema(as = SweepPointVerdictReason)]
pub struct PointReasonDto {
    pub kind: ReasonKind,
    /// `condition` or `blocking`.
    pub effect: Effect,
    /// The report's sentence.
    pub message: String,
    /// The section of the point's report that supports it (`#risk`,
    /// `#warning-2`, …; append it to `report`).
    pub anchor: String,
}

/// The verdict the point's release report gives under the tenant's
/// current release policy (`GET /v1/settings/release-policy`).
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[schema(as = SweepPointVerdict)]
pub struct PointVerdictDto {
    pub decision: Decision,
    /// The report's blocking reasons, then its conditions (empty for a
    /// publishable point).
    pub reasons: Vec<PointReasonDto>,
}

impl PointVerdictDto {
    fn of(v: Verdict) -> PointVerdictDto {
        PointVerdictDto {
            decision: v.decision,
            reasons: v
                .reasons
                .into_iter()
                .filter(|r| r.effect != Effect::Ok)
                .map(|r| PointReasonDto {
                    kind: r.kind,
                    effect: r.effect,
                    message: r.message,
                    anchor: r.anchor,
                })
                .collect(),
        }
    }
}

/// What the points are judged with: the verdict facts stored with each
/// succeeded point's result, and the tenant's release policy as it stands.
#[derive(Debug, Clone)]
pub struct Judging {
    pub facts: HashMap<Uuid, Facts>,
    pub policy: ReleasePolicy,
    pub source: PolicySource,
}

impl Judging {
    /// No facts, the default policy: only failed points are judged.
    pub fn none() -> Judging {
        Judging {
            facts: HashMap::new(),
            policy: ReleasePolicy::default(),
            source: PolicySource::Default,
        }
    }

    /// The verdict of a finished point's job: a failed job's is its
    /// failure (not publishable; its report adds the table's warnings); a
    /// succeeded job's is judged on its stored facts (None without them:
    /// a result stored before they were).
    fn verdict(&self, job: &JobRow, status: PointStatus) -> Option<PointVerdictDto> {
        let facts = match status {
            PointStatus::Succeeded => self.facts.get(&job.id)?.clone(),
            PointStatus::Failed => Facts {
                failed: Some(
                    job.error
                        .as_ref()
                        .map_or_else(|| "internal".to_owned(), |e| e.code.clone()),
                ),
                ..Facts::default()
            },
            _ => return None,
        };
        Some(PointVerdictDto::of(verdict::judge(
            &facts,
            &self.policy,
            self.source,
        )))
    }
}

/// One point of the grid.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[schema(as = SweepPoint)]
pub struct PointDto {
    /// The point's index (its place in the grid).
    pub index: usize,
    /// The swept parameters' values at this point, by name.
    #[schema(value_type = std::collections::BTreeMap<String, f64>)]
    pub params: Map<String, Value>,
    /// The swept values as text, `epsilon=2000, m=3`.
    pub label: String,
    /// The point's job; null for an infeasible point.
    #[schema(required = true)]
    pub job_id: Option<Uuid>,
    pub status: PointStatus,
    /// Set when the point succeeded.
    #[schema(required = true)]
    pub summary: Option<PointSummaryDto>,
    /// Set when the point failed or is infeasible.
    #[schema(required = true)]
    pub error: Option<PointErrorDto>,
    /// The point's release report (`/v1/jobs/{id}/report`); null without a job.
    #[schema(required = true)]
    pub report: Option<String>,
    /// The verdict its release report gives under the tenant's current
    /// policy; null while the point is unfinished, and for cancelled and
    /// infeasible points (no release, no report).
    #[schema(required = true)]
    pub verdict: Option<PointVerdictDto>,
}

/// One list of the request.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[schema(as = SweepAxis)]
pub struct AxisDto {
    pub name: String,
    pub values: Vec<f64>,
}

/// Points per status.
#[derive(Debug, Clone, Default, PartialEq, Serialize, ToSchema)]
#[schema(as = SweepCounts)]
pub struct CountsDto {
    pub queued: u64,
    pub running: u64,
    pub succeeded: u64,
    pub failed: u64,
    pub cancelled: u64,
    pub infeasible: u64,
}

/// The `Sweep` resource.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[schema(as = Sweep)]
pub struct SweepDto {
    pub id: Uuid,
    pub dataset_id: Uuid,
    pub status: SweepStatus,
    /// Finished points (succeeded, failed, cancelled or infeasible) over
    /// all points.
    #[schema(minimum = 0, maximum = 1)]
    pub progress: f64,
    pub created_at: DateTime<Utc>,
    /// When the last point finished; null while any is queued or running.
    #[schema(required = true)]
    pub finished_at: Option<DateTime<Utc>>,
    /// The request as sent, lists and all.
    #[schema(value_type = crate::sweep::openapi::SweepRequest)]
    pub request: Value,
    /// The request's lists, in grid order (the last varies fastest).
    pub axes: Vec<AxisDto>,
    /// The figure on the risk axis.
    pub risk: RiskFigureDto,
    pub counts: CountsDto,
    pub points: Vec<PointDto>,
    /// Indexes of the points on the Pareto front of risk against
    /// information loss, safest first: succeeded points that no other
    /// succeeded point dominates (at least as safe and at most as lossy,
    /// and better in one of the two). Equal points are all on the front;
    /// unfinished, failed and infeasible points, and succeeded points
    /// without a risk figure, never are.
    pub frontier: Vec<usize>,
    /// The same front with the count-query error in place of the
    /// information loss (points without a query error are left out).
    pub query_error_frontier: Vec<usize>,
}

/// The stored `points` entry of a sweep row.
fn stored_point(points: &Value, i: usize) -> (Map<String, Value>, Option<&Value>) {
    let p = &points[i];
    let params = p["params"].as_object().cloned().unwrap_or_default();
    let error = p.get("error").filter(|e| !e.is_null());
    (params, error)
}

fn point_error(v: &Value) -> PointErrorDto {
    PointErrorDto {
        code: v["code"].as_str().unwrap_or("internal").to_string(),
        message: v["message"].as_str().unwrap_or_default().to_string(),
        details: v.get("details").cloned().unwrap_or(Value::Null),
    }
}

fn job_point_error(e: &crate::api::job_error::JobErrorBody) -> PointErrorDto {
    PointErrorDto {
        code: e.code.clone(),
        message: e.message.clone(),
        details: e.details.clone(),
    }
}

fn point(
    index: usize,
    params: Map<String, Value>,
    stored_error: Option<&Value>,
    job: Option<&JobRow>,
    judging: &Judging,
) -> PointDto {
    let label = label(&params);
    let Some(job) = job else {
        return PointDto {
            index,
            params,
            label,
            job_id: None,
            status: PointStatus::Infeasible,
            summary: None,
            error: Some(stored_error.map(point_error).unwrap_or(PointErrorDto {
                code: "infeasible_parameters".into(),
                message: "the point was refused before queueing".into(),
                details: Value::Null,
            })),
            report: None,
            verdict: None,
        };
    };
    let status = PointStatus::of_job(job.status);
    let summary = (status == PointStatus::Succeeded)
        .then_some(job.summary.as_ref())
        .flatten()
        .map(PointSummaryDto::of);
    let error = (status == PointStatus::Failed)
        .then(|| job.error.as_ref().map(job_point_error))
        .flatten();
    PointDto {
        index,
        params,
        label,
        job_id: Some(job.id),
        status,
        summary,
        error,
        report: Some(format!("/v1/jobs/{}/report", job.id)),
        verdict: judging.verdict(job, status),
    }
}

/// The resource of a stored sweep, its points judged with `judging`.
pub fn sweep_dto(stored: &StoredSweep, judging: &Judging) -> SweepDto {
    let sweep = &stored.sweep;
    let kind = sweep.request["model"]["kind"].as_str().unwrap_or_default();
    let (risk, safer) = risk_figure(kind).unwrap_or_else(|| {
        (
            RiskFigureDto {
                name: "worst".into(),
                title: "worst figure (attacker's view)".into(),
                safer: "lower".into(),
            },
            Safer::Lower,
        )
    });
    let n = sweep.points.as_array().map_or(0, Vec::len);
    let points: Vec<PointDto> = (0..n)
        .map(|i| {
            let (params, error) = stored_point(&sweep.points, i);
            let job = stored.jobs.iter().find(|j| j.sweep_point == Some(i as i32));
            point(i, params, error, job, judging)
        })
        .collect();
    let mut counts = CountsDto::default();
    for p in &points {
        *match p.status {
            PointStatus::Queued => &mut counts.queued,
            PointStatus::Running => &mut counts.running,
            PointStatus::Succeeded => &mut counts.succeeded,
            PointStatus::Failed => &mut counts.failed,
            PointStatus::Cancelled => &mut counts.cancelled,
            PointStatus::Infeasible => &mut counts.infeasible,
        } += 1;
    }
    let finished = points.iter().filter(|p| p.status.finished()).count();
    let all_finished = finished == n;
    let status = if all_finished && sweep.cancel_requested {
        SweepStatus::Cancelled
    } else if all_finished {
        if counts.succeeded > 0 {
            SweepStatus::Succeeded
        } else {
            SweepStatus::Failed
        }
    } else if stored.jobs.iter().all(|j| j.status == JobStatus::Queued) {
        SweepStatus::Queued
    } else {
        SweepStatus::Running
    };
    let figures = |utility: fn(&PointSummaryDto) -> Option<f64>| -> Vec<Option<Figures>> {
        points
            .iter()
            .map(|p| {
                let s = p.summary.as_ref()?;
                Some(Figures {
                    risk: s.risk?,
                    loss: utility(s)?,
                })
            })
            .collect()
    };
    let frontier_gcp = frontier(&figures(|s| Some(s.information_loss)), safer);
    let frontier_query = frontier(&figures(|s| s.query_error), safer);
    let axes = axes_of(&sweep.request);
    SweepDto {
        id: sweep.id,
        dataset_id: sweep.dataset_id,
        status,
        progress: if n == 0 {
            1.0
        } else {
            finished as f64 / n as f64
        },
        created_at: sweep.created_at,
        finished_at: if all_finished {
            stored
                .jobs
                .iter()
                .filter_map(|j| j.finished_at)
                .max()
                .or(Some(sweep.created_at))
        } else {
            None
        },
        request: sweep.request.clone(),
        axes,
        risk,
        counts,
        points,
        frontier: frontier_gcp,
        query_error_frontier: frontier_query,
    }
}

/// The request's lists, in the grid's order (re-read from the stored
/// request: the expansion is deterministic).
fn axes_of(request: &Value) -> Vec<AxisDto> {
    expand(request)
        .map(|g| {
            g.axes
                .into_iter()
                .map(|a| AxisDto {
                    name: a.name,
                    values: a
                        .values
                        .iter()
                        .filter_map(serde_json::Number::as_f64)
                        .collect(),
                })
                .collect()
        })
        .unwrap_or_default()
}
