//! The `AuditReport` response (API.md §Audits) from the core's report.

use proxima_core::audit::{AuditReport, CheckReport, ProsecutorRisk, SizeBucket, WorstGroup};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::problem::detail_value;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = AuditReport)]
pub struct AuditReportDto {
    pub rows: u64,
    pub groups: u64,
    pub passed: bool,
    pub checks: Vec<CheckReportDto>,
    pub risk: RiskDto,
    pub group_sizes: Vec<SizeBucketDto>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = CheckReport)]
pub struct CheckReportDto {
    pub kind: String,
    #[schema(schema_with = super::doc_schemas::check_params)]
    pub params: Value,
    pub passed: bool,
    #[schema(schema_with = super::doc_schemas::check_value)]
    pub value: Value,
    pub violating_groups: u64,
    pub violating_rows: u64,
    pub worst_groups: Vec<WorstGroupDto>,
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
        }
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

impl From<&AuditReport> for AuditReportDto {
    fn from(r: &AuditReport) -> Self {
        AuditReportDto {
            rows: r.rows as u64,
            groups: r.groups as u64,
            passed: r.passed,
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
            json!({"rows": 30162, "groups": 3016, "passed": false,
                "checks": [{"kind": "epsilon_m", "params": {"epsilon": 4500.0, "m": 5}, "passed": false,
                    "value": {"max_breach_probability": 0.5, "achieved_m": 2},
                    "violating_groups": 12, "violating_rows": 40,
                    "worst_groups": [{"group_id": "17", "size": 4, "value": 0.75}]}],
                "risk": {"prosecutor": {"max": 0.1, "average": 0.033, "records_at_max": 40}},
                "group_sizes": [{"min_size": 10, "max_size": 10, "groups": 2000, "rows": 20000}]})
        );
    }
}
