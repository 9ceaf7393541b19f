//! The `AuditReport` response (docs/api.md §Audits) from the core's report.

use proxima_core::attacker::{Spread, ViewCheck, WorstVictim};
use proxima_core::audit::{
    AuditReport, CheckReport, RecordFigures, SizeBucket, WorstGroup, WorstRecord,
};
use proxima_core::risk::ProsecutorRisk;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::problem::detail_value;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = AuditReport)]
pub struct AuditReportDto {
    pub rows: u64,
    pub groups: u64,
    /// Every check passed, in the report's view.
    pub passed: bool,
    /// How the checks were judged: `attacker` (over every victim's
    /// candidate rows, docs/design.md §4) or `groups` (each group alone).
    pub view: ViewDto,
    pub checks: Vec<CheckReportDto>,
    pub risk: RiskDto,
    pub group_sizes: Vec<SizeBucketDto>,
}

/// The view an audit judges its checks in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = AuditView)]
pub enum ViewDto {
    /// Over every victim's candidates: the rows of every group whose labels
    /// cover the victim's QI values.
    #[default]
    Attacker,
    /// Each group alone (the papers' per-group checks).
    Groups,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = CheckReport)]
pub struct CheckReportDto {
    pub kind: String,
    #[schema(schema_with = super::doc_schemas::check_params)]
    pub params: Value,
    /// In the report's view.
    pub passed: bool,
    #[schema(schema_with = super::doc_schemas::check_value)]
    pub value: Value,
    /// Groups holding a row that fails the check (attacker view: a victim
    /// over the bound).
    pub violating_groups: u64,
    pub violating_rows: u64,
    pub worst_groups: Vec<WorstGroupDto>,
    /// Attacker view only: the victims and their candidate sets.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attacker: Option<AttackerFiguresDto>,
    /// Attacker view only: the same check judged group by group, so the
    /// difference is visible.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_group: Option<PerGroupDto>,
    /// `special_uniques` only: the records with the highest SUDA scores
    /// (at most 20), each with the columns of its smallest minimal sample
    /// unique — column names, never values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub worst_records: Option<Vec<WorstRecordDto>>,
    /// `special_uniques` only: minimal sample uniques found of each size,
    /// from 1 to the largest size searched.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub msus_by_size: Option<Vec<u64>>,
    /// `special_uniques` only: every column scanned with its share of the
    /// total SUDA score (sdcMicro's attribute contributions, in percent; an
    /// MSU counts for each of its columns, so the shares add up to more
    /// than 100).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column_contributions: Option<Vec<ColumnContributionDto>>,
}

/// A record with special uniques (`special_uniques`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = WorstRecord)]
pub struct WorstRecordDto {
    /// The record's 1-based data line in the upload (`row_id` in a
    /// release's download).
    pub record: u64,
    /// Its SUDA score: the sum of its MSUs' scores.
    pub score: f64,
    /// Its DIS-SUDA score: the estimated probability that a match on it is
    /// correct.
    pub dis_suda: f64,
    /// How many minimal sample uniques it has.
    pub msus: u64,
    /// The columns of its smallest minimal sample unique.
    pub columns: Vec<String>,
}

/// One column's share of the special uniques' risk.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = ColumnContribution)]
pub struct ColumnContributionDto {
    pub column: String,
    pub percent: f64,
}

impl From<&WorstRecord> for WorstRecordDto {
    fn from(r: &WorstRecord) -> Self {
        WorstRecordDto {
            record: r.line as u64,
            score: r.score,
            dis_suda: r.dis_suda,
            msus: r.msus as u64,
            columns: r.columns.clone(),
        }
    }
}

impl CheckReportDto {
    /// The record-level figures of a check that judges records.
    fn with_records(mut self, records: Option<&RecordFigures>) -> Self {
        if let Some(r) = records {
            self.worst_records = Some(r.worst.iter().map(WorstRecordDto::from).collect());
            self.msus_by_size = Some(r.msus_by_size.iter().map(|&n| n as u64).collect());
            self.column_contributions = Some(
                r.column_contributions
                    .iter()
                    .map(|(column, percent)| ColumnContributionDto {
                        column: column.clone(),
                        percent: *percent,
                    })
                    .collect(),
            );
        }
        self
    }
}

/// A check's victims in the attacker's view.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = AttackerFigures)]
pub struct AttackerFiguresDto {
    /// Rows judged as victims.
    pub victims: u64,
    /// Victims whose candidates breach the check.
    pub over_bound: u64,
    /// The worst victim's figure (see `value`); null when not finite.
    #[schema(required = true)]
    pub worst: Option<f64>,
    /// Groups among a victim's candidates.
    pub candidate_groups: SpreadDto,
    /// The worst victims (at most 20): their group, figure and candidates.
    pub worst_victims: Vec<WorstVictimDto>,
    /// Victims per figure bucket: `[upper edge, victims]`.
    #[schema(schema_with = super::doc_schemas::distribution)]
    pub distribution: Vec<(f64, u64)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = Spread)]
pub struct SpreadDto {
    pub median: u64,
    pub max: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = WorstVictim)]
pub struct WorstVictimDto {
    /// The victim's own group (1-based, as in the release).
    pub group_id: String,
    /// `null` when the figure is not finite.
    #[schema(required = true)]
    pub value: Option<f64>,
    /// Rows among its candidates.
    pub candidates: u64,
    /// Groups among its candidates.
    pub candidate_groups: u64,
}

/// A check judged group by group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = PerGroup)]
pub struct PerGroupDto {
    pub passed: bool,
    #[schema(schema_with = super::doc_schemas::check_value)]
    pub value: Value,
    pub violating_groups: u64,
    pub violating_rows: u64,
    pub worst_groups: Vec<WorstGroupDto>,
}

impl From<Spread> for SpreadDto {
    fn from(s: Spread) -> Self {
        SpreadDto {
            median: s.median as u64,
            max: s.max as u64,
        }
    }
}

impl WorstVictimDto {
    fn new(v: &WorstVictim, ids: Option<&[String]>) -> Self {
        WorstVictimDto {
            group_id: ids
                .and_then(|ids| ids.get(v.group as usize).cloned())
                .unwrap_or_else(|| (v.group + 1).to_string()),
            value: finite(v.value),
            candidates: v.candidates as u64,
            candidate_groups: v.candidate_groups as u64,
        }
    }
}

impl CheckReportDto {
    /// A check in the attacker's view, with its per-group twin.
    pub fn from_view(view: &ViewCheck, per_group: &CheckReport, ids: Option<&[String]>) -> Self {
        CheckReportDto {
            kind: view.kind.to_string(),
            params: map(&per_group.params),
            passed: view.passed,
            value: map(&view.value),
            violating_groups: view.violating_groups as u64,
            violating_rows: view.violating_rows as u64,
            worst_groups: view.worst_groups.iter().map(WorstGroupDto::from).collect(),
            attacker: Some(AttackerFiguresDto {
                victims: view.victims as u64,
                over_bound: view.over_bound as u64,
                worst: finite(view.worst),
                candidate_groups: view.candidate_groups.into(),
                worst_victims: view
                    .worst_victims
                    .iter()
                    .map(|v| WorstVictimDto::new(v, ids))
                    .collect(),
                distribution: view
                    .distribution
                    .iter()
                    .map(|&(edge, n)| (edge, n as u64))
                    .collect(),
            }),
            per_group: Some(PerGroupDto {
                passed: per_group.passed,
                value: map(&per_group.value),
                violating_groups: per_group.violating_groups as u64,
                violating_rows: per_group.violating_rows as u64,
                worst_groups: per_group
                    .worst_groups
                    .iter()
                    .map(WorstGroupDto::from)
                    .collect(),
            }),
            worst_records: None,
            msus_by_size: None,
            column_contributions: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = WorstGroup)]
pub struct WorstGroupDto {
    pub group_id: String,
    pub size: u64,
    /// `null` when the figure is not finite.
    #[schema(required = true)]
    pub value: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = Risk)]
pub struct RiskDto {
    pub prosecutor: ProsecutorRiskDto,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = ProsecutorRisk)]
pub struct ProsecutorRiskDto {
    pub max: f64,
    pub average: f64,
    pub records_at_max: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = SizeBucket)]
pub struct SizeBucketDto {
    pub min_size: u64,
    pub max_size: u64,
    pub groups: u64,
    pub rows: u64,
}

fn map(entries: &[(String, proxima_core::Detail)]) -> Value {
    Value::Object(
        entries
            .iter()
            .map(|(k, v)| (k.clone(), detail_value(v)))
            .collect(),
    )
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

impl From<&WorstGroup> for WorstGroupDto {
    fn from(g: &WorstGroup) -> Self {
        WorstGroupDto {
            group_id: g.group_id.clone(),
            size: g.size as u64,
            value: finite(g.value),
        }
    }
}

impl From<&CheckReport> for CheckReportDto {
    fn from(c: &CheckReport) -> Self {
        CheckReportDto {
            kind: c.kind.to_string(),
            params: map(&c.params),
            passed: c.passed,
            value: map(&c.value),
            violating_groups: c.violating_groups as u64,
            violating_rows: c.violating_rows as u64,
            worst_groups: c.worst_groups.iter().map(WorstGroupDto::from).collect(),
            attacker: None,
            per_group: None,
            worst_records: None,
            msus_by_size: None,
            column_contributions: None,
        }
        .with_records(c.records.as_ref())
    }
}

impl From<&ProsecutorRisk> for ProsecutorRiskDto {
    fn from(r: &ProsecutorRisk) -> Self {
        ProsecutorRiskDto {
            max: r.max,
            average: r.average,
            records_at_max: r.records_at_max as u64,
        }
    }
}

impl From<&SizeBucket> for SizeBucketDto {
    fn from(b: &SizeBucket) -> Self {
        SizeBucketDto {
            min_size: b.min_size as u64,
            max_size: b.max_size as u64,
            groups: b.groups as u64,
            rows: b.rows as u64,
        }
    }
}

impl AuditReportDto {
    /// Every check judged in the attacker's view (`view[i]` is
    /// `report.checks[i]` in that view), the per-group figures beside.
    pub fn from_view(report: &AuditReport, view: &[ViewCheck], ids: Option<&[String]>) -> Self {
        let view: Vec<Option<&ViewCheck>> = view.iter().map(Some).collect();
        Self::from_partial_view(report, &view, ids)
    }

    /// As [`from_view`](Self::from_view), where `view[i]` is `None` for a
    /// check the attacker's view does not judge victim by victim (a
    /// table-wide scan such as `special_uniques`, the same in both views):
    /// it is reported as judged over the table.
    pub fn from_partial_view(
        report: &AuditReport,
        view: &[Option<&ViewCheck>],
        ids: Option<&[String]>,
    ) -> Self {
        let mut dto = AuditReportDto::from(report);
        dto.view = ViewDto::Attacker;
        dto.checks = view
            .iter()
            .zip(&report.checks)
            .map(|(v, g)| match v {
                Some(v) => CheckReportDto::from_view(v, g, ids),
                None => CheckReportDto::from(g),
            })
            .collect();
        dto.passed = dto.checks.iter().all(|c| c.passed);
        dto
    }
}

impl From<&AuditReport> for AuditReportDto {
    /// Every check judged group by group.
    fn from(r: &AuditReport) -> Self {
        AuditReportDto {
            rows: r.rows as u64,
            groups: r.groups as u64,
            passed: r.passed,
            view: ViewDto::Groups,
            checks: r.checks.iter().map(CheckReportDto::from).collect(),
            risk: RiskDto {
                prosecutor: ProsecutorRiskDto::from(&r.risk),
            },
            group_sizes: r.group_sizes.iter().map(SizeBucketDto::from).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proxima_core::Detail;
    use serde_json::json;

    #[test]
    fn the_report_has_the_api_shape() {
        let report = AuditReport {
            rows: 30162,
            groups: 3016,
            passed: false,
            checks: vec![CheckReport {
                kind: "epsilon_m",
                params: vec![
                    ("epsilon".into(), Detail::Num(4500.0)),
                    ("m".into(), Detail::Int(5)),
                ],
                passed: false,
                value: vec![
                    ("max_breach_probability".into(), Detail::Num(0.5)),
                    ("achieved_m".into(), Detail::Int(2)),
                ],
                violating_groups: 12,
                violating_rows: 40,
                worst_groups: vec![WorstGroup {
                    group_id: "17".into(),
                    size: 4,
                    value: 0.75,
                }],
                records: None,
            }],
            risk: ProsecutorRisk {
                max: 0.1,
                average: 0.033,
                records_at_max: 40,
            },
            group_sizes: vec![SizeBucket {
                min_size: 10,
                max_size: 10,
                groups: 2000,
                rows: 20000,
            }],
        };
        let v = serde_json::to_value(AuditReportDto::from(&report)).unwrap();
        assert_eq!(
            v,
            json!({"rows": 30162, "groups": 3016, "passed": false, "view": "groups",
                "checks": [{"kind": "epsilon_m", "params": {"epsilon": 4500.0, "m": 5}, "passed": false,
                    "value": {"max_breach_probability": 0.5, "achieved_m": 2},
                    "violating_groups": 12, "violating_rows": 40,
                    "worst_groups": [{"group_id": "17", "size": 4, "value": 0.75}]}],
                "risk": {"prosecutor": {"max": 0.1, "average": 0.033, "records_at_max": 40}},
                "group_sizes": [{"min_size": 10, "max_size": 10, "groups": 2000, "rows": 20000}]})
        );
    }
}
