//! The release report's content (`GET /v1/jobs/{id}/report`, JSON and the
//! source of the HTML page): typed response structs, one per section.
//!
//! Field names are the contract of the JSON form (documented in
//! `openapi/openapi.json` and `docs/release-report.md`). Sections that need
//! a release (`release`, `risk.after`, `attacker_view`, `utility`, …) are
//! null for a failed job, whose `failure` says why instead.

use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use super::verdict::{self, Facts, WarningFact};
use crate::api::audit_report::{CheckReportDto, SizeBucketDto};
use crate::api::feasibility::FeasibilityResponseDto;
use crate::api::{JobRequestDto, PopulationDto, RoleDto, TypeDto};

/// Who the report is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = ReportAudience)]
pub enum Audience {
    /// The data owner: includes the riskiest QI combinations and groups.
    #[default]
    Internal,
    /// For publication beside the data: no QI value of a risky record.
    External,
}

/// The release report.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = ReleaseReport)]
pub struct ReleaseReport {
    pub audience: Audience,
    /// The verdict the report opens with, its reasons and the policy it
    /// applied (`crate::release_report::verdict`).
    pub verdict: verdict::Verdict,
    /// The approvals and rejections recorded for this job, oldest first,
    /// each with the release hash it binds.
    pub approvals: Vec<crate::api::approval::ApprovalDto>,
    pub job: ReportJob,
    pub dataset: ReportDataset,
    /// The CSV release; null unless the job succeeded.
    #[schema(required = true)]
    pub release: Option<ReleaseFacts>,
    /// Why the job failed; null unless it failed.
    #[schema(required = true)]
    pub failure: Option<Failure>,
    pub risk: RiskSection,
    /// The model's own check in the attacker's view, as the job's audit
    /// reports it; null without a release.
    #[schema(required = true)]
    pub attacker_view: Option<AttackerSection>,
    /// Groups of the release by size, in Google DLP's bucket shape (the
    /// job audit's `group_sizes`); empty without a release.
    pub group_sizes: Vec<SizeBucketDto>,
    /// Per sensitive column: its distribution over the published table
    /// beside that of the riskiest groups; empty without a release.
    pub sensitive: Vec<SaDistribution>,
    /// Null without a release.
    #[schema(required = true)]
    pub utility: Option<Utility>,
    pub warnings: Vec<Warning>,
    /// The riskiest QI combinations and groups, with their QI values;
    /// null in the `external` report.
    #[schema(required = true)]
    pub riskiest: Option<Riskiest>,
    /// Records at risk through combinations of columns: SUDA2's minimal
    /// sample uniques over the upload's QIs and the release as published.
    pub combinations: CombinationsSection,
}

impl ReleaseReport {
    /// The facts the verdict is decided on (`verdict::judge`), read from
    /// this assembled report.
    pub fn verdict_facts(&self) -> Facts {
        let after = self.risk.after.as_ref();
        Facts {
            failed: self.failure.as_ref().map(|f| f.code.clone()),
            model: self
                .attacker_view
                .as_ref()
                .map(|a| (a.model_check.kind.clone(), a.model_check.passed)),
            prosecutor_max: after.map(|a| a.prosecutor_max),
            population_uniques_share: after
                .and_then(|a| a.population_uniqueness.as_ref())
                .map(|p| p.share),
            warnings: self
                .warnings
                .iter()
                .enumerate()
                .map(|(i, w)| WarningFact {
                    kind: verdict::warning_kind(&w.kind),
                    column: w.column.clone(),
                    number: i + 1,
                    message: w.message.clone(),
                    below_k_share: w.below_k_share,
                })
                .collect(),
            suppressed_share: self.utility.as_ref().map(|u| u.suppressed.model_share),
            median_query_error: self.utility.as_ref().and_then(|u| {
                u.query_error
                    .iter()
                    .filter_map(|e| Some((e.q, e.median?)))
                    .max_by(|a, b| a.1.total_cmp(&b.1))
            }),
        }
    }
}

/// Records at risk through combinations of columns (SUDA2, as the
/// `special_uniques` audit check measures them).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = ReportCombinations)]
pub struct CombinationsSection {
    /// The largest minimal sample unique searched (capped per scan at the
    /// number of columns scanned).
    pub max_size: u64,
    /// DIS-SUDA's sampling fraction: the dataset's rows over its declared
    /// population, else 0.01.
    pub dis_fraction: f64,
    /// The upload's QIs, then (with a release) the release's QIs through
    /// their labels and every column the release publishes.
    pub scans: Vec<CombinationScan>,
    /// Why nothing was scanned (a table over the report's row limit), or
    /// null.
    #[schema(required = true)]
    pub skipped: Option<String>,
}

/// One SUDA2 scan.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = ReportCombinationScan)]
pub struct CombinationScan {
    /// `upload` (the table as uploaded) or `release` (as published).
    pub table: String,
    /// `quasi_identifiers` or `published` (every published column).
    pub columns: String,
    pub columns_scanned: u64,
    pub records: u64,
    /// Records with a minimal sample unique of at most `max_size` columns.
    pub records_with_msu: u64,
    /// Records unique over every column scanned.
    pub sample_uniques: u64,
    pub max_suda_score: f64,
    /// The highest DIS-SUDA score (the estimated probability that a match
    /// on the record is correct).
    pub dis_suda: f64,
    pub dis_suda_mean: f64,
    /// Minimal sample uniques of each size, from 1.
    pub msus_by_size: Vec<u64>,
    /// The columns involved: each column in an MSU with its share of the
    /// total SUDA score in percent, largest first.
    pub columns_involved: Vec<crate::api::audit_report::ColumnContributionDto>,
    /// The highest-scoring records with their smallest MSU's columns and
    /// values; null in the `external` report.
    #[schema(required = true)]
    pub worst: Option<Vec<RecordAtRisk>>,
}

/// A record at risk through a combination of columns (internal report).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = RecordAtRisk)]
pub struct RecordAtRisk {
    /// Its 1-based data line in the upload (a release's `row_id`).
    pub record: u64,
    pub score: f64,
    pub dis_suda: f64,
    /// The columns of its smallest minimal sample unique.
    pub columns: Vec<String>,
    /// The values it publishes there, in `columns` order.
    pub values: Vec<String>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = ReportJob)]
pub struct ReportJob {
    #[schema(format = Uuid)]
    pub id: String,
    /// `succeeded` or `failed`.
    pub status: String,
    pub created_at: chrono::DateTime<chrono::Utc>,
    #[schema(required = true)]
    pub finished_at: Option<chrono::DateTime<chrono::Utc>>,
    /// The request that replays this job: `POST /v1/jobs` with this body
    /// on the same dataset gives the same release.
    pub request: JobRequestDto,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = ReportDataset)]
pub struct ReportDataset {
    #[schema(format = Uuid)]
    pub id: String,
    pub name: String,
    /// Data rows of the upload, suppressed ones included.
    pub rows: u64,
    /// Rows left out for missing values.
    pub suppressed_rows: u64,
    /// Hex SHA-256 of the uploaded CSV.
    pub sha256: String,
    #[schema(required = true)]
    pub population: Option<PopulationDto>,
    pub columns: Vec<ReportColumn>,
}

#[derive(Debug, Clone, Serialize, serde::Deserialize, ToSchema)]
#[schema(as = ReportColumn)]
pub struct ReportColumn {
    pub name: String,
    pub role: RoleDto,
    #[schema(required = true)]
    #[serde(rename = "type")]
    pub value_type: Option<TypeDto>,
}

/// The release as `GET /v1/jobs/{id}/result` serves it in CSV.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = ReleaseFacts)]
pub struct ReleaseFacts {
    /// Hex SHA-256 of the CSV body of `GET …/result` (no `row_id`).
    pub sha256: String,
    pub bytes: u64,
    pub rows: u64,
    pub groups: u64,
    /// The published columns, in order (`group_id` first).
    pub columns: Vec<String>,
}

/// What a failed job says about itself.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = ReportFailure)]
pub struct Failure {
    /// The job's error code (`model_not_satisfied`, …).
    pub code: String,
    pub message: String,
    /// The diagnostics of the job's error (`rows_needing_suppression`, the
    /// attacker's-view figures, …).
    #[schema(schema_with = crate::api::doc_schemas::job_error_details)]
    pub details: Value,
    /// What the service delivers for sure for this model on this table
    /// (the feasibility answer); null for models without one.
    #[schema(required = true)]
    pub deliverable: Option<FeasibilityResponseDto>,
}

/// Re-identification risk before (the uploaded table's QIs) and after (the
/// release in the attacker's view).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = ReportRisk)]
pub struct RiskSection {
    pub before: RiskFigures,
    /// Null without a release.
    #[schema(required = true)]
    pub after: Option<RiskFigures>,
}

/// The risk measures over one set of equivalence classes.
#[derive(Debug, Clone, PartialEq, Default, Serialize, ToSchema)]
#[schema(as = RiskFigures)]
pub struct RiskFigures {
    /// Records judged.
    pub records: u64,
    /// Equivalence classes (before: distinct QI combinations; after:
    /// distinct candidate-set sizes' classes, see docs).
    pub classes: u64,
    /// The smallest class.
    pub min_class_size: u64,
    /// Prosecutor risk: the highest re-identification probability of a
    /// record (1 / the smallest class).
    pub prosecutor_max: f64,
    /// Prosecutor risk averaged over records (= classes / records).
    pub prosecutor_average: f64,
    /// Records at the highest prosecutor risk.
    pub records_at_max: u64,
    /// Journalist risk: the highest re-identification probability when the
    /// attacker's victim list is the population (1 / the smallest
    /// population class; the prosecutor figure without `population`;
    /// counted in the population table when the dataset names one).
    pub journalist_max: f64,
    /// Marketer risk: the expected share of records re-identified when
    /// every record is attacked.
    pub marketer: f64,
    /// Records alone in their class.
    pub sample_uniques: u64,
    pub sample_uniques_share: f64,
    /// Estimated population uniques; null without the dataset's
    /// `population`.
    #[schema(required = true)]
    pub population_uniqueness: Option<PopulationUniqueness>,
    /// Journalist risk counted in the dataset's population table (its
    /// schema's `population.dataset_id`); absent without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub population_table: Option<PopulationTableRisk>,
}

/// Journalist risk against a population table
/// (`proxima_core::population::journalist_risk`): a record of a class whose
/// labels cover c population records is re-identified with probability
/// 1/c (before: the raw QI values as labels).
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[schema(as = PopulationTableRisk)]
pub struct PopulationTableRisk {
    /// Records in the population table.
    pub population_rows: u64,
    /// The fewest population records a class covers (k-map's k).
    pub min_population_count: u64,
    /// The highest journalist risk: 1 / `min_population_count` (1 for a
    /// class covering no population record).
    pub journalist_max: f64,
    /// Journalist risk averaged over records.
    pub journalist_average: f64,
    /// Records at the highest journalist risk.
    pub records_at_max: u64,
    /// Records whose class covers exactly one population record (unique
    /// in the population, counted rather than estimated).
    pub population_uniques: u64,
}

/// Population uniqueness (`proxima_core::risk::population_uniqueness`):
/// the three models' estimates and the one Dankar's rule chose.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[schema(as = PopulationUniqueness)]
pub struct PopulationUniqueness {
    /// The estimator Dankar's rule chose: `pitman`, `zayatz` or `snb`;
    /// null when there is no sample unique or the chosen model gave no
    /// valid estimate (then `share` is 0).
    #[schema(required = true)]
    pub model: Option<String>,
    /// Why (`pitman_small_fraction`, `zayatz_below_snb`, …).
    pub rule: String,
    pub explanation: String,
    /// Estimated records unique in the population.
    pub uniques: f64,
    /// `uniques` / the population size.
    pub share: f64,
    pub population_size: f64,
    /// The sampling fraction used (records / the population size).
    pub sampling_fraction: f64,
    /// Each model's estimate of the population uniques (null when it did
    /// not converge or is undefined here).
    #[schema(required = true)]
    pub pitman: Option<f64>,
    #[schema(required = true)]
    pub zayatz: Option<f64>,
    #[schema(required = true)]
    pub snb: Option<f64>,
}

/// The attacker's-view figures of the job's model (its audit's first
/// check), and the k-anonymity check beside it.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = ReportAttackerView)]
pub struct AttackerSection {
    /// The model's own check, as `GET /v1/jobs/{id}/audit` reports it.
    pub model_check: CheckReportDto,
    /// Every check of the job's audit: kind and verdict.
    pub checks: Vec<CheckVerdict>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = ReportCheckVerdict)]
pub struct CheckVerdict {
    pub kind: String,
    pub passed: bool,
}

/// One sensitive column's distribution: shares of rows per category.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = SaDistribution)]
pub struct SaDistribution {
    pub column: String,
    /// Category labels: value ranges `[lo-hi]` for a numeric column (ten
    /// equal-width buckets), values for a categorical one (the most
    /// frequent, the rest as `other`).
    pub categories: Vec<String>,
    /// Shares of the published table's rows per category (sum 1).
    pub table: Vec<f64>,
    /// Shares of the riskiest groups' rows per category.
    pub riskiest: Vec<f64>,
    /// The riskiest groups: the worst groups of the model's check in the
    /// attacker's view (at most 10).
    pub riskiest_groups: u64,
    pub riskiest_rows: u64,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = ReportUtility)]
pub struct Utility {
    /// GCP: the normalized certainty penalty averaged over QIs and rows
    /// (rows suppressed by the model at loss 1), as the job summary's
    /// `information_loss`.
    pub gcp: f64,
    /// Per QI, the same average (its mean over QIs is `gcp`).
    pub per_qi: Vec<QiLoss>,
    /// The count-query workload at selectivity 0.1 for q = 2 and 3, the
    /// true counts taken on the original table (rows the model left out
    /// included).
    pub query_error: Vec<QueryError>,
    pub suppressed: Suppressed,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = QiLoss)]
pub struct QiLoss {
    pub column: String,
    pub ncp: f64,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = QueryError)]
pub struct QueryError {
    /// QIs per query (the papers' query dimensionality; the SA predicates
    /// come on top).
    pub q: u64,
    /// SA predicates per query: 1, or 2 columns of a composite SA (XColor's
    /// qs = 2); 0 when the workload was not run.
    pub sa_predicates: u64,
    pub selectivity: f64,
    pub queries: u64,
    /// Queries with a non-zero true count (the others have no relative
    /// error).
    pub queries_used: u64,
    /// Mean relative error (the papers' figure); null when no query
    /// counted (or q exceeds the QIs).
    #[schema(required = true)]
    pub mean: Option<f64>,
    /// Median relative error of the same queries: a few queries on rare
    /// values can dominate the mean.
    #[schema(required = true)]
    pub median: Option<f64>,
    /// The workload's seed (fixed, so the figure is reproducible).
    pub seed: u64,
}

/// Rows left out of the release, by reason.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = SuppressedRows)]
pub struct Suppressed {
    /// Missing QI or SA values (`on_missing: suppress`).
    pub missing_values: u64,
    /// Left out to satisfy the model in the attacker's view
    /// (`suppression_limit`).
    pub model: u64,
    /// `model` as a share of the rows the job ran on: every count taken
    /// from the release misses these rows (a count over the whole table
    /// comes out this much short), and the query errors are measured
    /// against the original table, that loss included.
    pub model_share: f64,
    /// (ε,m) jobs: a **lower bound** on the share of rows that any release
    /// at the job's (ε, m) leaves out (the feasibility answer's
    /// `minimum_suppression`): `model_share` above it is the engine's
    /// price, not the data's. Null for other models.
    #[schema(required = true)]
    pub model_minimum_share: Option<f64>,
}

/// A computed warning.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = ReportWarning)]
pub struct Warning {
    /// `sa_association`, `fine_grained_column`, `ungeneralized_qi` or
    /// `suppression_concentrated` (`docs/release-report.md`, Warnings).
    pub kind: String,
    /// The column it is about.
    pub column: String,
    pub message: String,
    /// The measured figure behind it (see `docs/release-report.md`).
    pub value: f64,
    /// The threshold it crossed.
    pub threshold: f64,
    /// `fine_grained_column`: the share of published records the column
    /// leaves in groups of fewer than the model's k (null for the other
    /// kinds, and without a k). The release policy's `max_below_k_share`
    /// is held against it.
    #[schema(required = true)]
    pub below_k_share: Option<f64>,
}

/// Internal report only: the records most at risk, with their QI values.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = ReportRiskiest)]
pub struct Riskiest {
    /// The QI columns, the order of every `values` list.
    pub columns: Vec<String>,
    /// The smallest equivalence classes of the uploaded table's QIs.
    pub before: Vec<RiskyCombination>,
    /// The groups of the release whose rows have the fewest candidates in
    /// the attacker's view, with their published labels.
    pub after: Vec<RiskyGroup>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = RiskyCombination)]
pub struct RiskyCombination {
    pub values: Vec<String>,
    pub class_size: u64,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = RiskyGroup)]
pub struct RiskyGroup {
    /// As in the release's `group_id`.
    pub group_id: String,
    pub labels: Vec<String>,
    pub size: u64,
    /// The fewest candidates a row of this group has.
    pub candidates: u64,
    /// 1 / candidates.
    pub prosecutor: f64,
}
