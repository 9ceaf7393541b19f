//! The audit request of `POST /v1/audits` (docs/api.md §Audits), the CLI's
//! `--checks`, and the feasibility request (docs/api.md §Feasibility).

use proxima_core::audit::AuditCheck;
use proxima_core::error::CoreResult;
use proxima_core::params::PopulationModel;
use proxima_core::params::{Dissimilarity, GroundDistance, LDiversity, K};
use proxima_core::risk::suda::{DisFraction, KeyScope, MaxSize, MAX_MSU_SIZE};
use proxima_core::{CoreError, ErrorKind, Field, Schema};
use serde::{Deserialize, Serialize};
use serde_json::{Number, Value};
use utoipa::ToSchema;

use super::audit_report::ViewDto;
use super::metric::MetricDto;
use super::model::{
    epsilon_m_params, epsilon_param, fraction_param, k_param, l_variant, resolve_ground_distance,
    GroundDistanceDto, LVariantDto, NeighborhoodDto,
};
use super::number::{integer, real};
use super::problem::FieldPointer;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = AuditRequest)]
#[serde(deny_unknown_fields)]
pub struct AuditRequestDto {
    /// The uploaded table to audit; give exactly one of `dataset_id` and
    /// `job_id`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(format = Uuid)]
    pub dataset_id: Option<String>,
    /// The succeeded job whose release to audit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(format = Uuid)]
    pub job_id: Option<String>,
    /// Default: `{"by": "quasi_identifiers"}`.
    #[serde(default)]
    pub groups: GroupsDto,
    pub checks: Vec<CheckDto>,
    /// `attacker` (the default for `job_id`): every check over each
    /// victim's candidates — the rows of every group whose labels cover the
    /// victim's QI values; for an uploaded table, whose original values are
    /// unknown, every set of groups whose labels can cover one QI point.
    /// `groups` (the default for `dataset_id`): each group alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub view: Option<ViewDto>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = Groups)]
#[serde(tag = "by", rename_all = "snake_case", deny_unknown_fields)]
pub enum GroupsDto {
    /// Rows with identical published QI values form a group. (An empty
    /// struct variant so that stray fields are rejected.)
    QuasiIdentifiers {},
    /// A column holds the group id.
    Column { column: String },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = Check)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum CheckDto {
    KAnonymity {
        #[schema(value_type = u64, minimum = 1)]
        k: Number,
    },
    LDiversity {
        #[schema(value_type = f64)]
        l: Number,
        #[serde(default)]
        variant: LVariantDto,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(value_type = Option<f64>)]
        c: Option<Number>,
    },
    AlphaK {
        #[schema(value_type = f64)]
        alpha: Number,
        #[schema(value_type = u64, minimum = 1)]
        k: Number,
    },
    EpsilonM {
        #[schema(value_type = f64)]
        epsilon: Number,
        #[schema(value_type = u64, minimum = 1)]
        m: Number,
        #[serde(default)]
        neighborhood: NeighborhoodDto,
    },
    Dissimilarity {
        #[schema(value_type = f64)]
        epsilon: Number,
        #[schema(value_type = f64)]
        delta: Number,
        #[schema(value_type = u64, minimum = 1)]
        k: Number,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sensitive_metric: Option<MetricDto>,
    },
    DeltaLDiversity {
        #[schema(value_type = f64)]
        delta: Number,
        #[schema(value_type = f64)]
        l: Number,
    },
    TCloseness {
        #[schema(value_type = f64)]
        t: Number,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ground_distance: Option<GroundDistanceDto>,
    },
    /// ARX's k-map: every class's labels cover at least k records of the
    /// population table (`value.min_population_count`).
    KMap {
        #[schema(value_type = u64, minimum = 1)]
        k: Number,
        /// A dataset of the same tenant holding the audited table's
        /// quasi-identifiers.
        #[schema(format = Uuid)]
        population_dataset_id: String,
    },
    /// ARX's δ-presence: every class's records / the population records
    /// its labels cover lies in [delta_min, delta_max] (`value.min_delta`,
    /// `value.max_delta`); the audited table must be a subset of the
    /// population table.
    DeltaPresence {
        #[schema(value_type = f64, minimum = 0, maximum = 1)]
        delta_min: Number,
        #[schema(value_type = f64, minimum = 0, maximum = 1)]
        delta_max: Number,
        #[schema(format = Uuid)]
        population_dataset_id: String,
    },
    /// SUDA2's minimal sample uniques (sdcMicro's `suda2`): the smallest
    /// sets of column values that single a record out, the per-record SUDA
    /// and DIS-SUDA scores. Passes when no record has one.
    SpecialUniques {
        /// The largest MSU searched, 1 to 16 columns (default 4; capped at
        /// the number of columns scanned).
        // Each field is read as any JSON value, so that a wrong type is
        // refused at the field's own pointer (`special_uniques`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(value_type = Option<u64>, minimum = 1, maximum = 16)]
        max_size: Option<Value>,
        /// The declared QIs as published (default), or every published
        /// column.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(value_type = Option<SudaColumnsDto>)]
        columns: Option<Value>,
        /// DIS-SUDA's sampling fraction, in (0, 1] (default 0.01,
        /// sdcMicro's `DisFraction`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(value_type = Option<f64>)]
        dis_fraction: Option<Value>,
    },
}

/// The columns a `special_uniques` check scans.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[schema(as = SudaColumns)]
#[serde(rename_all = "snake_case")]
pub enum SudaColumnsDto {
    /// The declared quasi-identifiers, as published.
    #[default]
    QuasiIdentifiers,
    /// Every published column: QIs as published, sensitive and
    /// insensitive columns as uploaded.
    Published,
}

/// A check judged against a population table: the request's index, the
/// model and the population's id.
#[derive(Debug, Clone, PartialEq)]
pub struct PopulationCheck {
    pub index: usize,
    pub model: PopulationModel,
    pub population: uuid::Uuid,
}

/// A request's checks split by what they are judged on: the table's own
/// checks (with their indexes in the request) and the population checks.
#[derive(Debug, Clone, Default)]
pub struct SplitChecks {
    pub table: Vec<AuditCheck>,
    pub table_index: Vec<usize>,
    pub population: Vec<PopulationCheck>,
}

impl SplitChecks {
    /// A core error about the table checks (`/checks/{j}`, j counting the
    /// table checks only) with its pointers at the request's indexes.
    pub fn renumber(&self, mut err: CoreError) -> CoreError {
        for f in &mut err.errors {
            let pointer = f.pointer();
            let Some(rest) = pointer.strip_prefix("/checks/") else {
                continue;
            };
            let digits = rest.find('/').unwrap_or(rest.len());
            if let Ok(j) = rest[..digits].parse::<usize>() {
                if let Some(&i) = self.table_index.get(j) {
                    f.field = Field::Pointer(format!("/checks/{i}{}", &rest[digits..]));
                }
            }
        }
        err
    }
}

impl CheckDto {
    pub fn kind_name(&self) -> &'static str {
        match self {
            CheckDto::KAnonymity { .. } => "k_anonymity",
            CheckDto::LDiversity { .. } => "l_diversity",
            CheckDto::AlphaK { .. } => "alpha_k",
            CheckDto::EpsilonM { .. } => "epsilon_m",
            CheckDto::Dissimilarity { .. } => "dissimilarity",
            CheckDto::DeltaLDiversity { .. } => "delta_l_diversity",
            CheckDto::TCloseness { .. } => "t_closeness",
            CheckDto::SpecialUniques { .. } => "special_uniques",
            CheckDto::KMap { .. } => "k_map",
            CheckDto::DeltaPresence { .. } => "delta_presence",
        }
    }

    /// The population check this is, validated at `at`; `None` for the
    /// table's own checks.
    pub fn population_check(&self, at: &str) -> CoreResult<Option<(PopulationModel, uuid::Uuid)>> {
        let id = |s: &str| {
            uuid::Uuid::parse_str(s).map_err(|_| {
                CoreError::invalid_parameters(
                    format!("{at}/population_dataset_id"),
                    format!("population_dataset_id must be a dataset id (a UUID), got {s:?}"),
                )
            })
        };
        Ok(match self {
            CheckDto::KMap {
                k,
                population_dataset_id,
            } => Some((
                PopulationModel::KMap {
                    k: k_param(k, &format!("{at}/k"))?,
                },
                id(population_dataset_id)?,
            )),
            CheckDto::DeltaPresence {
                delta_min,
                delta_max,
                population_dataset_id,
            } => Some((
                PopulationModel::delta_presence(real(delta_min), real(delta_max), at)?,
                id(population_dataset_id)?,
            )),
            _ => None,
        })
    }

    /// Validates the check at `at` (`/checks/3`).
    pub fn to_check(&self, schema: &Schema, at: &str) -> CoreResult<AuditCheck> {
        Ok(match self {
            CheckDto::KAnonymity { k } => AuditCheck::KAnonymity {
                k: k_param(k, &format!("{at}/k"))?,
            },
            CheckDto::LDiversity { l, variant, c } => {
                let variant = l_variant(*variant, c.as_ref(), at)?;
                // LDiversity::new checks l's domain for the variant.
                let checked = LDiversity::new(real(l), variant, K::new(1, at)?, at)?;
                AuditCheck::LDiversity {
                    l: checked.l,
                    variant: checked.variant,
                }
            }
            CheckDto::AlphaK { alpha, k } => AuditCheck::AlphaK {
                alpha: fraction_param(alpha, "alpha", &format!("{at}/alpha"))?,
                k: k_param(k, &format!("{at}/k"))?,
            },
            CheckDto::EpsilonM {
                epsilon,
                m,
                neighborhood,
            } => AuditCheck::EpsilonM(epsilon_m_params(epsilon, m, *neighborhood, at)?),
            CheckDto::Dissimilarity {
                epsilon,
                delta,
                k,
                sensitive_metric,
            } => AuditCheck::Dissimilarity {
                params: Dissimilarity {
                    epsilon: epsilon_param(epsilon, &format!("{at}/epsilon"))?,
                    delta: fraction_param(delta, "delta", &format!("{at}/delta"))?,
                    k: k_param(k, &format!("{at}/k"))?,
                },
                metric: sensitive_metric
                    .as_ref()
                    .map(|m| m.to_spec(&format!("{at}/sensitive_metric")))
                    .transpose()?,
            },
            CheckDto::DeltaLDiversity { delta, l } => {
                let d = real(delta);
                if !d.is_finite() || d < 0.0 {
                    return Err(CoreError::invalid_parameters(
                        format!("{at}/delta"),
                        format!("delta must be a finite number ≥ 0, got {delta}"),
                    ));
                }
                let l_at = format!("{at}/l");
                let l = integer(l, "l", &l_at)?;
                if l == 0 {
                    return Err(CoreError::invalid_parameters(
                        l_at,
                        "l must be an integer of at least 1, got 0",
                    ));
                }
                AuditCheck::DeltaLDiversity {
                    delta: d,
                    l: l as usize,
                }
            }
            CheckDto::TCloseness { t, ground_distance } => {
                let ground: GroundDistance = resolve_ground_distance(*ground_distance, schema, at)?;
                AuditCheck::TCloseness {
                    t: fraction_param(t, "t", &format!("{at}/t"))?,
                    ground,
                }
            }
            CheckDto::SpecialUniques {
                max_size,
                columns,
                dis_fraction,
            } => special_uniques(
                max_size.as_ref(),
                columns.as_ref(),
                dis_fraction.as_ref(),
                at,
            )?,
            CheckDto::KMap { .. } | CheckDto::DeltaPresence { .. } => {
                // Validated here so that bad parameters are named first.
                self.population_check(at)?;
                return Err(CoreError::invalid_parameters(
                    format!("{at}/kind"),
                    format!(
                        "{} is judged against a population table (a stored dataset): \
                         audit through POST /v1/audits",
                        self.kind_name()
                    ),
                ));
            }
        })
    }
}

/// A `special_uniques` check at `at`, each field refused at its own
/// pointer (a wrong type included).
fn special_uniques(
    max_size: Option<&Value>,
    columns: Option<&Value>,
    dis_fraction: Option<&Value>,
    at: &str,
) -> CoreResult<AuditCheck> {
    let max_size = match max_size {
        None => MaxSize::default(),
        Some(v) => {
            let m_at = format!("{at}/max_size");
            let m = v
                .as_number()
                .and_then(|n| integer(n, "max_size", &m_at).ok())
                .ok_or_else(|| {
                    CoreError::invalid_parameters(
                        &m_at,
                        format!("max_size must be an integer from 1 to {MAX_MSU_SIZE}, got {v}"),
                    )
                })?;
            MaxSize::new(m, &m_at)?
        }
    };
    let columns = match columns {
        None => KeyScope::QuasiIdentifiers,
        Some(v) => match v.as_str() {
            Some("quasi_identifiers") => KeyScope::QuasiIdentifiers,
            Some("published") => KeyScope::Published,
            _ => {
                return Err(CoreError::invalid_parameters(
                    format!("{at}/columns"),
                    format!("columns must be \"quasi_identifiers\" or \"published\", got {v}"),
                ))
            }
        },
    };
    let dis_fraction = match dis_fraction {
        None => DisFraction::default(),
        Some(v) => {
            let f_at = format!("{at}/dis_fraction");
            let f = v.as_number().map(real).ok_or_else(|| {
                CoreError::invalid_parameters(
                    &f_at,
                    format!("dis_fraction must be a number in (0, 1], got {v}"),
                )
            })?;
            DisFraction::new(f, &f_at)?
        }
    };
    Ok(AuditCheck::SpecialUniques {
        max_size,
        columns,
        dis_fraction,
    })
}

/// Parses the CLI's `--checks` value: a JSON array of checks (pointers
/// `/checks/<i>/…`, as in the API body).
pub fn checks_from_json(bytes: &[u8]) -> CoreResult<Vec<CheckDto>> {
    super::json::from_json(bytes, "the checks", "/checks", ErrorKind::InvalidParameters)
}

/// Validates every check; an empty list is an error (an audit that checks
/// nothing would pass vacuously).
pub fn audit_checks(checks: &[CheckDto], schema: &Schema) -> CoreResult<Vec<AuditCheck>> {
    if checks.is_empty() {
        return Err(CoreError::invalid_parameters(
            "/checks",
            "the audit names no checks",
        ));
    }
    checks
        .iter()
        .enumerate()
        .map(|(i, c)| c.to_check(schema, &format!("/checks/{i}")))
        .collect()
}

/// Validates every check and splits them (an empty list is an error, as
/// for [`audit_checks`]).
pub fn split_checks(checks: &[CheckDto], schema: &Schema) -> CoreResult<SplitChecks> {
    if checks.is_empty() {
        return Err(CoreError::invalid_parameters(
            "/checks",
            "the audit names no checks",
        ));
    }
    let mut split = SplitChecks::default();
    for (i, c) in checks.iter().enumerate() {
        let at = format!("/checks/{i}");
        match c.population_check(&at)? {
            Some((model, population)) => split.population.push(PopulationCheck {
                index: i,
                model,
                population,
            }),
            None => {
                split.table.push(c.to_check(schema, &at)?);
                split.table_index.push(i);
            }
        }
    }
    Ok(split)
}

impl AuditRequestDto {
    pub fn from_json(bytes: &[u8]) -> CoreResult<AuditRequestDto> {
        super::json::from_json(bytes, "the audit", "", ErrorKind::InvalidParameters)
    }

    /// The view in force: the request's, else `attacker` for a job and
    /// `groups` for a dataset.
    pub fn view(&self) -> ViewDto {
        self.view.unwrap_or(if self.job_id.is_some() {
            ViewDto::Attacker
        } else {
            ViewDto::Groups
        })
    }

    /// Exactly one of `dataset_id` and `job_id`.
    pub fn target(&self) -> CoreResult<AuditTarget<'_>> {
        match (&self.dataset_id, &self.job_id) {
            (Some(d), None) => Ok(AuditTarget::Dataset(d)),
            (None, Some(j)) => Ok(AuditTarget::Job(j)),
            _ => Err(CoreError::invalid_parameters(
                "/dataset_id",
                "give exactly one of dataset_id and job_id",
            )),
        }
    }
}

impl Default for GroupsDto {
    fn default() -> Self {
        GroupsDto::QuasiIdentifiers {}
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuditTarget<'a> {
    Dataset(&'a str),
    Job(&'a str),
}

#[cfg(test)]
mod tests {
    use super::*;
    use proxima_core::params::{LDiversityVariant, Neighborhood};

    use crate::api::test_fixtures::schema;

    #[test]
    fn the_api_example_converts() {
        let req = AuditRequestDto::from_json(
            br#"{"dataset_id": "d", "groups": {"by": "quasi_identifiers"}, "checks": [
               {"kind": "k_anonymity", "k": 10},
               {"kind": "l_diversity", "l": 3, "variant": "entropy"},
               {"kind": "alpha_k", "alpha": 0.5, "k": 4},
               {"kind": "epsilon_m", "epsilon": 4500, "m": 5, "neighborhood": "absolute"},
               {"kind": "dissimilarity", "epsilon": 0.1, "delta": 0.8, "k": 10,
                "sensitive_metric": {"kind": "absolute"}},
               {"kind": "delta_l_diversity", "delta": 15, "l": 2},
               {"kind": "t_closeness", "t": 0.2, "ground_distance": "ordered"}]}"#,
        )
        .unwrap();
        assert_eq!(req.target().unwrap(), AuditTarget::Dataset("d"));
        assert_eq!(req.groups, GroupsDto::QuasiIdentifiers {});
        let specs = audit_checks(&req.checks, &schema()).unwrap();
        assert_eq!(specs.len(), 7);
        assert!(
            matches!(&specs[1], AuditCheck::LDiversity { variant, .. } if *variant == LDiversityVariant::Entropy)
        );
        assert!(
            matches!(&specs[3], AuditCheck::EpsilonM(p) if p.m.get() == 5 && p.neighborhood == Neighborhood::Absolute)
        );
        assert!(matches!(
            &specs[4],
            AuditCheck::Dissimilarity {
                metric: Some(_),
                ..
            }
        ));
        assert_eq!(specs[5], AuditCheck::DeltaLDiversity { delta: 15.0, l: 2 });
        assert!(
            matches!(&specs[6], AuditCheck::TCloseness { ground, .. } if *ground == GroundDistance::Ordered)
        );
    }

    #[test]
    fn special_uniques_defaults_and_fields() {
        let checks = checks_from_json(
            br#"[{"kind": "special_uniques"},
                 {"kind": "special_uniques", "max_size": 3.0, "columns": "published",
                  "dis_fraction": 0.5}]"#,
        )
        .unwrap();
        let specs = audit_checks(&checks, &schema()).unwrap();
        assert_eq!(
            specs[0],
            AuditCheck::SpecialUniques {
                max_size: MaxSize::default(),
                columns: KeyScope::QuasiIdentifiers,
                dis_fraction: DisFraction::default(),
            }
        );
        assert_eq!(
            specs[1],
            AuditCheck::SpecialUniques {
                max_size: MaxSize::new(3, "/m").unwrap(),
                columns: KeyScope::Published,
                dis_fraction: DisFraction::new(0.5, "/f").unwrap(),
            }
        );
        assert!(!specs[0].judged_per_victim());
        assert_eq!(specs[1].kind_name(), "special_uniques");
    }

    #[test]
    fn groups_default_and_column() {
        let req = AuditRequestDto::from_json(
            br#"{"job_id": "j", "checks": [{"kind": "k_anonymity", "k": 2}]}"#,
        )
        .unwrap();
        assert_eq!(req.groups, GroupsDto::QuasiIdentifiers {});
        assert_eq!(req.target().unwrap(), AuditTarget::Job("j"));
        let req = AuditRequestDto::from_json(
            br#"{"dataset_id": "d", "groups": {"by": "column", "column": "gid"}, "checks": []}"#,
        )
        .unwrap();
        assert_eq!(
            req.groups,
            GroupsDto::Column {
                column: "gid".into()
            }
        );
        let both =
            AuditRequestDto::from_json(br#"{"dataset_id": "d", "job_id": "j", "checks": []}"#)
                .unwrap();
        assert!(both.target().is_err());
    }

    #[test]
    fn check_errors_point_at_the_check() {
        let checks = checks_from_json(
            br#"[{"kind": "k_anonymity", "k": 2}, {"kind": "alpha_k", "alpha": 1.5, "k": 2}]"#,
        )
        .unwrap();
        let e = audit_checks(&checks, &schema()).unwrap_err();
        assert_eq!(e.errors[0].pointer(), "/checks/1/alpha");
        let e = checks_from_json(br#"[{"kind": "k_anonymity", "k": 2, "l": 3}]"#).unwrap_err();
        assert_eq!(e.errors[0].pointer(), "/checks/0/l");
        let e = checks_from_json(br#"[{"kind": "k_anonimity", "k": 2}]"#).unwrap_err();
        assert_eq!(e.errors[0].pointer(), "/checks/0/kind");
        let checks =
            checks_from_json(br#"[{"kind": "delta_l_diversity", "delta": -1, "l": 2}]"#).unwrap();
        let e = audit_checks(&checks, &schema()).unwrap_err();
        assert_eq!(e.errors[0].pointer(), "/checks/0/delta");
        let checks =
            checks_from_json(br#"[{"kind": "delta_l_diversity", "delta": 1, "l": 0}]"#).unwrap();
        let e = audit_checks(&checks, &schema()).unwrap_err();
        assert_eq!(e.errors[0].pointer(), "/checks/0/l");
        let e = audit_checks(&[], &schema()).unwrap_err();
        assert_eq!(e.errors[0].pointer(), "/checks");
    }

    #[test]
    fn population_checks_are_split_from_the_table_checks() {
        let id = "7d3f5a1e-8c2b-4d6e-9f0a-1b2c3d4e5f60";
        let checks = checks_from_json(
            format!(
                r#"[{{"kind": "k_map", "k": 5, "population_dataset_id": "{id}"}},
                    {{"kind": "k_anonymity", "k": 2}},
                    {{"kind": "delta_presence", "delta_min": 0.1, "delta_max": 0.4,
                      "population_dataset_id": "{id}"}}]"#
            )
            .as_bytes(),
        )
        .unwrap();
        let split = split_checks(&checks, &schema()).unwrap();
        assert_eq!(split.table_index, vec![1]);
        assert_eq!(
            split.population.iter().map(|p| p.index).collect::<Vec<_>>(),
            vec![0, 2]
        );
        assert_eq!(split.population[1].model.kind_name(), "delta_presence");
        // A table check's error keeps the request's index.
        let e = CoreError::invalid_parameters("/checks/0/k", "bad");
        assert_eq!(split.renumber(e).errors[0].pointer(), "/checks/1/k");
        // Without a population table (the offline audit) they are refused
        // at their kind, after their own parameters.
        let e = audit_checks(&checks, &schema()).unwrap_err();
        assert_eq!(e.errors[0].pointer(), "/checks/0/kind");
        let bad = checks_from_json(
            format!(
                r#"[{{"kind": "delta_presence", "delta_min": 0.5, "delta_max": 0.4,
                      "population_dataset_id": "{id}"}}]"#
            )
            .as_bytes(),
        )
        .unwrap();
        let e = audit_checks(&bad, &schema()).unwrap_err();
        assert_eq!(e.errors[0].pointer(), "/checks/0/delta_min");
    }
}

#[cfg(test)]
mod groups_tests {
    use super::*;

    #[test]
    fn stray_fields_on_groups_are_rejected() {
        let e = AuditRequestDto::from_json(
            br#"{"dataset_id": "d", "groups": {"by": "quasi_identifiers", "column": "g"}, "checks": []}"#,
        )
        .unwrap_err();
        assert_eq!(e.errors[0].pointer(), "/groups/column");
        let v = serde_json::to_value(GroupsDto::default()).unwrap();
        assert_eq!(v, serde_json::json!({"by": "quasi_identifiers"}));
    }
}
